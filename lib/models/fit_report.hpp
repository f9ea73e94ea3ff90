#pragma once
// What every fit returns: the model, the hyperparameters it was fitted with, and how the solver got
// there. Algorithms never compute test metrics, print, or read configs.
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/linear_model.hpp"
#include "core/progress.hpp"
#include "core/status.hpp"
#include "models/parameters.hpp"

namespace sparsesvm::models {

// What FitReport::certificate measures (the result column certificate_kind); docs/user-guide.md,
// "Statuses and certificates".
inline constexpr const char* kDualityGap = "duality_gap";  // (P - D) / |P| of a convex objective's solve
inline constexpr const char* kMipGap = "mip_gap";          // (incumbent - best bound) / |incumbent| of a MIP
// The same for a MIP with restrictions the objective does not imply (PSI-r's fixed examples, capped-l1's
// search box): a bound for the restricted problem only.
inline constexpr const char* kRestrictedMipGap = "restricted_mip_gap";
inline constexpr const char* kMajorantGap = "majorant_gap";  // what one more DC step could gain, relative to F
inline constexpr const char* kInnerSvmGap = "inner_svm_gap";  // RW(N): the largest relative gap of its N SVMs

// stop_reason of a MIP search ended by a limit (mip_support.hpp): the node limit gives the same row on any
// machine; the wall-clock limit, a safety net, a row that depends on the machine (collect counts them).
inline constexpr const char* kNodeLimitStop = "node limit";
inline constexpr const char* kIterationLimitStop = "iteration limit";
inline constexpr const char* kTimeLimitStop = "time limit";
// stop_reason of an LP-based fit ended by its simplex_iteration_limit (a work limit, convex_step.hpp).
inline constexpr const char* kSimplexLimitStop = "simplex iteration limit";

struct FitReport {
  core::Status status = core::Status::numerical_error;
  std::string message;                   // why a status is not optimal; fallbacks and kept iterates
  // The notes of a chain's steps already in `message` (" [STATUS: words]", record_step in convex_step.hpp):
  // each is shown once, at the first step that had it.
  std::set<std::string> step_notes;
  std::string stop_reason;               // what ended the algorithm: "one convex solve", "change below tolerance", ...
  core::LinearModel model{core::Vector(), 0.0};
  Hyperparameters hyperparameters;       // every parameter of the method as used (defaults filled in)
  double objective = 0.0;                // F at the returned model, in the paper's convention
  std::vector<double> objective_trace;   // F at the starting point, then after each iteration (ADMM: at the
                                         // sweeps of its trace_iterations)
  // When each entry of objective_trace was reached: seconds since the fit began, its start's fit included
  // (the start's own entry: the start's seconds). Written as objective_seconds_trace; the race figure's x.
  std::vector<double> objective_seconds;
  int iterations = 0;                    // outer (DCA) iterations; 0 for a convex method
  long inner_iterations = 0;  // simplex iterations + dual CD updates + interior-point iterations (ADMM: sweeps), start included
  int inner_solves = 0;                  // LPs or QPs solved, start included
  bool fell_back_to_cold = false;        // some warm LP solve was repeated cold
  double seconds = 0.0;                  // wall time of the fit, start included
  // How close the returned model is proven to be to what the status claims, in the kind's measure (above);
  // NaN when nothing was measured (no solution, a failed step).
  double certificate = std::numeric_limits<double>::quiet_NaN();
  std::string certificate_kind;
  // Solver statistics by name; each algorithm lists the names it reports (Algorithm::statistic_names).
  std::map<std::string, double> statistics;
  // Solver facts in words by name (which QP solver answered), listed by Algorithm::text_statistic_names.
  std::map<std::string, std::string> text_statistics;
  // Per-iteration series by name (ADMM's residuals), listed by Algorithm::trace_names(); result columns
  // of ';'-separated numbers.
  std::map<std::string, std::vector<double>> traces;

  // True when the status comes with a model: optimal, converged, feasible or solved_inaccurate.
  bool has_solution() const { return core::has_solution(status); }
  // Appends F = `value`, reached `elapsed` seconds after the fit began, to the objective trace (and a
  // progress line, core/progress.hpp).
  void trace_objective(double value, double elapsed) {
    objective_trace.push_back(value);
    objective_seconds.push_back(elapsed);
    core::progress("objective {:.10g} at {:.3f} s of the fit", value, elapsed);
  }
  // One line for logs: "optimal F=12.5 iter=4 (LP/QP 37 in 5 solves) nnz=7 0.012s".
  std::string brief() const;
};

}  // namespace sparsesvm::models
