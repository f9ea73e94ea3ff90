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
// with w_j != 0), clipped to [0, C_i]. After `epochs` passes the examples with alpha_i > 0 and the
// features with w_j != 0 are the seed.
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
};
// The seed; empty when the costs make the regularized problem unbounded (p_j + q_j < 0) or have no
// feature cost. eps is kEpsPerFeatureCost times the largest feature cost (feature_cost_scale).
Seed seed_working_sets(const core::Dataset& data, const StepLpCosts& costs, int epochs);
constexpr double kEpsPerFeatureCost = 0.1;

}  // namespace sparsesvm::models
