// Approximate l0   Omega(w) = sum_j 1 - exp(-a |w_j|)                       [DCA] eq. (4); [FSV] eq. (7), a = alpha
// DC split         g = a ||w||_1,  h = sum_j a |w_j| - 1 + exp(-a |w_j|)     [DCA] eq. (5)
// Gradient of h    v_j = sign(w_j) a (1 - exp(-a |w_j|)), 0 at w_j = 0      [DCA] eq. (21)
// Tangent in |w|   phi'(|w_j|) = a exp(-a |w_j|)                          [FSV] (9), SLA
// Used by ZeroNormSVM and RLSVM0 (a = 4) and FSV (alpha = 5). Parameter "a".
#include <cmath>
#include <fmt/format.h>

#include "models/penalties/penalty.hpp"

namespace sparsesvm::models {
namespace {

class ApproxL0Penalty : public Penalty {
 public:
  explicit ApproxL0Penalty(double a) : a_(a) {}
  std::string id() const override { return fmt::format("approx_l0[a={}]", a_); }
  double value(const core::Vector& w) const override { return (1.0 - (-a_ * w.array().abs()).exp()).sum(); }
  Regularizer convex_regularizer() const override { return Regularizer::l1; }
  double convex_weight() const override { return a_; }
  core::Vector concave_subgradient(const core::Vector& w) const override {
    return w.unaryExpr([this](double t) {
      const double magnitude = a_ * (1.0 - std::exp(-a_ * std::abs(t)));
      return t >= 0 ? magnitude : -magnitude;
    });
  }
  bool is_convex() const override { return false; }
  // phi(t) = 1 - exp(-a t): phi'(t) = a exp(-a t)   ([FSV] (9): the cost alpha e^{-alpha v} of v = |w|)
  core::Vector abs_slope(const core::Vector& w) const override { return a_ * (-a_ * w.array().abs()).exp(); }

 private:
  double a_;
};

}  // namespace

PenaltyInfo approx_l0_penalty_info() {
  ParameterSpec a{"a", "steepness of the approximation 1 - exp(-a|w_j|) of the l0 norm", 4.0, 0.0, 1e6};
  return {"approx_l0", "sum_j 1 - exp(-a |w_j|)", "[DCA] eq. (4)-(5), (21)", {a},
          [](const Hyperparameters& h) { return std::make_shared<const ApproxL0Penalty>(h.at("a")); }};
}

}  // namespace sparsesvm::models
