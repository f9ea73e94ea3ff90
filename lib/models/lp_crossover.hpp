#pragma once
// A crossover start for the convex step's full l1 LP (convex_step.hpp), for LPs the simplex cannot finish
// from the slack basis or from a path's last basis: the hard-margin end of a C path on text-shaped data,
// where the optimal basis holds a nearly dense block of thousands of weights and tight examples
// (docs/benchmarks.md, "Why that end is hard"). Two parts:
//
// 1. A first-order point: primal-dual hybrid gradient (Chambolle and Pock) on the LP's saddle form
//
//      min_{w,b} max_{0 <= alpha <= C}  sum_j h_j(w_j) + c_b b + sum_i alpha_i (m_i - y_i (x_i.w + b)),
//      h_j(w) = p_j w for w >= 0, -q_j w for w < 0,
//
//    with the diagonal steps of Pock and Chambolle (2011: tau_j = eta / sum_i |x_ij|, sigma_i = eta /
//    (sum_j |x_ij| + 1)) and a primal weight after PDLP (Applegate et al. 2021), iterated as reflected
//    restarted Halpern PDHG (Lu and Yang 2024; the reflection of cuPDLPx, Lu, Peng and Yang 2025): each
//    iterate is pulled back toward its anchor (the start, then each restart's point) with weight 1 / (j + 1), and restarts follow
//    the fixed-point residual. Each iteration costs two products with X, at most O(nnz) and on sparse
//    data usually a fraction of it (screened_prox.hpp: X w over w's nonzero columns, X' Y alpha over the
//    columns whose weights may leave 0): nothing proportional to n x d. The stop uses a localized duality gap: the primal objective P(w, b) (xi_i = max(0, m_i -
//    y_i f(x_i))) minus the Lagrangian's minimum over the box |w_j|, |b| <= R, with R twice the largest
//    entry of the point, which is the dual objective where alpha is dual feasible and a lower value where
//    it is not, over |P|. It is a merit, not a bound: the simplex that follows decides, and the answer is
//    certified as every full LP's is. The point returned is a PDHG step's image, whose w comes out of
//    the prox: exact zeros where the weights are inactive (out of iterations, the checked image of least
//    gap if better than the last; with no iteration, the start). For a crossover the method stops where the
//    basis of part 2 guessed from its point has settled (crossover_start, below), not at a fixed gap.
//
// 2. A basis guessed from the point, in ClpLp::basis()'s order (columns w+, w-, b, xi, then the rows):
//    basic are every nonzero weight (w+_j or w-_j by its sign), b, and xi_i of every example short of its
//    margin by more than kInsideMargin (relative to max(1, |m_i|)); of the other examples the |nonzero
//    weights| + 1 nearest their margins have their rows tight, the rest basic slacks: a square basis
//    (with fewer examples outside the margin than that, the smallest weights stay nonbasic). Clp repairs
//    a singular basis; dual simplex goes on from it.
//
// Measured with the Python prototype (bench/pdhg_one_norm.py, bench/clp_crossover): on 23,149 Reuters-shaped
// rows at lambda = 0.1 a point at relative gap 8.6e-4 gives a basis 253 dual simplex iterations from the
// optimum (203 s, mostly factorizations), where Clp from the slack basis had no answer in 14 minutes.
#include <functional>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "models/lp_generation.hpp"

namespace sparsesvm::models {

struct FirstOrderPoint {
  core::Vector w;
  double b = 0.0;
  core::Vector alpha;
  long iterations = 0;
  double relative_gap = 0.0;  // localized gap / |P| at the point returned
};

// Iterations between the first-order method's progress lines (core/progress.hpp): a multiple of its
// gap checks' interval.
constexpr long kProgressFirstOrderInterval = 1024;

struct FirstOrderOptions {
  long max_iterations = 30'000;
  double relative_gap = 1e-3;  // stop when the localized gap is within this of |P|
  // When set, relative_gap is only the first check: the point there and at every halving of the gap after
  // it is offered to `accept` (with its gap), and the method stops
  // at the first point accepted, or, unoffered, at the first check once the halvings have reached
  // smallest_gap.
  std::function<bool(const FirstOrderPoint&)> accept;
  double smallest_gap = 1e-6;
};

// Whether the first-order method can run on these costs: no l_inf term and p_j + q_j >= 0 (h_j convex).
// "" when it can, else why not.
std::string first_order_unsupported(const StepLpCosts& costs, bool linf);

// PDHG from `start` (w, b, alpha; empty vectors start at zero), to `options.relative_gap` (or, with
// `options.accept`, to the first point accepted) or `options.max_iterations`; with max_iterations <= 0, or a
// start already within relative_gap (and no `accept`), the start itself and its gap. Deterministic: the
// same data, costs and start give the same point.
FirstOrderPoint first_order_point(const core::Dataset& data, const StepLpCosts& costs, const FirstOrderPoint& start,
                                  const FirstOrderOptions& options);

// A lower bound on the optimum of the l1 LP (models::build_lp(data, false) with these costs) from any
// alpha, by weak duality. Its dual is: max sum_i alpha_i m_i subject to 0 <= alpha_i <= C_i,
// sum_i alpha_i y_i = c_b and -q_j <= g_j <= p_j with g = X'(alpha y). Where c_b = 0 every alpha is made
// feasible: clipped to [0, C], the class of the larger sum scaled down to the other's (so sum_i alpha_i y_i
// = 0), then all of it by the largest s <= 1 that brings every g_j inside [-q_j, p_j]; the bound is its
// objective, in the LP's units. -infinity where alpha = 0 is not feasible (c_b != 0, or a p_j or q_j below 0)
// or alpha has not n entries.
double l1_lower_bound(const core::Dataset& data, const StepLpCosts& costs, const core::Vector& alpha);

constexpr double kInsideMargin = 1e-3;

// The basis guessed from (w, b) (part 2 above) for models::build_lp(data, false)'s LP: 2d + 1 + n column
// statuses, then n row statuses (optim::BasisStatus values).
std::vector<unsigned char> crossover_basis(const core::Dataset& data, const StepLpCosts& costs, const core::Vector& w,
                                           double b);

// How far the first-order method goes before the crossover. A fixed gap is a gamble: on issue 37's uniform
// sparse draw (2000 x 20000) the basis guessed at 1e-3 was 10,686 dual simplex pivots from the optimum,
// the one at 1e-4 91 (docs/benchmarks.md, "The first-order stop"). So the gap is halved from first_gap,
// a basis guessed at each check, and the method stops where the guess differs from the one before in
// fewer than n / settled_share statuses (the active set has settled), once the halvings reach last_gap,
// or out of iterations. A start already within warm_gap (a path's last answer) is taken as it stands (on
// a C path the last answer's duals, bounded by the last C, usually keep it outside).
struct CrossoverRule {
  double first_gap = 2e-3;
  double last_gap = 1e-6;
  std::size_t settled_share = 16;
  double warm_gap = 1e-3;
  long max_iterations = 30'000;
};

struct CrossoverStart {
  FirstOrderPoint point;
  std::vector<unsigned char> basis;  // crossover_basis at the point
  int checks = 0;                    // bases guessed on the way
};

// The first-order point for a crossover by `rule`, from `start` (as first_order_point's), and its basis.
CrossoverStart crossover_start(const core::Dataset& data, const StepLpCosts& costs, const FirstOrderPoint& start,
                               const CrossoverRule& rule = {});

}  // namespace sparsesvm::models
