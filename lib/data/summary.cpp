#include "data/summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sparsesvm::data {
namespace {

// Welford's running mean and variance, with min and max.
struct Accumulator {
  FeatureStats stats;
  double m2 = 0.0;

  void add(double value) {
    if (std::isnan(value)) {
      ++stats.missing;
      return;
    }
    if (stats.observed == 0) {
      stats.min = stats.max = value;
    } else {
      stats.min = std::min(stats.min, value);
      stats.max = std::max(stats.max, value);
    }
    ++stats.observed;
    const double delta = value - stats.mean;
    stats.mean += delta / static_cast<double>(stats.observed);
    m2 += delta * (value - stats.mean);
  }

  // `count` zeros at once (Chan et al.'s merge of two samples; the second has mean 0 and no spread):
  // the implicit zeros of a sparse column in O(1), not one by one.
  void add_zeros(std::size_t count) {
    if (count == 0) return;
    if (stats.observed == 0) {
      stats.min = stats.max = 0.0;
    } else {
      stats.min = std::min(stats.min, 0.0);
      stats.max = std::max(stats.max, 0.0);
    }
    const double before = static_cast<double>(stats.observed);
    const double total = before + static_cast<double>(count);
    const double delta = -stats.mean;
    stats.mean += delta * static_cast<double>(count) / total;
    m2 += delta * delta * before * static_cast<double>(count) / total;
    stats.observed += count;
  }

  FeatureStats finish() const {
    FeatureStats result = stats;
    if (result.observed == 0) {
      result.min = result.max = result.mean = std::numeric_limits<double>::quiet_NaN();
    }
    result.stddev = result.observed > 0 ? std::sqrt(m2 / static_cast<double>(result.observed)) : result.mean;
    return result;
  }
};

}  // namespace

std::vector<FeatureStats> feature_stats(const core::Dataset& data) {
  std::vector<Accumulator> accumulators(data.d());
  if (data.is_sparse()) {
    const core::SparseMatrix& m = data.sparse();
    std::vector<std::size_t> stored(data.d(), 0);
    for (Eigen::Index i = 0; i < m.outerSize(); ++i) {
      for (core::SparseMatrix::InnerIterator it(m, i); it; ++it) {
        accumulators[static_cast<std::size_t>(it.col())].add(it.value());
        ++stored[static_cast<std::size_t>(it.col())];
      }
    }
    for (std::size_t j = 0; j < data.d(); ++j) {
      accumulators[j].add_zeros(data.n() - stored[j]);
    }
  } else {
    const core::DenseMatrix& m = data.dense();
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      for (Eigen::Index i = 0; i < m.rows(); ++i) accumulators[static_cast<std::size_t>(j)].add(m(i, j));
    }
  }
  std::vector<FeatureStats> stats;
  stats.reserve(accumulators.size());
  for (const Accumulator& a : accumulators) stats.push_back(a.finish());
  return stats;
}

}  // namespace sparsesvm::data
