#pragma once
// A primal-dual interior-point method for l2_svm.hpp's problem, solved in its dual (Ferris and Munson,
// "Interior-point methods for massive support vector machines", SIAM J. Optim. 13(3), 2002; Mehrotra's
// predictor-corrector as in Nocedal and Wright, Numerical Optimization, 2nd ed., Algorithm 16.4):
//
//   minimize_alpha  f(alpha) = ||eta + Z'alpha||^2 / (4 lambda) [+ sum_i alpha_i^2 / (4 C_i)] - m.alpha
//   subject to      0 <= alpha_i [<= C_i],   y'alpha = -kappa (unpenalized bias)
//
// Examples with C_i = 0 have alpha_i = 0 and are left out; so are columns with v_j = 0. Every Newton
// step solves with K = Theta + Z Z' / (2 lambda) (Theta diagonal: the barrier's z_l/alpha + z_u/(C - alpha),
// plus the squared hinge's 1/(2 C_i)), in the smaller of two forms:
//   examples (n <= d)  K itself, n x n, from the Gram matrix Z Z' formed once per solve;
//   features (d < n)   Sherman-Morrison-Woodbury: K^{-1} r = D r - D Z M^{-1} Z' D r with D = Theta^{-1}
//                      and M = 2 lambda I + Z' D Z, d x d (the normal equations of the primal);
// each by dense Cholesky after a symmetric diagonal equilibration, then one step of iterative refinement
// against K applied exactly. The equality constraint costs one more solve per iteration (a Schur
// complement of size 1). A step costs O(n d min(n, d)), and the method takes 15-40 of them whatever the
// data's scale and C, where dual CD's epochs grow with both.
//
// Certificate: at every iteration alpha is clipped into the box and moved onto the equality, w(alpha)
// and b (minus the equality's multiplier, or s beta) give P, the clipped alpha gives D; the solve is
// optimal when P - D <= relative_gap |P| (or rounding of P's terms), and keeps the iterate with the
// smallest gap: a solve that misses its gap returns that iterate as solved_inaccurate.
#include <cstddef>

#include "core/dataset.hpp"
#include "optim/l2_svm.hpp"

namespace sparsesvm::optim {

// The largest system factored: min(n, d) <= 3000 (3000^2 doubles = 72 MB), and in the features regime a
// dense copy of Z with at most 5e7 entries (400 MB).
constexpr double kInteriorPointMaxSystem = 3000;
constexpr double kInteriorPointMaxEntries = 5e7;

struct InteriorPointOptions {
  double relative_gap = 1e-6;
  int max_iterations = 100;
};

class InteriorPointSvm {
 public:
  explicit InteriorPointSvm(const core::Dataset& train) : data_(train) {}

  // Whether the dense system for this problem fits the limits above.
  bool affordable(const L2SvmProblem& problem) const;
  // Floating-point operations of a solve of about 30 iterations (the portfolio's budget for dual CD).
  double estimated_work(const L2SvmProblem& problem) const;
  // Bytes of the dense matrices a solve allocates; solve() refuses (core::ResourceError) above the
  // memory budget before allocating them.
  double estimated_bytes(const L2SvmProblem& problem) const;

  // invalid_argument on a malformed problem; infeasible when sum y alpha = -kappa is out of reach;
  // numerical_error (no model) when the box around the equality has no interior.
  L2SvmSolution solve(const L2SvmProblem& problem, const InteriorPointOptions& options = {}) const;

 private:
  const core::Dataset& data_;
};

}  // namespace sparsesvm::optim
