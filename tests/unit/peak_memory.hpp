#pragma once
// The peak resident memory of this test process, for tests that bound what a fit allocates. ctest runs
// every test case in its own process (catch_discover_tests), so the peak starts near zero. Under the
// sanitizers (SPARSESVM_SANITIZED) the allocator keeps freed memory in quarantine and adds shadow memory:
// memory bounds are not measured there (kMeasuresMemory is false), the rest of each test still runs.
#include <sys/resource.h>

namespace sparsesvm::testing {

#if defined(SPARSESVM_SANITIZED) && SPARSESVM_SANITIZED
constexpr bool kMeasuresMemory = false;
#else
constexpr bool kMeasuresMemory = true;
#endif

// Bytes (getrusage's ru_maxrss is in kB on Linux).
inline double peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) * 1024.0;
}

}  // namespace sparsesvm::testing
