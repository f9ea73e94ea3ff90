// Capped l1 with strength  phi(a) = lambda min(a, theta), theta > 0            shared/ADMM.md, "Problem (1)"
// The ADMM paper's parametrization of the DCA paper's capped_l1 (capped_l1.cpp: lambda outside, a = theta);
// it is its own penalty so that the four ADMM penalties share the parameters (lambda, theta).
// Slope      lambda below the cap, 0 at and beyond it
// Prox       clip(a - c lambda, 0, theta) and max(a, theta)
#include "models/penalties/folded_concave.hpp"

namespace sparsesvm::models {
namespace {

class CappedPenalty : public FoldedConcavePenalty {
 public:
  CappedPenalty(double lambda, double theta) : FoldedConcavePenalty("capped", lambda, theta) {}
  std::optional<CappedAbs> capped_abs() const override { return CappedAbs{lambda(), theta()}; }

 protected:
  double phi(double x, double lambda) const override { return lambda * std::min(x, theta()); }
  double slope(double x) const override { return x < theta() ? lambda() : 0.0; }
  std::vector<double> prox_candidates(double a, double c, double lambda) const override {
    return {clip(a - c * lambda, 0.0, theta()), std::max(a, theta())};
  }
};

}  // namespace

PenaltyInfo capped_penalty_info() {
  return folded_concave_info<CappedPenalty>("capped", "sum_j lambda min(|w_j|, theta)",
                                       "[ADMM] capped-l1; shared/ADMM.md", 1.0, 0.0,
                                       "capped-l1 cap theta > 0: weights beyond theta cost lambda theta");
}

}  // namespace sparsesvm::models
