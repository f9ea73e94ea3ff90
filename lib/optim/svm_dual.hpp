#pragma once
// The l2-regularized hinge problem of the SVM methods and of every DCA step with an l2 penalty:
//
//   minimize_{w,b}  lambda ||w||^2 + sum_i C_i max(0, m_i - y_i (w.x_i + b)) - <eta, w> - kappa b
//
// with per-example upper bounds C_i, per-example margins m_i (the mu of the ramp loss) and the linear
// tilt (eta, kappa) of a DCA step ([DCA] A.4; [FSV] (14) with lambda -> lambda/2, C_i = 1 - lambda).
// Its dual, solved here, is
//
//   maximize_alpha  sum_i m_i alpha_i - lambda ||w(alpha)||^2,   w(alpha) = (eta + sum_i alpha_i y_i x_i) / (2 lambda)
//   subject to      0 <= alpha_i <= C_i,   sum_i y_i alpha_i = -kappa   (from the unpenalized bias b)
//
// by SMO: each iteration updates one pair (i, j), chosen by the second-order working-set rule of Fan,
// Chen and Lin (2005) as in LIBSVM, keeping the gradient G_t = y_t <x_t, w> - m_t up to date through a
// precomputed Gram matrix (O(n) per update, n x n memory); w is formed from alpha once, at the end
// (so large n, beyond a few thousand examples, needs a kernel-column cache not written yet). It stops when the
// maximal violation max_{I_up} -y G - min_{I_low} -y G falls below `tolerance`. The bias comes from the
// free examples (0 < alpha < C), or from the middle of the feasible interval when there are none.
// The primal and dual objectives are both reported, so every solve carries its duality gap.
#include <cstddef>
#include <string>

#include "core/dataset.hpp"
#include "core/status.hpp"

namespace sparsesvm::optim {

struct SvmDualProblem {
  double lambda = 1.0;       // > 0
  core::Vector upper;        // C_i >= 0
  core::Vector margin;       // m_i
  core::Vector tilt_w;       // eta (size d); empty means zero
  double tilt_b = 0.0;       // kappa
};

struct SvmDualOptions {
  double tolerance = 1e-5;          // stop when the maximal KKT violation m(alpha) - M(alpha) <= tolerance
  long max_iterations = 10'000'000;  // pair updates
};

struct SvmDualSolution {
  core::Status status = core::Status::numerical_error;
  std::string message;
  core::Vector w;
  double b = 0.0;
  core::Vector alpha;
  double primal_objective = 0.0;
  double dual_objective = 0.0;
  long iterations = 0;
};

class SvmDualSolver {
 public:
  // Precomputes the Gram matrix K = X X' of the training data (n x n doubles).
  explicit SvmDualSolver(const core::Dataset& train);

  // Starts from `warm_alpha` when it has n entries (clipped into the box and moved onto the equality
  // constraint), else from a feasible point built greedily. Status infeasible when sum y alpha = -kappa
  // cannot hold within the box.
  SvmDualSolution solve(const SvmDualProblem& problem, const core::Vector& warm_alpha,
                        const SvmDualOptions& options = {}) const;

  // The primal objective at (w, b) for this problem (for duality gaps and tests).
  double primal_objective(const SvmDualProblem& problem, const core::Vector& w, double b) const;

 private:
  const core::Dataset& data_;
  core::DenseMatrix gram_;
};

}  // namespace sparsesvm::optim
