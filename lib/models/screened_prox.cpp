#include "models/screened_prox.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace sparsesvm::models {

double shifted_soft_threshold(double v, double tau, double p, double q) {
  if (v > tau * p) return v - tau * p;
  if (v < -tau * q) return v + tau * q;
  return 0.0;
}

ColumnProducts::ColumnProducts(const core::Dataset& data) : data_(data) {
  if (data.is_sparse()) columns_ = data.sparse();
}

core::Vector ColumnProducts::times(const core::Vector& w) const {
  if (!data_.is_sparse()) return data_.times(w);
  core::Vector product = core::Vector::Zero(columns_.rows());
  for (Eigen::Index j = 0; j < columns_.outerSize(); ++j) {
    if (w[j] == 0.0) continue;
    for (ColumnMajor::InnerIterator entry(columns_, j); entry; ++entry) product[entry.index()] += entry.value() * w[j];
  }
  return product;
}

double ColumnProducts::column_dot(Eigen::Index j, const core::Vector& v) const {
  if (!data_.is_sparse()) return data_.dense().col(j).dot(v);
  double sum = 0.0;
  for (ColumnMajor::InnerIterator entry(columns_, j); entry; ++entry) sum += entry.value() * v[entry.index()];
  return sum;
}

std::pair<double, double> ColumnProducts::column_norms(Eigen::Index j) const {
  if (!data_.is_sparse()) return {data_.dense().col(j).lpNorm<1>(), data_.dense().col(j).norm()};
  double l1 = 0.0, squares = 0.0;
  for (ColumnMajor::InnerIterator entry(columns_, j); entry; ++entry) {
    l1 += std::abs(entry.value());
    squares += entry.value() * entry.value();
  }
  return {l1, std::sqrt(squares)};
}

Eigen::Index ColumnProducts::column_size(Eigen::Index j) const {
  if (!data_.is_sparse()) return data_.dense().rows();
  return columns_.outerIndexPtr()[j + 1] - columns_.outerIndexPtr()[j];
}

ScreenedProx::ScreenedProx(const core::Dataset& data, const StepLpCosts& costs, const ColumnProducts& columns)
    : data_(data), costs_(costs), columns_(columns) {
  const auto d = static_cast<Eigen::Index>(data.d());
  l1_norms_.resize(d);
  l2_norms_.resize(d);
  for (Eigen::Index j = 0; j < d; ++j) {
    std::tie(l1_norms_[j], l2_norms_[j]) = columns_.column_norms(j);
    total_size_ += columns_.column_size(j);
  }
}

core::Vector ScreenedProx::step(const core::Vector& w, const core::Vector& alpha, const core::Vector& tau) {
  const auto prox = [&](Eigen::Index j, double g) {
    return shifted_soft_threshold(w[j] + tau[j] * g, tau[j], costs_.plus[j], costs_.minus[j]);
  };
  const core::Vector y_alpha = alpha.cwiseProduct(data_.labels());
  core::Vector next = core::Vector::Zero(w.size());
  if (slack_.size() == 0 || whole_products_due_ > 0) {
    const core::Vector g = data_.transpose_times(y_alpha);
    for (Eigen::Index j = 0; j < w.size(); ++j) next[j] = prox(j, g[j]);
    last_read_ = total_size_;
    whole_products_due_ = std::max(whole_products_due_ - 1, 0);
    if (whole_products_due_ == 0) take_reference(g, y_alpha);  // the next step screens from it
    return next;
  }
  const core::Vector moved = y_alpha - reference_y_alpha_;
  const double moved_l2 = moved.norm();
  const double moved_linf = moved.lpNorm<Eigen::Infinity>();
  last_read_ = 0;
  for (Eigen::Index j = 0; j < w.size(); ++j) {
    if (w[j] == 0.0 && std::min(l2_norms_[j] * moved_l2, l1_norms_[j] * moved_linf) < slack_[j]) continue;
    last_read_ += columns_.column_size(j);
    next[j] = prox(j, columns_.column_dot(j, y_alpha));
  }
  ++reference_age_;
  if (static_cast<double>(last_read_) > kScreenedShare * static_cast<double>(total_size_)) {
    // Past a fresh reference screening does not pay here: wait twice as long before the next try.
    // Past an older one, one new reference.
    screening_backoff_ = reference_age_ == 1 ? std::min(2 * screening_backoff_, kMaxBackoff) : 1;
    whole_products_due_ = screening_backoff_;
  }
  return next;
}

void ScreenedProx::take_reference(const core::Vector& g, const core::Vector& y_alpha) {
  reference_y_alpha_ = y_alpha;
  slack_ = (costs_.plus - g).cwiseMin(g + costs_.minus);
  reference_age_ = 0;
}

}  // namespace sparsesvm::models
