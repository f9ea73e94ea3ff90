// l1 penalty   Omega(w) = ||w||_1  (convex, g = l1)     [DCA] A.2, A.5; [FSV] (13)
#include <algorithm>
#include <cmath>

#include "models/penalties/penalty.hpp"

namespace sparsesvm::models {
namespace {

class L1Penalty : public Penalty {
 public:
  std::string id() const override { return "l1"; }
  double value(const core::Vector& w) const override { return w.lpNorm<1>(); }
  Regularizer convex_regularizer() const override { return Regularizer::l1; }
  core::Vector abs_slope(const core::Vector& w) const override { return core::Vector::Ones(w.size()); }
  bool has_prox() const override { return true; }
  // Soft thresholding: sign(u) max(|u| - step, 0).
  double prox(double u, double step, ProxRule) const override { return std::copysign(std::max(std::abs(u) - step, 0.0), u); }
  std::optional<CappedAbs> capped_abs() const override { return CappedAbs{}; }
};

}  // namespace

PenaltyInfo l1_penalty_info() {
  return {"l1", "||w||_1", "[DCA] A.2", {}, [](const Hyperparameters&) { return std::make_shared<const L1Penalty>(); }};
}

}  // namespace sparsesvm::models
