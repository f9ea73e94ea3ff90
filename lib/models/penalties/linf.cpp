// l_inf penalty   Omega(w) = ||w||_inf  (convex, g = l_inf)   [FSV] (12), SVM-inf
#include "models/penalties/penalty.hpp"

namespace sparsesvm::models {
namespace {

class LInfPenalty : public Penalty {
 public:
  std::string id() const override { return "linf"; }
  double value(const core::Vector& w) const override { return w.size() ? w.lpNorm<Eigen::Infinity>() : 0.0; }
  Regularizer convex_regularizer() const override { return Regularizer::linf; }
};

}  // namespace

PenaltyInfo linf_penalty_info() {
  return {"linf", "||w||_inf", "[FSV] (12)", {},
          [](const Hyperparameters&) { return std::make_shared<const LInfPenalty>(); }};
}

}  // namespace sparsesvm::models
