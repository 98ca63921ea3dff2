#include "CMemory.h"

#include <stdio.h>  // a C library header first: it defines __GLIBC__
#include <stdlib.h>
#include <string.h>

#if defined(__GLIBC__)
#include <malloc.h>

/// The size attribute of the last element of `xml` that starts with `tag`.
static size_t last_size(const char *xml, const char *tag) {
    const char *found = NULL;
    for (const char *at = strstr(xml, tag); at != NULL; at = strstr(at + 1, tag)) found = at;
    if (found == NULL) return 0;
    const char *size = strstr(found, "size=\"");
    return size == NULL ? 0 : (size_t)strtoull(size + 6, NULL, 10);
}
#endif

size_t oak_heap_in_use(void) {
#if defined(__GLIBC__)
    // `mallinfo2` covers the main arena only; `malloc_info` covers every
    // arena, and its last totals are the whole heap's.
    char *xml = NULL;
    size_t length = 0;
    FILE *stream = open_memstream(&xml, &length);
    if (stream == NULL) return 0;
    int failed = malloc_info(0, stream);
    fclose(stream);
    size_t inUse = 0;
    if (!failed && xml != NULL) {
        size_t system = last_size(xml, "<system type=\"current\"");
        size_t mapped = last_size(xml, "<total type=\"mmap\"");
        size_t freeFast = last_size(xml, "<total type=\"fast\"");
        size_t freeRest = last_size(xml, "<total type=\"rest\"");
        size_t unused = freeFast + freeRest;
        inUse = system + mapped > unused ? system + mapped - unused : 0;
    }
    free(xml);
    return inUse;
#else
    return 0;
#endif
}

void oak_return_freed_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
