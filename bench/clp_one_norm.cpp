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
#include <fmt/format.h>
#include <string>

#include "one_norm_clp.hpp"

using namespace sparsesvm;

int main(int argc, char** argv) {
  if (argc < 4) {
    fmt::print(stderr, "usage: clp_one_norm FILE LAMBDA barrier|dual|primal|automatic [N_FEATURES]\n");
    return 1;
  }
  const core::Dataset data = bench::read_sparse(argv[1], argc > 4 ? argv[4] : nullptr);
  const std::string algorithm = argv[3];
  ClpSimplex model;
  bench::load_one_norm_lp(data, std::stod(argv[2]), model);
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
  bench::print_clp_result(model, data.d(), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return 0;
}
