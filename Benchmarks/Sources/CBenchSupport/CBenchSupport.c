#include "CBenchSupport.h"

#if defined(__linux__)
#include <malloc.h>
#endif

#if defined(__linux__) && defined(__GLIBC__)
size_t cbench_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

void cbench_heap_trim(void) { malloc_trim(0); }
#else
size_t cbench_heap_in_use(void) { return 0; }
void cbench_heap_trim(void) {}
#endif
