#include "models/objective.hpp"

namespace sparsesvm::models {

core::Vector margins(const core::Dataset& data, const core::Vector& w, double b) {
  return (data.labels().array() * (data.times(w).array() + b)).matrix();
}

double Objective::value_at(const core::Vector& t, const core::Vector& w) const {
  double total = 0.0;
  for (Eigen::Index i = 0; i < t.size(); ++i) total += example_weights[i] * loss->value(t[i]);
  return total + penalty_weight * penalty->value(w);
}

double Objective::value(const core::Dataset& data, const core::Vector& w, double b) const {
  return value_at(margins(data, w, b), w);
}

}  // namespace sparsesvm::models
