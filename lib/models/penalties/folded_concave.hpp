#pragma once
// The nonconvex penalties of the ADMM paper (shared/ADMM.md, "Problem (1)"): p(w) = sum_j phi(|w_j|) with
// phi concave and nondecreasing on [0, inf), a strength lambda and a shape theta. Each file (lsp.cpp,
// scad.cpp, mcp.cpp, capped.cpp) gives phi, its slope and the candidate minimizers of its prox; this base
// derives the rest:
//   DC split         g = phi'(0) ||w||_1,  h = sum_j phi'(0)|w_j| - phi(|w_j|)  (convex since phi' decreases)
//   subgradient of h v_j = sign(w_j) (phi'(0) - phi'(|w_j|)), 0 at w_j = 0
//   prox             argmin_x (1/2)(x - u)^2 + c phi(|x|) = sign(u) x*, x* the best of the candidates on
//                    x >= 0 (the stationary point of each piece where phi is smooth, clipped to the
//                    piece, and the breakpoints), compared by value (ADMM.md, "Proximal operators").
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "models/penalties/penalty.hpp"

namespace sparsesvm::models {

class FoldedConcavePenalty : public Penalty {
 public:
  FoldedConcavePenalty(std::string name, double lambda, double theta);
  std::string id() const override;
  double value(const core::Vector& w) const override;
  Regularizer convex_regularizer() const override { return Regularizer::l1; }
  double convex_weight() const override { return slope(0.0); }
  core::Vector concave_subgradient(const core::Vector& w) const override;
  bool is_convex() const override { return false; }
  core::Vector abs_slope(const core::Vector& w) const override;
  bool has_prox() const override { return true; }
  double prox(double u, double step, ProxRule rule) const override;

  double lambda() const { return lambda_; }
  double theta() const { return theta_; }

 protected:
  // phi(x) for x >= 0 at strength `lambda` (the prox of the public code changes the strength).
  virtual double phi(double x, double lambda) const = 0;
  // phi'(x) for x >= 0 (the right derivative at a kink) at the penalty's own strength.
  virtual double slope(double x) const = 0;
  // Points of x >= 0 among which argmin_x (1/2)(x - a)^2 + c phi(x, lambda) lies, for a = |u| >= 0.
  virtual std::vector<double> prox_candidates(double a, double c, double lambda) const = 0;

 private:
  std::string name_;
  double lambda_;
  double theta_;
};

// The parameter specs every penalty of this family shares: lambda (strength, default 2^-6 as published)
// and theta (shape) with the given default and lower bound.
ParameterTable folded_concave_parameters(double theta_default, double theta_lower, const std::string& theta_description);

// The registry row of a penalty `P` of this family (constructed from lambda and theta).
template <typename P>
PenaltyInfo folded_concave_info(const std::string& id, const std::string& formula, const std::string& citation,
                                double theta_default, double theta_lower, const std::string& theta_description) {
  return {id, formula, citation, folded_concave_parameters(theta_default, theta_lower, theta_description),
          [](const Hyperparameters& h) { return std::make_shared<const P>(h.at("lambda"), h.at("theta")); }};
}

// min(hi, max(lo, x))
double clip(double x, double lo, double hi);

}  // namespace sparsesvm::models
