#pragma once
// What the fuzz harnesses share: the readers and the config loader take paths, so each input is written
// to files in a per-process scratch directory first. An InputError is the expected answer to malformed
// input; anything else (another exception, a signal, a sanitizer report, an allocation above libFuzzer's
// -rss_limit_mb or -malloc_limit_mb, a live heap above kLiveHeapLimit) is a finding.
#include <sanitizer/allocator_interface.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

namespace sparsesvm::fuzz {

inline std::filesystem::path scratch_directory() {
  static const std::filesystem::path directory = [] {
    auto path = std::filesystem::temp_directory_path() / ("sparsesvm_fuzz_" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
    return path;
  }();
  return directory;
}

// Writes `content` to scratch/name and returns the path.
inline std::string write_input(const std::string& name, std::string_view content) {
  const std::filesystem::path path = scratch_directory() / name;
  std::ofstream(path, std::ios::binary).write(content.data(), static_cast<std::streamsize>(content.size()));
  return path.string();
}

// libFuzzer's RSS limit reports an out-of-memory only after a heap profile that takes ASan many minutes
// (with nothing saved until it ends): a live heap above this aborts at once instead, with the input saved
// and the stack of the allocation that crossed it. No valid input needs a tenth of it.
constexpr std::size_t kLiveHeapLimit = std::size_t{768} << 20;

inline void abort_above_heap_limit(const volatile void*, std::size_t) {
  if (__sanitizer_get_current_allocated_bytes() > kLiveHeapLimit) std::abort();
}

// Installs the heap limit once per process (call from LLVMFuzzerTestOneInput).
inline void limit_live_heap() {
  static const bool installed = __sanitizer_install_malloc_and_free_hooks(abort_above_heap_limit, nullptr) != 0;
  (void)installed;
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace sparsesvm::fuzz
