// mu-ramp loss  (1/mu) max(0, mu - t) - (1/mu) max(0, -mu^2 - t),  mu in (0, 1]   [DCA] eq. (2)
// DC split      g = (1/mu) max(0, mu - t),  h = (1/mu) max(0, -mu^2 - t)          [DCA] eq. (3)
// Value: mu + 1 below -mu^2, 1 - t/mu in between, 0 above mu. Slope of h: -1/mu strictly below -mu^2,
// 0 at and above it ([DCA] eq. (19)). Used by RLSVM2, RLSVM1, RLSVM0, RLSVMC1. Parameter "mu".
#include <fmt/format.h>

#include "models/losses/loss.hpp"

namespace sparsesvm::models {
namespace {

class RampLoss : public Loss {
 public:
  explicit RampLoss(double mu) : mu_(mu) {}
  std::string id() const override { return fmt::format("ramp[mu={}]", mu_); }
  double value(double t) const override {
    if (t < -mu_ * mu_) return mu_ + 1.0;
    if (t > mu_) return 0.0;
    return 1.0 - t / mu_;
  }
  double convex_scale() const override { return 1.0 / mu_; }
  double convex_margin() const override { return mu_; }
  double concave_slope(double t) const override { return t < -mu_ * mu_ ? -1.0 / mu_ : 0.0; }
  bool is_convex() const override { return false; }
  std::pair<double, double> support_region() const override { return {-mu_ * mu_, mu_}; }
  std::optional<CappedHinge> capped_hinge() const override { return CappedHinge{1.0 / mu_, mu_, mu_ + 1.0}; }

 private:
  double mu_;
};

}  // namespace

LossInfo ramp_loss_info() {
  // mu below 1e-6 would put hinge weights of 1/mu beyond what the LP solver can take.
  ParameterSpec mu{"mu", "width of the ramp: the loss is linear on [-mu^2, mu]", 1.0, 1e-6, 1.0, false, false};
  return {"ramp", "(1/mu) max(0, mu - t) - (1/mu) max(0, -mu^2 - t)", "[DCA] eq. (2)-(3)", {mu},
          [](const Hyperparameters& h) { return std::make_shared<const RampLoss>(h.at("mu")); }};
}

}  // namespace sparsesvm::models
