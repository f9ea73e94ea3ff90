#pragma once
// psi-learning's objective searched over (w, b) instead of over examples (issue 38), for few features:
//   F(w, b) = rho Omega(w) + sum_i c_i psi(t_i),   t_i = y_i (x_i.w + b),
// psi(t) = 2 for t < 0, a (1 - t) on [0, 1], 0 beyond (psi_mip.cpp has the MIP over examples): the
// paper's psi, strictly (the loss object counts t in [-1e-6, 0) as 0, for solvers' rounding, and so do
// the points psi_mip.cpp hands Cbc: kPsiBoundaryTolerance, losses/psi.hpp). The search runs on centred features: t_i = z_i.(w, b') with
// z_i = y_i (x_i - c, 1), b' = b + w.c and c the features' midranges, so a box of b' stays as wide as the
// data's spread whatever their offset from 0 (with raw offsets of 100 an axis-aligned box of b needed
// w-widths of 0.01 before any margin was decided).
//
// Branch and bound on a box of (w, b). Over a box every t_i lies in an interval [L_i, U_i] that the box's
// corners give exactly (t_i is linear in (w, b)). On that interval psi is bounded below by its convex
// envelope, the lower convex hull of the points (L_i, psi(L_i)), (0, a), (1, 0), (U_i, psi(U_i)) that lie
// in it: a maximum of at most three lines, so the node's bound is one LP (with Omega's l1 norm, or tangents
// below PSI-2's squares). Where L_i >= 0 or U_i < 0 the envelope is psi itself: the example is decided,
// and a box where every example is decided is solved exactly. Where the MIP's relaxation charges an
// undecided example a slope of 2 / M_i with M_i from the whole search region, the box's L_i shrinks with
// the box: the bound tightens as the search goes down, which is what Cbc's tree on the MIP lacks.
// Bisection on the coordinate of largest width times influence on the undecided margins; nodes with the
// lowest bound first. Each node's LP also cuts its box: where a weight or the bias sits at a bound with
// reduced cost r, moving it by delta into the box raises the LP's bound by at least |r| delta, so the part
// of the box where that reaches the incumbent's F goes (psi_box.cpp, tighten_box). Upper bounds: the true
// F at each node's LP point, polished.
//
// Polishing: for a point (w, b), keep the examples with t_i >= 0 on that side (rows t_i >= 0) and let the
// others pay 2; the LP over (w, b) with those regions fixed, whose value at (w, b) is F(w, b), gives a
// point at least as good; repeat while F falls. It never raises F: a point is taken only when its true F
// is lower.
#include <Eigen/Dense>
#include <vector>

#include "core/dataset.hpp"
#include "models/algorithms/mip_support.hpp"

namespace sparsesvm::models {

// What the search needs of a psi objective.
struct PsiShape {
  Eigen::MatrixXd z;               // row i: y_i (x_i - center, 1), so the margins are t = z (w, b + w.center)
  core::Vector center;             // the features' midranges
  core::Vector example_weights;    // c_i
  double rho = 0.0;                // the penalty's weight: rho ||w||_1 or rho ||w||_2^2
  double psi_a = 1.0;              // psi(0)
  bool l2 = false;
  core::Vector least_margin;       // t_i >= least_margin_i is required (1: fixed to region 3; -infinity: none)
};
PsiShape psi_shape(const core::Dataset& data, const core::Vector& example_weights, double rho, double psi_a, bool l2,
                   const std::vector<bool>& fixed_to_region3);

// psi(t) = 2 for t < 0, a max(0, 1 - t) beyond.
double psi(double t, double a);

// F(w, b) of the shape (b the model's bias, not the centred one).
double psi_objective(const PsiShape& shape, const core::Vector& w, double b);

// A line slope t + intercept.
struct Line {
  double slope = 0.0;
  double intercept = 0.0;
};
// The convex envelope of psi on [lower, upper] (finite, lower <= upper) as the lines it is the maximum of.
std::vector<Line> psi_envelope(double lower, double upper, double a);

// A box of (w, b'): lower and upper bounds of the d weights, then of the centred bias b' = b + w.center.
struct Box {
  core::Vector lower;
  core::Vector upper;
};

struct PsiPoint {
  core::Vector w;
  double b = 0.0;      // the model's bias
  double value = 0.0;  // F(w, b)
};

// A box that holds a minimizer of F if one has F <= point.value (point must lie in it): rho Omega(w) <= F
// bounds each |w_j| by W = F / rho (l1) or sqrt(F / rho) (l2); some minimizer's b puts some example k at
// a breakpoint of psi (t_k = 0 or 1), so |b'| <= W max_k ||x_k - c||_dual + 1.
Box root_box(const PsiShape& shape, const PsiPoint& point);

// The polished point (see above) and the simplex iterations spent; `point` itself when nothing improves.
PsiPoint polish(const PsiShape& shape, const Box& box, PsiPoint point, long& iterations);

// What one simplex iteration of the box search counts against lp_iteration_limit with n examples:
// sqrt(n / 100) / 20. Its LPs are built afresh at every box (since then started from the parent's
// basis: docs/methods.md, "Warm start"; fewer iterations, each dearer). Before that, at n = 100 an iteration
// costs about 1/20 of one of Cbc's (2e5 took the box search 1.4-5.6 s and Cbc 45-94 s on psi_quadratic
// case 2, 4 features, at n = 100-200); its time grows with n (larger LPs, rebuilt at every box), while
// Cbc's warm iterations cost about the same from n = 100 to 1000. Measured on that data (PSI-1, C = 1,
// one run each on a loaded machine): counted at 1/20, the box did 3000, 1300, 850 and 450 units a
// second at n = 100, 400, 1000 and 2000 against Cbc's 3600, 3700, 4100 and 2000 iterations; weighted by
// the square root, 3000, 2600, 2700 and 2000 (a weight growing like n would give the box about half of
// Cbc's time per unit at n = 1000 and a fifth at 2000).
double box_iteration_weight(std::size_t examples);

struct BoxSearchResult {
  PsiPoint best;
  double lower_bound = 0.0;  // on F over the box; equal to best.value within relative_gap when proven
  bool proven = false;       // every node was pruned at relative_gap
  long nodes = 0;
  // Boxes too small to split that still held undecided margins or a failed LP: their bound is the
  // parent's, which keeps the gap open (a numerical limit, not a work limit).
  long unresolved_boxes = 0;
};

// Branch and bound over `box` from `start` (a point of the box), within `budget` (its nodes and simplex
// iterations are spent here, and it names the limit that stopped the search).
BoxSearchResult box_search(const PsiShape& shape, const Box& box, const PsiPoint& start, double relative_gap,
                           MipBudget& budget);

}  // namespace sparsesvm::models
