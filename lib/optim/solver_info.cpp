#include "optim/solver_info.hpp"

#include <CbcConfig.h>
#include <ClpConfig.h>
#include <Eigen/Core>
#include <filesystem>
#include <fmt/format.h>
#include <link.h>

namespace sparsesvm::optim {

std::vector<std::pair<std::string, std::string>> solver_versions() {
  return {{"clp", CLP_VERSION},
          {"cbc", CBC_VERSION},
          {"eigen", fmt::format("{}.{}.{}", EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION)},
          {"blas", loaded_blas()}};
}

std::string loaded_blas() {
  std::vector<std::string> files;
  // Every shared object of the process, in load order; a BLAS or LAPACK one has the word in its file name
  // (libblas, libopenblas, liblapack, libblis, ...). The real path tells the alternatives apart.
  dl_iterate_phdr(
      [](dl_phdr_info* object, std::size_t, void* found) {
        const std::filesystem::path path(object->dlpi_name != nullptr ? object->dlpi_name : "");
        const std::string name = path.filename().string();
        if (name.find("blas") == std::string::npos && name.find("lapack") == std::string::npos) return 0;
        std::error_code error;
        const std::filesystem::path real = std::filesystem::canonical(path, error);
        static_cast<std::vector<std::string>*>(found)->push_back(error ? path.string() : real.string());
        return 0;
      },
      &files);
  return files.empty() ? "none loaded" : fmt::format("{}", fmt::join(files, " + "));
}

}  // namespace sparsesvm::optim
