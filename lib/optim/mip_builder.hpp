#pragma once
// A MIP assembled column by column and row by row (the MIP algorithms' formulations, models/algorithms/
// psi_mip.cpp and global_mip.cpp): column bounds and costs, rows kept as triplets so that cuts can be
// appended between solves, the integer columns, and a constant the columns do not carry. problem()
// gives the LpProblem that solve_mip (cbc_mip.hpp) takes.
#include <Eigen/SparseCore>
#include <initializer_list>
#include <utility>
#include <vector>

#include "optim/lp_problem.hpp"

namespace sparsesvm::optim {

struct MipBuilder {
  core::Vector cost, column_lower, column_upper;
  std::vector<Eigen::Triplet<double>> entries;
  std::vector<double> row_lower, row_upper;
  std::vector<int> integers;
  double constant = 0.0;  // the part of the objective no column carries

  // `columns` columns with bounds [0, +infinity) and cost 0.
  explicit MipBuilder(Eigen::Index columns);
  void set_column(Eigen::Index column, double lower, double upper, double column_cost = 0.0);
  void set_binary(Eigen::Index column, double column_cost = 0.0);
  Eigen::Index add_column(double lower, double upper, double column_cost = 0.0);  // its index
  Eigen::Index add_row(double lower, double upper);
  // A row lower <= sum value * x[column] <= upper.
  void add_row(std::initializer_list<std::pair<Eigen::Index, double>> terms, double lower, double upper);
  LpProblem problem() const;
};

}  // namespace sparsesvm::optim
