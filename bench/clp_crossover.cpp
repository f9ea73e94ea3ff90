// A crossover from a first-order point to an optimal basis of OneNormSVM's full LP (min lambda ||w||_1 +
// sum_i xi_i, y_i (x_i.(w+ - w-) + b) + xi_i >= 1), with Clp: how far the seed of `pdhg_one_norm.py` (its
// SAVE file: b, the d weights, the n multipliers) brings the simplex on the LPs where it struggles from the
// slack basis (docs/benchmarks.md, "Why that end is hard").
// Usage: clp_crossover FILE LAMBDA SEED MODE [N_FEATURES]
//   MODE values: Clp's primal simplex with a values pass from the seed's (w+, w-, b, xi).
//   MODE primal_basis | dual_basis: a basis guessed from the seed, then Clp's primal or dual simplex. Basic:
//   every nonzero weight (w+ or w-), b, xi_i of every example with margin below 1 - 1e-3; of the remaining
//   examples those with the largest margins have their row's slack basic, as many as make the basis square;
//   the rest, the |nonzero weights| + 1 examples nearest the margin, are tight.
// Prints the guessed basis' counts, Clp's log (level 1), then status, objective, iterations, seconds.
#include <ClpSimplex.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "one_norm_clp.hpp"

using namespace sparsesvm;

namespace {

struct Seed {
  double b = 0.0;
  core::Vector w;
};

// The seed file of the same data: b, d weights, n multipliers (read past, unused), nothing more.
Seed read_seed(const std::string& path, std::size_t d, std::size_t n) {
  std::ifstream in(path);
  Seed seed;
  if (!(in >> seed.b)) throw std::runtime_error(path + ": no bias on the first line");
  seed.w.resize(static_cast<Eigen::Index>(d));
  for (double& value : seed.w) {
    if (!(in >> value)) throw std::runtime_error(path + ": fewer than d weights");
  }
  std::size_t multipliers = 0;
  for (double value = 0.0; in >> value;) ++multipliers;
  if (multipliers != n || !in.eof()) {
    throw std::runtime_error(fmt::format("{}: expected 1 + {} + {} numbers (b, the weights, the multipliers), found "
                                         "1 + {} + {}{}", path, d, n, d, multipliers, in.eof() ? "" : " and text"));
  }
  return seed;
}

// y_i (x_i.w + b) for every example.
core::Vector margins(const core::Dataset& data, const Seed& seed) {
  return data.labels().cwiseProduct((data.times(seed.w).array() + seed.b).matrix());
}

void set_values(const core::Dataset& data, const Seed& seed, const core::Vector& margin, ClpSimplex& model) {
  const std::size_t d = data.d();
  std::vector<double> columns(2 * d + 1 + data.n(), 0.0);
  for (std::size_t j = 0; j < d; ++j) (seed.w[j] > 0 ? columns[j] : columns[d + j]) = std::abs(seed.w[j]);
  columns[2 * d] = seed.b;
  for (std::size_t i = 0; i < data.n(); ++i) columns[2 * d + 1 + i] = std::max(0.0, 1.0 - margin[i]);
  model.setColSolution(columns.data());
}

void set_basis(const core::Dataset& data, const Seed& seed, const core::Vector& margin, ClpSimplex& model) {
  const std::size_t d = data.d(), n = data.n();
  std::size_t basic_weights = 0;
  for (std::size_t j = 0; j < 2 * d + 1 + n; ++j) model.setColumnStatus(static_cast<int>(j), ClpSimplex::atLowerBound);
  for (std::size_t j = 0; j < d; ++j) {
    if (seed.w[j] == 0.0) continue;
    model.setColumnStatus(static_cast<int>(seed.w[j] > 0 ? j : d + j), ClpSimplex::basic);
    ++basic_weights;
  }
  model.setColumnStatus(static_cast<int>(2 * d), ClpSimplex::basic);
  std::vector<std::size_t> rest;
  std::size_t violated = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (margin[i] < 1.0 - 1e-3) {
      model.setColumnStatus(static_cast<int>(2 * d + 1 + i), ClpSimplex::basic);
      model.setRowStatus(static_cast<int>(i), ClpSimplex::atLowerBound);
      ++violated;
    } else {
      rest.push_back(i);
    }
  }
  std::sort(rest.begin(), rest.end(), [&](std::size_t a, std::size_t b) { return margin[a] < margin[b]; });
  const std::size_t tight = std::min(rest.size(), basic_weights + 1);
  for (std::size_t k = 0; k < rest.size(); ++k) {
    model.setRowStatus(static_cast<int>(rest[k]), k < tight ? ClpSimplex::atLowerBound : ClpSimplex::basic);
  }
  fmt::print("guessed basis: {} weights + b basic, {} examples inside the margin, {} tight, {} above\n",
             basic_weights, violated, tight, rest.size() - tight);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    fmt::print(stderr, "usage: clp_crossover FILE LAMBDA SEED values|primal_basis|dual_basis [N_FEATURES]\n");
    return 1;
  }
  const core::Dataset data = bench::read_sparse(argv[1], argc > 5 ? argv[5] : nullptr);
  Seed seed;
  try {
    seed = read_seed(argv[3], data.d(), data.n());
  } catch (const std::runtime_error& error) {
    fmt::print(stderr, "clp_crossover: {}\n", error.what());
    return 1;
  }
  const core::Vector margin = margins(data, seed);
  const std::string mode = argv[4];
  ClpSimplex model;
  bench::load_one_norm_lp(data, std::stod(argv[2]), model);
  model.setLogLevel(1);
  const auto start = std::chrono::steady_clock::now();
  if (mode == "values") {
    set_values(data, seed, margin, model);
    model.primal(1);
  } else if (mode == "primal_basis" || mode == "dual_basis") {
    set_basis(data, seed, margin, model);
    if (mode == "primal_basis") model.primal();
    else model.dual();
  } else {
    fmt::print(stderr, "unknown mode {} (values, primal_basis, dual_basis)\n", mode);
    return 1;
  }
  bench::print_clp_result(model, data.d(), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return 0;
}
