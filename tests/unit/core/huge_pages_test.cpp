#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "core/huge_pages.hpp"

using namespace sparsesvm;

namespace {

// The VmFlags line of the mapping in /proc/self/smaps that holds `address` ("" when none is found).
std::string vm_flags_at(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  const auto target = reinterpret_cast<std::uintptr_t>(address);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
    char dash = 0;
    std::istringstream header(line);
    if (header >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= target && target < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

}  // namespace

TEST_CASE("advise_huge_pages marks a large array's pages for huge pages, and leaves small ones alone", "[memory]") {
  if (!std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled") ||
      !std::filesystem::exists("/proc/self/smaps")) {
    WARN("no transparent huge pages or /proc/self/smaps here: nothing to check");
    return;
  }
  std::vector<double> large;
  large.reserve(core::kHugePageAdviceBytes / sizeof(double) * 2);  // allocated, not yet written
  const double* middle = large.data() + large.capacity() / 2;
  const std::string before = vm_flags_at(middle);
  if (before.empty() || before.find(" hg") != std::string::npos) {
    // No VmFlags, or every mapping already advised (GLIBC_TUNABLES=glibc.malloc.hugetlb=1).
    WARN("the array's flags before advice are '" << before << "': nothing to check");
    return;
  }
  core::advise_huge_pages(large.data(), large.capacity() * sizeof(double));
  const std::string flags = vm_flags_at(middle);
  INFO(flags);
  CHECK(flags.find(" hg") != std::string::npos);
  // The page holding the array's first byte, when the array starts inside it, is shared with the
  // allocator's header: it stays as it was.
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  if (reinterpret_cast<std::uintptr_t>(large.data()) % page != 0) {
    CHECK(vm_flags_at(large.data()).find(" hg") == std::string::npos);
  }

  std::vector<double> small;
  small.reserve(core::kHugePageAdviceBytes / sizeof(double) / 4);
  core::advise_huge_pages(small.data(), small.capacity() * sizeof(double));
  CHECK(vm_flags_at(small.data()).find(" hg") == std::string::npos);
  core::advise_huge_pages(nullptr, core::kHugePageAdviceBytes);  // nothing to advise, no error
}
