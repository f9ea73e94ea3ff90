// Hinge loss   max(0, 1 - t)                    [DCA] eq. (1); [FSV] (4), (12)-(14)
// DC split     g = hinge, h = 0 (convex).
#include <algorithm>
#include <limits>

#include "models/losses/loss.hpp"

namespace sparsesvm::models {
namespace {

class HingeLoss : public Loss {
 public:
  std::string id() const override { return "hinge"; }
  double value(double t) const override { return std::max(0.0, 1.0 - t); }
  double convex_scale() const override { return 1.0; }
  double convex_margin() const override { return 1.0; }
  double concave_slope(double) const override { return 0.0; }
  bool is_convex() const override { return true; }
  std::pair<double, double> support_region() const override { return {-std::numeric_limits<double>::infinity(), 1.0}; }
  std::optional<CappedHinge> capped_hinge() const override { return CappedHinge{}; }
};

}  // namespace

LossInfo hinge_loss_info() {
  return {"hinge", "max(0, 1 - t)", "[DCA] eq. (1)", {},
          [](const Hyperparameters&) { return std::make_shared<const HingeLoss>(); }};
}

}  // namespace sparsesvm::models
