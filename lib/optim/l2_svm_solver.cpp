#include "optim/l2_svm_solver.hpp"

#include <algorithm>
#include <cmath>

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

L2SvmSolution L2SvmSolver::solve(const L2SvmProblem& problem, const core::Vector& warm_alpha, const L2SvmOptions& options) {
  check_problem(problem, data_);
  switch (options.solver) {
    case QpSolver::interior_point:
      return run_interior_point(problem, options);
    case QpSolver::dual_cd:
      return run_dual_cd(problem, warm_alpha, options, options.max_epochs);
    case QpSolver::by_shape:
      break;
  }
  if (!interior_point_.affordable(problem)) return run_dual_cd(problem, warm_alpha, options, options.max_epochs);
  const double nonzeros = data_.is_sparse() ? static_cast<double>(data_.sparse().nonZeros())
                                            : static_cast<double>(data_.n()) * static_cast<double>(data_.d());
  const double budget = interior_point_.estimated_work(problem) / (kFlopsPerEpochNonzero * std::max(nonzeros, 1.0));
  if (budget < kMinimalEpochBudget) return run_interior_point(problem, options);
  L2SvmSolution first = run_dual_cd(problem, warm_alpha, options, static_cast<long>(std::ceil(budget)));
  if (first.status == core::Status::optimal || first.status == core::Status::infeasible) return first;
  return better_of(std::move(first), run_interior_point(problem, options));
}

}  // namespace sparsesvm::optim
