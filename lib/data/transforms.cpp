#include "data/transforms.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <stdexcept>

#include "core/errors.hpp"
#include "data/summary.hpp"

namespace sparsesvm::data {

using core::InputError;

namespace {

core::DenseMatrix& dense_for(core::Dataset& data, const std::string& transform) {
  if (data.is_sparse()) {
    throw InputError(fmt::format("transform {} would make sparse data {} dense; use unit_norm, or load it dense",
                                 transform, data.name()));
  }
  return data.mutable_dense();
}

void check_fitted(const core::Vector& learned, const core::Dataset& data, const std::string& transform) {
  if (learned.size() == 0) throw std::logic_error(fmt::format("transform {} applied before fit", transform));
  if (static_cast<std::size_t>(learned.size()) != data.d()) {
    throw InputError(fmt::format("transform {} was fitted on {} features, data set {} has {}", transform,
                                 learned.size(), data.name(), data.d()));
  }
}

// The vector `name` of a restored state, of `size` entries.
const core::Vector& learned_vector(const Transform::Learned& learned, const std::string& name, std::size_t size,
                                   const std::string& transform) {
  for (const auto& [key, values] : learned) {
    if (key != name) continue;
    if (static_cast<std::size_t>(values.size()) != size) {
      throw InputError(fmt::format("transform {}: '{}' has {} values, {} expected", transform, name, values.size(), size));
    }
    return values;
  }
  throw InputError(fmt::format("transform {}: '{}' is missing", transform, name));
}

// Applies x' = (x - shift_j) * factor_j column by column.
void affine_columns(core::DenseMatrix& x, const core::Vector& shift, const core::Vector& factor) {
  for (Eigen::Index j = 0; j < x.cols(); ++j) x.col(j) = (x.col(j).array() - shift[j]) * factor[j];
}

}  // namespace

void Standardizer::fit(const core::Dataset& train) {
  const std::vector<FeatureStats> stats = feature_stats(train);
  mean_.resize(static_cast<Eigen::Index>(stats.size()));
  scale_.resize(mean_.size());
  for (std::size_t j = 0; j < stats.size(); ++j) {
    const auto k = static_cast<Eigen::Index>(j);
    mean_[k] = stats[j].observed > 0 ? stats[j].mean : 0.0;
    // A mean or deviation that overflows (values beyond ~1e154) would zero the feature silently.
    if (!std::isfinite(stats[j].mean) || !std::isfinite(stats[j].stddev)) {
      throw core::InputError(fmt::format("data set {}: feature {} ('{}'): values too large to standardize (their "
                                         "deviation overflows); rescale the data first",
                                         train.name(), j, train.feature_names()[j]));
    }
    scale_[k] = stats[j].stddev > 0 ? 1.0 / stats[j].stddev : 1.0;
  }
}

void Standardizer::apply(core::Dataset& data) const {
  check_fitted(mean_, data, name());
  affine_columns(dense_for(data, name()), mean_, scale_);
}

void Standardizer::restore(const Learned& learned, std::size_t d) {
  mean_ = learned_vector(learned, "mean", d, name());
  scale_ = learned_vector(learned, "scale", d, name());
}

RangeScaler::RangeScaler(double lower, double upper) : lower_(lower), upper_(upper) {
  if (!(lower < upper)) throw InputError(fmt::format("scale: lower {} must be below upper {}", lower, upper));
}

void RangeScaler::fit(const core::Dataset& train) {
  const std::vector<FeatureStats> stats = feature_stats(train);
  min_.resize(static_cast<Eigen::Index>(stats.size()));
  range_.resize(min_.size());
  for (std::size_t j = 0; j < stats.size(); ++j) {
    const auto k = static_cast<Eigen::Index>(j);
    min_[k] = stats[j].observed > 0 ? stats[j].min : 0.0;
    const double width = stats[j].observed > 0 ? stats[j].max - stats[j].min : 0.0;
    range_[k] = width > 0 ? (upper_ - lower_) / width : 0.0;
  }
}

void RangeScaler::apply(core::Dataset& data) const {
  check_fitted(min_, data, name());
  core::DenseMatrix& x = dense_for(data, name());
  affine_columns(x, min_, range_);
  x.array() += lower_;
  // A feature constant on the training part maps to the middle of the range.
  for (Eigen::Index j = 0; j < x.cols(); ++j) {
    if (range_[j] == 0.0) x.col(j).setConstant(0.5 * (lower_ + upper_));
  }
}

Transform::Learned RangeScaler::learned() const {
  return {{"bounds", core::Vector{{lower_, upper_}}}, {"min", min_}, {"range", range_}};
}

void RangeScaler::restore(const Learned& learned, std::size_t d) {
  const core::Vector& bounds = learned_vector(learned, "bounds", 2, name());
  if (!(bounds[0] < bounds[1])) throw InputError(fmt::format("scale: lower {} must be below upper {}", bounds[0], bounds[1]));
  lower_ = bounds[0];
  upper_ = bounds[1];
  min_ = learned_vector(learned, "min", d, name());
  range_ = learned_vector(learned, "range", d, name());
}

void UnitNormRows::apply(core::Dataset& data) const {
  if (data.is_sparse()) {
    core::SparseMatrix& x = data.mutable_sparse();
    for (Eigen::Index i = 0; i < x.outerSize(); ++i) {
      const double norm = x.row(i).norm();
      if (norm > 0) x.row(i) /= norm;
    }
    return;
  }
  core::DenseMatrix& x = data.mutable_dense();
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const double norm = x.row(i).norm();
    if (norm > 0) x.row(i) /= norm;
  }
}

void MeanImputer::fit(const core::Dataset& train) {
  const std::vector<FeatureStats> stats = feature_stats(train);
  mean_.resize(static_cast<Eigen::Index>(stats.size()));
  for (std::size_t j = 0; j < stats.size(); ++j) {
    if (stats[j].observed == 0) {
      throw InputError(fmt::format("impute_mean: feature {} ({}) of {} has no observed value in the training part",
                                   j + 1, train.feature_names()[j], train.name()));
    }
    mean_[static_cast<Eigen::Index>(j)] = stats[j].mean;
  }
}

void MeanImputer::restore(const Learned& learned, std::size_t d) { mean_ = learned_vector(learned, "mean", d, name()); }

void MeanImputer::apply(core::Dataset& data) const {
  check_fitted(mean_, data, name());
  if (data.is_sparse()) {
    core::SparseMatrix& x = data.mutable_sparse();
    for (Eigen::Index i = 0; i < x.outerSize(); ++i) {
      for (core::SparseMatrix::InnerIterator it(x, i); it; ++it) {
        if (std::isnan(it.value())) it.valueRef() = mean_[it.col()];
      }
    }
    return;
  }
  core::DenseMatrix& x = data.mutable_dense();
  for (Eigen::Index j = 0; j < x.cols(); ++j) {
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
      if (std::isnan(x(i, j))) x(i, j) = mean_[j];
    }
  }
}

std::vector<std::string> transform_names() { return {"standardize", "scale", "unit_norm", "impute_mean"}; }

std::unique_ptr<Transform> make_transform(const std::string& name) {
  if (name == "standardize") return std::make_unique<Standardizer>();
  if (name == "scale") return std::make_unique<RangeScaler>();
  if (name == "unit_norm") return std::make_unique<UnitNormRows>();
  if (name == "impute_mean") return std::make_unique<MeanImputer>();
  throw InputError(fmt::format("unknown transform '{}' (known: {})", name, fmt::join(transform_names(), ", ")));
}

void fit_and_apply(const std::vector<std::unique_ptr<Transform>>& transforms, core::Dataset& train,
                   const std::vector<core::Dataset*>& others) {
  for (const auto& transform : transforms) {
    transform->fit(train);
    transform->apply(train);
    for (core::Dataset* other : others) transform->apply(*other);
  }
}

}  // namespace sparsesvm::data
