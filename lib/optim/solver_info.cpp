#include "optim/solver_info.hpp"

#include <CbcConfig.h>
#include <ClpConfig.h>
#include <Eigen/Core>
#include <dlfcn.h>
#include <filesystem>
#include <fmt/format.h>

namespace sparsesvm::optim {

namespace {

// The real path of the object that defines `symbol` for CoinUtils: the global scope first (the program,
// its dependencies, LD_PRELOAD), as the dynamic linker searches it, then CoinUtils' own dependencies (in a
// Python process the module and its libraries are loaded with local scope).
std::string provider(const char* symbol) {
  void* address = dlsym(RTLD_DEFAULT, symbol);
  if (address == nullptr) {
    if (void* coin_utils = dlopen("libCoinUtils.so.3", RTLD_LAZY | RTLD_NOLOAD); coin_utils != nullptr) {
      address = dlsym(coin_utils, symbol);
      dlclose(coin_utils);
    }
  }
  Dl_info where{};
  if (address == nullptr || dladdr(address, &where) == 0 || where.dli_fname == nullptr) return "not loaded";
  std::error_code error;
  const std::filesystem::path real = std::filesystem::canonical(where.dli_fname, error);
  return error ? std::string(where.dli_fname) : real.string();
}

}  // namespace

std::vector<std::pair<std::string, std::string>> solver_versions() {
  return {{"clp", CLP_VERSION},
          {"cbc", CBC_VERSION},
          {"eigen", fmt::format("{}.{}.{}", EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION)},
          {"lapack_blas", loaded_lapack_blas()}};
}

std::string loaded_lapack_blas() {
  return fmt::format("dgetrf_ {}, dgemm_ {}", provider("dgetrf_"), provider("dgemm_"));
}

}  // namespace sparsesvm::optim
