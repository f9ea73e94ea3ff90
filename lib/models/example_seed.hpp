#pragma once
// Generation's first working set of examples on data with many examples: those likely to bind at the step
// LP's optimum (lp_generation.hpp), found by a few epochs of dual coordinate ascent on the LP made
// strictly convex by (eps/2)(||w||^2 + b^2). That is Mangasarian's exact regularization (J. Mach. Learn.
// Res. 7, 2006): for eps small enough its solution is the LP's, and its dual is smooth in alpha,
//
//   maximize_{0 <= alpha <= C}  sum_i alpha_i m_i - (1/2eps) ||S(g)||^2 - (1/2eps) (y'alpha - c_b)^2,
//   g = sum_i alpha_i y_i x_i,  S_j(g) = max(g_j - p_j, 0) + min(g_j + q_j, 0),
//
// with w = S(g) / eps and b = (y'alpha - c_b) / eps, and partial derivative m_i - y_i (x_i.w + b) in
// alpha_i. Each coordinate takes a Newton step on the current piece (the curvature counts the features
// with w_j != 0), clipped to [0, C_i]. After the passes the examples with alpha_i > 0 and the features
// with w_j != 0 are the seed; those with alpha_i = C_i are likely on the wrong side of their margin at the
// optimum, where generation folds them into the costs (lp_generation.hpp).
// Folding needs that last set to be right, and eps = 0.1 lambda is too coarse for it: on a text-shaped
// 20000 x 50000 set (lambda 1), 1857 of its 7844 examples at alpha_i = C_i are on or above the margin at
// the LP's optimum. So when some example ends at C_i, the ascent goes on from the same alpha at eps / 10
// (sharpened epochs): then 14 of 4612 are (50 + 100 epochs), and the LP that follows is 4x faster.
// Nothing here is a certificate: the LP decides, and generation adds what the seed missed.
//
// Measured on the gisette-shaped set (6000 x 5000, lambda 1; bench/generation_results.txt): 15 epochs keep
// 1287 examples, among them all but 55-70 of the 737 that bind at the optimum.
#include <vector>

#include "core/dataset.hpp"
#include "models/lp_generation.hpp"

namespace sparsesvm::models {

struct Seed {
  std::vector<Eigen::Index> examples;  // sorted
  std::vector<Eigen::Index> features;  // sorted
  std::vector<Eigen::Index> at_cost;   // sorted: the examples with alpha_i = C_i (a subset of `examples`)
  double largest_weight = 0.0;         // max(|w_j|, |b|) at the seed's point
};
struct SeedEpochs {
  int first = 0;      // passes at eps = kEpsPerFeatureCost times the largest feature cost
  int sharpened = 0;  // passes at eps / 10 after them, taken only when some alpha_i ends at C_i
};
// The seed; empty when the costs make the regularized problem unbounded (p_j + q_j < 0) or have no
// feature cost. On dense data the ascent copies X's candidate columns where the memory budget
// (core/memory_budget.hpp) has room for a copy of X (core::feature_matrix_bytes), and reads X in place
// where it has not.
Seed seed_working_sets(const core::Dataset& data, const StepLpCosts& costs, const SeedEpochs& epochs);
constexpr double kEpsPerFeatureCost = 0.1;

}  // namespace sparsesvm::models
