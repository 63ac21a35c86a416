#ifndef TOUCHDECK_ALLOC_COUNT_H
#define TOUCHDECK_ALLOC_COUNT_H
#include <stdint.h>

/// Heap allocations the process made so far (malloc, calloc, realloc, posix_memalign, aligned_alloc,
/// memalign), counted by wrappers that this library defines and the dynamic linker puts in front of glibc's.
/// Linked into touchdeck-bench only; every thread counts.
uint64_t touchdeck_alloc_calls(void);
/// Bytes those allocations asked for.
uint64_t touchdeck_alloc_bytes(void);

#endif
