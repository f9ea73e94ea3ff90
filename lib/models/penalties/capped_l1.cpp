// Capped l1        Omega(w) = sum_j min(a, |w_j|)                  [DCA] eq. (6)
// DC split         g = ||w||_1,  h = sum_j max(0, |w_j| - a)        [DCA] eq. (7)
// Subgradient of h v_j = sign(w_j) where |w_j| >= a, else 0          [DCA] eq. (27)
// Used by CapOneNormSVM and RLSVMC1 (a = 1). Parameter "a" is the cap.
#include <cmath>
#include <fmt/format.h>

#include "models/penalties/penalty.hpp"

namespace sparsesvm::models {
namespace {

class CappedL1Penalty : public Penalty {
 public:
  explicit CappedL1Penalty(double a) : a_(a) {}
  std::string id() const override { return fmt::format("capped_l1[a={}]", a_); }
  double value(const core::Vector& w) const override { return w.array().abs().min(a_).sum(); }
  Regularizer convex_regularizer() const override { return Regularizer::l1; }
  core::Vector concave_subgradient(const core::Vector& w) const override {
    return w.unaryExpr([this](double t) { return std::abs(t) >= a_ ? (t > 0 ? 1.0 : -1.0) : 0.0; });
  }
  bool is_convex() const override { return false; }
  // phi(t) = min(a, t): phi'(t) = 1 below the cap, 0 at and beyond it.
  core::Vector abs_slope(const core::Vector& w) const override {
    return w.unaryExpr([this](double t) { return std::abs(t) < a_ ? 1.0 : 0.0; });
  }
  std::optional<CappedAbs> capped_abs() const override { return CappedAbs{1.0, a_}; }

 private:
  double a_;
};

}  // namespace

PenaltyInfo capped_l1_penalty_info() {
  ParameterSpec a{"a", "the cap: weights beyond a cost no more than a", 1.0, 0.0, 1e6};
  return {"capped_l1", "sum_j min(a, |w_j|)", "[DCA] eq. (6)-(7), (27)", {a},
          [](const Hyperparameters& h) { return std::make_shared<const CappedL1Penalty>(h.at("a")); }};
}

}  // namespace sparsesvm::models
