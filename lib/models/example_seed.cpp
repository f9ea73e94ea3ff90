#include "models/example_seed.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

#include "core/memory_budget.hpp"
#include "core/rng.hpp"

namespace sparsesvm::models {
namespace {

using core::RowMajorMatrix;

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

// Rows of dense data. An update changes g_j for every feature, but the l1 cost keeps most w_j at 0, so
// the ascent works on candidate features: those with g_j within a fifth of its threshold's size of the
// nonzero region (g_j > p_j - |p_j| / 5 or g_j < -q_j + |q_j| / 5: every w_j != 0 among them), at first
// all of them. Their columns are copied row-major, so that a row's products and an update read contiguous
// memory (vectorized), and g, w and on are kept for them alone. Every kRefreshEpochs epochs g is
// recomputed whole from alpha, every w_j from it, and the candidates chosen again; in between a feature
// outside them keeps w_j = 0. On the gisette-shaped set (nips2003_shaped 6000 x 5000, lambda 1) 200 epochs
// take 2.8 s instead of 6.9 s updating every feature, and the seed that follows is as good (912 examples
// and 408 features against 915 and 406; 6189 simplex iterations against 6248).
// The copy holds n x d doubles at the first refresh (every feature a candidate); where the memory budget
// has no room for it, the candidates' entries are read in place from X instead (strided, slower, the
// same ascent up to the order of its sums).
class DenseRows {
 public:
  static constexpr int kRefreshEpochs = 10;
  DenseRows(const core::DenseMatrix& x, bool copy) : x_(x), copy_(copy) {}
  // (x_i.w, sum_j on_j x_ij^2)
  std::pair<double, double> product_and_curvature(Eigen::Index i, const RegularizedPoint& /*point*/) const {
    if (copy_) return {rows().row(i).dot(w_), rows().row(i).cwiseAbs2().dot(on_)};
    double product = 0.0, curvature = 0.0;
    for (Eigen::Index k = 0; k < w_.size(); ++k) {
      const double value = x_(i, candidates_[static_cast<std::size_t>(k)]);
      product += value * w_[k];
      curvature += value * value * on_[k];
    }
    return {product, curvature};
  }
  // g, then w and on as RegularizedPoint::shrink gives them, vectorized.
  void add(Eigen::Index i, double scale, const RegularizedPoint& point) {
    if (copy_) {
      g_ += scale * rows().row(i).transpose();
    } else {
      for (Eigen::Index k = 0; k < g_.size(); ++k) g_[k] += scale * x_(i, candidates_[static_cast<std::size_t>(k)]);
    }
    w_ = ((g_ - plus_).cwiseMax(0.0) + (g_ + minus_).cwiseMin(0.0)) / point.eps;
    on_ = (w_.array() != 0.0).cast<double>().matrix();
  }
  // g = X'(alpha y) afresh, every w_j and on_j from it (point), and the candidates (every feature when
  // `every_feature`) with their columns.
  void refresh(const core::Vector& alpha_y, RegularizedPoint& point, bool every_feature) {
    point.g.noalias() = x_.transpose() * alpha_y;
    candidates_.clear();
    for (Eigen::Index j = 0; j < point.g.size(); ++j) {
      point.shrink(j);
      const double plus = point.costs.plus[j], minus = point.costs.minus[j];
      const bool near = point.g[j] > plus - 0.2 * std::abs(plus) || point.g[j] < -minus + 0.2 * std::abs(minus);
      if (every_feature || near) candidates_.push_back(j);
    }
    const auto m = static_cast<Eigen::Index>(candidates_.size());
    g_.resize(m);
    plus_.resize(m);
    minus_.resize(m);
    w_.resize(m);
    on_.resize(m);
    if (copy_) {
      if (every_feature) columns_.resize(static_cast<std::size_t>(x_.size()));  // once: no copy is larger
      copy_columns(candidates_);
    }
    for (Eigen::Index k = 0; k < m; ++k) {
      const Eigen::Index j = candidates_[static_cast<std::size_t>(k)];
      g_[k] = point.g[j];
      plus_[k] = point.costs.plus[j];
      minus_[k] = point.costs.minus[j];
      w_[k] = point.w[j];
      on_[k] = point.on[j];
    }
  }

 private:
  // The candidates' columns, row-major.
  Eigen::Map<const RowMajorMatrix> rows() const { return {columns_.data(), x_.rows(), g_.size()}; }

  // The columns `candidates` of x into columns_, row by row, a block of 64 rows at a time: the pieces of
  // the columns a block reads stay in cache from one row to the next.
  void copy_columns(const std::vector<Eigen::Index>& candidates) {
    constexpr Eigen::Index kBlockRows = 64;
    const auto m = static_cast<Eigen::Index>(candidates.size());
    for (Eigen::Index first = 0; first < x_.rows(); first += kBlockRows) {
      const Eigen::Index last = std::min(first + kBlockRows, x_.rows());
      for (Eigen::Index i = first; i < last; ++i) {
        double* row = columns_.data() + i * m;
        for (Eigen::Index k = 0; k < m; ++k) row[k] = x_(i, candidates[static_cast<std::size_t>(k)]);
      }
    }
  }

  const core::DenseMatrix& x_;
  bool copy_;
  std::vector<Eigen::Index> candidates_;  // the candidate features, ascending
  std::vector<double> columns_;  // with copy_: n x (candidates), row-major
  core::Vector g_, plus_, minus_, w_, on_;  // g, p, q, w and on of the candidates
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
  // Every update keeps the point exact: nothing to refresh.
  static constexpr int kRefreshEpochs = 0;
  void refresh(const core::Vector& /*alpha_y*/, RegularizedPoint& /*point*/, bool /*every_feature*/) {}
};

// Dual coordinate ascent on the regularized problem, in place; `sharpen` divides eps by 10 and carries
// on from the same alpha.
template <typename Rows>
class Ascent {
 public:
  Ascent(const core::Dataset& data, const StepLpCosts& costs, Rows rows)
      : costs_(costs), rows_(std::move(rows)), y_(data.labels()), point_(costs, static_cast<Eigen::Index>(data.d())),
        alpha_(core::Vector::Zero(static_cast<Eigen::Index>(data.n()))), b_(-costs.bias / point_.eps),
        order_(data.n()) {
    std::iota(order_.begin(), order_.end(), Eigen::Index{0});
    refresh(true);
  }

  // Passes over the examples in random order; the point is exact for every feature at the end.
  void run(int epochs) {
    for (int epoch = 1; epoch <= epochs; ++epoch) {
      rng_.shuffle(order_);
      for (const Eigen::Index i : order_) update(i);
      if (Rows::kRefreshEpochs > 0 && (epoch % Rows::kRefreshEpochs == 0 || epoch == epochs)) refresh(false);
    }
  }

  void sharpen() {
    point_.eps /= 10.0;
    for (Eigen::Index j = 0; j < point_.w.size(); ++j) point_.shrink(j);
    refresh(false);
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
  void refresh(bool every_feature) { rows_.refresh((alpha_.array() * y_.array()).matrix(), point_, every_feature); }

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
  Rows rows_;
  const core::Vector& y_;
  RegularizedPoint point_;
  core::Vector alpha_;
  double y_alpha_ = 0.0;
  double b_;
  std::vector<Eigen::Index> order_;
  core::Rng rng_{20060701};  // fixed: the seed, and so the LP's path, depend on the data alone
};

template <typename Rows>
Seed ascend(const core::Dataset& data, const StepLpCosts& costs, const SeedEpochs& epochs, Rows rows) {
  Ascent<Rows> ascent(data, costs, std::move(rows));
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
  // DenseRows copies the candidates' columns, at first all of them (n x d doubles beside X), where the
  // memory budget has room; else it reads X in place.
  const bool copy = core::fits_in_memory_budget(core::feature_matrix_bytes(data));
  return ascend(data, costs, epochs, DenseRows(data.dense(), copy));
}

}  // namespace sparsesvm::models
