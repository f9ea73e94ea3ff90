#include "optim/coin_problem.hpp"

#include <cmath>
#include <stdexcept>

namespace sparsesvm::optim {

std::vector<double> coin_bounds(const core::Vector& bounds) {
  std::vector<double> out(static_cast<std::size_t>(bounds.size()));
  for (Eigen::Index i = 0; i < bounds.size(); ++i) {
    const double v = bounds[i];
    out[static_cast<std::size_t>(i)] = std::isinf(v) ? (v > 0 ? COIN_DBL_MAX : -COIN_DBL_MAX) : v;
  }
  return out;
}

CoinArrays coin_arrays(const LpProblem& problem) {
  const auto& a = problem.matrix;
  if (!a.isCompressed()) throw std::logic_error("coin_arrays: the constraint matrix must be compressed");
  // CoinPackedMatrix copies the column-ordered arrays.
  return {CoinPackedMatrix(true, static_cast<int>(a.rows()), static_cast<int>(a.cols()),
                           static_cast<CoinBigIndex>(a.nonZeros()), a.valuePtr(), a.innerIndexPtr(), a.outerIndexPtr(),
                           nullptr),
          coin_bounds(problem.column_lower), coin_bounds(problem.column_upper), coin_bounds(problem.row_lower),
          coin_bounds(problem.row_upper)};
}

}  // namespace sparsesvm::optim
