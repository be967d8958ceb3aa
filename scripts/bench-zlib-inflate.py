"""Times zlib's inflate (through Python's zlib module) on the file benchmark family o. decodes.

    python3 scripts/bench-zlib-inflate.py [--json] [--only LABEL] [--cpu-time]

--json prints one `{"name": ..., "unit": ..., "value": ...}` object per line (what the Swift
harness reads for its `o.*.vs-zlib` rows); --only times the one figure named LABEL; --cpu-time
times this thread's CPU time instead of wall time, as the harness's option does. Same bytes as
the Swift row: the inflater tests' text compressed by gzip -9, decoded whole with the gzip
header and CRC-32 checked (wbits 31), in MB/s of decoded output. Median of 7 runs, each a loop
of decodes, like the Swift harness.
"""
import json
import os
import statistics
import sys
import time
import zlib

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "Tests", "HTTPWireTests", "Fixtures", "compression")
FIGURES = {"o.gunzip-text-155k": "plain.gzip-9-named.gz"}


def rate(name, cpu_time):
    with open(os.path.join(FIXTURES, FIGURES[name]), "rb") as handle:
        data = handle.read()
    size = len(zlib.decompress(data, 31))
    clock = time.thread_time_ns if cpu_time else time.perf_counter_ns
    decodes = 200
    for _ in range(decodes):
        zlib.decompress(data, 31)
    samples = []
    for _ in range(7):
        start = clock()
        for _ in range(decodes):
            zlib.decompress(data, 31)
        samples.append((clock() - start) / decodes)
    return size / (statistics.median(samples) / 1e9) / 1e6


def main(arguments):
    as_json = "--json" in arguments
    cpu_time = "--cpu-time" in arguments
    names = list(FIGURES)
    if "--only" in arguments:
        names = [arguments[arguments.index("--only") + 1]]
    for name in names:
        if name not in FIGURES:
            sys.exit(f"unknown figure {name}")
        value = rate(name, cpu_time)
        if as_json:
            print(json.dumps({"name": name, "unit": "MB/s", "value": value}))
        else:
            print(f"{name:28} {value:10.1f} MB/s (zlib {zlib.ZLIB_RUNTIME_VERSION})")


if __name__ == "__main__":
    main(sys.argv[1:])
