// A stand-in shaped like the NIPS 2003 feature selection sets (gisette: 6000 x 5000 dense with 2500
// probes; arcene: 200 x 10000 with 3000 probes; Guyon et al. 2004), for when the real files are absent.
// The d - probes real features share a low-dimensional class signal: example i has latent factors
// z_i ~ N(y_i (separation / (2 sqrt(latent))) 1, I_latent), feature j has loadings a_j ~ N(0, I / latent),
// and x_ij = a_j.z_i + N(0, 1). Each probe is a real feature's column with its values permuted across the
// examples: the same marginal distribution and no information on the label, as the challenge's probes
// were meant to be. Labels alternate +1, -1; the informative features are the real ones. Dense storage.
// Not the real data: a stand-in for its shape and its share of pure-noise features.
#include <fmt/format.h>

#include <numeric>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "data/generators/generator_registry.hpp"

namespace sparsesvm::data {

std::size_t check_nips2003_shaped(const GeneratorParams& params) {
  const std::size_t n = params.count("n");
  const std::size_t d = params.count("d");
  const std::size_t latent = params.count("latent");
  check_sample_size("nips2003_shaped", n, d);
  if (n < 2 || params.count("probes") >= d || latent < 1 || latent > 1000 || !(params.real("separation") >= 0 && params.real("separation") <= 1e3)) {
    throw core::InputError("generator nips2003_shaped: need n >= 2, probes < d, 1 <= latent <= 1000, 0 <= separation <= 1000");
  }
  return n;
}

core::Dataset make_nips2003_shaped(const GeneratorParams& params) {
  const std::size_t n = check_nips2003_shaped(params);
  const std::size_t d = params.count("d");
  const std::size_t probes = params.count("probes");
  const std::size_t latent = params.count("latent");
  const double separation = params.real("separation");
  const auto rows = static_cast<Eigen::Index>(n);
  const auto real = static_cast<Eigen::Index>(d - probes);
  const auto k = static_cast<Eigen::Index>(latent);
  core::Rng rng(params.seed());
  core::Vector y(rows);
  core::DenseMatrix z(rows, k);
  const double shift = separation / (2.0 * std::sqrt(static_cast<double>(latent)));
  for (Eigen::Index i = 0; i < rows; ++i) {
    y[i] = i % 2 == 0 ? 1.0 : -1.0;
    for (Eigen::Index c = 0; c < k; ++c) z(i, c) = rng.normal(y[i] * shift, 1.0);
  }
  core::DenseMatrix loadings(k, real);
  for (Eigen::Index j = 0; j < real; ++j) {
    for (Eigen::Index c = 0; c < k; ++c) loadings(c, j) = rng.normal(0.0, 1.0 / std::sqrt(static_cast<double>(latent)));
  }
  core::DenseMatrix x(rows, static_cast<Eigen::Index>(d));
  x.leftCols(real).noalias() = z * loadings;
  for (Eigen::Index j = 0; j < real; ++j) {
    for (Eigen::Index i = 0; i < rows; ++i) x(i, j) += rng.normal(0.0, 1.0);
  }
  std::vector<Eigen::Index> order(n);
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  for (Eigen::Index j = real; j < static_cast<Eigen::Index>(d); ++j) {
    const auto source = static_cast<Eigen::Index>(rng.index_below(static_cast<std::uint64_t>(real)));
    rng.shuffle(order);
    for (Eigen::Index i = 0; i < rows; ++i) x(i, j) = x(order[static_cast<std::size_t>(i)], source);
  }
  std::vector<bool> informative(d, false);
  std::fill(informative.begin(), informative.begin() + real, true);
  core::Dataset data("nips2003_shaped", std::move(x), std::move(y), {}, generator_provenance("nips2003_shaped", params));
  data.set_informative_features(std::move(informative));
  return data;
}

}  // namespace sparsesvm::data
