#include "optim/l2_svm_solver.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "data/summary.hpp"

namespace sparsesvm::optim {

L2SvmSolution L2SvmSolver::run_dual_cd(const L2SvmProblem& problem, const core::Vector& warm_alpha,
                                       const L2SvmOptions& options, long max_epochs) {
  if (!dual_cd_) dual_cd_.emplace(data_);
  DualCdOptions cd_options;
  cd_options.relative_gap = options.relative_gap;
  cd_options.max_epochs = max_epochs;
  cd_options.bias_guess = options.bias_guess;
  return dual_cd_->solve(problem, warm_alpha, cd_options);
}

L2SvmSolution L2SvmSolver::run_interior_point(const L2SvmProblem& problem, const L2SvmOptions& options) const {
  InteriorPointOptions ip_options;
  ip_options.relative_gap = options.relative_gap;
  return interior_point_.solve(problem, ip_options);
}

double L2SvmSolver::largest_offset() {
  if (largest_offset_) return *largest_offset_;
  double largest = 0.0;
  for (const data::FeatureStats& column : data::feature_stats(data_)) {  // O(nnz), dense or sparse
    if (column.stddev > 0) largest = std::max(largest, std::abs(column.mean) / column.stddev);
  }
  largest_offset_ = largest;
  return largest;
}

L2SvmSolution L2SvmSolver::solve(const L2SvmProblem& problem, const core::Vector& warm_alpha, const L2SvmOptions& options) {
  check_problem(problem, data_);
  L2SvmSolution solution = solve_by_choice(problem, warm_alpha, options);
  if (solution.status == core::Status::optimal && largest_offset() > kLargestCertifiedOffset) {
    solution.status = core::Status::solved_inaccurate;
    solution.message = fmt::format("a column's values sit {:.2g} standard deviations from zero: the duality gap is "
                                   "below that column's rounding and certifies nothing (center the features: "
                                   "transform standardize)", largest_offset());
  }
  return solution;
}

L2SvmSolution L2SvmSolver::solve_by_choice(const L2SvmProblem& problem, const core::Vector& warm_alpha,
                                           const L2SvmOptions& options) {
  switch (options.solver) {
    case QpSolver::interior_point:
      return run_interior_point(problem, options);
    case QpSolver::dual_cd:
      return run_dual_cd(problem, warm_alpha, options, options.max_epochs);
    case QpSolver::by_shape:
      break;
  }
  if (!interior_point_.affordable(problem)) return run_dual_cd(problem, warm_alpha, options, options.max_epochs);
  const double nonzeros = data_.stored_values();
  const double budget = interior_point_.estimated_work(problem) / (kFlopsPerEpochNonzero * std::max(nonzeros, 1.0));
  if (budget < kMinimalEpochBudget) {
    // The interior point alone; where it ends without a model (extreme lambda or scale), dual CD still
    // returns its best iterate with its certified gap.
    L2SvmSolution alone = run_interior_point(problem, options);
    if (core::has_solution(alone.status) || alone.status == core::Status::infeasible) return alone;
    return better_of(std::move(alone), run_dual_cd(problem, warm_alpha, options, options.max_epochs));
  }
  L2SvmSolution first = run_dual_cd(problem, warm_alpha, options, static_cast<long>(std::ceil(budget)));
  if (first.status == core::Status::optimal || first.status == core::Status::infeasible) return first;
  return better_of(std::move(first), run_interior_point(problem, options));
}

}  // namespace sparsesvm::optim
