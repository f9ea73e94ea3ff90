#pragma once
// A linear program in the form Clp takes it:
//   minimize cost' x   subject to   row_lower <= A x <= row_upper,   column_lower <= x <= column_upper
// Infinite bounds are +-infinity (std::numeric_limits<double>::infinity()).
#include <Eigen/SparseCore>
#include <string>
#include <vector>

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

// Columns (or rows) to append to an LP in compressed form: the entries of item t are k in
// [starts[t], starts[t+1]), at index[k] (a row of a column, a column of a row) with value[k].
struct LpBlock {
  std::vector<double> lower;
  std::vector<double> upper;
  std::vector<double> cost;  // columns only
  std::vector<int> starts = {0};
  std::vector<int> index;
  std::vector<double> value;

  std::size_t size() const { return lower.size(); }
  // Appends an item with bounds [lower, upper] (and cost, for a column) and no entries yet.
  void add(double item_lower, double item_upper, double item_cost = 0.0);
  void add_entry(int item_index, double item_value);
};

struct LpSolution {
  core::Status status = core::Status::numerical_error;
  std::string message;     // why a status is not optimal, and whether a warm start fell back to a cold one
  double objective = 0.0;  // cost' x
  core::Vector primal;     // x, when status has a solution
  core::Vector row_duals;  // y, with reduced costs c - A'y (>= 0 at a lower bound, <= 0 at an upper one)
  core::Vector reduced_costs;  // c - A'y, as the solver computed them
  long iterations = 0;     // simplex iterations, summed over a fallback
  bool warm = false;       // the solve started from the previous basis
  bool fell_back_to_cold = false;
  bool warm_limit_reached = false;  // the warm start stopped at solve's warm_iteration_limit (then cold)
};

// Simplex iterations several LPs share (a fit's work limit, models/convex_step.hpp): each solve is held to
// what is left, and its iterations are charged to it.
struct IterationBudget {
  long remaining = -1;  // < 0: no limit
  bool limited() const { return remaining >= 0; }
  bool spent() const { return remaining == 0; }
};

struct LpOptions {
  int max_iterations = 10'000'000;  // simplex iterations per solve
  double max_seconds = 0.0;         // wall-clock limit per solve; 0 means none
  IterationBudget* budget = nullptr;  // shared with other LPs and kept by the caller; none when null
};

}  // namespace sparsesvm::optim
