#include "models/fit_report.hpp"

#include <fmt/format.h>

namespace sparsesvm::models {

std::string FitReport::brief() const {
  return fmt::format("{} F={:.6g} iter={} (LP/QP {} in {} solves) nnz={} {:.3f}s{}", core::to_string(status),
                     objective, iterations, inner_iterations, inner_solves, model.count_nonzeros(), seconds,
                     message.empty() ? "" : " [" + message + "]");
}

}  // namespace sparsesvm::models
