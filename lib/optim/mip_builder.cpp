#include "optim/mip_builder.hpp"

#include <limits>

namespace sparsesvm::optim {

MipBuilder::MipBuilder(Eigen::Index columns)
    : cost(core::Vector::Zero(columns)),
      column_lower(core::Vector::Zero(columns)),
      column_upper(core::Vector::Constant(columns, std::numeric_limits<double>::infinity())) {}

void MipBuilder::set_column(Eigen::Index column, double lower, double upper, double column_cost) {
  column_lower[column] = lower;
  column_upper[column] = upper;
  cost[column] = column_cost;
}

void MipBuilder::set_binary(Eigen::Index column, double column_cost) {
  set_column(column, 0.0, 1.0, column_cost);
  integers.push_back(static_cast<int>(column));
}

Eigen::Index MipBuilder::add_column(double lower, double upper, double column_cost) {
  const Eigen::Index column = cost.size();
  cost.conservativeResize(column + 1);
  column_lower.conservativeResize(column + 1);
  column_upper.conservativeResize(column + 1);
  set_column(column, lower, upper, column_cost);
  return column;
}

Eigen::Index MipBuilder::add_row(double lower, double upper) {
  row_lower.push_back(lower);
  row_upper.push_back(upper);
  return static_cast<Eigen::Index>(row_lower.size()) - 1;
}

void MipBuilder::add_row(std::initializer_list<std::pair<Eigen::Index, double>> terms, double lower, double upper) {
  const Eigen::Index row = add_row(lower, upper);
  for (const auto& [column, value] : terms) entries.emplace_back(row, column, value);
}

LpProblem MipBuilder::problem() const {
  LpProblem lp;
  lp.cost = cost;
  lp.column_lower = column_lower;
  lp.column_upper = column_upper;
  lp.row_lower = Eigen::Map<const core::Vector>(row_lower.data(), static_cast<Eigen::Index>(row_lower.size()));
  lp.row_upper = Eigen::Map<const core::Vector>(row_upper.data(), static_cast<Eigen::Index>(row_upper.size()));
  lp.matrix.resize(static_cast<Eigen::Index>(row_lower.size()), cost.size());
  lp.matrix.setFromTriplets(entries.begin(), entries.end());
  return lp;
}

}  // namespace sparsesvm::optim
