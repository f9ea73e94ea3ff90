#include "resources.hpp"

namespace sparsesvm::app {

std::filesystem::path resource_directory() {
  std::error_code error;
  const std::filesystem::path binary = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::filesystem::path installed = binary.parent_path().parent_path() / "share" / "sparsesvm";
    if (std::filesystem::exists(installed / "scripts" / "plot.py", error)) return installed;
  }
  return SPARSESVM_SOURCE_DIR;
}

}  // namespace sparsesvm::app
