#pragma once
// The primal of l2_svm.hpp's problem (hinge loss, no column scaling) solved by Clp over (w, b, xi):
//   min lambda ||w||^2 [+ lambda b^2 / s^2] - eta.w - kappa b + sum_i C_i xi_i
//   s.t.  y_i (x_i.w + b) + xi_i >= m_i,  xi >= 0          (b = 0 when the bias is regularized with s = 0)
// by its quadratic simplex or its barrier (ClpInterior's predictor-corrector). An independent reference
// for the tests and the benchmark of the l2 SVM solvers; not used by methods.
#include "core/dataset.hpp"
#include "optim/l2_svm.hpp"

namespace sparsesvm::optim {

enum class ClpQpMethod { simplex, barrier };

struct ClpQpSolution {
  core::Status status = core::Status::numerical_error;
  core::Vector w;
  double b = 0.0;
  double objective = 0.0;
  long iterations = 0;
};

// invalid_argument for the squared hinge or a column scaling (not modelled here).
ClpQpSolution solve_svm_primal_with_clp(const core::Dataset& data, const L2SvmProblem& problem,
                                        ClpQpMethod method = ClpQpMethod::simplex);

}  // namespace sparsesvm::optim
