#pragma once
// Tiny data sets whose solutions are known in closed form, and a random one for agreement tests.
#include <vector>

#include "core/dataset.hpp"
#include "core/rng.hpp"
#include "models/convex_step.hpp"

namespace sparsesvm::testing {

// Two points, x = +1 (y = +1) and x = -1 (y = -1), plus a second feature equal for both (0.5), which no
// sparse method should use: any w2 can be traded for b.
inline core::Dataset two_points() {
  core::DenseMatrix x(2, 2);
  x << 1.0, 0.5, -1.0, 0.5;
  core::Vector y(2);
  y << 1.0, -1.0;
  return core::Dataset("two_points", x, y, {}, {});
}

// n points of two overlapping Gaussian classes in d dimensions, the first `informative` carrying signal.
inline core::Dataset random_problem(std::size_t n, std::size_t d, std::uint64_t seed, std::size_t informative = 2) {
  core::Rng rng(seed);
  core::DenseMatrix x(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
  core::Vector y(static_cast<Eigen::Index>(n));
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    y[i] = i % 2 == 0 ? 1.0 : -1.0;
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      x(i, j) = rng.normal(static_cast<std::size_t>(j) < informative ? 0.8 * y[i] : 0.0, 1.0);
    }
  }
  return core::Dataset("random", x, y, {}, {});
}

// Issue 37's uniform sparse draw at any size (bench/uniform_sparse_draw.py's recipe, our own draws): each
// cell present with probability `density`, its value uniform on [0, 1); y_i the sign of a Gaussian
// weighting of the first `label_features` features, ties (rows with none of them) broken by a tiny
// Gaussian. With d well above n it is separable, and its 1-norm SVM keeps most of n features.
inline core::Dataset uniform_sparse_draw(std::size_t n, std::size_t d, double density, std::size_t label_features,
                                         std::uint64_t seed) {
  core::Rng rng(seed);
  core::Vector label_weights(static_cast<Eigen::Index>(label_features));
  for (Eigen::Index j = 0; j < label_weights.size(); ++j) label_weights[j] = rng.normal();
  std::vector<Eigen::Triplet<double>> entries;
  core::Vector y(static_cast<Eigen::Index>(n));
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    double score = 1e-9 * rng.normal();
    for (Eigen::Index j = 0; j < static_cast<Eigen::Index>(d); ++j) {
      if (!rng.bernoulli(density)) continue;
      const double value = rng.uniform();
      entries.emplace_back(i, j, value);
      if (j < label_weights.size()) score += value * label_weights[j];
    }
    y[i] = score > 0.0 ? 1.0 : -1.0;
  }
  core::SparseMatrix x(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
  x.setFromTriplets(entries.begin(), entries.end());
  return core::Dataset("uniform_sparse", std::move(x), y, {}, {});
}

// `data` with feature j multiplied by factors[j] (the same labels): a badly scaled copy of a problem.
inline core::Dataset scaled_features(const core::Dataset& data, const core::Vector& factors) {
  core::DenseMatrix x(static_cast<Eigen::Index>(data.n()), static_cast<Eigen::Index>(data.d()));
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      x(i, j) = factors[j] * data.value(static_cast<std::size_t>(i), static_cast<std::size_t>(j));
    }
  }
  return core::Dataset("scaled", x, data.labels(), {}, {});
}

// OneNormSVM's convex step on `data`: every C_i and margin 1, the l1 penalty at weight lambda, no tilt.
inline models::ConvexStep one_norm_step(const core::Dataset& data, double lambda) {
  models::ConvexStep step;
  step.hinge_weight = core::Vector::Ones(static_cast<Eigen::Index>(data.n()));
  step.margin = core::Vector::Ones(static_cast<Eigen::Index>(data.n()));
  step.regularizer = models::Regularizer::l1;
  step.regularizer_weight = lambda;
  return step;
}

}  // namespace sparsesvm::testing
