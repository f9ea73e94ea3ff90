#pragma once
// LinearModel: the classifier f(x) = <w, x> + b that every method returns. Prediction is sign(f(x)),
// with f(x) = 0 predicted as +1.
#include <cstddef>
#include <vector>

#include "core/dataset.hpp"

namespace sparsesvm::core {

// A weight counts as a selected feature when |w_j| exceeds this (DCA paper, section 4.1.1).
inline constexpr double kFeatureThreshold = 1e-6;

class LinearModel {
 public:
  LinearModel(Vector w, double b) : w_(std::move(w)), b_(b) {}

  const Vector& w() const { return w_; }
  double b() const { return b_; }

  // f(x_i) for every row; throws InputError when the data has a different number of features.
  Vector decision_values(const Dataset& data) const;
  Vector predict(const Dataset& data) const;
  // Fraction of rows whose prediction equals the label.
  double accuracy(const Dataset& data) const;
  std::size_t count_nonzeros(double threshold = kFeatureThreshold) const;
  std::vector<std::size_t> selected_features(double threshold = kFeatureThreshold) const;

 private:
  Vector w_;
  double b_;
};

}  // namespace sparsesvm::core
