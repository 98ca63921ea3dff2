// What the C library's allocator can say and do about the process's heap;
// glibc only (elsewhere the functions report 0 and do nothing).

#ifndef OAK_COMICS_CMEMORY_H
#define OAK_COMICS_CMEMORY_H

#include <stddef.h>

/// Bytes the program holds from malloc now, over every arena (glibc
/// `malloc_info`: the arenas' size plus mapped blocks, less free chunks);
/// 0 where unknown.
size_t oak_heap_in_use(void);

/// Returns freed heap memory to the system (glibc `malloc_trim(0)`).
void oak_return_freed_memory(void);

#endif
