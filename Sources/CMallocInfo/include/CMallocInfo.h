#ifndef CMALLOCINFO_H
#define CMALLOCINFO_H

#include <stddef.h>
// <stdlib.h> pulls in the C library's feature header, which defines __GLIBC__: without it the
// test below was false on glibc too, and the figure read 0 on both sides.
#include <stdlib.h>

/// Bytes currently handed out by malloc, for the benchmarks' memory-per-subscription figure:
/// glibc's mallinfo2().uordblks (Swift's Glibc module does not export <malloc.h>), the default
/// zone's size_in_use on Darwin, and 0 where neither exists (musl).
#if defined(__GLIBC__)
#include <malloc.h>
static inline size_t cmallocinfo_allocated_bytes(void) {
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

#endif
