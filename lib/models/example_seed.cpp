#include "models/example_seed.hpp"

#include <algorithm>
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

template <typename Rows>
Seed ascend(const core::Dataset& data, const StepLpCosts& costs, int epochs, const Rows& rows) {
  const auto n = static_cast<Eigen::Index>(data.n());
  const core::Vector& y = data.labels();
  RegularizedPoint point(costs, static_cast<Eigen::Index>(data.d()));
  core::Vector alpha = core::Vector::Zero(n);
  double y_alpha = 0.0;
  double b = -costs.bias / point.eps;
  std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  core::Rng rng(20060701);  // fixed: the seed, and so the LP's path, depend on the data alone
  for (int epoch = 0; epoch < epochs; ++epoch) {
    rng.shuffle(order);
    for (const Eigen::Index i : order) {
      const auto [product, curvature] = rows.product_and_curvature(i, point);
      const double gradient = costs.margin[i] - y[i] * (product + b);
      // Newton on the current piece: the second derivative in alpha_i is -(1 + curvature) / eps.
      const double next = std::clamp(alpha[i] + gradient * point.eps / (1.0 + curvature), 0.0, costs.slack[i]);
      const double step = next - alpha[i];
      if (step == 0.0) continue;
      alpha[i] = next;
      rows.add(i, step * y[i], point);
      y_alpha += step * y[i];
      b = (y_alpha - costs.bias) / point.eps;
    }
  }
  Seed seed;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (alpha[i] > 0.0) seed.examples.push_back(i);
  }
  for (Eigen::Index j = 0; j < point.w.size(); ++j) {
    if (point.w[j] != 0.0) seed.features.push_back(j);
  }
  return seed;
}

}  // namespace

Seed seed_working_sets(const core::Dataset& data, const StepLpCosts& costs, int epochs) {
  if (((costs.plus + costs.minus).array() < 0.0).any() || feature_cost_scale(costs) <= 0.0) return {};
  if (data.is_sparse()) return ascend(data, costs, epochs, SparseRows{data.sparse()});
  return ascend(data, costs, epochs, DenseRows{data.dense()});
}

}  // namespace sparsesvm::models
