#include "optim/clp_qp.hpp"

#include <ClpSimplex.hpp>
#include <ClpSolve.hpp>
#include <CoinPackedMatrix.hpp>
#include <stdexcept>
#include <vector>

namespace sparsesvm::optim {

ClpQpSolution solve_svm_primal_with_clp(const core::Dataset& data, const L2SvmProblem& p, ClpQpMethod method) {
  check_problem(p, data);
  if (p.loss != SvmLoss::hinge || p.feature_scale.size() > 0) {
    throw std::invalid_argument("solve_svm_primal_with_clp: hinge loss without column scaling only");
  }
  const bool free_bias = p.bias == BiasMode::unpenalized;
  const bool penalized_bias = p.bias == BiasMode::regularized && p.bias_feature > 0;
  const int n = static_cast<int>(data.n());
  const int d = static_cast<int>(data.d());
  const int columns = d + 1 + n;  // w, b, xi
  const core::Vector& y = data.labels();
  std::vector<int> starts{0}, rows;
  std::vector<double> values;
  for (int j = 0; j < d; ++j) {
    for (int i = 0; i < n; ++i) {
      const double x = data.value(static_cast<std::size_t>(i), static_cast<std::size_t>(j));
      if (x == 0.0) continue;
      rows.push_back(i);
      values.push_back(y[i] * x);
    }
    starts.push_back(static_cast<int>(rows.size()));
  }
  for (int i = 0; i < n; ++i) {
    rows.push_back(i);
    values.push_back(y[i]);
  }
  starts.push_back(static_cast<int>(rows.size()));
  for (int i = 0; i < n; ++i) {
    rows.push_back(i);
    values.push_back(1.0);
    starts.push_back(static_cast<int>(rows.size()));
  }
  const CoinPackedMatrix matrix(true, n, columns, static_cast<CoinBigIndex>(values.size()), values.data(), rows.data(),
                                starts.data(), nullptr);
  std::vector<double> column_lower(columns, -COIN_DBL_MAX), column_upper(columns, COIN_DBL_MAX), cost(columns, 0.0);
  for (int j = 0; j < d && p.tilt_w.size() == d; ++j) cost[j] = -p.tilt_w[j];
  cost[d] = -p.tilt_b;
  if (!free_bias && !penalized_bias) column_lower[d] = column_upper[d] = 0.0;
  for (int i = 0; i < n; ++i) {
    column_lower[d + 1 + i] = 0.0;
    cost[d + 1 + i] = p.upper[i];
  }
  std::vector<double> row_lower(p.margin.data(), p.margin.data() + n), row_upper(n, COIN_DBL_MAX);
  ClpSimplex model;
  model.setLogLevel(0);
  model.loadProblem(matrix, column_lower.data(), column_upper.data(), cost.data(), row_lower.data(), row_upper.data());
  // Clp minimizes c'x + 1/2 x'Qx: Q = 2 lambda on the w diagonal (and 2 lambda / s^2 on b's).
  const int quadratic = penalized_bias ? d + 1 : d;
  std::vector<CoinBigIndex> q_start(columns + 1, quadratic);
  std::vector<int> q_column(quadratic);
  std::vector<double> q_value(quadratic, 2.0 * p.lambda);
  for (int j = 0; j < quadratic; ++j) {
    q_start[j] = j;
    q_column[j] = j;
  }
  if (penalized_bias) q_value[d] = 2.0 * p.lambda / (p.bias_feature * p.bias_feature);
  model.loadQuadraticObjective(columns, q_start.data(), q_column.data(), q_value.data());
  if (method == ClpQpMethod::simplex) {
    model.primal();
  } else {
    ClpSolve barrier;
    barrier.setSolveType(ClpSolve::useBarrier);
    model.initialSolve(barrier);
  }
  ClpQpSolution solution;
  solution.status = model.status() == 0 ? core::Status::optimal : core::Status::numerical_error;
  solution.iterations = model.numberIterations();
  solution.objective = model.objectiveValue();
  const double* x = model.primalColumnSolution();
  solution.w = Eigen::Map<const core::Vector>(x, d);
  solution.b = x[d];
  return solution;
}

}  // namespace sparsesvm::optim
