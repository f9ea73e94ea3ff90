// [RW] section 4.3: "100 examples with 200 features each. The examples are equally split between the
// two binary labels. Each label is distributed as a spherical unit-variance Gaussian [...] their means
// at a distance of three from each other. [...] d_rel features are at different means 1.5y/sqrt(d_rel)."
// The relevant features are the first d_rel; positives are listed first.
#include <cmath>
#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "data/generators/generator_registry.hpp"

namespace sparsesvm::data {

std::size_t check_rw_relevant(const GeneratorParams& params) {
  const std::size_t n = params.count("n");
  const std::size_t d = params.count("d");
  check_sample_size("rw_relevant", n, d);
  const std::size_t d_rel = params.count("d_rel");
  params.real("distance");
  if (n < 2 || d_rel < 1 || d_rel > d) throw core::InputError("generator rw_relevant: need n >= 2 and 1 <= d_rel <= d");
  return n;
}

core::Dataset make_rw_relevant(const GeneratorParams& params) {
  const std::size_t n = check_rw_relevant(params);
  const std::size_t d = params.count("d");
  const std::size_t d_rel = params.count("d_rel");
  const double distance = params.real("distance");
  const double mean_shift = distance / (2.0 * std::sqrt(static_cast<double>(d_rel)));
  core::Rng rng(params.seed());
  core::DenseMatrix x(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
  core::Vector y(static_cast<Eigen::Index>(n));
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    y[i] = static_cast<std::size_t>(i) < n / 2 ? 1.0 : -1.0;
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      const bool relevant = static_cast<std::size_t>(j) < d_rel;
      x(i, j) = rng.normal(relevant ? mean_shift * y[i] : 0.0, 1.0);
    }
  }
  std::vector<bool> informative(d, false);
  for (std::size_t j = 0; j < d_rel; ++j) informative[j] = true;
  core::Dataset data("rw_relevant", std::move(x), std::move(y), {}, generator_provenance("rw_relevant", params));
  data.set_informative_features(std::move(informative));
  return data;
}

}  // namespace sparsesvm::data
