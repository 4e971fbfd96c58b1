// The heap of a process that streams games through gRPC: messages of a few
// hundred KiB are allocated and freed thousands of times a second, and with
// glibc's defaults each one's pages are returned to the kernel and faulted
// in again (mmap above the threshold, trimming below it), which cost the
// coordinator a third of its CPU (docs/cluster.md, "The bulk path"). Freed
// memory is kept for reuse instead: the heap stays at its peak, which the
// in-flight bounds keep to tens of MiB.
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace arbiter::common {

inline void KeepFreedHeap() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);   // the largest glibc takes
  mallopt(M_TRIM_THRESHOLD, 256 << 20);  // trim only far above that
#endif
}

}  // namespace arbiter::common
