// psi-learning by mixed integer programming ([PSI] 3.2-3.3): F(w, b) = rho Omega(w) + sum_i c_i psi(t_i)
// with Omega = ||w||_1 (PSI-1: one MILP) or ||w||_2^2 (PSI-2: an outer-approximation loop of MILPs),
// t_i = y_i (w.x_i + b), psi(t) = 2 for t < 0, a (1 - t) on [0, 1], 0 beyond 1 (losses/psi.cpp).
//
// One binary per example. [PSI] (3.7)-(3.13) place t_i in one of psi's three regions with two binaries
// and three columns; but on t >= 0 psi is the convex hinge a max(0, 1 - t), so only the jump at 0 needs a
// binary: delta_i = 1 says t_i >= 0, and then psi_i = a max(0, 1 - t_i); delta_i = 0 pays the largest
// value, 2, and puts no condition on t_i (2 >= psi(t) everywhere, so a minimum never chooses it wrongly):
//   psi_i = 2 (1 - delta_i) + u_i,   u_i in [0, a],
//   t_i >= -L_i (1 - delta_i)                          (delta_i = 1: t_i >= 0)
//   u_i >= a (1 - t_i) - a (1 + L_i) (1 - delta_i)      (delta_i = 1: the hinge; 0: slack since t_i >= -L_i)
// where -L_i is a lower bound on t_i. The minimum over delta and (w, b) is the minimum of F; half the
// binaries and a third of the rows of the paper's form, and only a one-sided big-M. Fixing delta_i = 0
// drops example i from the problem, which is what makes branching cheap.
//
// Big-M from the data (option big_m = 0). The start (the SVM of the same C) is feasible with value F0,
// so an optimum has rho Omega(w) <= F0: ||w||_1 <= W = F0 / rho, or ||w||_2 <= W = sqrt(F0 / rho). For
// fixed w, F depends on b only through psi's regions, each an interval of b closed on the side psi takes
// its lower value; so some optimal b sits where some example k has t_k = 0 or 1, i.e. b = y_k t_k - w.x_k.
// Hence |b| <= W max_k ||x_k|| + 1, and t_i = y_i w.(x_i - x_k) +- t_k >= -(W ||x_i - x_k|| + 1) =: -L_i,
// with the norm dual to Omega's (max for l1, Euclidean for l2); the largest ||x_i - x_k|| over k is
// bounded through each feature's range. Differences, not the points themselves, bound t: on features far
// from 0 (raw data with an offset) L_i stays the spread of the data, not its distance from the origin.
// The bounds are column bounds too (|w_j|, |b|), which the relaxations need. A fixed big_m reproduces
// the paper's M = 1000 instead.
//
// PSI-2: ||w||^2 = sum_j s_j with s_j >= w_j^2 replaced by tangents s_j >= 2 p w_j - p^2 (below the
// parabola): at the start, at points spread over |w_j| <= W, and at each MILP answer w_k. Each MILP's
// bound is a lower bound on the optimum, each w_k's true F an upper bound; the loop ends when they meet
// within relative_gap.
//
// Restricted psi-learning ([PSI] 3.2-3.3, option restrict_margin > 0): examples the start classifies with
// y f(x) > restrict_margin are fixed to region 3 (delta_i = 1 and t_i >= 1). PSI-1r and PSI-2r start from
// the SVM whose C is best on the tuning part (methods.hpp, start_tuned); statistic start_C says which C.
//
// The time limit bounds the whole fit: the start's seconds count against it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <numeric>
#include <optional>
#include <vector>

#include "core/errors.hpp"
#include "data/summary.hpp"
#include "models/algorithms/algorithm.hpp"
#include "models/algorithms/mip_support.hpp"
#include "models/algorithms/psi_box.hpp"
#include "models/losses/psi.hpp"
#include "optim/cbc_mip.hpp"
#include "optim/clp_lp.hpp"
#include "optim/mip_builder.hpp"

namespace sparsesvm::models {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Column layout of the MIP: the weights (l1: w+ then w-; l2: w then s_j >= w_j^2), b, then u_i and
// delta_i per example.
struct Layout {
  Eigen::Index d = 0;
  Eigen::Index n = 0;
  bool l2 = false;
  Eigen::Index s(Eigen::Index j) const { return d + j; }  // l2 only
  Eigen::Index b() const { return 2 * d; }
  Eigen::Index u(Eigen::Index i) const { return b() + 1 + 2 * i; }
  Eigen::Index delta(Eigen::Index i) const { return u(i) + 1; }
  Eigen::Index columns() const { return b() + 1 + 2 * n; }
};

// The bounds of the derivation above.
struct Bounds {
  double weight = kInfinity;     // on ||w||_1 (l1) or ||w||_2 (l2)
  double bias = kInfinity;       // on |b|
  core::Vector big_m;            // L_i: t_i >= -L_i
};

// The bound W on ||w||_1 (l1) or ||w||_2 (l2) at any point with F <= value: rho Omega(w) <= F.
double implied_weight_bound(bool l2, double rho, double value) { return l2 ? std::sqrt(value / rho) : value / rho; }

// From the best point so far (value F0, margins t, bias b), which must stay feasible.
Bounds derive_bounds(const core::Dataset& data, bool l2, double rho, double fixed_big_m, double incumbent_value,
                     const core::Vector& incumbent_margins, double incumbent_b) {
  const auto n = static_cast<Eigen::Index>(data.n());
  const auto d = static_cast<Eigen::Index>(data.d());
  Bounds bounds;
  bounds.big_m = core::Vector::Constant(n, fixed_big_m);
  if (fixed_big_m > 0.0) {
    bounds.bias = fixed_big_m;
    return bounds;
  }
  bounds.weight = implied_weight_bound(l2, rho, incumbent_value);
  const std::vector<data::FeatureStats> stats = data::feature_stats(data);
  double largest_norm = 0.0;  // max_k ||x_k||
  core::Vector x(d), farthest(d);  // x_i, and per feature max_k |x_ij - x_kj|
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) {
      x[j] = data.value(static_cast<std::size_t>(i), static_cast<std::size_t>(j));
      const data::FeatureStats& range = stats[static_cast<std::size_t>(j)];
      farthest[j] = std::max(x[j] - range.min, range.max - x[j]);
    }
    largest_norm = std::max(largest_norm, d > 0 ? dual_norm(x, l2) : 0.0);
    // The incumbent must stay feasible: its own t_i widens the bound where it exceeds it.
    bounds.big_m[i] = std::max(bounds.weight * (d > 0 ? dual_norm(farthest, l2) : 0.0) + 1.0, -incumbent_margins[i]);
  }
  bounds.bias = std::max(bounds.weight * largest_norm + 1.0, std::abs(incumbent_b));
  return bounds;
}

void add_weight_columns(optim::MipBuilder& mip, const Layout& at, const Bounds& bounds, double rho) {
  const Eigen::Index d = at.d;
  if (at.l2) {
    mip.column_lower.head(d).setConstant(-bounds.weight);
    mip.column_upper.head(d).setConstant(bounds.weight);
    mip.column_upper.segment(d, d).setConstant(bounds.weight * bounds.weight);
    mip.cost.segment(d, d).setConstant(rho);
  } else {
    mip.column_upper.head(2 * d).setConstant(bounds.weight);
    mip.cost.head(2 * d).setConstant(rho);
  }
  mip.column_lower[at.b()] = -bounds.bias;
  mip.column_upper[at.b()] = bounds.bias;
}

using Terms = std::vector<std::pair<Eigen::Index, double>>;

// t_i = y_i (x_i.w + b) as (column, coefficient) terms on the weight columns and b.
Terms margin_terms(const core::Dataset& data, const Layout& at, Eigen::Index i) {
  Terms terms;
  const double y = data.labels()[i];
  for (std::size_t j = 0; j < data.d(); ++j) {
    const double x = data.value(static_cast<std::size_t>(i), j);
    if (x == 0.0) continue;
    terms.emplace_back(static_cast<Eigen::Index>(j), y * x);
    if (!at.l2) terms.emplace_back(at.d + static_cast<Eigen::Index>(j), -y * x);
  }
  terms.emplace_back(at.b(), y);
  return terms;
}

// The row lower <= scale t_i + terms <= upper, with t_i = y_i (x_i.w + b) written on the weight columns.
void add_margin_row(optim::MipBuilder& mip, const core::Dataset& data, const Layout& at, Eigen::Index i, double scale,
                    std::initializer_list<std::pair<Eigen::Index, double>> terms, double lower) {
  const Eigen::Index row = mip.add_row(lower, kInfinity);
  for (const auto& [column, value] : margin_terms(data, at, i)) mip.entries.emplace_back(row, column, scale * value);
  for (const auto& [column, value] : terms) mip.entries.emplace_back(row, column, value);
}

// The columns and rows of example i (the formulation above); region 3 fixed: delta_i = 1 and t_i >= 1.
void add_example(optim::MipBuilder& mip, const core::Dataset& data, const Layout& at, Eigen::Index i, double c,
                 double big_m, double psi_a, bool fixed_to_region3) {
  mip.set_column(at.u(i), 0.0, psi_a, c);
  mip.set_binary(at.delta(i), -2.0 * c);
  mip.constant += 2.0 * c;
  if (fixed_to_region3) {
    mip.column_lower[at.delta(i)] = 1.0;
    add_margin_row(mip, data, at, i, 1.0, {}, 1.0);
    return;  // t_i >= 1: psi_i = 0, u_i = 0
  }
  add_margin_row(mip, data, at, i, 1.0, {{at.delta(i), -big_m}}, -big_m);
  add_margin_row(mip, data, at, i, psi_a, {{at.u(i), 1.0}, {at.delta(i), -psi_a * (1.0 + big_m)}}, -psi_a * big_m);
}

void add_tangent(optim::MipBuilder& mip, const Layout& at, const Tangent& tangent) {
  add_tangent_row(mip, tangent, tangent.j, at.s(tangent.j));
}

// The tangents a PSI-2 fit starts with: at the start's weights and at +-W/4, +-W/2, +-W on each axis (W
// the bound on ||w||_2; with a fixed big_m, no W: the start's alone).
std::vector<Tangent> first_tangents(const core::Vector& start_w, double weight_bound) {
  std::vector<Tangent> tangents;
  for (Eigen::Index j = 0; j < start_w.size(); ++j) {
    if (start_w[j] != 0.0) tangents.push_back({j, start_w[j]});
    if (!std::isfinite(weight_bound)) continue;
    for (const double fraction : {-1.0, -0.5, -0.25, 0.25, 0.5, 1.0}) tangents.push_back({j, fraction * weight_bound});
  }
  return tangents;
}

// Tangents at a MILP answer x where its s_j falls short of w_j^2 beyond rounding; how many were added.
int add_violated_tangents(std::vector<Tangent>& tangents, const Layout& at, const core::Vector& x) {
  int added = 0;
  for (Eigen::Index j = 0; j < at.d; ++j) {
    const double w = x[j];
    if (!short_of_square(x[at.s(j)], w)) continue;
    tangents.push_back({j, w});
    ++added;
  }
  return added;
}

// What stays fixed over a fit: the data, the objective's pieces, the examples fixed to region 3.
struct PsiProblem {
  const core::Dataset& data;
  Layout at;
  double rho = 0.0;
  double psi_a = 0.0;
  core::Vector example_weights;  // c_i
  std::vector<bool> fixed_to_region3;
};

// The MILP of the formulation above for these bounds and tangents.
optim::MipBuilder build_mip(const PsiProblem& problem, const Bounds& bounds, const std::vector<Tangent>& tangents) {
  optim::MipBuilder mip(problem.at.columns());
  add_weight_columns(mip, problem.at, bounds, problem.rho);
  for (Eigen::Index i = 0; i < problem.at.n; ++i) {
    add_example(mip, problem.data, problem.at, i, problem.example_weights[i], bounds.big_m[i], problem.psi_a,
                problem.fixed_to_region3[static_cast<std::size_t>(i)]);
  }
  for (const Tangent& tangent : tangents) add_tangent(mip, problem.at, tangent);
  return mip;
}

// The weights (w) of a MIP point x.
core::Vector weights_of(const core::Vector& x, const Layout& at) {
  return at.l2 ? core::Vector(x.head(at.d)) : core::Vector(x.head(at.d) - x.segment(at.d, at.d));
}

PsiShape shape_of(const PsiProblem& problem) {
  return psi_shape(problem.data, problem.example_weights, problem.rho, problem.psi_a, problem.at.l2,
                   problem.fixed_to_region3);
}

// Tightening the big-M from the incumbent (optimization-based bound tightening; issue 38). The MILP's points
// whose cost is at most the incumbent's F hold an optimum, and on them t_i is at least its minimum over
// the LP relaxation with the row cost' x + constant <= F: where that minimum is above -L_i, it gives a
// smaller L_i (widened by kBigMSafety for Clp's tolerances, and never below the incumbent's own -t_i, which
// must stay feasible). A smaller L_i raises the relaxation's charge for a negative margin (the slope
// 2 / L_i of psi's relaxed jump), which raises the other examples' minima, so the rounds repeat (at most
// kTighteningRounds) while the median L_i falls by kLeastShrink or more, and until the relaxation's own
// bound proves the incumbent. Each LP's point (w, b) is also a candidate: where its true F is below the
// incumbent's it becomes the incumbent, and the next round's row (and weight bound W) use its F. Their
// simplex iterations count against lp_iteration_limit, at most kTighteningShare of what is left of it
// (half: on psi_quadratic cases 3-4, n = 100, seeds 1-3, PSI-1 and PSI-2 at C = 1 and the default limits,
// 7 of 12 fits proven against 5 with a quarter and 6 with three quarters); each LP stops at the time limit.
// Only on data with at most kMostTightenedFeatures features: the psi MIPs that stay open are the papers'
// low-dimensional ones (2-14 features), while with many features each LP is wide and Cbc closes at its
// root anyway (golub, 7129 features, C = 1: PSI-1 proven with 82 simplex iterations untightened, 14,137
// with one round; PSI-2 proven in 9 s untightened, out of its 30 s in the rounds' LPs with its tangents).
constexpr std::size_t kMostTightenedFeatures = 20;
constexpr int kTighteningRounds = 10;
constexpr double kLeastShrink = 0.05;
constexpr double kTighteningShare = 0.5;
constexpr double kBigMSafety = 1e-6;
// A round costs about this many simplex iterations per example (psi_quadratic case 3, n = 100: 135,000 over
// 10 rounds); where the share of the work limit cannot pay for one round the tightening is skipped and Cbc
// keeps the whole limit (beyond/all_methods at 1000 iterations a fit, pima to vehicle: with half of them
// spent on part of a round, 32 psi rows ended above their untightened F at the same C, 22 below).
constexpr double kRoundIterationsPerExample = 100;

double median(core::Vector values) {
  if (values.size() == 0) return 0.0;
  auto middle = values.begin() + values.size() / 2;
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

// Takes (w, b) as report's point where its F is lower.
void keep_if_lower(const Objective& objective, const core::Dataset& data, const core::Vector& w, double b,
                   FitReport& report) {
  const double value = objective.value(data, w, b);
  if (!(value < report.objective)) return;
  report.model = core::LinearModel(w, b);
  report.objective = value;
}

// (w, b) polished (psi_box.hpp) in the root box of its F; the polishing's simplex iterations are added to
// `iterations`.
PsiPoint polished_point(const PsiShape& shape, const core::Vector& w, double b, long& iterations) {
  const PsiPoint point{w, b, psi_objective(shape, w, b)};
  return polish(shape, root_box(shape, point), point, iterations);
}

// Takes (w, b), polished, as report's point where its F is lower.
void keep_polished_if_lower(const PsiProblem& problem, const Objective& objective, const core::Vector& w, double b,
                            FitReport& report, long& iterations) {
  const PsiPoint polished = polished_point(shape_of(problem), w, b, iterations);
  keep_if_lower(objective, problem.data, polished.w, polished.b, report);
}

// Every L_i at least the incumbent's -t_i: its MIP point stays feasible.
void keep_incumbent_feasible(const PsiProblem& problem, const FitReport& report, Bounds& bounds) {
  bounds.big_m = bounds.big_m.cwiseMax(-margins(problem.data, report.model.w(), report.model.b()));
}

// The examples by label, then by the incumbent's score x_i.w + b: consecutive LPs minimize margins of
// nearby examples, so each starts from a basis close to its optimum (on psi_quadratic case 3, n = 200,
// a third fewer simplex iterations than in the data's order).
std::vector<Eigen::Index> tightening_order(const core::Dataset& data, const core::LinearModel& incumbent) {
  const core::Vector score = incumbent.decision_values(data);
  const core::Vector& y = data.labels();
  std::vector<Eigen::Index> order(static_cast<std::size_t>(y.size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index p, Eigen::Index q) {
    return std::pair(y[p], score[p]) < std::pair(y[q], score[q]);
  });
  return order;
}

// One round: the minimum of every free example's margin over the relaxation with F at most the
// incumbent's, its simplex iterations added to `iterations`; false where the share ran out or an LP
// failed (the examples after it keep their bounds).
bool tighten_round(const PsiProblem& problem, const Objective& objective, Bounds& bounds,
                   const std::vector<Tangent>& tangents, double relative_gap, FitReport& report,
                   optim::IterationBudget& share, MipBudget& budget, long& iterations) {
  const Layout& at = problem.at;
  bounds.weight = std::min(bounds.weight, implied_weight_bound(at.l2, problem.rho, report.objective));
  optim::MipBuilder mip = build_mip(problem, bounds, tangents);
  const Eigen::Index cutoff = mip.add_row(-kInfinity, report.objective - mip.constant);
  for (Eigen::Index column = 0; column < mip.cost.size(); ++column) {
    if (mip.cost[column] != 0.0) mip.entries.emplace_back(cutoff, column, mip.cost[column]);
  }
  // Each LP is held to the clock's rest too: the time limit covers the whole fit.
  const double seconds_left = std::max(1e-3, budget.time_limit() - budget.elapsed());
  optim::ClpLp lp(mip.problem(), {.max_seconds = seconds_left, .budget = &share});
  // The relaxation's own optimum first: where its bound already proves the incumbent within relative_gap
  // (golub's 72 x 7129 at C = 1, which Cbc closes at its root), no round is needed. Polished, it is a
  // candidate incumbent (psi_quadratic case 3, n = 100, seed 2, PSI-1: the start's F 28.50 fell to 19.53
  // over the rounds, the optimum being 19.517).
  lp.set_cost(mip.cost);
  const optim::LpSolution relaxed = lp.solve();
  iterations += relaxed.iterations;
  if (relaxed.status != core::Status::optimal) return false;
  keep_polished_if_lower(problem, objective, weights_of(relaxed.primal, at), relaxed.primal[at.b()], report,
                         iterations);
  if (mip_relative_gap(report.objective, relaxed.objective + mip.constant) <= relative_gap) return false;
  core::Vector margin_cost(mip.cost.size());
  for (const Eigen::Index i : tightening_order(problem.data, report.model)) {
    // An L_i of 0 is as tight as it gets (t_i >= 0 wherever F is at most the incumbent's).
    if (problem.fixed_to_region3[static_cast<std::size_t>(i)] || bounds.big_m[i] == 0.0) continue;
    if (budget.exhausted()) return false;
    margin_cost.setZero();
    for (const auto& [column, value] : margin_terms(problem.data, at, i)) margin_cost[column] = value;
    lp.set_cost(margin_cost);
    const optim::LpSolution least = lp.solve();
    iterations += least.iterations;
    if (least.status != core::Status::optimal) return false;
    const double tightened = -least.objective + kBigMSafety * (1.0 + std::abs(least.objective));
    bounds.big_m[i] = std::min(bounds.big_m[i], std::max(tightened, 0.0));
    keep_if_lower(objective, problem.data, weights_of(least.primal, at), least.primal[at.b()], report);
  }
  return true;
}

// The simplex iterations a tightening may spend now (no limit where the fit has none); none where that
// share of what is left of the work limit cannot pay for one round.
std::optional<optim::IterationBudget> tightening_share(const PsiProblem& problem, const MipBudget& budget) {
  optim::IterationBudget share;
  if (budget.iteration_limit() > 0) {
    const double left = static_cast<double>(budget.iteration_limit() - budget.iterations());
    share.remaining = static_cast<long>(kTighteningShare * left);
    if (static_cast<double>(share.remaining) < kRoundIterationsPerExample * static_cast<double>(problem.at.n)) return {};
  }
  return share;
}

// The tightening's rounds from report's point, within `share`; the simplex iterations they spent.
long tighten_big_m(const PsiProblem& problem, const Objective& objective, Bounds& bounds,
                   const std::vector<Tangent>& tangents, double relative_gap, FitReport& report, MipBudget& budget,
                   optim::IterationBudget share) {
  long iterations = 0;
  for (int round = 0; round < kTighteningRounds && !budget.exhausted(); ++round) {
    const double before = median(bounds.big_m);
    const bool complete =
        tighten_round(problem, objective, bounds, tangents, relative_gap, report, share, budget, iterations);
    if (!complete || !(median(bounds.big_m) < (1.0 - kLeastShrink) * before)) break;
  }
  keep_incumbent_feasible(problem, report, bounds);
  budget.spend_lp(iterations);
  return iterations;
}

// Whether a PSI-2 round's MILP is worth tightening again before it is solved (issue 38): its big-M came
// from an F that the incumbent has since lowered (the tightening's cutoff row is the incumbent's F, so a
// lower F gives smaller L_i and a stronger relaxation), and the last MILP's tree cost more simplex
// iterations than that tightening (then the next tree, as large or larger, is where the time goes; where
// Cbc proved the last MILP cheaply, another tightening would cost more than it saves). Measured without
// the work limit on psi_quadratic cases 3-4, PSI-2, C = 1 (docs/benchmarks.md, "psi: the big-M tightened
// again between PSI-2's rounds"): tightening before every later round cut the hardest fits' simplex
// iterations (case 4, n = 100, seeds 2-3: 4.20e6 -> 2.54e6 and 1.36e6 -> 1.00e6) and added 17-52% to five
// easier ones (case 3, n = 200, seed 1: 4.5e5 -> 6.8e5); with this rule the hard ones gain as much and
// the easier ones run as before.
bool worth_tightening_again(double objective, double tightened_at, double relative_gap, long mip_iterations,
                            long tightening_iterations) {
  return objective < tightened_at * (1.0 - relative_gap) && mip_iterations > tightening_iterations;
}

// The MIP point of (w, b): delta_i = 1 where t_i >= 0 up to the loss's boundary tolerance, so that the
// point costs F(w, b). Solvers leave margins a little below 0 (t = -1e-9 at a MILP answer), and a strict
// t_i >= 0 sent those examples to psi's 2 instead of a: the answer of a PSI-2 round, F = 17.55, reached the
// next round as an incumbent of 22.05 (psi_quadratic case 4, n = 100, seed 3). Cbc re-solves the
// continuous columns with delta fixed, which moves such a t_i onto 0.
core::Vector mip_point(const core::Dataset& data, const Layout& at, const core::Vector& w, double b, double psi_a) {
  core::Vector x = core::Vector::Zero(at.columns());
  if (at.l2) {
    x.head(at.d) = w;
    x.segment(at.d, at.d) = w.cwiseAbs2();
  } else {
    x.head(at.d) = w.cwiseMax(0.0);
    x.segment(at.d, at.d) = (-w).cwiseMax(0.0);
  }
  x[at.b()] = b;
  const core::Vector t = margins(data, w, b);
  for (Eigen::Index i = 0; i < at.n; ++i) {
    if (t[i] < -kPsiBoundaryTolerance) continue;
    x[at.delta(i)] = 1.0;
    x[at.u(i)] = psi_a * std::clamp(1.0 - t[i], 0.0, 1.0);
  }
  return x;
}

// The values of option `search`.
constexpr double kAutoSearch = 0;
constexpr double kCbcSearch = 1;
constexpr double kBoxSearch = 2;
// search: auto on data with at most kMostBoxFirstFeatures features runs the box search first, on
// kAutoBoxShare of the work limits, then (unless it proved the optimum) Cbc on the rest; beyond,
// Cbc alone. Measured with the box search's iterations weighted (box_iteration_weight; psi_quadratic,
// PSI-1 and PSI-2, at the default limits): with 4 features, n = 100, C from 1e-3 to 1e3, the box alone
// proves every C (at most 3.3 s) and Cbc all but C = 0.01 and 0.1 (faster at C >= 10: 0.7-1.1 s against
// 2.1-3.3 s); at
// C = 1, n = 100 and 200, 3 seeds, the box on three quarters proves all 12 fits, the hardest on 0.5-1.2e5
// of its 1.5e5 units, where a quarter of unweighted iterations (before) proved 1 of 12.
// Cbc keeps the last quarter of the work limits: it continues from the box's best point, its bound
// combined with the box's. The clock is not shared: where time_limit ran out in the box phase, the fit
// stops there, time-limited, without calling Cbc.
// Beyond 4 features the box proves only the smallest C (with 8: C <= 0.01).
constexpr std::size_t kMostBoxFirstFeatures = 4;
constexpr double kAutoBoxShare = 0.75;
// search: box refuses data with more features: a box of (w, b) in more dimensions needs too many splits.
constexpr std::size_t kMostBoxFeatures = 20;

// The MILP (PSI-1) or the loop of MILPs (PSI-2) in Cbc from report's point, its big-M derived from that
// point's F and then tightened (tighten_big_m, which can also improve the point; scale: the largest, and the
// weights' bound); updates report (model, objective, status, stop_reason, message, counts) and returns the
// best lower bound on F that Cbc certifies (trusted_cbc_bound; where it certifies none, no message quotes
// its gap).
double search_cbc(const PsiProblem& problem, const Objective& objective, const Hyperparameters& options,
                  MipBudget& budget, FitReport& report, MipScale& scale) {
  const core::Dataset& data = problem.data;
  const Layout& at = problem.at;
  Bounds bounds = derive_bounds(data, at.l2, problem.rho, options.at("big_m"), report.objective,
                                margins(data, report.model.w(), report.model.b()), report.model.b());
  std::vector<Tangent> tangents = at.l2 ? first_tangents(report.model.w(), bounds.weight) : std::vector<Tangent>{};
  const double tolerance = options.at("relative_gap");
  // A fixed big_m is the paper's formulation, kept as given.
  const bool tightens = options.at("big_m") == 0.0 && data.d() <= kMostTightenedFeatures;
  long tightening_iterations = 0;
  if (const auto share = tightening_share(problem, budget); tightens && share) {
    tightening_iterations = tighten_big_m(problem, objective, bounds, tangents, tolerance, report, budget, *share);
  }
  double tightened_at = report.objective;
  // The clock can run out in the tightening: then no MILP is solved, and the row reports none (mip_big_m,
  // mip_cuts).
  if (budget.exhausted()) return -kInfinity;
  // The weights' bound every optimum obeys, also where a fixed big_m leaves the weight columns unbounded.
  scale = {at.n > 0 ? bounds.big_m.maxCoeff() : 0.0, implied_weight_bound(at.l2, problem.rho, report.objective)};
  optim::MipBuilder mip = build_mip(problem, bounds, tangents);
  const auto max_cuts = static_cast<int>(options.at("max_cuts"));
  double lower_bound = -kInfinity;
  int rounds = 0;
  while (!budget.exhausted()) {
    optim::MipOptions mip_options = budget.next(tolerance, mip.constant);
    // At each node its LP's (w, b) with every region picked for its margins (mip_point): a point of the
    // MILP up to the boundary tolerance (Cbc's re-solve with delta fixed repairs it), as the relaxation's
    // margins are all above -L_i; the incumbent where its F is lower (psi_quadratic
    // case 3, n = 100, seed 3, PSI-1 at the default limits: 22.35 at the limit where Cbc alone kept 33.32).
    mip_options.rounding = [&](const double* relaxed, core::Vector& point) {
      const core::Vector x = Eigen::Map<const core::Vector>(relaxed, at.columns());
      point = mip_point(data, at, weights_of(x, at), x[at.b()], problem.psi_a);
      return true;
    };
    const optim::MipSolution answer = optim::solve_mip(
        mip.problem(), mip.integers, mip_point(data, at, report.model.w(), report.model.b(), problem.psi_a), mip_options);
    budget.spend(answer);
    ++report.inner_solves;
    ++report.iterations;
    ++rounds;
    if (!core::has_solution(answer.status)) {
      keep_best_point_after_failed_mip(report, answer);
      break;
    }
    const core::Vector w = weights_of(answer.primal, at);
    const double b = answer.primal[at.b()];
    keep_if_lower(objective, data, w, b, report);  // by the true F (for PSI-2 above the tangent model)
    // A search stopped by a limit has reported a "best possible" above a point's F (time-limited, on
    // ionosphere and german): no bound, as its own answer's F is one.
    const bool bound_holds = answer.status == core::Status::optimal || answer.best_bound <= report.objective;
    if (bound_holds) lower_bound = std::max(lower_bound, answer.best_bound);
    report.trace_objective(report.objective, budget.elapsed());
    const double gap = mip_relative_gap(report.objective, lower_bound);
    if (gap <= tolerance && answer.status == core::Status::optimal) {
      report.status = core::Status::optimal;
      report.stop_reason = at.l2 ? "outer approximation closed" : "MILP solved";
      break;
    }
    // Stopped by a limit: finish_mip_report says which, with the row's own gap (this MILP's gap is of its
    // tangent model for PSI-2). Stopped otherwise: Cbc's word.
    if (answer.status != core::Status::optimal) {
      if (answer.stopped_by == optim::MipLimit::none) {
        report.stop_reason = "Cbc stopped early";
        if (scale.trusted()) report.message = answer.message;
      }
      break;
    }
    const int added = at.l2 && rounds < max_cuts ? add_violated_tangents(tangents, at, answer.primal) : 0;
    const auto share = tightening_share(problem, budget);
    if (added > 0 && tightens && share &&
        worth_tightening_again(report.objective, tightened_at, tolerance, answer.iterations, tightening_iterations)) {
      tightening_iterations = tighten_big_m(problem, objective, bounds, tangents, tolerance, report, budget, *share);
      tightened_at = report.objective;
      // `scale` stays the first MILP's, the largest any MILP of the fit used: Cbc's bounds from every round
      // are judged at it, and mip_big_m names a big-M a MILP was solved with.
      mip = build_mip(problem, bounds, tangents);
      continue;
    }
    for (auto tangent = tangents.end() - added; tangent != tangents.end(); ++tangent) add_tangent(mip, at, *tangent);
    if (added == 0) {
      // A MILP proven optimal whose answer its own model values right closes the gap up to rounding: what
      // is left is inaccuracy; for PSI-2 at the round limit, an unproven answer.
      const bool round_limit = at.l2 && rounds >= max_cuts;
      report.status = round_limit ? core::Status::feasible : core::Status::solved_inaccurate;
      report.stop_reason = round_limit ? "cut limit" : "MILP optimum above its bound";
      if (scale.trusted()) report.message = fmt::format("F is {:.3g} above Cbc's bound after {} MILPs", gap, rounds);
      break;
    }
  }
  report.statistics["mip_cuts"] = static_cast<double>(tangents.size());
  // At an untrusted scale Cbc's word proves nothing: its answer is kept, unproven.
  const bool claimed = report.status == core::Status::optimal || report.status == core::Status::solved_inaccurate;
  if (!scale.trusted() && claimed) {
    report.status = core::Status::solved_inaccurate;
    report.stop_reason = kUntrustedScaleStop;
  }
  return trusted_cbc_bound(lower_bound, scale);
}

// Branch and bound over (w, b)'s box (psi_box.hpp) from report's point, polished first so that the box
// (from bounds on ||w|| and |b| that shrink with the incumbent's F) starts smaller; same contract as
// search_cbc.
double search_box(const PsiProblem& problem, const Objective& objective, const Hyperparameters& options,
                  MipBudget& budget, FitReport& report) {
  const core::Dataset& data = problem.data;
  if (data.d() > kMostBoxFeatures) {
    throw core::InputError(fmt::format("search: box branches on a box of (w, b) and takes at most {} features; found "
                                       "{} (use search: cbc)", kMostBoxFeatures, data.d()));
  }
  const PsiShape shape = shape_of(problem);
  // The root box from the start's F, then from its polished F, which shrinks it.
  long polish_iterations = 0;
  const PsiPoint polished = polished_point(shape, report.model.w(), report.model.b(), polish_iterations);
  budget.spend_box(0, polish_iterations, box_iteration_weight(static_cast<std::size_t>(shape.z.rows())));
  const BoxSearchResult result = box_search(shape, root_box(shape, polished), polished, options.at("relative_gap"), budget);
  const double value = objective.value(data, result.best.w, result.best.b);
  if (value < report.objective) {
    report.model = core::LinearModel(result.best.w, result.best.b);
    report.objective = value;
  }
  report.trace_objective(report.objective, budget.elapsed());
  report.inner_solves = static_cast<int>(result.nodes);
  report.iterations = static_cast<int>(result.nodes);
  if (result.proven) {
    report.status = core::Status::optimal;
    report.stop_reason = "box search closed";
  } else if (budget.stopped_by() == optim::MipLimit::none) {
    report.stop_reason = "box too small to split";
    report.message = fmt::format("{} boxes too small to split kept the gap open (numerical limit)", result.unresolved_boxes);
  }
  return result.lower_bound;
}

class PsiMipAlgorithm : public MipAlgorithm {
 public:
  std::string id() const override { return "psi_mip"; }
  std::string description() const override {
    return "psi-learning as a MIP in Cbc ([PSI] (3.14)): one MILP for the l1 penalty, an outer-approximation "
           "loop of MILPs for l2^2; big-M derived from the data, then tightened by LPs from the incumbent; "
           "warm-started from the SVM";
  }
  const ParameterTable& options() const override {
    static const ParameterTable table = [] {
      ParameterTable options = mip_search_options(
          "inside each of Cbc's LPs (the box search's small LPs count sqrt(n/100)/20 iterations each, about "
          "their cost in time, checked after each box)");
      options.insert(options.end(), {
        {"big_m", "0: each M_i derived from the data and the start's objective; > 0: this M for every example "
                  "([PSI] 3.4: 1000)", 0.0, 0.0, 1e9, false, false, Scale::log, Regularizes::neither,
         ParameterKind::solver},
        {"restrict_margin", "restricted psi ([PSI] 3.3): examples with y f_start(x) above it are fixed to region 3; "
                            "0: none, else at least 1", 0.0, 0.0, 1e6, false, false, Scale::linear, Regularizes::neither,
         ParameterKind::solver},
        {"max_cuts", "PSI-2: outer-approximation rounds before stopping with status feasible", 200.0, 1.0, 1e5,
         false, false, Scale::log, Regularizes::neither, ParameterKind::solver, true},
        {"search", "cbc: Cbc's branch and bound over the examples' regions (the MIP); box: branch and bound over a "
                   "box of (w, b), for at most 20 features (psi_box.hpp); auto (without big_m): for at most 4 "
                   "features the box search on three quarters of the work limits (node_limit, lp_iteration_limit; time_limit is not divided), "
                   "then (unless it proved the optimum) Cbc from its best point on the rest, their bounds "
                   "combined; else cbc", kAutoSearch, 0, 2, false, false,
         Scale::linear, Regularizes::neither, ParameterKind::solver, true, {"auto", "cbc", "box"}},
      });
      return options;
    }();
    return table;
  }

  std::string unsupported(const Objective& objective) const override {
    if (objective.loss->id().rfind("psi[", 0) != 0) {
      return fmt::format("psi_mip solves the psi loss only, not {}", objective.loss->id());
    }
    const Regularizer r = objective.penalty->convex_regularizer();
    if (!objective.penalty->is_convex() || (r != Regularizer::l1 && r != Regularizer::l2_squared)) {
      return fmt::format("psi_mip takes the l1 or l2^2 penalty, not {}", objective.penalty->id());
    }
    return "";
  }

  FitReport fit(const Objective& objective, Workspace& workspace, const Start& start,
                const Hyperparameters& options) const override {
    if (const std::string reason = unsupported(objective); !reason.empty()) throw core::InputError(reason);
    const auto clock_start = std::chrono::steady_clock::now();
    const core::Dataset& data = workspace.data();
    const MipStart used = mip_start(objective, data, start);
    PsiProblem problem{data,
                       {static_cast<Eigen::Index>(data.d()), static_cast<Eigen::Index>(data.n()),
                        objective.penalty->convex_regularizer() == Regularizer::l2_squared},
                       objective.penalty_weight * objective.penalty->convex_weight(),
                       objective.loss->value(0.0),  // psi(0) = a
                       objective.example_weights,
                       {}};
    const Layout& at = problem.at;
    const core::Vector start_margins = margins(data, used.model.w(), used.model.b());
    const double restrict_margin = options.at("restrict_margin");
    if (restrict_margin > 0.0 && restrict_margin < 1.0) {
      throw core::InputError(fmt::format(
          "restrict_margin must be 0 (no restriction) or at least 1: restricted psi fixes examples to region 3 "
          "(t >= 1), where a start margin below 1 is not; found {}", restrict_margin));
    }
    for (Eigen::Index i = 0; i < at.n; ++i) {
      problem.fixed_to_region3.push_back(restrict_margin > 0.0 && start_margins[i] > restrict_margin);
    }
    const double fixed_big_m = options.at("big_m");

    if (fixed_big_m > 0.0 && options.at("search") == kBoxSearch) {
      throw core::InputError("big_m is an option of search: cbc (the MIP's big-M); search: box has none");
    }

    FitReport report;
    report.model = used.model;
    report.objective = objective.value(data, used.model.w(), used.model.b());
    report.status = core::Status::feasible;
    report.statistics["mip_cuts"] = kNaN;  // tangent cuts of Cbc's MILP: none where Cbc does not run
    // The start's seconds count against the time limit (the paper's timings include the start, and so do ours).
    MipBudget budget(options, start.report ? start.report->seconds : 0.0);
    report.trace_objective(report.objective, budget.elapsed());
    const double search = options.at("search");
    const bool box_only = search == kBoxSearch;
    const bool cbc_only = search == kCbcSearch;
    const bool box_first = !box_only && !cbc_only && fixed_big_m == 0.0 && data.d() <= kMostBoxFirstFeatures;
    double lower_bound = -kInfinity;
    MipScale scale;
    if (box_only) {
      lower_bound = search_box(problem, objective, options, budget, report);
    } else if (box_first) {
      MipBudget share = budget.share(kAutoBoxShare);
      lower_bound = search_box(problem, objective, options, share, report);
      budget.absorb(share);
    }
    // Cbc runs unless the box search alone was asked for or auto's box phase proved the optimum, and only
    // while no limit has run out (the start's fit or the box phase can use up the clock): a row reports
    // the formulation (mip_big_m, mip_cuts) of a MILP that was solved.
    const bool cbc_runs = !box_only && (!box_first || report.status != core::Status::optimal) && !budget.exhausted();
    if (cbc_runs) {
      report.message.clear();
      lower_bound = std::max(lower_bound, search_cbc(problem, objective, options, budget, report, scale));
      const bool bounds_meet = mip_relative_gap(report.objective, lower_bound) <= options.at("relative_gap");
      const bool unproven = report.status == core::Status::feasible || report.status == core::Status::solved_inaccurate;
      if (box_first && unproven && bounds_meet) {
        report.status = core::Status::optimal;
        report.stop_reason = scale.trusted() ? "box and Cbc bounds met" : "box bound met at Cbc's point";
        report.message.clear();
      }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count();
    const auto fixed = std::count(problem.fixed_to_region3.begin(), problem.fixed_to_region3.end(), true);
    report.statistics["mip_fixed_examples"] = static_cast<double>(fixed);
    // The start's C: the method's own, or the best-tuned one (restricted variants, methods.hpp).
    const bool start_has_c = start.report && start.report->hyperparameters.contains("C");
    report.statistics["start_C"] = start_has_c ? start.report->hyperparameters.at("C") : kNaN;
    // A given big_m below the data-derived one cuts part of the search: like fixed examples, a restriction.
    const double derived_big_m =
        fixed_big_m > 0.0 && at.n > 0
            ? derive_bounds(data, at.l2, problem.rho, 0.0, report.objective, start_margins, used.model.b()).big_m.maxCoeff()
            : 0.0;
    std::vector<std::string> restrictions;
    if (fixed > 0) restrictions.push_back(fmt::format("{} examples fixed to region 3 (restrict_margin)", fixed));
    if (fixed_big_m > 0.0 && fixed_big_m < derived_big_m) {
      restrictions.push_back(fmt::format("big_m = {:g}, below the bound {:.3g} the data imply", fixed_big_m, derived_big_m));
    }
    const std::string restriction = fmt::format("{}", fmt::join(restrictions, " and "));
    finish_mip_report(report, {lower_bound, seconds, budget, scale, restriction},
                      start, used);
    return report;
  }
 protected:
  std::vector<std::string> own_statistic_names() const override {
    return {"mip_cuts", "mip_fixed_examples", "start_C"};
  }
};

}  // namespace

std::unique_ptr<const Algorithm> make_psi_mip_algorithm() { return std::make_unique<PsiMipAlgorithm>(); }

}  // namespace sparsesvm::models
