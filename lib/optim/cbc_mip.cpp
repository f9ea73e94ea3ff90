#include "optim/cbc_mip.hpp"

#include <CbcModel.hpp>
#include <CbcCompareObjective.hpp>
#include <OsiClpSolverInterface.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "optim/coin_problem.hpp"

namespace sparsesvm::optim {
namespace {

void load(OsiClpSolverInterface& solver, const LpProblem& problem) {
  const CoinArrays arrays = coin_arrays(problem);
  solver.loadProblem(arrays.matrix, arrays.column_lower.data(), arrays.column_upper.data(), problem.cost.data(),
                     arrays.row_lower.data(), arrays.row_upper.data());
}

}  // namespace

MipSolution solve_mip(const LpProblem& problem, const std::vector<int>& integers, const core::Vector& incumbent,
                      const MipOptions& options) {
  const auto start = std::chrono::steady_clock::now();
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

  CbcModel model(solver);
  model.setLogLevel(0);
  model.messageHandler()->setLogLevel(0);
  // Wall-clock seconds: Cbc's default clock is the process's CPU time, which counts every thread of a
  // parallel run (`run -j 2` stopped fits at half their limit).
  model.setUseElapsedTime(true);
  model.setMaximumSeconds(options.max_seconds);
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

  MipSolution solution;
  solution.nodes = model.getNodeCount();
  solution.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double* best = model.bestSolution();
  // A root LP stopped by its time limit makes Cbc report the MIP infeasible: out of time, nothing is proven.
  const bool out_of_time = model.isSecondsLimitReached() || solution.seconds >= options.max_seconds;
  if (model.isProvenInfeasible() && best == nullptr && !out_of_time) {
    solution.status = core::Status::infeasible;
    solution.message = "Cbc: the MIP is infeasible";
    return solution;
  }
  if (best == nullptr) {
    solution.status = out_of_time ? core::Status::time_limit : core::Status::numerical_error;
    solution.message = fmt::format("Cbc {} ({:.1f} s, {} nodes)",
                                   out_of_time ? "stopped at its time limit with no point of its own" : "found no feasible point",
                                   solution.seconds, solution.nodes);
    return solution;
  }
  solution.primal = Eigen::Map<const core::Vector>(best, problem.cost.size());
  solution.objective = problem.cost.dot(solution.primal) + options.objective_constant;
  // With an optimum proven, the bound is the objective itself (Cbc may report the last node's bound).
  // Stopped before that, Cbc's "best possible" is the lowest bound over open nodes, but only once the
  // root is done: stopped inside the root's LP it reported the incumbent's value, 1e50, or the value of
  // an unfinished simplex (no bound at all). So without a node searched no bound is claimed (-infinity),
  // nor one at or above the incumbent, which would have ended the search as optimal.
  const bool proven = model.isProvenOptimal() && !out_of_time;
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
                                   out_of_time ? "its time limit" : "a limit", solution.relative_gap,
                                   solution.seconds, solution.nodes);
  }
  return solution;
}

}  // namespace sparsesvm::optim
