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
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <string>

#include "data/load.hpp"
#include "models/convex_step.hpp"
#include "optim/coin_problem.hpp"

using namespace sparsesvm;

namespace {

// The convex step's full LP (models::build_lp) with OneNormSVM's costs: lambda on w+ and w-, 1 on xi.
void load_lp(const core::Dataset& data, double lambda, ClpSimplex& model) {
  optim::LpProblem lp = models::build_lp(data, false);
  const auto d = static_cast<Eigen::Index>(data.d());
  lp.cost.head(2 * d).setConstant(lambda);
  lp.cost.tail(static_cast<Eigen::Index>(data.n())).setOnes();
  const optim::CoinArrays arrays = optim::coin_arrays(lp);
  model.loadProblem(arrays.matrix, arrays.column_lower.data(), arrays.column_upper.data(), lp.cost.data(),
                    arrays.row_lower.data(), arrays.row_upper.data());
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
