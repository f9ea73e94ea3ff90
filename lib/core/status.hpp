#pragma once
// What a solver found. These strings go into result CSVs, so they never change.
//   optimal            solved to the solver's tolerances
//   converged          a stationary point of a nonconvex objective (DCA, SLA, ADMM with LSP, SCAD, MCP,
//                      capped-l1), certified by the gap of its convex majorant (what one DCA step could
//                      gain): not a claim of global optimality
//   feasible           a solution exists but its optimality is not proven (a MIP stopped at a limit)
//   solved_inaccurate  the answer misses its tolerance (a check on the unscaled problem failed, or the
//                      solver stopped short of it, as dual CD at its epoch budget); the best model is kept
//   infeasible, unbounded
//   iteration_limit, time_limit
//   numerical_error    anything else (a solver error, NaN in the data)
#include <string>
#include <string_view>

namespace sparsesvm::core {

enum class Status { optimal, converged, feasible, solved_inaccurate, infeasible, unbounded, iteration_limit, time_limit, numerical_error };

std::string to_string(Status status);

// True for optimal, converged, feasible and solved_inaccurate: the numbers that come with the status are a solution.
// The same for a status as written in a result row ("optimal", "input_error", ...).
bool has_solution(std::string_view status_name);

inline bool has_solution(Status status) {
  return status == Status::optimal || status == Status::converged || status == Status::feasible ||
         status == Status::solved_inaccurate;
}

}  // namespace sparsesvm::core
