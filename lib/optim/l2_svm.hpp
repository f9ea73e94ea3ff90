#pragma once
// The l2-regularized SVM problem of the SVM methods, of every DCA step with an l2 penalty and of RW's
// inner SVMs, shared by its solvers (dual CD, dual_cd.hpp; the interior point, interior_point_svm.hpp;
// the portfolio that chooses between them, l2_svm_solver.hpp):
//
//   minimize_{w,b}  lambda ||w'||^2 [+ lambda beta^2] + sum_i C_i loss(m_i - y_i (w'.x'_i + b)) - <eta, w> - kappa b
//
// with loss(r) = max(0, r) (hinge) or max(0, r)^2 (squared hinge), per-example weights C_i >= 0 and
// margins m_i (the mu of the ramp loss), the linear tilt (eta, kappa) of a DCA step ([DCA] A.4; [FSV] (14)
// with lambda -> lambda/2, C_i = 1 - lambda), columns scaled x'_ij = x_ij v_j (RW's re-weighting,
// [RW] Algorithm 1; w_j = w'_j v_j is the classifier on the original features), and the bias either
//   unpenalized   b free, or
//   regularized   b = s beta with beta penalized like a weight (liblinear's -B s; s = 0: no bias).
//
// Its dual (with z_i = y_i x'_i, and the constant feature s appended to x'_i when the bias is regularized):
//
//   maximize_alpha  sum_i m_i alpha_i - ||eta + Z'alpha||^2 / (4 lambda) [- sum_i alpha_i^2 / (4 C_i), squared hinge]
//   subject to      0 <= alpha_i <= C_i (hinge) or alpha_i >= 0 (squared hinge),
//                   sum_i y_i alpha_i = -kappa (unpenalized bias only),
//
// and w'(alpha) = (eta + Z'alpha) / (2 lambda). Every solver certifies its answer by the duality gap
// P(w, b) - D(alpha) at a dual-feasible alpha, computed on this problem as posed.
#include <string>

#include "core/dataset.hpp"
#include "core/status.hpp"

namespace sparsesvm::optim {

enum class SvmLoss { hinge, squared_hinge };
enum class BiasMode { unpenalized, regularized };

struct L2SvmProblem {
  double lambda = 1.0;           // > 0
  core::Vector upper;            // C_i >= 0 (size n)
  core::Vector margin;           // m_i (size n)
  core::Vector tilt_w;           // eta (size d); empty means zero
  double tilt_b = 0.0;           // kappa
  SvmLoss loss = SvmLoss::hinge;
  BiasMode bias = BiasMode::unpenalized;
  double bias_feature = 1.0;     // regularized: the constant feature s (0: no bias at all)
  core::Vector feature_scale;    // v_j >= 0 (size d), empty = all 1; not with a tilt eta
};

struct L2SvmSolution {
  core::Status status = core::Status::numerical_error;
  std::string message;
  std::string solver;             // "dual_cd", "interior_point", or "dual_cd>interior_point" (a hand-over)
  core::Vector w;                 // the classifier on the original features: w_j = w'_j v_j
  double b = 0.0;
  core::Vector alpha;             // the dual point, 0 <= alpha_i <= C_i (a warm start for dual CD)
  double primal_objective = 0.0;  // P(w, b)
  double dual_objective = 0.0;    // D at alpha, moved onto the equality constraint (unpenalized bias)
  double relative_gap = 0.0;      // (P - D) / max(|P|, tiny)
  long epochs = 0;                // dual CD's passes over the examples
  long coordinate_updates = 0;    // dual CD's coordinate updates
  long interior_iterations = 0;   // interior-point iterations
};

// invalid_argument unless lambda > 0, C_i >= 0, s >= 0 and the vectors have n (and d) entries.
void check_problem(const L2SvmProblem& problem, const core::Dataset& data);

// P(w, b) of the problem (w on the original features).
double primal_objective(const L2SvmProblem& problem, const core::Dataset& data, const core::Vector& w, double b);

// P(w, b) and the size of its terms, P with every term in absolute value, from one product X w. A gap
// below kRoundingGap of the scale is rounding: P and D cannot be told apart in double precision (with a
// tilt P can be near 0 while its terms are not).
struct PrimalValue {
  double objective = 0.0;
  double scale = 0.0;
};
PrimalValue primal_value(const L2SvmProblem& problem, const core::Dataset& data, const core::Vector& w, double b);
constexpr double kRoundingGap = 1e-13;
constexpr double kTinyObjective = 1e-300;  // floor of |P| in the relative gap

// Whether sum_i y_i alpha_i = target can hold with 0 <= alpha_i <= upper_i.
bool equality_reachable(const core::Vector& y, const core::Vector& upper, double target);

// Moves alpha (inside the box 0 <= alpha_i <= upper_i) onto sum_i y_i alpha_i = target, greedily in index
// order (to 1e-12); false when the box does not allow it.
bool move_onto_equality(core::Vector& alpha, const core::Vector& y, const core::Vector& upper, double target);

// The better of two solutions of one problem: optimal over solved_inaccurate over none, then the smaller
// gap. Its message names both solvers' outcomes; its counts are the sums of both.
L2SvmSolution better_of(L2SvmSolution first, L2SvmSolution second);

}  // namespace sparsesvm::optim
