// A stand-in shaped like LIBSVM's mushrooms ([ADMM] section 4: 8124 x 112, binary, about 21 nonzeros per
// row): n examples of `attributes` categorical attributes, one-hot encoded into d binary columns (the
// columns split over the attributes as evenly as possible), stored sparse (CSR). Each example draws every
// attribute's level uniformly. The label follows a planted rule on the first `informative` attributes:
// every level of those has a weight N(0, 1), centred over the attribute's levels, and y = sign(sum of the
// drawn levels' weights) (+1 at 0). Label noise comes from the common flip keys. The informative features
// are the columns of the informative attributes. Not the real data: a stand-in for its shape.
#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "data/generators/generator_registry.hpp"

namespace sparsesvm::data {

std::size_t check_sparse_categorical(const GeneratorParams& params) {
  const std::size_t n = params.count("n");
  const std::size_t d = params.count("d");
  const std::size_t attributes = params.count("attributes");
  const std::size_t informative_attributes = params.count("informative");
  check_sample_size("sparse_categorical", n, d);
  if (n < 2 || attributes < 1 || attributes > d || informative_attributes < 1 || informative_attributes > attributes) {
    throw core::InputError("generator sparse_categorical: need n >= 2, 1 <= attributes <= d and 1 <= informative <= "
                           "attributes");
  }
  return n;
}

core::Dataset make_sparse_categorical(const GeneratorParams& params) {
  const std::size_t n = check_sparse_categorical(params);
  const std::size_t d = params.count("d");
  const std::size_t attributes = params.count("attributes");
  const std::size_t informative_attributes = params.count("informative");
  // Attribute a owns the columns [first[a], first[a + 1]).
  std::vector<std::size_t> first(attributes + 1, 0);
  for (std::size_t a = 0; a < attributes; ++a) first[a + 1] = first[a] + d / attributes + (a < d % attributes ? 1 : 0);
  core::Rng rng(params.seed());
  std::vector<double> level_weight(d, 0.0);
  for (std::size_t a = 0; a < informative_attributes; ++a) {
    double mean = 0.0;
    for (std::size_t j = first[a]; j < first[a + 1]; ++j) mean += level_weight[j] = rng.normal(0.0, 1.0);
    mean /= static_cast<double>(first[a + 1] - first[a]);
    for (std::size_t j = first[a]; j < first[a + 1]; ++j) level_weight[j] -= mean;
  }
  std::vector<Eigen::Triplet<double>> ones;
  ones.reserve(n * attributes);
  core::Vector y(static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i) {
    double score = 0.0;
    for (std::size_t a = 0; a < attributes; ++a) {
      const std::size_t levels = first[a + 1] - first[a];
      const std::size_t j = first[a] + std::min(levels - 1, static_cast<std::size_t>(rng.uniform(0.0, 1.0) * static_cast<double>(levels)));
      ones.emplace_back(static_cast<int>(i), static_cast<int>(j), 1.0);
      score += level_weight[j];
    }
    y[static_cast<Eigen::Index>(i)] = score >= 0 ? 1.0 : -1.0;
  }
  core::SparseMatrix x(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
  x.setFromTriplets(ones.begin(), ones.end());
  std::vector<bool> informative(d, false);
  for (std::size_t j = 0; j < first[informative_attributes]; ++j) informative[j] = true;
  core::Dataset data("sparse_categorical", std::move(x), std::move(y), {},
                     generator_provenance("sparse_categorical", params));
  data.set_informative_features(std::move(informative));
  return data;
}

}  // namespace sparsesvm::data
