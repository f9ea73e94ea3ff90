#pragma once
// Dual coordinate descent for linear SVMs (Hsieh, Chang, Lin, Keerthi and Sundararajan, ICML 2008: the
// method of liblinear -s 3 and -s 1), for the problem of l2_svm.hpp (L1-loss: hinge, L2-loss: squared
// hinge; the bias regularized as liblinear's constant feature s, or unpenalized: the dual's equality
// constraint sum_i y_i alpha_i = -kappa').
//
// Divided by 2 lambda this is liblinear's  (1/2)||w||^2 + sum_i U_i loss(...) - eta'.w - kappa' b  with
// U_i = C_i / (2 lambda), eta' = eta / (2 lambda), kappa' = kappa / (2 lambda), whose dual is
//
//   maximize_alpha  sum_i m_i alpha_i - (1/2)||w'(alpha)||^2 [- (1/2) beta(alpha)^2] - sum_i alpha_i^2 / (4 U_i) [L2-loss]
//   w'(alpha) = eta' + sum_i alpha_i y_i x'_i,   beta(alpha) = s (kappa' + sum_i alpha_i y_i),
//   0 <= alpha_i <= U_i (L1-loss) or alpha_i >= 0 (L2-loss).
//
// One coordinate step per example in a random order per epoch (our own RNG), keeping w'(alpha) up to
// date in O(nnz(x_i)) (O(d) on a row of a row-major copy), with no n x n matrix; shrinking of bounded
// examples whose projected gradient points out of the box; an epoch ends the inner loop when the spread
// of projected gradients max PG - min PG is below the tolerance (Hsieh et al., section 3).
//
// The unpenalized bias is handled without an n x n matrix by the proximal point method on b (= the
// method of multipliers on the equality constraint): each outer round solves the regularized-bias
// problem above with the hinge margins shifted by the current centre b_k, b = b_k + s beta, and moves
// the centre to the round's b. Each round is a warm-started dual CD; the rounds stop when the duality
// gap of the unpenalized problem, with alpha moved onto the equality constraint, is small.
//
// Every solve is certified by its duality gap: accepted when P - D <= relative_gap |P| (or at rounding
// level of P's terms); otherwise the tolerance is divided by 10 and CD continues (down to 1e-15). A
// solve that stops short (epochs spent, or the tightest tolerance) keeps its last model and says so:
// solved_inaccurate with its certified gap, as liblinear returns a model with a warning.
#include <cstdint>

#include "core/dataset.hpp"
#include "optim/l2_svm.hpp"

namespace sparsesvm::optim {

struct DualCdOptions {
  double tolerance = 0.1;          // first stop of CD: max PG - min PG <= tolerance (liblinear's -e)
  double relative_gap = 1e-6;      // accept when P - D <= relative_gap * |P|, else tighten the tolerance
  long max_epochs = 100'000;       // passes over the active examples, over all rounds
  bool shrinking = true;
  std::uint64_t seed = 1;          // of the per-epoch permutations
  double bias_guess = 0.0;         // unpenalized bias: the first round's centre (the last solve's b)
};

// How dense data is copied for CD's row access: the smaller of a row-major copy and the CSR of its
// non-zeros (the default), or the one named. Either gives the same numbers on rows shorter than
// kLaneRowLength; on longer rows the row-major copy sums in four lanes (dot_in_four_lanes), so the two
// agree to rounding, not bit for bit.
enum class DenseRowCopy { smaller, row_major, csr };

// Dense rows of at least this many entries have their dot products summed in four lanes: a dot product
// 2.1-3.2x as fast from 128 entries (docs/benchmarks.md, "Four lanes"). Shorter rows keep the one chain
// of additions, though the lanes would gain there too (1.6-1.7x at 30-61 entries, little below), so that
// fits on the papers' UCI sets (at most 61 features; milliseconds each) stay bit for bit as they were,
// and with them the references computed on them.
constexpr Eigen::Index kLaneRowLength = 64;

// x'u summed in four lanes: entry j is added to lane j mod 4, in order, and the result is (lane 0 + lane
// 1) + (lane 2 + lane 3). One chain of dependent additions waits on each addition's latency; four
// independent chains do not (the same order of summation on every machine: no -ffast-math reordering).
double dot_in_four_lanes(const double* x, const double* u, Eigen::Index length);

// Dense data's copy for row access: the one chosen filled, the other empty; both empty for sparse data.
struct DenseRowCopies {
  core::SparseMatrix csr;
  core::RowMajorMatrix row_major;
};

class DualCdSolver {
 public:
  // Keeps a row-major copy of dense features (the CD pass reads rows): dense, or the CSR of the non-zeros
  // where that is smaller; refers to sparse CSR rows in place. ResourceError when the copy is above the
  // memory budget.
  explicit DualCdSolver(const core::Dataset& train, DenseRowCopy copy = DenseRowCopy::smaller);

  // Starts from `warm_alpha` when it has n entries (clipped into the box), else from alpha = 0.
  // invalid_argument on sizes that do not match; infeasible when the unpenalized equality cannot hold.
  L2SvmSolution solve(const L2SvmProblem& problem, const core::Vector& warm_alpha, const DualCdOptions& options = {}) const;

  // True when CD reads a row-major copy of dense data.
  bool reads_dense_rows() const { return copies_.row_major.rows() > 0; }

 private:
  const core::Dataset& data_;
  DenseRowCopies copies_;
};

}  // namespace sparsesvm::optim
