#pragma once
// A mixed integer linear program solved by Cbc's branch and bound (CbcModel, one instance per call:
// safe from several threads, unlike Cbc's command-line driver CbcMain1):
//   minimize cost' x   subject to   row_lower <= A x <= row_upper,  column bounds,  x_j integer for j in `integers`
// With an incumbent (a feasible point, e.g. from an SVM), the search starts with it as its best solution.
#include <functional>
#include <string>
#include <vector>

#include "core/status.hpp"
#include "optim/lp_problem.hpp"

namespace sparsesvm::optim {

// What stopped a search before it proved its answer.
enum class MipLimit {
  none,
  nodes,       // the node limit: the same point on any machine (the search is deterministic in its work)
  iterations,  // the simplex-iteration limit: likewise deterministic
  time,   // the wall-clock limit: a safety net, whose hit depends on the machine's speed and load
};

struct MipOptions {
  double max_seconds = 60.0;    // wall-clock limit of the branch and bound
  long max_nodes = 0;           // nodes of branch and bound before stopping; 0: no node limit
  // Simplex iterations of the search's LPs (the root's included) before stopping, checked by Clp inside an
  // LP and by Cbc after each node; 0: no limit.
  long max_iterations = 0;
  double relative_gap = 1e-6;   // stop when (incumbent - bound) <= relative_gap * max(1, |incumbent|)
  // The part of the objective no column carries: incumbent and bound are cost' x + objective_constant,
  // and relative_gap is relative to that (a psi MIP's columns carry -173 of F = 27: a gap relative to
  // cost' x alone was 6 times looser than asked).
  double objective_constant = 0.0;
  // A problem-specific rounding, tried at every node: from the node's LP solution (all columns) it writes a
  // candidate point (integers integral; the other columns a guess) into its second argument and returns
  // true, or returns false. Where that point's cost is below the incumbent's, Cbc fixes its integers,
  // re-solves the other columns and keeps the result as its incumbent; it refuses the point where that LP
  // is infeasible or ends above the incumbent (Cbc 2.10's checkSolution). Empty: none.
  std::function<bool(const double*, core::Vector&)> rounding;
};

struct MipSolution {
  // optimal: the incumbent is proven within relative_gap; feasible: a limit stopped the search with an
  // incumbent; time_limit / iteration_limit: no incumbent at the time / node limit; infeasible; numerical_error.
  core::Status status = core::Status::numerical_error;
  std::string message;
  core::Vector primal;          // the incumbent, when there is one
  double objective = 0.0;       // cost' x + objective_constant at the incumbent
  double best_bound = 0.0;      // a lower bound on the optimum (constant included)
  double relative_gap = 0.0;    // (objective - best_bound) / max(1, |objective|)
  long nodes = 0;
  long iterations = 0;          // simplex iterations of the search's LPs
  double seconds = 0.0;
  MipLimit stopped_by = MipLimit::none;  // set when a limit ended the search (status feasible or time_limit)
};

// `incumbent`, when not empty, is the search's first incumbent: Cbc fixes its integers and re-solves the
// other columns (repairing them), and ignores it where that LP has no optimum.
MipSolution solve_mip(const LpProblem& problem, const std::vector<int>& integers, const core::Vector& incumbent,
                      const MipOptions& options);

}  // namespace sparsesvm::optim
