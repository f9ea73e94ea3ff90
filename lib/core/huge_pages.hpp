#pragma once
// Transparent huge pages for the largest arrays, those filled once and read for the whole fit: the
// LIBSVM reader's entries, a dense data matrix, dual CD's row copy of it. Each 4 KiB page of a fresh
// allocation costs a page fault when first written; a 2 MiB page costs one fault for 512 of them, and
// fewer TLB misses after. On a 6000 x 5000 dense LIBSVM file (748 MB) the l2 SVM took 358k page faults
// and a quarter of its time in them (docs/benchmarks.md). Debian's kernels grant huge pages only to
// memory that asks (`/sys/kernel/mm/transparent_hugepage/enabled` = madvise).
#include <cstddef>

namespace sparsesvm::core {

// Asks the kernel to back [data, data + bytes) with huge pages (Linux's madvise MADV_HUGEPAGE on the
// whole pages inside it, never a page the array shares), to be called after allocating and before
// writing: pages written before have already been faulted in small (the kernel's khugepaged may merge
// them later). Only for arrays of at least kHugePageAdviceBytes, which glibc usually maps on their own;
// one served from the heap instead leaves the advice on its pages after it is freed, for whatever the
// heap puts there next. Smaller arrays, other systems and a kernel without huge pages: nothing happens.
// Advice only: what is stored and computed is the same either way.
void advise_huge_pages(const void* data, std::size_t bytes);

inline constexpr std::size_t kHugePageAdviceBytes = std::size_t{32} << 20;

}  // namespace sparsesvm::core
