#include "optim/cbc_mip.hpp"

#include <CbcModel.hpp>
#include <CbcCompareObjective.hpp>
#include <CbcEventHandler.hpp>
#include <CbcHeuristic.hpp>
#include <OsiClpSolverInterface.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "core/progress.hpp"
#include "optim/clp_lp.hpp"
#include "optim/coin_problem.hpp"

namespace sparsesvm::optim {
namespace {

constexpr long kLargestCount = 2'000'000'000;  // Cbc counts nodes and iterations in an int

// At each node: a progress line every kProgressNodeInterval nodes (core/progress.hpp), and with a
// simplex-iteration budget (> 0) the search stopped after the node whose LPs used it up: a point in the
// search that depends on the work done, not on the clock.
class SearchHandler : public CbcEventHandler {
 public:
  explicit SearchHandler(long budget) : budget_(budget) {}
  CbcAction event(CbcEvent which) override {
    if (which != node) return noAction;
    if (model_->getNodeCount() >= next_report_) {
      next_report_ = model_->getNodeCount() + core::kProgressNodeInterval;
      // Cbc's incumbent and bound are the MILP's cost' x plus its constant, as its gap test sees them.
      core::progress("Cbc: {} nodes, {} simplex iterations; incumbent {:.10g}, best bound {:.10g} (the MILP's units)",
                     model_->getNodeCount(), model_->getIterationCount(), model_->getObjValue(),
                     model_->getBestPossibleObjValue());
    }
    return budget_ > 0 && model_->getIterationCount() >= budget_ ? stop : noAction;
  }
  CbcEventHandler* clone() const override { return new SearchHandler(*this); }

 private:
  long budget_;
  long next_report_ = core::kProgressNodeInterval;
};

// MipOptions::rounding as a Cbc heuristic, run at every node once its LP is solved. Cbc checks each point
// it returns (the integers fixed, the other columns re-solved) and refuses one whose integers admit no
// point of the MIP.
class RoundingHeuristic : public CbcHeuristic {
 public:
  RoundingHeuristic(const LpProblem& problem, const MipOptions& options)
      : problem_(&problem), rounding_(options.rounding), constant_(options.objective_constant) {
    setHeuristicName("rounding");
    setWhen(3);
  }
  CbcHeuristic* clone() const override { return new RoundingHeuristic(*this); }
  void resetModel(CbcModel* model) override { model_ = model; }
  bool shouldHeurRun(int) override { return true; }
  int solution(double& objective_value, double* new_solution) override {
    const OsiSolverInterface* solver = model_->solver();
    if (!solver->isProvenOptimal()) return 0;
    if (!rounding_(solver->getColSolution(), point_) || point_.size() != problem_->cost.size()) return 0;
    const double value = problem_->cost.dot(point_) + constant_;
    if (!(value < objective_value)) return 0;
    std::copy(point_.data(), point_.data() + point_.size(), new_solution);
    objective_value = value;
    return 1;
  }

 private:
  const LpProblem* problem_;
  std::function<bool(const double*, core::Vector&)> rounding_;
  double constant_;
  core::Vector point_;
};

void load(OsiClpSolverInterface& solver, const LpProblem& problem) {
  const CoinArrays arrays = coin_arrays(problem);
  solver.loadProblem(arrays.matrix, arrays.column_lower.data(), arrays.column_upper.data(), problem.cost.data(),
                     arrays.row_lower.data(), arrays.row_upper.data());
}

// The root LP, solved before Cbc starts so that its simplex iterations count against the budget (Cbc's
// own count leaves them out, and its initial solve resets Clp's iteration limit). False when a limit
// stopped it: then there is no bound, and the search does not start.
bool solve_root(OsiClpSolverInterface& solver, long iteration_budget, MipSolution& solution) {
  if (iteration_budget > 0) solver.setIntParam(OsiMaxNumIteration, static_cast<int>(iteration_budget));
  solver.initialSolve();
  solution.iterations = solver.getIterationCount();
  const ClpSimplex& clp = *solver.getModelPtr();
  const core::Status root = classify_clp_status(clp.status(), clp.secondaryStatus()).first;
  if (root == core::Status::time_limit) solution.stopped_by = MipLimit::time;
  if (root == core::Status::iteration_limit) solution.stopped_by = MipLimit::iterations;
  return solution.stopped_by == MipLimit::none;
}

// A search that ended without a point of its own (the caller keeps its start).
MipSolution no_point(MipSolution solution, bool proven_infeasible) {
  switch (solution.stopped_by) {
    case MipLimit::time: solution.status = core::Status::time_limit; break;
    case MipLimit::nodes:
    case MipLimit::iterations: solution.status = core::Status::iteration_limit; break;
    case MipLimit::none:
      solution.status = proven_infeasible ? core::Status::infeasible : core::Status::numerical_error;
      break;
  }
  solution.message = solution.status == core::Status::infeasible
                         ? "Cbc: the MIP is infeasible"
                         : fmt::format("Cbc {} ({:.1f} s, {} nodes, {} simplex iterations)",
                                       solution.stopped_by == MipLimit::time   ? "stopped at its time limit with no point of its own"
                                       : solution.stopped_by != MipLimit::none ? "stopped at its work limit with no point of its own"
                                                                               : "found no feasible point",
                                       solution.seconds, solution.nodes, solution.iterations);
  return solution;
}

}  // namespace

MipSolution solve_mip(const LpProblem& problem, const std::vector<int>& integers, const core::Vector& incumbent,
                      const MipOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const auto seconds_since_start = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  LpProblem compressed = problem;
  compressed.matrix.makeCompressed();
  OsiClpSolverInterface solver;
  solver.messageHandler()->setLogLevel(0);
  load(solver, compressed);
  for (const int column : integers) solver.setInteger(column);
  // Osi's offset is subtracted from cost' x: every objective value Cbc sees (and its gap test) includes the constant.
  solver.setDblParam(OsiObjOffset, -options.objective_constant);
  // The root LP (and each node's) stops at the limit too: Cbc checks its clock only between nodes, and a
  // root LP over thousands of columns alone can take longer than the whole limit.
  solver.getModelPtr()->setMaximumWallSeconds(options.max_seconds);
  const long iteration_budget = std::min(options.max_iterations, kLargestCount);
  MipSolution solution;
  if (!solve_root(solver, iteration_budget, solution)) {
    solution.seconds = seconds_since_start();
    return no_point(solution, false);
  }
  const long root_iterations = solution.iterations;
  const long search_budget = iteration_budget > 0 ? std::max(1L, iteration_budget - root_iterations) : 0;
  if (search_budget > 0) solver.setIntParam(OsiMaxNumIteration, static_cast<int>(search_budget));

  CbcModel model(solver);
  model.setLogLevel(0);
  model.messageHandler()->setLogLevel(0);
  // Wall-clock seconds: Cbc's default clock is the process's CPU time, which counts every thread of a
  // parallel run (`run -j 2` stopped fits at half their limit).
  model.setUseElapsedTime(true);
  model.setMaximumSeconds(options.max_seconds - seconds_since_start());
  if (options.max_nodes > 0) model.setMaximumNodes(static_cast<int>(std::min(options.max_nodes, kLargestCount)));
  if (search_budget > 0 || core::progress_wanted()) {
    const SearchHandler handler(search_budget);
    model.passInEventHandler(&handler);  // Cbc keeps a copy
  }
  if (options.rounding) {
    RoundingHeuristic rounding(compressed, options);
    model.addHeuristic(&rounding);  // Cbc keeps a copy
  }
  model.setAllowableFractionGap(options.relative_gap);
  model.setAllowableGap(options.relative_gap);  // for objectives near 0, where the fraction means nothing
  if (incumbent.size() == problem.cost.size()) {
    model.setBestSolution(incumbent.data(), static_cast<int>(incumbent.size()), COIN_DBL_MAX, true);
  }
  // Best-bound search: the node with the lowest bound first. Cbc's default dives for incumbents, which
  // the MIPs here start with; on psi MIPs (n = 100, 20 s) it left a median gap of 0.36, best-bound 0.05.
  CbcCompareObjective lowest_bound_first;
  model.setNodeComparison(lowest_bound_first);
  model.branchAndBound();

  solution.nodes = model.getNodeCount();
  solution.iterations = root_iterations + model.getIterationCount();
  solution.seconds = seconds_since_start();
  // A root LP stopped by its time limit makes Cbc report the MIP infeasible: out of time, nothing is proven.
  const bool out_of_time = model.isSecondsLimitReached() || solution.seconds >= options.max_seconds;
  // An LP stopped inside a node by Clp's iteration limit also ends the search.
  const bool out_of_iterations =
      search_budget > 0 && (model.getIterationCount() >= search_budget || model.solver()->isIterationLimitReached());
  solution.stopped_by = out_of_time                  ? MipLimit::time
                        : out_of_iterations          ? MipLimit::iterations
                        : model.isNodeLimitReached() ? MipLimit::nodes
                                                     : MipLimit::none;
  const double* best = model.bestSolution();
  if (best == nullptr) return no_point(solution, model.isProvenInfeasible());
  solution.primal = Eigen::Map<const core::Vector>(best, problem.cost.size());
  solution.objective = problem.cost.dot(solution.primal) + options.objective_constant;
  // With an optimum proven, the bound is the objective itself (Cbc may report the last node's bound).
  // Stopped before that, Cbc's "best possible" is the lowest bound over open nodes, but only once the
  // root is done: stopped inside the root's LP it reported the incumbent's value, 1e50, or the value of
  // an unfinished simplex (no bound at all). So without a node searched no bound is claimed (-infinity),
  // nor one at or above the incumbent, which would have ended the search as optimal.
  const bool proven = model.isProvenOptimal() && solution.stopped_by == MipLimit::none;
  const double reported_bound = model.getBestPossibleObjValue();
  const bool bound_known = solution.nodes > 0 && reported_bound < solution.objective;
  solution.best_bound = proven        ? std::min(reported_bound, solution.objective)
                        : bound_known ? reported_bound
                                      : -std::numeric_limits<double>::infinity();
  solution.relative_gap = std::max(0.0, solution.objective - solution.best_bound) / std::max(1.0, std::abs(solution.objective));
  if (proven) {
    solution.status = core::Status::optimal;
  } else {
    solution.status = core::Status::feasible;
    solution.message = fmt::format("Cbc stopped at {}: gap {:.3g} above the bound ({:.1f} s, {} nodes)",
                                   solution.stopped_by == MipLimit::time   ? "its time limit"
                                   : solution.stopped_by != MipLimit::none ? "its work limit"
                                                                           : "a limit",
                                   solution.relative_gap, solution.seconds, solution.nodes);
  }
  return solution;
}

}  // namespace sparsesvm::optim
