#pragma once
// What clp_one_norm and clp_crossover share: a data file read sparse, OneNormSVM's full LP (min lambda
// ||w||_1 + sum_i xi_i, y_i (x_i.(w+ - w-) + b) + xi_i >= 1, w+, w-, xi >= 0; models::build_lp's columns
// w+ (d), w- (d), b, xi (n)) loaded into a ClpSimplex, and the line both print at the end.
#include <ClpSimplex.hpp>
#include <cmath>
#include <fmt/format.h>
#include <string>

#include "data/load.hpp"
#include "models/convex_step.hpp"
#include "optim/coin_problem.hpp"

namespace sparsesvm::bench {

// n_features: the file's number of features when given (nullptr: the largest index read).
inline core::Dataset read_sparse(const std::string& path, const char* n_features) {
  data::DataSource source{path, "auto", {{"storage", "sparse"}}};
  if (n_features != nullptr) source.options["n_features"] = n_features;
  return data::load_dataset(source);
}

// The convex step's full LP (models::build_lp) with OneNormSVM's costs: lambda on w+ and w-, 1 on xi.
inline void load_one_norm_lp(const core::Dataset& data, double lambda, ClpSimplex& model) {
  optim::LpProblem lp = models::build_lp(data, false);
  const auto d = static_cast<Eigen::Index>(data.d());
  lp.cost.head(2 * d).setConstant(lambda);
  lp.cost.tail(static_cast<Eigen::Index>(data.n())).setOnes();
  const optim::CoinArrays arrays = optim::coin_arrays(lp);
  model.loadProblem(arrays.matrix, arrays.column_lower.data(), arrays.column_upper.data(), lp.cost.data(),
                    arrays.row_lower.data(), arrays.row_upper.data());
}

inline void print_clp_result(const ClpSimplex& model, std::size_t d, double seconds) {
  const double* solution = model.getColSolution();
  int nonzero = 0;
  for (std::size_t j = 0; j < d; ++j) nonzero += std::abs(solution[j] - solution[d + j]) > 1e-9 ? 1 : 0;
  fmt::print("status {} objective {:.10g} iterations {} seconds {:.1f} nonzero weights {}\n", model.status(),
             model.objectiveValue(), model.numberIterations(), seconds, nonzero);
}

}  // namespace sparsesvm::bench
