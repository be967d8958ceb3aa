"""Times libjpeg-turbo (through Pillow) on the files benchmark family k. decodes, for BENCHMARKS.md.

    python3 scripts/bench-pillow-jpeg.py [--json] [--only LABEL] [--cpu-time]

--json prints one `{"name": ..., "unit": ..., "value": ...}` object per line (what the Swift
harness reads for its `k.*.vs-libjpeg-turbo` rows); --only times the one figure named LABEL;
--cpu-time times this thread's CPU time instead of wall time, as the harness's option does.
Same files, same sizes: full decodes of the two larger photos (MP/s) and the 240x180 thumbnail
full, at maxPixelSize 80 (draft to 1/2, then a box reduce to 80x60) and at 30 (draft to 1/8).
Median of 7 runs, each a loop of decodes, like the Swift harness.
"""
import io
import json
import os
import statistics
import sys
import time

from PIL import Image

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "Tests", "ImageDecodingTests", "Fixtures")


def load(name):
    with open(os.path.join(FIXTURES, name + ".jpg"), "rb") as handle:
        return handle.read()


def decode(data, max_pixel_size=None):
    image = Image.open(io.BytesIO(data))
    if max_pixel_size:
        width, height = image.size
        scale = 1
        for candidate in (8, 4, 2):
            if (max(width, height) + candidate - 1) // candidate >= max_pixel_size:
                scale = candidate
                break
        if scale > 1:
            image.draft(image.mode, (width // scale, height // scale))
        image.load()
        if max(image.size) > max_pixel_size:
            longer = max(width, height)
            size = (max(1, (width * max_pixel_size + longer // 2) // longer),
                    max(1, (height * max_pixel_size + longer // 2) // longer))
            image = image.resize(size, Image.Resampling.BOX)
    else:
        image.load()
    return image


CLOCK = time.thread_time_ns if "--cpu-time" in sys.argv else time.perf_counter_ns


def timed(data, count, max_pixel_size=None):
    samples = []
    decode(data, max_pixel_size)
    for _ in range(7):
        start = CLOCK()
        for _ in range(count):
            decode(data, max_pixel_size)
        samples.append((CLOCK() - start) / count)
    return statistics.median(samples)


def report(label, unit, value):
    if "--json" in sys.argv:
        print(json.dumps({"name": label, "unit": unit, "value": value}))
    else:
        print(f"{label:32} {value:8.1f} {unit}")
    sys.stdout.flush()


def selected(label):
    if "--only" not in sys.argv:
        return True
    index = sys.argv.index("--only")
    return index + 1 < len(sys.argv) and sys.argv[index + 1] == label


for name, label in [("large-photo-640x427-baseline", "k.baseline-640x427"),
                    ("large-photo-512x384-progressive", "k.progressive-512x384")]:
    if not selected(label):
        continue
    data = load(name)
    width, height = Image.open(io.BytesIO(data)).size
    nanoseconds = timed(data, 20)
    report(label, "MP/s", width * height / 1e6 / (nanoseconds / 1e9))
thumbnail = load("pillow-thumbnail-240x180-420")
for label, size in [("k.thumbnail-240x180", None), ("k.thumbnail-240x180-max80", 80), ("k.thumbnail-240x180-max30", 30)]:
    if selected(label):
        report(label, "us", timed(thumbnail, 500, size) / 1000)
