#ifndef CMALLOCINFO_H
#define CMALLOCINFO_H

#include <malloc.h>
#include <stddef.h>

/// Bytes currently handed out by glibc's malloc (mallinfo2().uordblks), for the benchmarks'
/// memory-per-subscription figure. Swift's Glibc module does not export <malloc.h>.
static inline size_t cmallocinfo_allocated_bytes(void) {
    return mallinfo2().uordblks;
}

#endif
