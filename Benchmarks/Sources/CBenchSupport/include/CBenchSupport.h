#ifndef CBENCHSUPPORT_H
#define CBENCHSUPPORT_H

#include <stddef.h>

/// Bytes currently allocated through malloc (in-use chunks plus mmapped
/// chunks), from glibc's mallinfo2(); 0 where it is not available.
size_t cbench_heap_in_use(void);

/// Returns free heap memory to the system (glibc's malloc_trim(0)), so that
/// a later resident-memory delta counts memory that is touched again.
void cbench_heap_trim(void);

#endif
