#pragma once
// Small files written for a test: each test names its content inline, so the input and the expected
// error sit side by side.
#include <filesystem>
#include <fstream>
#include <string>

namespace sparsesvm::testing {

inline std::string write_file(const std::string& name, const std::string& content) {
  const auto directory = std::filesystem::temp_directory_path() / "sparsesvm_tests";
  std::filesystem::create_directories(directory);
  const auto path = directory / name;
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

inline std::string repo_file(const std::string& relative) {
  return (std::filesystem::path(SPARSESVM_TEST_DATA_DIR) / ".." / ".." / relative).lexically_normal().string();
}

}  // namespace sparsesvm::testing
