// Every algorithm, one row each. A new algorithm is one file in this folder and one row here.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/find_by_id.hpp"
#include "models/algorithms/algorithm.hpp"

namespace sparsesvm::models {

// The registry rows, one per file of this folder.
std::unique_ptr<const Algorithm> make_direct_algorithm();
std::unique_ptr<const Algorithm> make_dca_algorithm();
std::unique_ptr<const Algorithm> make_sla_algorithm();
std::unique_ptr<const Algorithm> make_rw_algorithm();
std::unique_ptr<const Algorithm> make_admm_algorithm();
std::unique_ptr<const Algorithm> make_psi_mip_algorithm();
std::unique_ptr<const Algorithm> make_global_mip_algorithm();

const std::vector<std::unique_ptr<const Algorithm>>& algorithm_registry() {
  static const std::vector<std::unique_ptr<const Algorithm>> registry = [] {
    std::vector<std::unique_ptr<const Algorithm>> rows;
    rows.push_back(make_direct_algorithm());
    rows.push_back(make_dca_algorithm());
    rows.push_back(make_sla_algorithm());
    rows.push_back(make_rw_algorithm());
    rows.push_back(make_admm_algorithm());
    rows.push_back(make_psi_mip_algorithm());
    rows.push_back(make_global_mip_algorithm());
    return rows;
  }();
  return registry;
}

const Algorithm& find_algorithm(const std::string& id) {
  return *core::find_by_id(algorithm_registry(), id, "algorithm",
                           [](const std::unique_ptr<const Algorithm>& algorithm) { return algorithm->id(); });
}

}  // namespace sparsesvm::models
