#pragma once
// Per-feature statistics over the observed (non-NaN) values; shared by describe-data and the
// transforms that are fitted on a training part.
#include <cstddef>
#include <vector>

#include "core/dataset.hpp"

namespace sparsesvm::data {

struct FeatureStats {
  std::size_t observed = 0;  // non-missing values
  std::size_t missing = 0;
  double min = 0.0;
  double max = 0.0;
  double mean = 0.0;
  double stddev = 0.0;  // population standard deviation (divide by the observed count)
};

// One entry per feature. Sparse data counts its implicit zeros as observed values.
std::vector<FeatureStats> feature_stats(const core::Dataset& data);

}  // namespace sparsesvm::data
