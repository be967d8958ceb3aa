#!/usr/bin/env bash
# Counts allocations per request (the `f.allocations-per-request` rows) in a plain release build,
# without a sanitizer build: a small preloaded library forwards malloc and its kin to glibc's own
# (`__libc_malloc` ...) and provides the one sanitizer hook `CMallocInfo` looks up
# (`__sanitizer_install_malloc_and_free_hooks`), so the benchmark counts every allocation of the
# process. glibc only (Linux). Extra arguments go to the benchmarks (default: the f rows).
#
#     bash scripts/count-allocations.sh
#     bash scripts/count-allocations.sh --filter f.allocations-per-request.client
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/count.c" <<'C'
#include <errno.h>
#include <stddef.h>
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);
typedef void (*malloc_hook)(const volatile void *, size_t);
typedef void (*free_hook)(const volatile void *);
static malloc_hook hook;
int __sanitizer_install_malloc_and_free_hooks(malloc_hook on_malloc, free_hook on_free) {
    (void)on_free;
    hook = on_malloc;
    return 1;
}
static void *noted(void *pointer, size_t size) {
    malloc_hook current = hook;
    if (current && pointer) current(pointer, size);
    return pointer;
}
void *malloc(size_t size) { return noted(__libc_malloc(size), size); }
void *calloc(size_t count, size_t size) { return noted(__libc_calloc(count, size), count * size); }
void *realloc(void *pointer, size_t size) { return noted(__libc_realloc(pointer, size), size); }
void *memalign(size_t alignment, size_t size) { return noted(__libc_memalign(alignment, size), size); }
void *aligned_alloc(size_t alignment, size_t size) { return noted(__libc_memalign(alignment, size), size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *out = noted(pointer, size);
    return 0;
}
void free(void *pointer) { __libc_free(pointer); }
C
cc -O2 -shared -fPIC -o "$work/libcount.so" "$work/count.c"
swift build -c release --product benchmarks
binary="$(swift build -c release --show-bin-path)/benchmarks"
if [ "$#" -eq 0 ]; then set -- --filter f.allocations-per-request; fi
LD_PRELOAD="$work/libcount.so" "$binary" "$@"
