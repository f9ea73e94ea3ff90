// psi loss   psi_a(t) = 2 for t < 0,  a (1 - t) on [0, 1],  0 for t > 1,  a in (0, 2]   [PSI] (3.6)
// (t in [-1e-6, 0) counts as 0: kPsiBoundaryTolerance, psi.hpp)
// Discontinuous at 0 (from 2 to a) and flat outside [0, 1]: no DC split with a hinge-shaped convex
// part, so DCA cannot run it; the MIP of algorithms/psi_mip.cpp ([PSI] (3.7)-(3.14)) does. Parameter
// "psi_a" (named apart from the penalties' "a").
#include <fmt/format.h>

#include <stdexcept>

#include "models/losses/loss.hpp"
#include "models/losses/psi.hpp"

namespace sparsesvm::models {
namespace {

class PsiLoss : public Loss {
 public:
  explicit PsiLoss(double a) : a_(a) {}
  std::string id() const override { return fmt::format("psi[psi_a={}]", a_); }
  double value(double t) const override {
    if (t < -kPsiBoundaryTolerance) return 2.0;
    if (t > 1.0) return 0.0;
    return a_ * (1.0 - t);
  }
  bool has_hinge_split() const override { return false; }
  double convex_scale() const override { throw no_split(); }
  double convex_margin() const override { throw no_split(); }
  double concave_slope(double) const override { throw no_split(); }
  bool is_convex() const override { return false; }
  // Where the loss is not flat (the MIP's region 2).
  std::pair<double, double> support_region() const override { return {0.0, 1.0}; }

 private:
  static std::logic_error no_split() { return std::logic_error("psi has no hinge-shaped DC split"); }
  double a_;
};

}  // namespace

LossInfo psi_loss_info() {
  ParameterSpec a{"psi_a", "slope of the psi loss on [0, 1]: psi(t) = psi_a (1 - t) there, 2 below 0, 0 above 1",
                  0.5, 0.0, 2.0, true, false};
  return {"psi", "2 for t < 0, psi_a (1 - t) on [0, 1], 0 for t > 1", "[PSI] (3.6)", {a},
          [](const Hyperparameters& h) { return std::make_shared<const PsiLoss>(h.at("psi_a")); }};
}

}  // namespace sparsesvm::models
