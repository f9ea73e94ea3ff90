#include "data/generators/label_noise.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "core/errors.hpp"

namespace sparsesvm::data {

std::vector<std::size_t> flip_labels(core::Dataset& data, std::size_t count, core::Rng& rng) {
  if (count > data.n()) {
    throw core::InputError(
        fmt::format("data set {}: cannot flip {} labels of {} examples", data.name(), count, data.n()));
  }
  std::vector<std::size_t> rows = rng.sample_without_replacement(data.n(), count);
  std::sort(rows.begin(), rows.end());
  core::Vector labels = data.labels();
  for (std::size_t row : rows) labels[static_cast<Eigen::Index>(row)] *= -1.0;
  data.set_labels(std::move(labels));
  data.mutable_provenance().parameters.emplace_back("flipped_rows", fmt::format("{}", count));
  return rows;
}

std::size_t count_for_fraction(double fraction, std::size_t n) {
  if (!(fraction >= 0.0 && fraction <= 1.0)) {
    throw core::InputError(fmt::format("flip_fraction must lie in [0, 1], found {}", fraction));
  }
  return static_cast<std::size_t>(std::llround(fraction * static_cast<double>(n)));
}

}  // namespace sparsesvm::data
