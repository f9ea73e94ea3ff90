// Log-sum penalty (LSP)  phi(a) = lambda log(1 + a/theta), theta > 0          shared/ADMM.md, "Problem (1)"
// Slope            phi'(a) = lambda / (theta + a)  (so g = (lambda/theta) ||w||_1)
// Prox             stationary points solve x^2 + (theta - a) x + (c lambda - a theta) = 0; none when
//                  (a + theta)^2 < 4 c lambda (then x* = 0); candidates 0 and both roots clipped at 0.
#include <cmath>

#include "models/penalties/folded_concave.hpp"

namespace sparsesvm::models {
namespace {

class LspPenalty : public FoldedConcavePenalty {
 public:
  LspPenalty(double lambda, double theta) : FoldedConcavePenalty("lsp", lambda, theta) {}

 protected:
  double phi(double x, double lambda) const override { return lambda * std::log1p(x / theta()); }
  double slope(double x) const override { return lambda() / (theta() + x); }
  std::vector<double> prox_candidates(double a, double c, double lambda) const override {
    const double discriminant = (a + theta()) * (a + theta()) - 4.0 * c * lambda;
    if (discriminant < 0) return {0.0};
    const double root = std::sqrt(discriminant);
    return {0.0, std::max(0.0, (a - theta() + root) / 2.0), std::max(0.0, (a - theta() - root) / 2.0)};
  }
};

}  // namespace

PenaltyInfo lsp_penalty_info() {
  return folded_concave_info<LspPenalty>("lsp", "sum_j lambda log(1 + |w_j|/theta)",
                                       "[ADMM] LSP; shared/ADMM.md", 1.0, 0.0,
                                       "LSP scale theta > 0: log(1 + |w|/theta)");
}

}  // namespace sparsesvm::models
