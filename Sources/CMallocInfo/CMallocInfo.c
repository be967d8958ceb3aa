#include "CMallocInfo.h"

#if defined(__GLIBC__)
#include <stdatomic.h>

// The sanitizers' allocator interface (sanitizer/allocator_interface.h), referenced weakly: null
// in a build without a sanitizer, where allocations are not counted.
extern int __sanitizer_install_malloc_and_free_hooks(
    void (*malloc_hook)(const volatile void *, size_t), void (*free_hook)(const volatile void *)) __attribute__((weak));

static _Atomic size_t allocations;
static _Thread_local int uncounted_thread;

static void count_allocation(const volatile void *pointer, size_t size) {
    (void)pointer;
    (void)size;
    if (uncounted_thread) return;
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

void cmallocinfo_stop_counting_this_thread(void) {
    uncounted_thread = 1;
}

// The runtime refuses a null free hook.
static void ignore_free(const volatile void *pointer) {
    (void)pointer;
}

int cmallocinfo_count_allocations(void) {
    static _Atomic int installed;
    if (atomic_load(&installed)) return 1;
    if (!__sanitizer_install_malloc_and_free_hooks) return 0;
    if (!__sanitizer_install_malloc_and_free_hooks(count_allocation, ignore_free)) return 0;
    atomic_store(&installed, 1);
    return 1;
}

size_t cmallocinfo_allocation_count(void) {
    return atomic_load_explicit(&allocations, memory_order_relaxed);
}
#else
int cmallocinfo_count_allocations(void) {
    return 0;
}

void cmallocinfo_stop_counting_this_thread(void) {
}

size_t cmallocinfo_allocation_count(void) {
    return 0;
}
#endif
