// OneNormSVM's full LP (min lambda ||w||_1 + sum_i xi_i, y_i (x_i.(w+ - w-) + b) + xi_i >= 1, w+, w-,
// xi >= 0) on a data file, handed to Clp whole by one of its own algorithms, outside the library's
// ClpLp (which only runs the simplex methods warm): how Clp itself does on the LPs where generation
// struggles (docs/benchmarks.md, "Why that end is hard").
// Usage: clp_one_norm FILE LAMBDA ALGORITHM [N_FEATURES]
//   ALGORITHM: barrier (ClpSolve::useBarrier: Clp's interior point with its own Cholesky, then crossover),
//   dual, primal (simplex from the slack basis), automatic (ClpSolve::automatic: idiot crash, sprint).
// Prints Clp's log (level 1), then status, objective, iterations, wall seconds and nonzero weights.
#include <ClpSimplex.hpp>
#include <ClpSolve.hpp>
#include <CoinPackedMatrix.hpp>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "data/load.hpp"

using namespace sparsesvm;

namespace {

// Columns [w+ (d), w- (d), b, xi (n)], one row per example.
void load_lp(const core::Dataset& data, double lambda, ClpSimplex& model) {
  const auto n = static_cast<int>(data.n());
  const auto d = static_cast<int>(data.d());
  std::vector<int> rows, columns;
  std::vector<double> values;
  const auto add = [&](int row, int column, double value) {
    rows.push_back(row);
    columns.push_back(column);
    values.push_back(value);
  };
  const core::SparseMatrix& x = data.sparse();
  for (int i = 0; i < n; ++i) {
    const double y = data.labels()[i];
    for (core::SparseMatrix::InnerIterator it(x, i); it; ++it) {
      add(i, static_cast<int>(it.col()), y * it.value());
      add(i, d + static_cast<int>(it.col()), -y * it.value());
    }
    add(i, 2 * d, y);
    add(i, 2 * d + 1 + i, 1.0);
  }
  const CoinPackedMatrix matrix(true, rows.data(), columns.data(), values.data(), static_cast<CoinBigIndex>(values.size()));
  const int count = 2 * d + 1 + n;
  std::vector<double> column_lower(count, 0.0), column_upper(count, COIN_DBL_MAX), cost(count, 1.0);
  std::fill(cost.begin(), cost.begin() + 2 * d, lambda);
  column_lower[2 * d] = -COIN_DBL_MAX;
  cost[2 * d] = 0.0;
  const std::vector<double> row_lower(n, 1.0), row_upper(n, COIN_DBL_MAX);
  model.loadProblem(matrix, column_lower.data(), column_upper.data(), cost.data(), row_lower.data(), row_upper.data());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    fmt::print(stderr, "usage: clp_one_norm FILE LAMBDA barrier|dual|primal|automatic [N_FEATURES]\n");
    return 1;
  }
  data::DataSource source{argv[1], "auto", {{"storage", "sparse"}}};
  if (argc > 4) source.options["n_features"] = argv[4];
  const core::Dataset data = data::load_dataset(source);
  const std::string algorithm = argv[3];
  ClpSimplex model;
  load_lp(data, std::stod(argv[2]), model);
  model.setLogLevel(1);
  const auto start = std::chrono::steady_clock::now();
  if (algorithm == "barrier" || algorithm == "automatic") {
    ClpSolve options;
    options.setSolveType(algorithm == "barrier" ? ClpSolve::useBarrier : ClpSolve::automatic);
    model.initialSolve(options);
  } else if (algorithm == "dual") {
    model.dual();
  } else if (algorithm == "primal") {
    model.primal();
  } else {
    fmt::print(stderr, "unknown algorithm {} (barrier, dual, primal, automatic)\n", algorithm);
    return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double* solution = model.primalColumnSolution();
  const auto d = static_cast<int>(data.d());
  int nonzero = 0;
  for (int j = 0; j < d; ++j) nonzero += std::abs(solution[j] - solution[d + j]) > 1e-9 ? 1 : 0;
  fmt::print("status {} objective {:.10g} iterations {} seconds {:.1f} nonzero weights {}\n", model.status(),
             model.objectiveValue(), model.numberIterations(), seconds, nonzero);
  return 0;
}
