#pragma once
// What the fuzz harnesses share: the readers and the config loader take paths, so each input is written
// to files in a per-process scratch directory first. An InputError is the expected answer to malformed
// input; anything else (another exception, a signal, a sanitizer report, an allocation above libFuzzer's
// -rss_limit_mb or -malloc_limit_mb) is a finding.
#include <cstddef>
#include <cstdint>
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

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace sparsesvm::fuzz
