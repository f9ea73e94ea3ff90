#pragma once
// The primal of svm_dual.hpp's problem solved by Clp's quadratic simplex over (w, b, xi):
//   min lambda ||w||^2 - eta.w - kappa b + sum_i C_i xi_i   s.t.  y_i (x_i.w + b) + xi_i >= m_i,  xi >= 0
// A reference to check SvmDualSolver against and to benchmark it by; far slower, not used by methods.
#include "core/dataset.hpp"
#include "optim/svm_dual.hpp"

namespace sparsesvm::optim {

struct ClpQpSolution {
  core::Status status = core::Status::numerical_error;
  core::Vector w;
  double b = 0.0;
  double objective = 0.0;
  long iterations = 0;
};

// `with_bias` false fixes b = 0 (a problem whose bias, if any, is a column of the data).
ClpQpSolution solve_svm_primal_with_clp(const core::Dataset& data, const SvmDualProblem& problem, bool with_bias = true);

}  // namespace sparsesvm::optim
