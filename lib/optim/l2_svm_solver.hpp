#pragma once
// The portfolio that solves every l2 SVM (l2_svm.hpp) of the methods: dual coordinate descent
// (dual_cd.hpp), fast from a warm start and on large sparse data, and the interior point
// (interior_point_svm.hpp), whose 15-40 iterations do not depend on the data's scale or C. By shape:
//   - the interior point alone when its system is unaffordable for dual CD to be worth a try: its whole
//     solve costs less than kMinimalEpochBudget epochs of dual CD;
//   - else dual CD with an epoch budget worth about one interior-point solve, handing over to the
//     interior point when it has not closed its gap by then (the better certified answer is kept);
//   - dual CD alone (its model kept, solved_inaccurate, if it stops short) when the interior point's dense
//     system is beyond its limits (min(n, d) > 3000, or a dense copy beyond 5e7 entries).
// Either solver can be forced. The solution's `solver` names what ran ("dual_cd>interior_point" for a
// hand-over).
#include <optional>

#include "core/dataset.hpp"
#include "optim/dual_cd.hpp"
#include "optim/interior_point_svm.hpp"
#include "optim/l2_svm.hpp"

namespace sparsesvm::optim {

// Values 0, 1, 2 are the methods' option `qp_solver`.
enum class QpSolver { by_shape = 0, interior_point = 1, dual_cd = 2 };

// An epoch of dual CD costs about this many interior-point flops per nonzero of X (measured in
// bench/qp_results.txt: a CD update reads and writes each nonzero of a row, scattered; the interior
// point's dense products run at several flops per nanosecond).
constexpr double kFlopsPerEpochNonzero = 20.0;
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

  const core::Dataset& data_;
  std::optional<DualCdSolver> dual_cd_;  // built on first use (it copies dense data row-major)
  InteriorPointSvm interior_point_;
};

}  // namespace sparsesvm::optim
