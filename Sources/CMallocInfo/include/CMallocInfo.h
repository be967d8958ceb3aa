#ifndef CMALLOCINFO_H
#define CMALLOCINFO_H

#include <stddef.h>
// <stdlib.h> pulls in the C library's feature header, which defines __GLIBC__: without it the
// test below was false on glibc too, and the figure read 0 on both sides.
#include <stdlib.h>

/// Bytes currently handed out by malloc, for the benchmarks' memory-per-subscription figure:
/// glibc's mallinfo2().uordblks (Swift's Glibc module does not export <malloc.h>), or on glibc
/// under a sanitizer the sanitizer's own count; the default zone's size_in_use on Darwin (where
/// the sanitizers serve that zone themselves); 0 where neither exists (musl).
#if defined(__GLIBC__)
#include <malloc.h>
/// Under a sanitizer (the suite runs under ThreadSanitizer in CI) malloc is the sanitizer's own,
/// which mallinfo2 never sees; its runtime defines this counter instead. A weak reference (ELF):
/// null in a build without a sanitizer.
extern size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));
static inline size_t cmallocinfo_allocated_bytes(void) {
    if (__sanitizer_get_current_allocated_bytes) return __sanitizer_get_current_allocated_bytes();
    return mallinfo2().uordblks;
}
#elif defined(__APPLE__)
#include <malloc/malloc.h>
static inline size_t cmallocinfo_allocated_bytes(void) {
    malloc_statistics_t statistics;
    malloc_zone_statistics(NULL, &statistics);
    return statistics.size_in_use;
}
#else
static inline size_t cmallocinfo_allocated_bytes(void) {
    return 0;
}
#endif

/// Starts counting every allocation of the process (on all threads) through the sanitizers'
/// allocation hooks; 1 when counting, 0 in a build without a sanitizer (or off glibc), where
/// nothing is counted. Build with `--sanitize=address` to count, or preload a library that provides
/// the hook (`scripts/count-allocations.sh`).
int cmallocinfo_count_allocations(void);

/// Leaves the calling thread's allocations out of the count from now on (an in-process server's
/// threads, so that the count is the client's alone).
void cmallocinfo_stop_counting_this_thread(void);

/// Allocations counted since `cmallocinfo_count_allocations` first returned 1.
size_t cmallocinfo_allocation_count(void);

#endif
