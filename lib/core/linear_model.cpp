#include "core/linear_model.hpp"

#include <cmath>
#include <fmt/format.h>

#include "core/errors.hpp"

namespace sparsesvm::core {

Vector LinearModel::decision_values(const Dataset& data) const {
  if (data.d() != static_cast<std::size_t>(w_.size())) {
    throw InputError(fmt::format("model has {} weights but data set {} has {} features", w_.size(), data.name(),
                                 data.d()));
  }
  Vector values = data.times(w_);
  values.array() += b_;
  return values;
}

Vector LinearModel::predict(const Dataset& data) const {
  return decision_values(data).unaryExpr([](double f) { return f >= 0.0 ? 1.0 : -1.0; });
}

double LinearModel::accuracy(const Dataset& data) const {
  if (data.n() == 0) return 0.0;
  const Vector predicted = predict(data);
  return static_cast<double>((predicted.array() == data.labels().array()).count()) / static_cast<double>(data.n());
}

std::size_t LinearModel::count_nonzeros(double threshold) const { return selected_features(threshold).size(); }

std::vector<std::size_t> LinearModel::selected_features(double threshold) const {
  std::vector<std::size_t> selected;
  for (Eigen::Index j = 0; j < w_.size(); ++j) {
    if (std::abs(w_[j]) > threshold) selected.push_back(static_cast<std::size_t>(j));
  }
  return selected;
}

}  // namespace sparsesvm::core
