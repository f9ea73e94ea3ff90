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
// (so large n, beyond a few thousand examples, needs a kernel-column cache not written yet). The bias
// comes from the free examples (0 < alpha < C), or from the middle of the feasible interval when there
// are none.
//
// Stopping: SMO runs until the maximal violation max_{I_up} -y G - min_{I_low} -y G falls below
// `tolerance`; then the duality gap P - D is checked against `relative_gap` * |P|. An absolute
// violation alone is not enough: on separable data with d >> n the objective is tiny and a violation of
// 1e-4 left it 20-200% above the optimum. While the gap is too large, the violation tolerance is divided
// by 10 and SMO continues (down to 1e-15); a gap at rounding level of P's terms (1e-13 of
// objective_scale) also counts as closed. A solve that still misses the gap is solved_inaccurate.
// Every solve reports P, D and the gap.
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
  double tolerance = 1e-5;          // first stop when the maximal KKT violation m(alpha) - M(alpha) <= tolerance
  long max_iterations = 10'000'000;  // pair updates
  double relative_gap = 1e-6;       // then accept when P - D <= relative_gap * |P|, else tighten the tolerance
};

struct SvmDualSolution {
  core::Status status = core::Status::numerical_error;
  std::string message;
  core::Vector w;
  double b = 0.0;
  core::Vector alpha;
  double primal_objective = 0.0;
  double dual_objective = 0.0;
  double relative_gap = 0.0;     // (P - D) / max(|P|, tiny)
  double objective_scale = 0.0;  // lambda ||w||^2 + sum_i C_i hinge_i + |eta.w| + |kappa b|: P's terms in size
  long iterations = 0;
};

// Moves alpha (inside the box 0 <= alpha_i <= upper_i) onto sum_i y_i alpha_i = target, greedily in index
// order (to 1e-12); false when the box does not allow it. Shared by SMO and dual CD.
bool move_onto_equality(core::Vector& alpha, const core::Vector& y, const core::Vector& upper, double target);

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
  // P at (w, b), and the same sum with every term in absolute value (the scale below which a gap is rounding).
  struct PrimalTerms {
    double value;
    double size;
  };
  PrimalTerms primal_terms(const SvmDualProblem& problem, const core::Vector& w, double b) const;

 private:
  // SMO pair updates until the violation is below `tolerance` or `budget` updates are spent; returns the
  // updates made. `gradient` is kept up to date.
  long run_smo(const SvmDualProblem& problem, double tolerance, long budget, core::Vector& alpha,
               core::Vector& gradient) const;
  // w, b, P and D from alpha (status left for the caller).
  SvmDualSolution finish(const SvmDualProblem& problem, const core::Vector& tilt, const core::Vector& alpha) const;

  const core::Dataset& data_;
  core::DenseMatrix gram_;
};

}  // namespace sparsesvm::optim
