#!/usr/bin/env python3
"""Groups a `perf record` profile's self time into kinds of work, for "where each microsecond goes".

Usage: perf record -e cpu-clock -g -o run.data -- <benchmark>
       scripts/perf-groups.py run.data [CPU-µs-per-request]
Prints each group's share of the samples (and µs a request when the run's CPU per request is
given), with its top symbols. Groups are matched in order on the DSO and the mangled symbol.
"""
import collections
import re
import subprocess
import sys

GROUPS = [
    ("kernel: wake-ups, scheduling, epoll", lambda d, s: d.startswith("[kernel") and re.search(
        r"finish_task_switch|_raw_spin_unlock_irq|schedule|try_to_wake_up|futex|ttwu|enqueue_task|dequeue_task"
        r"|pick_next|__switch_to|update_curr|select_task_rq|ep_poll|epoll|eventfd|irqentry_exit|exit_to_user", s)),
    ("kernel: TCP, system calls", lambda d, s: d.startswith("[kernel")),
    ("TLS (libssl, libcrypto)", lambda d, s: "libssl" in d or "libcrypto" in d),
    ("retain/release", lambda d, s: re.search(
        r"RefCounts|swift_(retain|release|bridgeObjectRe|unknownObjectRe|nonatomic_re|isUniquelyReferenced)|_swift_release_dealloc", s)),
    ("malloc/free", lambda d, s: "Foundation" not in d and re.search(
        r"(^|[^a-z])(malloc|free|cfree|calloc|realloc|_int_malloc|_int_free|_int_realloc|malloc_consolidate|tcache|unlink_chunk"
        r"|swift_allocObject|swift_deallocObject|swift_slowAlloc|swift_slowDealloc|swift_deallocClassInstance|aligned_alloc"
        r"|posix_memalign|_mid_memalign|sysmalloc)", s)),
    ("clock reads", lambda d, s: "vdso" in d or "clock_gettime" in s),
    ("Swift runtime (metadata, exclusivity)", lambda d, s: re.search(
        r"getCache|GenericCacheEntry|instantiateConcreteType|__tls_get_addr|Vwet$|Vwxx$|Vwcp$|Vwca$|Vwta$|Vwtk$"
        r"|swift_(getGenericMetadata|beginAccess|endAccess|conformsToProtocol|dynamicCast|getWitnessTable|checkMetadataState"
        r"|getTypeByMangled|getAssociated|getEnum|storeEnum|arrayInit|arrayDestroy|allocBox|projectBox)", s)),
    ("hand-offs in user space (locks, tasks, queues)", lambda d, s: "dispatch" in d or "Concurrency" in d or re.search(
        r"pthread_mutex|pthread_cond|__lll_lock|__lll_unlock|futex|sem_|Lock|Mutex|Atomic|swift_task|swift_job"
        r"|swift_continuation|Continuation|AnswerDelivery|EventLoop|epoll|eventfd", s)),
    ("HTTP/1 encoding and parsing", lambda d, s: re.search(
        r"Pars|parse|HTTPWire|BodyDecoder|Framing|StatusLine|ResponseHead|RequestEncoding", s)),
    ("header fields and strings", lambda d, s: re.search(
        r"Hasher|Dictionary|_HashTable|Header|Field|Zip2Sequence|capitalized|CFString|NSString|lowercased|String|UTF8|Unicode|Character", s)),
    ("copies (memmove, memset)", lambda d, s: re.search(r"memmove|memcpy|memset|memchr|memcmp|strlen", s)),
    ("Foundation (URL, Data, Date)", lambda d, s: "Foundation" in d),
    ("Reactive", lambda d, s: s.startswith("$s8Reactive")),
    ("the provider (Networking)", lambda d, s: s.startswith("$s10Networking")),
    ("client and loop (HTTPClient, EventLoopIO, SystemTLS)", lambda d, s: re.match(r"\$s(10HTTPClient|11EventLoopIO|9SystemTLS|7Locking)", s)),
    ("other", lambda d, s: True),
]

def main():
    data = sys.argv[1]
    cpu = float(sys.argv[2]) if len(sys.argv) > 2 else None
    report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso,sym", "--stdio", "-g", "none",
                             "--percent-limit", "0"], capture_output=True, text=True, check=True).stdout
    shares, tops = collections.Counter(), collections.defaultdict(list)
    for line in report.splitlines():
        m = re.match(r"\s+([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*)$", line)
        if not m:
            continue
        share, dso, sym = float(m.group(1)), m.group(2), m.group(3).strip()
        name = next(g for g, test in GROUPS if test(dso, sym))
        shares[name] += share
        if len(tops[name]) < 4:
            tops[name].append(f"{sym[:60]} {share:.1f}%")
    for name, share in shares.most_common():
        us = f" {share * cpu / 100:6.1f} µs" if cpu else ""
        print(f"{share:5.1f}%{us}  {name}: " + "; ".join(tops[name]))

if __name__ == "__main__":
    main()
