#pragma once
// Dual coordinate descent for linear SVMs (Hsieh, Chang, Lin, Keerthi and Sundararajan, ICML 2008: the
// method of liblinear -s 3 and -s 1), for the problem of svm_dual.hpp extended by the loss, the bias
// handling and a column scaling:
//
//   minimize_{w,b}  lambda ||w||^2 [+ lambda beta^2] + sum_i C_i loss(m_i - y_i (w.x'_i + b)) - <eta, w> - kappa b
//
// with loss(r) = max(0, r) (L1-loss, hinge) or max(0, r)^2 (L2-loss, squared hinge), x'_ij = x_ij v_j
// (RW's re-weighted columns, [RW] Algorithm 1; v = 1 when empty), and the bias either
//   regularized    b = s beta with beta penalized like a weight: liblinear's constant feature s (-B s), or
//   unpenalized    b free, the dual's equality constraint sum_i y_i alpha_i = -kappa'.
//
// Divided by 2 lambda this is liblinear's  (1/2)||w||^2 + sum_i U_i loss(...) - eta'.w - kappa' b  with
// U_i = C_i / (2 lambda), eta' = eta / (2 lambda), kappa' = kappa / (2 lambda), whose dual is
//
//   maximize_alpha  sum_i m_i alpha_i - (1/2)||w'(alpha)||^2 [- (1/2) beta(alpha)^2] - sum_i alpha_i^2 / (4 U_i) [L2-loss]
//   w'(alpha) = eta' + sum_i alpha_i y_i x'_i,   beta(alpha) = s (kappa' + sum_i alpha_i y_i),
//   0 <= alpha_i <= U_i (L1-loss) or alpha_i >= 0 (L2-loss).
//
// One coordinate step per example in a random order per epoch (our own RNG), keeping w'(alpha) up to
// date in O(nnz(x_i)), with no n x n matrix; shrinking of bounded examples whose projected gradient
// points out of the box; an epoch ends the inner loop when the spread of projected gradients max PG -
// min PG is below the tolerance (Hsieh et al., section 3).
//
// The unpenalized bias is handled without an n x n matrix by the proximal point method on b (= the
// method of multipliers on the equality constraint): each outer round solves the regularized-bias
// problem above with the hinge margins shifted by the current centre b_k, b = b_k + s beta, and moves
// the centre to the round's b. Each round is a warm-started dual CD; the rounds stop when the duality
// gap of the unpenalized problem, with alpha moved onto the equality constraint, is small.
//
// Every solve is certified by its duality gap: accepted when P - D <= relative_gap |P| (or at rounding
// level of P's terms); otherwise the tolerance is divided by 10 and CD continues (down to 1e-15). A
// solve that stops short (epochs spent, or the tightest tolerance) is solved_inaccurate, with its model,
// when its gap is below 1e-3 of P, else iteration_limit / numerical_error without one.
#include <cstdint>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/status.hpp"
#include "optim/svm_dual.hpp"

namespace sparsesvm::optim {

enum class SvmLoss { hinge, squared_hinge };
enum class BiasMode { unpenalized, regularized };

struct DualCdProblem : SvmDualProblem {
  SvmLoss loss = SvmLoss::hinge;
  BiasMode bias = BiasMode::unpenalized;
  double bias_feature = 1.0;     // regularized: the constant feature s (0: no bias at all)
  core::Vector feature_scale;    // v_j >= 0 (size d), empty = all 1; not with a tilt eta
};

struct DualCdOptions {
  double tolerance = 0.1;          // first stop of CD: max PG - min PG <= tolerance (liblinear's -e)
  double relative_gap = 1e-6;      // accept when P - D <= relative_gap * |P|, else tighten the tolerance
  long max_epochs = 100'000;       // passes over the active examples, over all rounds
  bool shrinking = true;
  std::uint64_t seed = 1;          // of the per-epoch permutations
  double bias_guess = 0.0;         // unpenalized bias: the first round's centre (the last solve's b)
};

struct DualCdSolution {
  core::Status status = core::Status::numerical_error;
  std::string message;
  core::Vector w;             // the classifier on the original features: w_j = w'_j v_j
  double b = 0.0;
  core::Vector alpha;         // the dual point in the problem's scaling, 0 <= alpha_i <= C_i (warm start of the next solve)
  double primal_objective = 0.0;  // in the problem's scaling (with lambda), at (w', b)
  double dual_objective = 0.0;    // at alpha moved onto the equality constraint (unpenalized bias)
  double relative_gap = 0.0;      // (P - D) / max(|P|, tiny)
  long epochs = 0;
  long coordinate_updates = 0;
  int bias_rounds = 0;            // CD rounds: proximal rounds on an unpenalized bias, else tolerance tightenings
};

// SMO (n x n Gram matrix) backs up dual CD where dual CD stops short (large C on overlapping classes,
// badly scaled features) and the Gram matrix is affordable: up to this many examples (200 MB).
constexpr Eigen::Index kSmoBackupExamples = 5000;

// The better of two solutions of one problem: optimal over solved_inaccurate over none, then the smaller
// gap. Its message names both solvers' outcomes when `backup` was needed.
DualCdSolution better_of(DualCdSolution first, DualCdSolution backup);

// An SMO solution (svm_dual.hpp) in these terms, for callers that run either solver: the pair updates
// count as coordinate updates.
DualCdSolution from_smo(const SvmDualSolution& smo);

class DualCdSolver {
 public:
  // Keeps a row-major copy of dense features (the CD pass reads rows) and refers to sparse CSR rows.
  explicit DualCdSolver(const core::Dataset& train);

  // Starts from `warm_alpha` when it has n entries (clipped into the box), else from alpha = 0.
  // invalid_argument on sizes that do not match; infeasible when the unpenalized equality cannot hold.
  DualCdSolution solve(const DualCdProblem& problem, const core::Vector& warm_alpha,
                       const DualCdOptions& options = {}) const;

  // The primal objective at (w, b) (w on the original features), for tests and benchmarks.
  double primal_objective(const DualCdProblem& problem, const core::Vector& w, double b) const;

 private:
  const core::Dataset& data_;
  core::SparseMatrix row_major_;  // dense data, copied row-major; empty for sparse data
};

}  // namespace sparsesvm::optim
