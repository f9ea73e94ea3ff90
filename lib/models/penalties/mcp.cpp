// MCP (Zhang)  on a = |t|, theta > 0:                                          shared/ADMM.md, "Problem (1)"
//   phi(a) = lambda a - a^2 / (2 theta)     a <= theta lambda
//            theta lambda^2 / 2            a > theta lambda
// Slope      max(0, lambda - a/theta)
// Prox       on [0, theta lambda] the stationary point theta (a - c lambda) / (theta - c) when theta > c
//            (the piece is convex), else its endpoints 0 and theta lambda; max(a, theta lambda) beyond.
#include "models/penalties/folded_concave.hpp"

namespace sparsesvm::models {
namespace {

class McpPenalty : public FoldedConcavePenalty {
 public:
  McpPenalty(double lambda, double theta) : FoldedConcavePenalty("mcp", lambda, theta) {}

 protected:
  double phi(double x, double lambda) const override {
    const double t = theta();
    return x <= t * lambda ? lambda * x - x * x / (2.0 * t) : t * lambda * lambda / 2.0;
  }
  double slope(double x) const override { return std::max(0.0, lambda() - x / theta()); }
  std::vector<double> prox_candidates(double a, double c, double lambda) const override {
    const double t = theta();
    std::vector<double> candidates = {0.0, t * lambda, std::max(a, t * lambda)};
    if (t > c) candidates.push_back(clip(t * (a - c * lambda) / (t - c), 0.0, t * lambda));
    return candidates;
  }
};

}  // namespace

PenaltyInfo mcp_penalty_info() {
  return folded_concave_info<McpPenalty>("mcp", "sum_j MCP(|w_j|; lambda, theta)",
                                       "[ADMM] MCP (Zhang 2010); shared/ADMM.md", 3.0, 0.0,
                                       "MCP shape theta > 0: constant beyond theta lambda");
}

}  // namespace sparsesvm::models
