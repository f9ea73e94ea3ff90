#pragma once
// A mixed integer linear program solved by Cbc's branch and bound (CbcModel, one instance per call:
// safe from several threads, unlike Cbc's command-line driver CbcMain1):
//   minimize cost' x   subject to   row_lower <= A x <= row_upper,  column bounds,  x_j integer for j in `integers`
// With an incumbent (a feasible point, e.g. from an SVM), the search starts with it as its best solution.
#include <string>
#include <vector>

#include "core/status.hpp"
#include "optim/lp_problem.hpp"

namespace sparsesvm::optim {

struct MipOptions {
  double max_seconds = 60.0;    // wall-clock limit of the branch and bound
  double relative_gap = 1e-6;   // stop when (incumbent - bound) <= relative_gap * max(1, |incumbent|)
  // The part of the objective no column carries: incumbent and bound are cost' x + objective_constant,
  // and relative_gap is relative to that (a psi MIP's columns carry -173 of F = 27: a gap relative to
  // cost' x alone was 6 times looser than asked).
  double objective_constant = 0.0;
};

struct MipSolution {
  // optimal: the incumbent is proven within relative_gap; feasible: a limit stopped the search with an
  // incumbent; time_limit: no incumbent at the limit; infeasible; numerical_error.
  core::Status status = core::Status::numerical_error;
  std::string message;
  core::Vector primal;          // the incumbent, when there is one
  double objective = 0.0;       // cost' x + objective_constant at the incumbent
  double best_bound = 0.0;      // a lower bound on the optimum (constant included)
  double relative_gap = 0.0;    // (objective - best_bound) / max(1, |objective|)
  long nodes = 0;
  double seconds = 0.0;
};

// `incumbent`, when not empty, must be feasible (the caller builds it); Cbc checks it and ignores it if not.
MipSolution solve_mip(const LpProblem& problem, const std::vector<int>& integers, const core::Vector& incumbent,
                      const MipOptions& options);

}  // namespace sparsesvm::optim
