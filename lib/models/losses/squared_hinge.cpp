// Squared hinge loss   max(0, 1 - t)^2   (the L2-SVM of [RW] eq. (1); liblinear -s 1)
// Convex and smooth, but not a scaled hinge: the LP/QP steps of convex_step.hpp cannot run it, the
// dual coordinate descent of optim/dual_cd.hpp (RW's inner solver) can.
#include <algorithm>
#include <limits>
#include <stdexcept>

#include "models/losses/loss.hpp"

namespace sparsesvm::models {
namespace {

class SquaredHingeLoss : public Loss {
 public:
  std::string id() const override { return "squared_hinge"; }
  double value(double t) const override {
    const double r = std::max(0.0, 1.0 - t);
    return r * r;
  }
  bool has_hinge_split() const override { return false; }
  double convex_scale() const override { throw no_split(); }
  double convex_margin() const override { throw no_split(); }
  double concave_slope(double) const override { throw no_split(); }
  bool is_convex() const override { return true; }
  std::pair<double, double> support_region() const override { return {-std::numeric_limits<double>::infinity(), 1.0}; }

 private:
  static std::logic_error no_split() { return std::logic_error("squared_hinge has no hinge-shaped DC split"); }
};

}  // namespace

LossInfo squared_hinge_loss_info() {
  return {"squared_hinge", "max(0, 1 - t)^2", "[RW] eq. (1), L2-SVM", {},
          [](const Hyperparameters&) { return std::make_shared<const SquaredHingeLoss>(); }};
}

}  // namespace sparsesvm::models
