#include "optim/clp_lp.hpp"

#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>
#include <cmath>
#include <fmt/format.h>
#include <vector>

namespace sparsesvm::optim {
namespace {

constexpr double kLargestCost = 1e20;  // below Clp's 1e25 assertion, with room for its scaling

// Clp marks infinite bounds with COIN_DBL_MAX.
std::vector<double> clp_bounds(const core::Vector& bounds) {
  std::vector<double> out(static_cast<std::size_t>(bounds.size()));
  for (Eigen::Index i = 0; i < bounds.size(); ++i) {
    const double v = bounds[i];
    out[static_cast<std::size_t>(i)] = std::isinf(v) ? (v > 0 ? COIN_DBL_MAX : -COIN_DBL_MAX) : v;
  }
  return out;
}

// Clp's (status, secondary status) as our status, with a message for anything not clean.
std::pair<core::Status, std::string> classify(int status, int secondary) {
  switch (status) {
    case 0:
      if (secondary == 0) return {core::Status::optimal, ""};
      return {core::Status::solved_inaccurate,
              fmt::format("clp: optimal for the scaled problem only (secondary status {})", secondary)};
    case 1: return {core::Status::infeasible, "clp: primal infeasible"};
    case 2: return {core::Status::unbounded, "clp: dual infeasible (unbounded)"};
    case 3:
      if (secondary == 9) return {core::Status::time_limit, "clp: stopped on the time limit"};
      return {core::Status::iteration_limit, "clp: stopped on the iteration limit"};
    default: return {core::Status::numerical_error, fmt::format("clp: status {} (secondary {})", status, secondary)};
  }
}

}  // namespace

ClpLp::ClpLp(const LpProblem& problem, LpOptions options) : model_(std::make_unique<ClpSimplex>()), options_(options) {
  const auto& a = problem.matrix;
  if (!a.isCompressed()) throw std::logic_error("ClpLp: the constraint matrix must be compressed");
  // CoinPackedMatrix copies the column-ordered arrays.
  const CoinPackedMatrix matrix(true, static_cast<int>(a.rows()), static_cast<int>(a.cols()),
                                static_cast<CoinBigIndex>(a.nonZeros()), a.valuePtr(), a.innerIndexPtr(),
                                a.outerIndexPtr(), nullptr);
  const std::vector<double> column_lower = clp_bounds(problem.column_lower);
  const std::vector<double> column_upper = clp_bounds(problem.column_upper);
  const std::vector<double> row_lower = clp_bounds(problem.row_lower);
  const std::vector<double> row_upper = clp_bounds(problem.row_upper);
  model_->loadProblem(matrix, column_lower.data(), column_upper.data(), problem.cost.data(), row_lower.data(),
                      row_upper.data());
  model_->setLogLevel(0);
  model_->setMaximumIterations(options_.max_iterations);
  if (options_.max_seconds > 0) model_->setMaximumSeconds(options_.max_seconds);
}

ClpLp::~ClpLp() = default;

std::size_t ClpLp::columns() const { return static_cast<std::size_t>(model_->numberColumns()); }
std::size_t ClpLp::rows() const { return static_cast<std::size_t>(model_->numberRows()); }

void ClpLp::set_cost(const core::Vector& cost) {
  // Clp aborts the process on a cost of 1e25 or more (an assertion); refuse it here and let solve()
  // report numerical_error instead.
  out_of_range_.clear();
  for (Eigen::Index j = 0; j < cost.size(); ++j) {
    if (!std::isfinite(cost[j]) || std::abs(cost[j]) >= kLargestCost) {
      out_of_range_ = fmt::format("LP cost {} of column {} is out of the range Clp accepts (|c| < {:g}); a "
                                  "hyperparameter is too large or too small for this problem",
                                  cost[j], j, kLargestCost);
      return;
    }
  }
  model_->chgObjCoefficients(cost.data());
  if (pending_ == Pending::nothing) pending_ = Pending::cost_changed;
  if (pending_ == Pending::rows_changed) pending_ = Pending::cold;  // both changed: neither simplex keeps feasibility
}

void ClpLp::set_row_lower(const core::Vector& row_lower) {
  const std::vector<double> bounds = clp_bounds(row_lower);
  model_->chgRowLower(bounds.data());
  if (pending_ == Pending::nothing) pending_ = Pending::rows_changed;
  if (pending_ == Pending::cost_changed) pending_ = Pending::cold;
}

void ClpLp::forget_basis() { pending_ = Pending::cold; }

LpSolution ClpLp::read_solution(bool warm, long iterations) const {
  LpSolution solution;
  std::tie(solution.status, solution.message) = classify(model_->status(), model_->secondaryStatus());
  solution.iterations = iterations;
  solution.warm = warm;
  solution.objective = model_->objectiveValue();
  const double* x = model_->primalColumnSolution();
  solution.primal = Eigen::Map<const core::Vector>(x, model_->numberColumns());
  return solution;
}

long ClpLp::clean_up_scaling() {
  // Clp solves a scaled copy; when that copy is optimal but the unscaled problem violates a tolerance
  // (secondary status 2-4), Clp's cleanup re-solves unscaled from the current basis. Returns the
  // simplex iterations of the solve and of the cleanup.
  const long iterations = model_->numberIterations();
  const int secondary = model_->secondaryStatus();
  if (model_->status() != 0 || secondary < 2 || secondary > 4) return iterations;
  model_->cleanup(3);
  return iterations + model_->numberIterations();
}

LpSolution ClpLp::solve_cold() {
  model_->allSlackBasis(true);
  model_->dual();  // dual simplex from the slack basis, no presolve (presolve gave spurious secondary statuses)
  const long iterations = clean_up_scaling();
  pending_ = Pending::nothing;
  return read_solution(false, iterations);
}

LpSolution ClpLp::solve() {
  if (!out_of_range_.empty()) {
    LpSolution refused;
    refused.status = core::Status::numerical_error;
    refused.message = out_of_range_;
    return refused;
  }
  if (pending_ == Pending::cold) return solve_cold();
  if (pending_ == Pending::cost_changed) {
    model_->primal();
  } else {
    model_->dual();
  }
  const long iterations = clean_up_scaling();
  pending_ = Pending::nothing;
  LpSolution warm = read_solution(true, iterations);
  if (warm.status == core::Status::optimal) return warm;
  LpSolution cold = solve_cold();
  cold.iterations += warm.iterations;
  cold.fell_back_to_cold = true;
  cold.message = fmt::format("warm start ended '{}'{}; re-solved cold{}", core::to_string(warm.status),
                             warm.message.empty() ? "" : " (" + warm.message + ")",
                             cold.message.empty() ? "" : ": " + cold.message);
  return cold;
}

}  // namespace sparsesvm::optim
