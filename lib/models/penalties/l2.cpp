// Squared l2 penalty   Omega(w) = ||w||_2^2  (convex, g = l2^2)   [DCA] A.1, A.4; [FSV] (14)
#include "models/penalties/penalty.hpp"

namespace sparsesvm::models {
namespace {

class L2SquaredPenalty : public Penalty {
 public:
  std::string id() const override { return "l2"; }
  double value(const core::Vector& w) const override { return w.squaredNorm(); }
  Regularizer convex_regularizer() const override { return Regularizer::l2_squared; }
};

}  // namespace

PenaltyInfo l2_penalty_info() {
  return {"l2", "||w||_2^2", "[DCA] A.1", {},
          [](const Hyperparameters&) { return std::make_shared<const L2SquaredPenalty>(); }};
}

}  // namespace sparsesvm::models
