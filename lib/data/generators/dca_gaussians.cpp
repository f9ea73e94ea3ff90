// [DCA] section 4.1: "two 10 dimensional Gaussian distributions with variance 1.5, centered around the
// unit positive and negative vectors. In addition, we generated noise by sampling uniformly in the other
// dimensions. [...] we scaled the resulting dataset by 0.2." n = 100.
// Decisions where the paper is silent (shared/REPRODUCTION.md): the centres are +e and -e (e the
// all-ones vector); the classes are exactly balanced (ceil(n/2) positive, listed first); noise is
// uniform on [noise_low, noise_high] = [-1, 1].
#include <cmath>
#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "data/generators/generator_registry.hpp"

namespace sparsesvm::data {

std::size_t check_dca_gaussians(const GeneratorParams& params) {
  const std::size_t n = params.count("n");
  const std::size_t d = params.count("informative") + params.count("noise_dims");
  params.real("scale");
  if (n < 2 || d == 0 || !(params.real("noise_low") < params.real("noise_high")) || !(params.real("variance") > 0)) {
    throw core::InputError("generator dca_gaussians: need n >= 2, at least one dimension, noise_low < noise_high and "
                           "a positive variance");
  }
  check_sample_size("dca_gaussians", n, d);
  return n;
}

core::Dataset make_dca_gaussians(const GeneratorParams& params) {
  const std::size_t n = check_dca_gaussians(params);
  const std::size_t informative = params.count("informative");
  const std::size_t noise_dims = params.count("noise_dims");
  const double stddev = std::sqrt(params.real("variance"));
  const double noise_low = params.real("noise_low");
  const double noise_high = params.real("noise_high");
  const double scale = params.real("scale");
  const std::size_t d = informative + noise_dims;
  const std::size_t positives = (n + 1) / 2;
  core::Rng rng(params.seed());
  core::DenseMatrix x(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
  core::Vector y(static_cast<Eigen::Index>(n));
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    y[i] = static_cast<std::size_t>(i) < positives ? 1.0 : -1.0;
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      const bool signal = static_cast<std::size_t>(j) < informative;
      x(i, j) = scale * (signal ? rng.normal(y[i], stddev) : rng.uniform(noise_low, noise_high));
    }
  }
  std::vector<std::string> names;
  std::vector<bool> is_informative;
  for (std::size_t j = 0; j < d; ++j) {
    names.push_back(j < informative ? fmt::format("signal{}", j + 1) : fmt::format("noise{}", j + 1 - informative));
    is_informative.push_back(j < informative);
  }
  core::Dataset data("dca_gaussians", std::move(x), std::move(y), std::move(names),
                     generator_provenance("dca_gaussians", params));
  data.set_informative_features(std::move(is_informative));
  return data;
}

}  // namespace sparsesvm::data
