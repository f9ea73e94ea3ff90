#include "optim/clp_lp.hpp"

#include <ClpSimplex.hpp>
#include <CoinMessageHandler.hpp>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "core/progress.hpp"
#include "optim/coin_problem.hpp"

namespace sparsesvm::optim {
static_assert(static_cast<int>(BasisStatus::free) == ClpSimplex::isFree &&
              static_cast<int>(BasisStatus::basic) == ClpSimplex::basic &&
              static_cast<int>(BasisStatus::at_upper) == ClpSimplex::atUpperBound &&
              static_cast<int>(BasisStatus::at_lower) == ClpSimplex::atLowerBound);
namespace {

constexpr double kLargestCost = 1e20;  // below Clp's 1e25 assertion, with room for its scaling

// Clp holds an infinite bound as COIN_DBL_MAX and treats any beyond 1e30 as infinite.
bool finite_bound(double bound) { return std::abs(bound) < 1e30; }

// Passes Clp's status line (message 6, "Clp0006I <iteration>  Obj ... Primal inf ... Dual inf ...") to the
// progress sink, one in kProgressSimplexInterval iterations of a solve; drops every other message.
class ClpProgressLog : public CoinMessageHandler {
 public:
  int print() override {
    constexpr int kStatusMessage = 6;  // CLP_SIMPLEX_STATUS's external number
    if (currentMessage().externalNumber() != kStatusMessage || numberIntFields() < 1) return 0;
    const long iteration = intValue(0);
    if (iteration < last_line_iteration_) last_line_iteration_ = 0;  // a new solve counts from zero
    if (iteration - last_line_iteration_ < kProgressSimplexInterval) return 0;
    last_line_iteration_ = iteration;
    // The text after the message's code and its iteration number: "Obj 12.3 Primal inf 4.5 (67) ...".
    std::string_view text = messageBuffer();
    const std::size_t numbers = text.find_first_of(' ');
    text.remove_prefix(numbers == std::string_view::npos ? text.size() : numbers);
    text.remove_prefix(std::min(text.find_first_not_of(" 0123456789"), text.size()));
    core::progress("Clp's simplex, iteration {}: {}", iteration, text);
    return 0;
  }

 private:
  long last_line_iteration_ = 0;
};

// For the message of a solve Clp's numerics ended (status 4 and above): the magnitudes of the LP's nonzero
// coefficients, the usual cause being data of an extreme scale (a review's 1e300 features).
std::string coefficient_range_note(const ClpSimplex& model) {
  const CoinPackedMatrix* matrix = model.matrix();
  if (!matrix) return "";
  double smallest = std::numeric_limits<double>::infinity();
  double largest = 0.0;
  const CoinBigIndex* starts = matrix->getVectorStarts();
  const int* lengths = matrix->getVectorLengths();
  const double* elements = matrix->getElements();
  for (int major = 0; major < matrix->getMajorDim(); ++major) {
    for (CoinBigIndex k = starts[major]; k < starts[major] + lengths[major]; ++k) {
      const double magnitude = std::abs(elements[k]);
      if (magnitude == 0.0) continue;
      smallest = std::min(smallest, magnitude);
      largest = std::max(largest, magnitude);
    }
  }
  if (largest == 0.0) return "";
  return fmt::format("; the LP's nonzero coefficients range in magnitude from {:.3g} to {:.3g}{}", smallest, largest,
                     largest > kLargestCost || largest / smallest > kLargestCost ? ": rescale the data" : "");
}

}  // namespace

double clp_cost_scale(double largest_hinge, double largest_penalty, double largest_cost) {
  double smaller = largest_hinge;
  if (largest_penalty > 0 && !(largest_penalty >= largest_hinge)) smaller = largest_penalty;
  if (!(smaller > 0 && smaller < 1e-3)) return 1.0;  // also NaN: ClpLp reports it
  return std::min(1.0 / smaller, 1e12 / largest_cost);
}

std::pair<core::Status, std::string> classify_clp_status(int status, int secondary) {
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

void LpBlock::add(double item_lower, double item_upper, double item_cost) {
  lower.push_back(item_lower);
  upper.push_back(item_upper);
  cost.push_back(item_cost);
  starts.push_back(starts.back());
}

void LpBlock::add_entry(int item_index, double item_value) {
  index.push_back(item_index);
  value.push_back(item_value);
  ++starts.back();
}

ClpLp::ClpLp(const LpProblem& problem, LpOptions options)
    : log_(std::make_unique<ClpProgressLog>()), model_(std::make_unique<ClpSimplex>()), options_(options) {
  model_->passInMessageHandler(log_.get());  // the model does not own it
  const CoinArrays arrays = coin_arrays(problem);
  model_->loadProblem(arrays.matrix, arrays.column_lower.data(), arrays.column_upper.data(), problem.cost.data(),
                      arrays.row_lower.data(), arrays.row_upper.data());
  model_->setLogLevel(0);
  model_->setMaximumIterations(options_.max_iterations);
  if (options_.max_seconds > 0) model_->setMaximumSeconds(options_.max_seconds);
}

ClpLp::~ClpLp() = default;

std::size_t ClpLp::columns() const { return static_cast<std::size_t>(model_->numberColumns()); }
std::size_t ClpLp::rows() const { return static_cast<std::size_t>(model_->numberRows()); }

bool ClpLp::cost_admissible(const double* cost, std::size_t count, std::size_t first_column) {
  // Clp aborts the process on a cost of 1e25 or more (an assertion); refuse it here and let solve()
  // report numerical_error instead.
  for (std::size_t j = 0; j < count; ++j) {
    if (!std::isfinite(cost[j]) || std::abs(cost[j]) >= kLargestCost) {
      out_of_range_ = fmt::format("LP cost {} of column {} is out of the range Clp accepts (|c| < {:g}); a "
                                  "hyperparameter is too large or too small for this problem",
                                  cost[j], first_column + j, kLargestCost);
      return false;
    }
  }
  return true;
}

void ClpLp::set_cost(const core::Vector& cost) {
  out_of_range_.clear();  // every cost is replaced
  if (!cost_admissible(cost.data(), static_cast<std::size_t>(cost.size()), 0)) return;
  model_->chgObjCoefficients(cost.data());
  dual_feasible_ = false;
}

void ClpLp::set_row_lower(const core::Vector& row_lower) {
  const std::vector<double> bounds = coin_bounds(row_lower);
  model_->chgRowLower(bounds.data());
  primal_feasible_ = false;
}

void ClpLp::set_column_bounds(const core::Vector& column_lower, const core::Vector& column_upper) {
  const std::vector<double> lower = coin_bounds(column_lower);
  const std::vector<double> upper = coin_bounds(column_upper);
  model_->chgColumnLower(lower.data());
  model_->chgColumnUpper(upper.data());
  primal_feasible_ = false;
}

void ClpLp::add_columns(const LpBlock& columns) {
  if (columns.size() == 0) return;
  // Inadmissible costs are reported by solve(); the columns are added all the same (with cost 0), so that
  // the caller's column numbering stays right.
  const bool admissible = cost_admissible(columns.cost.data(), columns.size(), this->columns());
  const std::vector<double> cost = admissible ? columns.cost : std::vector<double>(columns.size(), 0.0);
  // Reduced costs c_j - a_j'y of the new columns under the last duals: all >= 0 keeps dual feasibility.
  const double* duals = model_->dualRowSolution();
  for (std::size_t t = 0; t < columns.size() && dual_feasible_; ++t) {
    double reduced_cost = cost[t];
    for (int k = columns.starts[t]; k < columns.starts[t + 1]; ++k) reduced_cost -= duals[columns.index[k]] * columns.value[k];
    dual_feasible_ = reduced_cost >= 0.0;
  }
  const std::vector<double> lower = coin_bounds(Eigen::Map<const core::Vector>(columns.lower.data(), columns.lower.size()));
  const std::vector<double> upper = coin_bounds(Eigen::Map<const core::Vector>(columns.upper.data(), columns.upper.size()));
  model_->addColumns(static_cast<int>(columns.size()), lower.data(), upper.data(), cost.data(),
                     columns.starts.data(), columns.index.data(), columns.value.data());
}

void ClpLp::add_rows(const LpBlock& rows) {
  if (rows.size() == 0) return;
  // Activities of the new rows at the last solution: all within bounds keeps primal feasibility.
  const double* x = model_->primalColumnSolution();
  for (std::size_t t = 0; t < rows.size() && primal_feasible_; ++t) {
    double activity = 0.0;
    for (int k = rows.starts[t]; k < rows.starts[t + 1]; ++k) activity += x[rows.index[k]] * rows.value[k];
    primal_feasible_ = activity >= rows.lower[t] - 1e-9 && activity <= rows.upper[t] + 1e-9;
  }
  const std::vector<double> lower = coin_bounds(Eigen::Map<const core::Vector>(rows.lower.data(), rows.lower.size()));
  const std::vector<double> upper = coin_bounds(Eigen::Map<const core::Vector>(rows.upper.data(), rows.upper.size()));
  model_->addRows(static_cast<int>(rows.size()), lower.data(), upper.data(), rows.starts.data(), rows.index.data(),
                  rows.value.data());
}

void ClpLp::remove(const std::vector<int>& rows, const std::vector<int>& columns) {
  if (!rows.empty()) model_->deleteRows(static_cast<int>(rows.size()), rows.data());
  if (!columns.empty()) model_->deleteColumns(static_cast<int>(columns.size()), columns.data());
}

void ClpLp::forget_basis() { primal_feasible_ = dual_feasible_ = false; }

std::vector<unsigned char> ClpLp::basis() const {
  const unsigned char* status = model_->statusArray();
  const auto size = static_cast<std::size_t>(model_->numberColumns() + model_->numberRows());
  return status == nullptr ? std::vector<unsigned char>() : std::vector<unsigned char>(status, status + size);
}

void ClpLp::start_from(std::vector<unsigned char> basis) {
  const int columns = model_->numberColumns();
  const int rows = model_->numberRows();
  if (basis.size() != static_cast<std::size_t>(columns + rows)) {
    throw std::logic_error(fmt::format("a starting basis of {} statuses for an LP of {} columns and {} rows",
                                       basis.size(), columns, rows));
  }
  // Each variable's bounds (columns, then row activities, as Clp orders them).
  const auto bounds = [&](int k) {
    return k < columns ? std::pair(model_->columnLower()[k], model_->columnUpper()[k])
                       : std::pair(model_->rowLower()[k - columns], model_->rowUpper()[k - columns]);
  };
  constexpr unsigned char kBasic = ClpSimplex::basic;
  int basic = 0;
  for (int k = 0; k < columns + rows; ++k) {
    unsigned char& status = basis[static_cast<std::size_t>(k)];
    status &= 7;
    const auto [lower, upper] = bounds(k);
    const bool finite_lower = finite_bound(lower);
    const bool finite_upper = finite_bound(upper);
    if (status != kBasic) {
      if (!finite_lower && !finite_upper) {
        status = kBasic;
      } else if (lower == upper) {
        status = ClpSimplex::isFixed;
      } else if (status == ClpSimplex::atUpperBound && finite_upper) {
        status = ClpSimplex::atUpperBound;
      } else {
        status = finite_lower ? ClpSimplex::atLowerBound : ClpSimplex::atUpperBound;
      }
    }
    basic += status == kBasic ? 1 : 0;
  }
  // Too many basic variables: fixed columns leave first, then other columns, at a finite bound.
  for (const bool fixed_only : {true, false}) {
    for (int k = 0; k < columns && basic > rows; ++k) {
      unsigned char& status = basis[static_cast<std::size_t>(k)];
      const auto [lower, upper] = bounds(k);
      if (status != kBasic || (fixed_only && lower != upper) || (!finite_bound(lower) && !finite_bound(upper))) continue;
      status = lower == upper ? ClpSimplex::isFixed : finite_bound(lower) ? ClpSimplex::atLowerBound : ClpSimplex::atUpperBound;
      --basic;
    }
  }
  // Too few: row slacks enter, from the last row.
  for (int k = columns + rows - 1; k >= columns && basic < rows; --k) {
    unsigned char& status = basis[static_cast<std::size_t>(k)];
    if (status == kBasic) continue;
    status = kBasic;
    ++basic;
  }
  model_->copyinStatus(basis.data());
  primal_feasible_ = false;
  dual_feasible_ = true;  // not assured: Clp's dual simplex copes, and solve() falls back to a cold start
}

LpSolution ClpLp::read_solution(bool warm, long iterations) const {
  LpSolution solution;
  std::tie(solution.status, solution.message) = classify_clp_status(model_->status(), model_->secondaryStatus());
  if (solution.status == core::Status::numerical_error) solution.message += coefficient_range_note(*model_);
  solution.iterations = iterations;
  solution.warm = warm;
  solution.objective = model_->objectiveValue();
  solution.primal = Eigen::Map<const core::Vector>(model_->primalColumnSolution(), model_->numberColumns());
  solution.row_duals = Eigen::Map<const core::Vector>(model_->dualRowSolution(), model_->numberRows());
  solution.reduced_costs = Eigen::Map<const core::Vector>(model_->dualColumnSolution(), model_->numberColumns());
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

void ClpLp::log_progress_if_wanted() { model_->setLogLevel(core::progress_wanted() ? 1 : 0); }

long ClpLp::within_budget(long iteration_limit) const {
  if (!options_.budget || !options_.budget->limited()) return iteration_limit;
  return std::min(iteration_limit, options_.budget->remaining);
}

LpSolution ClpLp::finish_solve(bool warm) {
  const long iterations = clean_up_scaling();
  if (options_.budget && options_.budget->limited()) {  // a cleanup may pass the limit: never below zero
    options_.budget->remaining = std::max(0L, options_.budget->remaining - iterations);
  }
  LpSolution solution = read_solution(warm, iterations);
  if (solution.status == core::Status::iteration_limit && options_.budget && options_.budget->spent()) {
    solution = check_stopped_basis(std::move(solution));
  }
  primal_feasible_ = dual_feasible_ = solution.status == core::Status::optimal;
  return solution;
}

bool ClpLp::basis_is_optimal() {
  // A solve allowed no pivot factorizes the basis and computes its primal and dual solutions; status 0
  // (secondary 0) where both are feasible.
  const int allowed = model_->maximumIterations();
  model_->setMaximumIterations(0);
  model_->dual();
  model_->setMaximumIterations(allowed);
  return model_->status() == 0 && model_->secondaryStatus() == 0;
}

LpSolution ClpLp::check_stopped_basis(LpSolution stopped) {
  // Clp counts the pivot that reaches the optimum before it checks optimality: a limit equal to the
  // iterations needed stops on the optimal basis with status "iteration limit" and the duals of the basis
  // before. Otherwise the stopped solution stands as it was read.
  if (!basis_is_optimal()) return stopped;
  LpSolution checked = read_solution(stopped.warm, stopped.iterations);
  checked.message = "optimal at the simplex iteration limit (the stopped basis, factorized again without a pivot)";
  return checked;
}

LpSolution ClpLp::solve_with_spent_budget() {
  // No pivot is left, but the basis held may answer the changed LP as it is: a DC step whose new
  // linearization leaves the last step's optimal basis optimal (the last steps of a converging chain).
  if (basis_is_optimal()) {
    LpSolution checked = read_solution(true, 0);
    checked.message = "optimal with the simplex iteration budget spent (the basis held, factorized without a pivot)";
    primal_feasible_ = dual_feasible_ = true;
    return checked;
  }
  LpSolution stopped;
  stopped.status = core::Status::iteration_limit;
  stopped.message = "the shared simplex iteration budget was already spent";
  return stopped;
}

LpSolution ClpLp::solve_cold() {
  model_->allSlackBasis(true);
  model_->dual();  // dual simplex from the slack basis, no presolve (presolve gave spurious secondary statuses)
  return finish_solve(false);
}

LpSolution ClpLp::solve(long warm_iteration_limit) {
  return solve_limited(warm_iteration_limit, options_.max_iterations);
}

LpSolution ClpLp::solve_within(long iteration_limit) {
  return solve_limited(0, iteration_limit > 0 ? std::min<long>(iteration_limit, options_.max_iterations)
                                              : options_.max_iterations);
}

LpSolution ClpLp::solve_limited(long warm_iteration_limit, long iteration_limit) {
  if (!out_of_range_.empty()) {
    LpSolution refused;
    refused.status = core::Status::numerical_error;
    refused.message = out_of_range_;
    return refused;
  }
  if (options_.budget && options_.budget->spent()) return solve_with_spent_budget();
  iteration_limit = within_budget(iteration_limit);
  model_->setMaximumIterations(static_cast<int>(iteration_limit));  // every solve sets its own
  log_progress_if_wanted();
  if (!primal_feasible_ && !dual_feasible_) return solve_cold();
  const bool limited = warm_iteration_limit > 0 && warm_iteration_limit < iteration_limit;
  if (limited) model_->setMaximumIterations(static_cast<int>(warm_iteration_limit));
  if (primal_feasible_) {
    model_->primal();  // also when both are kept: it confirms optimality at once
  } else {
    model_->dual();
  }
  model_->setMaximumIterations(static_cast<int>(iteration_limit));
  LpSolution warm = finish_solve(true);
  if (warm.status == core::Status::optimal) return warm;
  // Stopped by solve_within's budget: a cold solve would begin the count again.
  const bool budget_spent = !limited && iteration_limit < options_.max_iterations &&
                            warm.status == core::Status::iteration_limit;
  if (budget_spent || (options_.budget && options_.budget->spent())) return warm;
  model_->setMaximumIterations(static_cast<int>(within_budget(iteration_limit)));
  LpSolution cold = solve_cold();
  cold.iterations += warm.iterations;
  cold.fell_back_to_cold = true;
  cold.warm_limit_reached = limited && warm.status == core::Status::iteration_limit;
  cold.message = fmt::format("warm start ended '{}'{}; re-solved cold{}", core::to_string(warm.status),
                             warm.message.empty() ? "" : " (" + warm.message + ")",
                             cold.message.empty() ? "" : ": " + cold.message);
  return cold;
}

}  // namespace sparsesvm::optim
