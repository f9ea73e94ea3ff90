#pragma once
// Small files written for a test: each test names its content inline, so the input and the expected
// error sit side by side.
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace sparsesvm::testing {

// A folder of this test process's own: ctest runs test cases as parallel processes, and two of them
// writing one file name ("rejected.yaml") into a shared folder raced.
inline std::filesystem::path scratch_directory() {
  const auto directory = std::filesystem::temp_directory_path() / ("sparsesvm_tests_" + std::to_string(getpid()));
  std::filesystem::create_directories(directory);
  return directory;
}

inline std::string write_file(const std::string& name, const std::string& content) {
  const auto directory = scratch_directory();
  const auto path = directory / name;
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

inline std::string repo_file(const std::string& relative) {
  return (std::filesystem::path(SPARSESVM_TEST_DATA_DIR) / ".." / ".." / relative).lexically_normal().string();
}

}  // namespace sparsesvm::testing
