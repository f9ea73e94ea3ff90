#pragma once
// What every fit returns: the model and how the solver got there. Algorithms never compute test
// metrics, print, or read configs.
#include <string>
#include <vector>

#include "core/linear_model.hpp"
#include "core/status.hpp"

namespace sparsesvm::models {

struct FitReport {
  core::Status status = core::Status::numerical_error;
  std::string message;                   // why a status is not optimal; fallbacks and kept iterates
  core::LinearModel model{core::Vector(), 0.0};
  double objective = 0.0;                // F at the returned model, in the paper's convention
  std::vector<double> objective_trace;   // F at the starting point, then after each DCA iteration
  int iterations = 0;                    // DCA (outer) iterations; 0 for a convex method
  long inner_iterations = 0;             // simplex iterations / SMO pair updates, initializer included
  int inner_solves = 0;                  // LPs or QPs solved, initializer included
  bool fell_back_to_cold = false;        // some warm LP solve was repeated cold
  double seconds = 0.0;                  // wall time of the fit, initializer included

  // One line for logs: "optimal F=12.5 iter=4 (LP/QP 37 in 5 solves) nnz=7 0.012s".
  std::string brief() const;
};

}  // namespace sparsesvm::models
