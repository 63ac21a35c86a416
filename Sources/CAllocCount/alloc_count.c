// Counts heap allocations for touchdeck-bench's per-frame allocation numbers. An executable that defines
// malloc & co. comes first in the dynamic linker's search, so libcrypto, lws and the Swift runtime call these;
// each counts, then forwards to glibc's own allocator (__libc_*), so free() needs no wrapper.
#include "alloc_count.h"
#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static uint64_t calls;
static uint64_t bytes;

static void count(size_t size) {
    __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&bytes, size, __ATOMIC_RELAXED);
}

uint64_t touchdeck_alloc_calls(void) { return __atomic_load_n(&calls, __ATOMIC_RELAXED); }
uint64_t touchdeck_alloc_bytes(void) { return __atomic_load_n(&bytes, __ATOMIC_RELAXED); }

void *malloc(size_t size) {
    count(size);
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count(count_ * size);
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    count(size);
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count(size);
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *out = pointer;
    return 0;
}
