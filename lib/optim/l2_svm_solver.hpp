#pragma once
// The portfolio that solves every l2 SVM (l2_svm.hpp) of the methods: dual coordinate descent
// (dual_cd.hpp), fast from a warm start and on large sparse data, and the interior point
// (interior_point_svm.hpp), whose 15-40 iterations do not depend on the data's scale or C. By shape:
//   - the interior point alone when dual CD's budget (below) is under kMinimalEpochBudget epochs;
//   - else dual CD with an epoch budget worth a quarter of an interior-point solve, handing over to the
//     interior point when it has not closed its gap by then (the better certified answer is kept);
//   - dual CD alone (its model kept, solved_inaccurate, if it stops short) when the interior point's dense
//     system is beyond its limits (min(n, d) > 3000, or a dense copy beyond 5e7 entries).
// Either solver can be forced. The solution's `solver` names what ran ("dual_cd>interior_point" for a
// hand-over). A certificate computed on a column whose values sit far from zero relative to their spread
// (offset above kLargestCertifiedOffset times the standard deviation) loses its digits to cancellation: such
// an answer is solved_inaccurate, never optimal.
constexpr double kLargestCertifiedOffset = 1e7;
#include <optional>

#include "core/dataset.hpp"
#include "optim/dual_cd.hpp"
#include "optim/interior_point_svm.hpp"
#include "optim/l2_svm.hpp"

namespace sparsesvm::optim {

// Values 0, 1, 2 are the methods' option `qp_solver`.
enum class QpSolver { by_shape = 0, interior_point = 1, dual_cd = 2 };

// Dual CD's budget in epochs is the interior point's estimated flops over this times nnz(X). Measured on
// the standardized UCI sets: an epoch costs about 4 ns per nonzero and the interior point about 0.3 ns per
// flop (12 flops per nonzero), but certified dual CD took 90-1300 epochs there where the interior point took
// 14-21 iterations; so dual CD gets about a quarter of the interior point's time, enough for the warm
// re-solves of DCA steps and walks, and the hand-over costs at most 1.25x the interior point alone.
constexpr double kFlopsPerEpochNonzero = 50.0;
// Below this budget dual CD rarely certifies a 1e-6 gap, so the interior point runs alone.
constexpr double kMinimalEpochBudget = 20.0;

struct L2SvmOptions {
  QpSolver solver = QpSolver::by_shape;
  double relative_gap = 1e-6;
  long max_epochs = 100'000;  // dual CD when it runs alone
  double bias_guess = 0.0;    // dual CD's first centre for an unpenalized bias (the last solve's b)
};

class L2SvmSolver {
 public:
  explicit L2SvmSolver(const core::Dataset& train) : data_(train), interior_point_(train) {}

  // Dual CD starts from `warm_alpha` when it has n entries; the interior point always starts cold.
  L2SvmSolution solve(const L2SvmProblem& problem, const core::Vector& warm_alpha, const L2SvmOptions& options = {});

 private:
  L2SvmSolution run_dual_cd(const L2SvmProblem& problem, const core::Vector& warm_alpha, const L2SvmOptions& options,
                            long max_epochs);
  L2SvmSolution run_interior_point(const L2SvmProblem& problem, const L2SvmOptions& options) const;

  L2SvmSolution solve_by_choice(const L2SvmProblem& problem, const core::Vector& warm_alpha, const L2SvmOptions& options);
  // The largest |mean| / standard deviation over the columns that vary (computed on first use).
  double largest_offset();

  const core::Dataset& data_;
  std::optional<double> largest_offset_;
  std::optional<DualCdSolver> dual_cd_;  // built on first use (it copies dense data row-major)
  InteriorPointSvm interior_point_;
};

}  // namespace sparsesvm::optim
