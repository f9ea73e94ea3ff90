#include "models/example_seed.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/rng.hpp"

namespace sparsesvm::models {
namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The primal point of the regularized problem as a function of alpha (example_seed.hpp).
struct RegularizedPoint {
  RegularizedPoint(const StepLpCosts& step_costs, Eigen::Index d)
      : costs(step_costs), eps(kEpsPerFeatureCost * feature_cost_scale(step_costs)), g(core::Vector::Zero(d)),
        w(core::Vector::Zero(d)), on(core::Vector::Zero(d)) {}
  const StepLpCosts& costs;
  double eps;
  core::Vector g;   // sum_i alpha_i y_i x_i
  core::Vector w;   // S(g) / eps
  core::Vector on;  // 1 where w_j != 0, else 0: the features in the current piece's curvature
  // w_j and on_j from g_j. With p_j + q_j >= 0 at most one of the two terms is nonzero.
  void shrink(Eigen::Index j) {
    w[j] = (std::max(g[j] - costs.plus[j], 0.0) + std::min(g[j] + costs.minus[j], 0.0)) / eps;
    on[j] = w[j] != 0.0 ? 1.0 : 0.0;
  }
};

// Rows of dense data, row-major so that each row is contiguous: products are vectorized, and an update
// recomputes all of w (d entries) at once.
struct DenseRows {
  RowMajorMatrix x;
  // (x_i.w, sum_j on_j x_ij^2)
  std::pair<double, double> product_and_curvature(Eigen::Index i, const RegularizedPoint& point) const {
    return {x.row(i).dot(point.w), x.row(i).cwiseAbs2().dot(point.on)};
  }
  void add(Eigen::Index i, double scale, RegularizedPoint& point) const {
    point.g += scale * x.row(i).transpose();
    point.w = ((point.g - point.costs.plus).cwiseMax(0.0) + (point.g + point.costs.minus).cwiseMin(0.0)) / point.eps;
    point.on = (point.w.array() != 0.0).cast<double>().matrix();
  }
};

// Rows of sparse data: only the stored entries of row i are read and updated.
struct SparseRows {
  const core::SparseMatrix& x;
  std::pair<double, double> product_and_curvature(Eigen::Index i, const RegularizedPoint& point) const {
    double product = 0.0, curvature = 0.0;
    for (core::SparseMatrix::InnerIterator it(x, i); it; ++it) {
      product += it.value() * point.w[it.col()];
      curvature += it.value() * it.value() * point.on[it.col()];
    }
    return {product, curvature};
  }
  void add(Eigen::Index i, double scale, RegularizedPoint& point) const {
    for (core::SparseMatrix::InnerIterator it(x, i); it; ++it) {
      point.g[it.col()] += scale * it.value();
      point.shrink(it.col());
    }
  }
};

// Dual coordinate ascent on the regularized problem, in place; `sharpen` divides eps by 10 and carries
// on from the same alpha.
template <typename Rows>
class Ascent {
 public:
  Ascent(const core::Dataset& data, const StepLpCosts& costs, const Rows& rows)
      : costs_(costs), rows_(rows), y_(data.labels()), point_(costs, static_cast<Eigen::Index>(data.d())),
        alpha_(core::Vector::Zero(static_cast<Eigen::Index>(data.n()))), b_(-costs.bias / point_.eps),
        order_(data.n()) {
    std::iota(order_.begin(), order_.end(), Eigen::Index{0});
  }

  void run(int epochs) {
    for (int epoch = 0; epoch < epochs; ++epoch) {
      rng_.shuffle(order_);
      for (const Eigen::Index i : order_) update(i);
    }
  }

  void sharpen() {
    point_.eps /= 10.0;
    for (Eigen::Index j = 0; j < point_.w.size(); ++j) point_.shrink(j);
    b_ = (y_alpha_ - costs_.bias) / point_.eps;
  }

  bool at_cost(Eigen::Index i) const { return alpha_[i] > 0.0 && alpha_[i] == costs_.slack[i]; }

  bool any_at_cost() const {
    for (Eigen::Index i = 0; i < alpha_.size(); ++i) {
      if (at_cost(i)) return true;
    }
    return false;
  }

  Seed seed() const {
    Seed seed;
    for (Eigen::Index i = 0; i < alpha_.size(); ++i) {
      if (alpha_[i] > 0.0) seed.examples.push_back(i);
      if (at_cost(i)) seed.at_cost.push_back(i);
    }
    for (Eigen::Index j = 0; j < point_.w.size(); ++j) {
      if (point_.w[j] != 0.0) seed.features.push_back(j);
    }
    seed.largest_weight = std::max(largest_magnitude(point_.w), std::abs(b_));
    return seed;
  }

 private:
  void update(Eigen::Index i) {
    const auto [product, curvature] = rows_.product_and_curvature(i, point_);
    const double gradient = costs_.margin[i] - y_[i] * (product + b_);
    // Newton on the current piece: the second derivative in alpha_i is -(1 + curvature) / eps.
    const double next = std::clamp(alpha_[i] + gradient * point_.eps / (1.0 + curvature), 0.0, costs_.slack[i]);
    const double step = next - alpha_[i];
    if (step == 0.0) return;
    alpha_[i] = next;
    rows_.add(i, step * y_[i], point_);
    y_alpha_ += step * y_[i];
    b_ = (y_alpha_ - costs_.bias) / point_.eps;
  }

  const StepLpCosts& costs_;
  const Rows& rows_;
  const core::Vector& y_;
  RegularizedPoint point_;
  core::Vector alpha_;
  double y_alpha_ = 0.0;
  double b_;
  std::vector<Eigen::Index> order_;
  core::Rng rng_{20060701};  // fixed: the seed, and so the LP's path, depend on the data alone
};

template <typename Rows>
Seed ascend(const core::Dataset& data, const StepLpCosts& costs, const SeedEpochs& epochs, const Rows& rows) {
  Ascent<Rows> ascent(data, costs, rows);
  ascent.run(epochs.first);
  if (epochs.sharpened > 0 && ascent.any_at_cost()) {
    ascent.sharpen();
    ascent.run(epochs.sharpened);
  }
  return ascent.seed();
}

}  // namespace

Seed seed_working_sets(const core::Dataset& data, const StepLpCosts& costs, const SeedEpochs& epochs) {
  if (((costs.plus + costs.minus).array() < 0.0).any() || feature_cost_scale(costs) <= 0.0) return {};
  if (data.is_sparse()) return ascend(data, costs, epochs, SparseRows{data.sparse()});
  return ascend(data, costs, epochs, DenseRows{data.dense()});
}

}  // namespace sparsesvm::models
