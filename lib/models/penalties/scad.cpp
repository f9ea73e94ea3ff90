// SCAD (Fan and Li)  on a = |t|, theta > 2:                                    shared/ADMM.md, "Problem (1)"
//   phi(a) = lambda a                                          a <= lambda
//            (-a^2 + 2 theta lambda a - lambda^2) / (2(theta - 1))   lambda < a <= theta lambda
//            (theta + 1) lambda^2 / 2                          a > theta lambda
// Slope      lambda; (theta lambda - a)/(theta - 1); 0
// Prox       per piece: clip(a - c lambda, 0, lambda); on the middle piece the stationary point
//            ((theta - 1) a - c theta lambda) / (theta - 1 - c) when theta - 1 > c (the piece is convex),
//            else its endpoints; max(a, theta lambda); plus the breakpoints lambda and theta lambda.
#include "models/penalties/folded_concave.hpp"

namespace sparsesvm::models {
namespace {

class ScadPenalty : public FoldedConcavePenalty {
 public:
  ScadPenalty(double lambda, double theta) : FoldedConcavePenalty("scad", lambda, theta) {}

 protected:
  double phi(double x, double lambda) const override {
    const double t = theta();
    if (x <= lambda) return lambda * x;
    if (x <= t * lambda) return (-x * x + 2.0 * t * lambda * x - lambda * lambda) / (2.0 * (t - 1.0));
    return (t + 1.0) * lambda * lambda / 2.0;
  }
  double slope(double x) const override {
    if (x <= lambda()) return lambda();
    return std::max(0.0, (theta() * lambda() - x) / (theta() - 1.0));
  }
  std::vector<double> prox_candidates(double a, double c, double lambda) const override {
    const double t = theta();
    std::vector<double> candidates = {clip(a - c * lambda, 0.0, lambda), lambda, t * lambda, std::max(a, t * lambda)};
    if (t - 1.0 > c) {
      candidates.push_back(clip(((t - 1.0) * a - c * t * lambda) / (t - 1.0 - c), lambda, t * lambda));
    }
    return candidates;
  }
};

}  // namespace

PenaltyInfo scad_penalty_info() {
  return folded_concave_info<ScadPenalty>("scad", "sum_j SCAD(|w_j|; lambda, theta)",
                                       "[ADMM] SCAD (Fan and Li 2001); shared/ADMM.md", 3.7, 2.0,
                                       "SCAD shape theta > 2 (3.7 as published): constant beyond theta lambda");
}

}  // namespace sparsesvm::models
