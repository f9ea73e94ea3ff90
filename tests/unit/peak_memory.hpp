#pragma once
// The peak resident memory of this test process since the last reset, for tests that bound what a fit
// allocates. reset_peak_resident() writes 5 to /proc/self/clear_refs, which resets the kernel's
// high-water mark (VmHWM), so a test measures its own peak even after an earlier test in the same
// process peaked higher. Under the sanitizers (SPARSESVM_SANITIZED) the allocator keeps freed memory in
// quarantine and adds shadow memory: memory bounds are not measured there (kMeasuresMemory is false),
// and neither where the reset is refused; the rest of each test still runs.
#include <fstream>
#include <string>

namespace sparsesvm::testing {

#if defined(SPARSESVM_SANITIZED) && SPARSESVM_SANITIZED
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

// True when the high-water mark was reset: peak_resident_bytes() then measures from here.
inline bool reset_peak_resident() {
  std::ofstream clear_refs("/proc/self/clear_refs");
  clear_refs << "5";
  clear_refs.flush();
  return !kSanitized && static_cast<bool>(clear_refs);
}

// VmHWM of /proc/self/status in bytes (0 when unreadable).
inline double peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) * 1024.0;  // "VmHWM:   123456 kB"
  }
  return 0.0;
}

}  // namespace sparsesvm::testing
