#pragma once
// A linear program in the form Clp takes it:
//   minimize cost' x   subject to   row_lower <= A x <= row_upper,   column_lower <= x <= column_upper
// Infinite bounds are +-infinity (std::numeric_limits<double>::infinity()).
#include <Eigen/SparseCore>
#include <string>

#include "core/dataset.hpp"
#include "core/status.hpp"

namespace sparsesvm::optim {

struct LpProblem {
  Eigen::SparseMatrix<double, Eigen::ColMajor, int> matrix;  // rows x columns
  core::Vector column_lower;
  core::Vector column_upper;
  core::Vector row_lower;
  core::Vector row_upper;
  core::Vector cost;
};

struct LpSolution {
  core::Status status = core::Status::numerical_error;
  std::string message;     // why a status is not optimal, and whether a warm start fell back to a cold one
  double objective = 0.0;  // cost' x
  core::Vector primal;     // x, when status has a solution
  long iterations = 0;     // simplex iterations, summed over a fallback
  bool warm = false;       // the solve started from the previous basis
  bool fell_back_to_cold = false;
};

struct LpOptions {
  int max_iterations = 10'000'000;  // simplex iterations per solve
  double max_seconds = 0.0;         // wall-clock limit per solve; 0 means none
};

}  // namespace sparsesvm::optim
