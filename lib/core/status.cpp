#include "core/status.hpp"

namespace sparsesvm::core {

std::string to_string(Status status) {
  switch (status) {
    case Status::optimal: return "optimal";
    case Status::converged: return "converged";
    case Status::feasible: return "feasible";
    case Status::solved_inaccurate: return "solved_inaccurate";
    case Status::infeasible: return "infeasible";
    case Status::unbounded: return "unbounded";
    case Status::iteration_limit: return "iteration_limit";
    case Status::time_limit: return "time_limit";
    case Status::numerical_error: return "numerical_error";
  }
  return "numerical_error";
}

bool has_solution(std::string_view status_name) {
  for (Status status : {Status::optimal, Status::converged, Status::feasible, Status::solved_inaccurate}) {
    if (status_name == to_string(status)) return true;
  }
  return false;
}

}  // namespace sparsesvm::core
