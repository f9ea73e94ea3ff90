#include "models/penalties/folded_concave.hpp"

#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace sparsesvm::models {

FoldedConcavePenalty::FoldedConcavePenalty(std::string name, double lambda, double theta)
    : name_(std::move(name)), lambda_(lambda), theta_(theta) {}

std::string FoldedConcavePenalty::id() const { return fmt::format("{}[lambda={},theta={}]", name_, lambda_, theta_); }

double FoldedConcavePenalty::value(const core::Vector& w) const {
  double total = 0.0;
  for (const double t : w) total += phi(std::abs(t), lambda_);
  return total;
}

core::Vector FoldedConcavePenalty::concave_subgradient(const core::Vector& w) const {
  const double slope_at_zero = slope(0.0);
  return w.unaryExpr([&](double t) { return t == 0.0 ? 0.0 : std::copysign(slope_at_zero - slope(std::abs(t)), t); });
}

core::Vector FoldedConcavePenalty::abs_slope(const core::Vector& w) const {
  return w.unaryExpr([&](double t) { return slope(std::abs(t)); });
}

double FoldedConcavePenalty::prox(double u, double step, ProxRule rule) const {
  const double a = std::abs(u);
  // public_code: unit weight at strength step * lambda (shared/ADMM.md, "Pitfall").
  const double c = rule == ProxRule::exact ? step : 1.0;
  const double strength = rule == ProxRule::exact ? lambda_ : step * lambda_;
  double best = 0.0;
  double best_value = std::numeric_limits<double>::infinity();
  for (const double x : prox_candidates(a, c, strength)) {
    const double h = 0.5 * (x - a) * (x - a) + c * phi(x, strength);
    if (h < best_value) {
      best_value = h;
      best = x;
    }
  }
  return std::copysign(best, u);
}

ParameterTable folded_concave_parameters(double theta_default, double theta_lower, const std::string& theta_description) {
  return {{"lambda", "strength of the penalty: F = mean hinge + sum_j p(w_j; lambda, theta) ([ADMM] (1))", 0.015625, 0.0,
           1e10, true, false, Scale::log, Regularizes::when_larger},
          {"theta", theta_description, theta_default, theta_lower, 1e10, true, false, Scale::log}};
}

double clip(double x, double lo, double hi) { return std::min(hi, std::max(lo, x)); }

}  // namespace sparsesvm::models
