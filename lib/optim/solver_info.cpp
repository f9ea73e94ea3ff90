#include "optim/solver_info.hpp"

#include <CbcConfig.h>
#include <ClpConfig.h>
#include <Eigen/Core>
#include <fmt/format.h>

namespace sparsesvm::optim {

std::vector<std::pair<std::string, std::string>> solver_versions() {
  return {{"clp", CLP_VERSION},
          {"cbc", CBC_VERSION},
          {"eigen", fmt::format("{}.{}.{}", EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION)}};
}

}  // namespace sparsesvm::optim
