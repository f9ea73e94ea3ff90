// Certified global optima of the piecewise-linear objectives by one MILP in Cbc (beyond the papers: how
// good are DCA's local solutions?). F(w, b) = sum_i c_i loss(t_i) + rho Omega(w), t_i = y_i (w.x_i + b),
// with loss hinge or mu-ramp and Omega l1 or capped-l1: the objectives of OneNormSVM, RLSVM1,
// CapOneNormSVM and RLSVMC1 ([DCA] eq. (2), (6)).
//
// Both losses are min(cap, s max(0, m - t)): hinge s = m = 1, no cap; ramp s = 1/mu, m = mu, cap = 1 + mu.
// Capped-l1 is sum_j min(a, |w_j|). Each minimum of two terms is one binary choosing the smaller:
//   loss_i = cap z_i + h_i,   h_i >= s (m - t_i) - M_i z_i,   h_i >= 0    (z_i binary; ramp only)
//   pen_j  = a v_j + p_j,     p_j >= +-w_j - W v_j,           p_j >= 0    (v_j binary; capped-l1 only)
// With z_i = 0 the row is the hinge; with z_i = 1 it is slack as long as M_i >= s (m - t_i). Likewise
// v_j = 1 frees p_j while |w_j| <= W. The MILP's minimum over z, v and (w, b) is the minimum of F.
//
// Bounds (columns bounds too, which the relaxations need). F0 = F at the start (a DCA answer), feasible.
//   l1: rho ||w||_1 <= F0 at an optimum (the loss is >= 0), so |w_j| <= W = F0 / rho, |w.x_i| <= W ||x_i||_inf.
//   capped-l1 bounds nothing (a weight beyond a costs a, whatever its size; no MILP without a bound can
//   express "p_j >= |w_j| unless v_j"), so the search runs over the box |w_j| <= W (option weight_bound;
//   0: 10 max(a, ||w_start||_inf)) and |w.x_i| <= W ||x_i||_1. For capped-l1 the problem solved, and
//   `optimal` certified, is F over that box: a better point may lie outside it, whether or not the answer
//   reaches the box's face (statistic mip_box_binding; on the face, F may also be flat along a ray, as
//   ramp and capped-l1 both level off). The box is in every row (mip_weight_bound; mip_box_implied is 1
//   for l1's exact bound). A weight_bound below the start's largest weight is raised to it, so that the
//   start stays feasible.
//   b: for fixed w, F is piecewise linear in b with kinks where some t_i equals m or m - cap/s; a minimizing
//   b lies at a kink, so |b| <= B = R + max(|m|, |m - cap/s|), R = max_i of the bound on |w.x_i|.
//   Then |t_i| <= R_i + B and M_i = s (m + R_i + B).
// Accuracy: Cbc's tolerances make a certificate good to about 1e-5 of max(1, |F|); with M or W above 1e6
// (unscaled features) to nothing: the answer is then solved_inaccurate, and Cbc's bound is not claimed
// (mip_support.hpp, MipScale).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "core/errors.hpp"
#include "models/algorithms/algorithm.hpp"
#include "models/algorithms/mip_support.hpp"
#include "optim/cbc_mip.hpp"
#include "optim/mip_builder.hpp"

namespace sparsesvm::models {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Column layout: w (d), p (d), v (d, capped-l1 only), b, h (n), z (n, ramp only).
struct Layout {
  Eigen::Index d = 0;
  Eigen::Index n = 0;
  bool capped_penalty = false;
  bool capped_loss = false;
  Eigen::Index w(Eigen::Index j) const { return j; }
  Eigen::Index p(Eigen::Index j) const { return d + j; }
  Eigen::Index v(Eigen::Index j) const { return 2 * d + j; }
  Eigen::Index b() const { return (capped_penalty ? 3 : 2) * d; }
  Eigen::Index h(Eigen::Index i) const { return b() + 1 + i; }
  Eigen::Index z(Eigen::Index i) const { return b() + 1 + n + i; }
  Eigen::Index columns() const { return b() + 1 + (capped_loss ? 2 : 1) * n; }
};

struct Bounds {
  double weight = 0.0;  // W: |w_j| <= W
  bool box_implied = false;  // l1 with the derived W: no optimum lies outside the box
  double bias = 0.0;    // B
  core::Vector big_m;   // M_i
};

Bounds derive_bounds(const core::Dataset& data, const Layout& at, const CappedHinge& loss, double rho,
                     double penalty_cap, double start_value, const core::LinearModel& start, double weight_bound) {
  Bounds bounds;
  const double start_largest = at.d > 0 ? start.w().cwiseAbs().maxCoeff() : 0.0;
  if (weight_bound > 0.0) {
    bounds.weight = std::max(weight_bound, start_largest);
  } else if (!at.capped_penalty) {
    bounds.weight = start_value / rho;
    bounds.box_implied = true;
  } else {
    bounds.weight = 10.0 * std::max(penalty_cap, start_largest);
  }
  core::Vector reach(at.n);  // bound on |w.x_i|
  for (Eigen::Index i = 0; i < at.n; ++i) {
    double norm = 0.0;  // ||x_i||_inf for l1's bound on ||w||_1, ||x_i||_1 for the box
    for (std::size_t j = 0; j < data.d(); ++j) {
      const double x = std::abs(data.value(static_cast<std::size_t>(i), j));
      norm = bounds.box_implied ? std::max(norm, x) : norm + x;
    }
    reach[i] = bounds.weight * norm;
  }
  const double kink = std::isfinite(loss.cap) ? std::max(std::abs(loss.m), std::abs(loss.m - loss.cap / loss.s))
                                              : std::abs(loss.m);
  bounds.bias = std::max((at.n > 0 ? reach.maxCoeff() : 0.0) + kink, std::abs(start.b()));
  bounds.big_m = loss.s * (loss.m + reach.array() + bounds.bias);
  return bounds;
}

optim::MipBuilder build_mip(const core::Dataset& data, const Objective& objective, const Layout& at,
                            const CappedHinge& loss, double rho, double penalty_cap, const Bounds& bounds) {
  optim::MipBuilder mip(at.columns());
  const double w_max = bounds.weight;
  for (Eigen::Index j = 0; j < at.d; ++j) {
    mip.set_column(at.w(j), -w_max, w_max);
    mip.set_column(at.p(j), 0.0, w_max, rho);
    if (at.capped_penalty) mip.set_binary(at.v(j), rho * penalty_cap);
    const double free_by_v = at.capped_penalty ? w_max : 0.0;
    for (const double sign : {1.0, -1.0}) {  // p_j - sign w_j + W v_j >= 0
      if (at.capped_penalty) {
        mip.add_row({{at.p(j), 1.0}, {at.w(j), -sign}, {at.v(j), free_by_v}}, 0.0, kInfinity);
      } else {
        mip.add_row({{at.p(j), 1.0}, {at.w(j), -sign}}, 0.0, kInfinity);
      }
    }
  }
  mip.set_column(at.b(), -bounds.bias, bounds.bias);
  for (Eigen::Index i = 0; i < at.n; ++i) {
    const double c = objective.example_weights[i];
    const double m_i = bounds.big_m[i];
    mip.set_column(at.h(i), 0.0, m_i, c);
    if (at.capped_loss) mip.set_binary(at.z(i), c * loss.cap);
    // h_i + s y_i (x_i.w + b) + M_i z_i >= s m
    const Eigen::Index row = mip.add_row(loss.s * loss.m, kInfinity);
    const double sy = loss.s * data.labels()[i];
    for (std::size_t j = 0; j < data.d(); ++j) {
      const double x = data.value(static_cast<std::size_t>(i), j);
      if (x != 0.0) mip.entries.emplace_back(row, at.w(static_cast<Eigen::Index>(j)), sy * x);
    }
    mip.entries.emplace_back(row, at.b(), sy);
    mip.entries.emplace_back(row, at.h(i), 1.0);
    if (at.capped_loss) mip.entries.emplace_back(row, at.z(i), m_i);
  }
  return mip;
}

// The MIP point of (w, b): each binary on the smaller side of its minimum.
core::Vector mip_point(const core::Dataset& data, const Layout& at, const CappedHinge& loss, double penalty_cap,
                       const core::LinearModel& model) {
  core::Vector x = core::Vector::Zero(at.columns());
  for (Eigen::Index j = 0; j < at.d; ++j) {
    const double size = std::abs(model.w()[j]);
    x[at.w(j)] = model.w()[j];
    const bool capped = at.capped_penalty && size > penalty_cap;
    if (at.capped_penalty) x[at.v(j)] = capped ? 1.0 : 0.0;
    x[at.p(j)] = capped ? 0.0 : size;
  }
  x[at.b()] = model.b();
  const core::Vector t = margins(data, model.w(), model.b());
  for (Eigen::Index i = 0; i < at.n; ++i) {
    const double hinge = loss.s * std::max(0.0, loss.m - t[i]);
    const bool capped = at.capped_loss && hinge > loss.cap;
    if (at.capped_loss) x[at.z(i)] = capped ? 1.0 : 0.0;
    x[at.h(i)] = capped ? 0.0 : hinge;
  }
  return x;
}

class GlobalMipAlgorithm : public MipAlgorithm {
 public:
  std::string id() const override { return "global"; }
  std::string description() const override {
    return "the global optimum of a hinge or ramp loss with the l1 or capped-l1 penalty, as one MILP in Cbc "
           "(one binary per capped term); warm-started from the method's DCA answer";
  }
  const ParameterTable& options() const override {
    static const ParameterTable table = [] {
      ParameterTable options = mip_search_options();
      options.push_back({"weight_bound", "the box |w_j| <= W searched; 0: derived (l1: F(start) / lambda, which no "
                                         "optimum exceeds; capped-l1: 10 max(a, |w_start|_inf), the certificate's box); raised "
                                         "to |w_start|_inf if below",
                         0.0, 0.0, 1e9, false, false, Scale::log, Regularizes::neither, ParameterKind::solver});
      return options;
    }();
    return table;
  }

  std::string unsupported(const Objective& objective) const override {
    if (!objective.loss->capped_hinge()) {
      return fmt::format("global solves losses min(cap, s max(0, m - t)) (hinge, ramp), not {}", objective.loss->id());
    }
    if (!objective.penalty->capped_abs()) {
      return fmt::format("global takes penalties scale sum_j min(cap, |w_j|) (l1, capped l1), not {}",
                         objective.penalty->id());
    }
    return "";
  }

  FitReport fit(const Objective& objective, Workspace& workspace, const Start& start,
                const Hyperparameters& options) const override {
    if (const std::string reason = unsupported(objective); !reason.empty()) throw core::InputError(reason);
    const auto clock_start = std::chrono::steady_clock::now();
    const core::Dataset& data = workspace.data();
    const CappedHinge loss = *objective.loss->capped_hinge();
    const CappedAbs penalty = *objective.penalty->capped_abs();
    const double cap = penalty.cap;
    const Layout at{static_cast<Eigen::Index>(data.d()), static_cast<Eigen::Index>(data.n()), std::isfinite(cap),
                    std::isfinite(loss.cap)};
    const double rho = objective.penalty_weight * penalty.scale;  // the weight of sum_j min(cap, |w_j|)
    if (!(rho > 0.0)) throw core::InputError("global needs lambda > 0 (it bounds the weights)");
    const MipStart used = mip_start(objective, data, start);
    const double start_value = objective.value(data, used.model.w(), used.model.b());
    const Bounds bounds = derive_bounds(data, at, loss, rho, cap, start_value, used.model, options.at("weight_bound"));
    const MipScale scale{at.n > 0 ? bounds.big_m.maxCoeff() : 0.0, bounds.weight};
    const optim::MipBuilder mip = build_mip(data, objective, at, loss, rho, cap, bounds);

    FitReport report;
    report.model = used.model;
    report.objective = start_value;
    report.status = core::Status::feasible;
    // The start's seconds count against the time limit, as psi_mip's do.
    MipBudget budget(options, start.report ? start.report->seconds : 0.0);
    report.trace_objective(start_value, budget.elapsed());
    const double tolerance = options.at("relative_gap");
    double lower_bound = -kInfinity;
    // A start that used the whole time limit leaves no search: its point stands, unproven
    // (finish_mip_report names the limit).
    if (!budget.exhausted()) {
      const optim::MipSolution answer = optim::solve_mip(mip.problem(), mip.integers, mip_point(data, at, loss, cap, used.model),
                                                         budget.next(tolerance, mip.constant));
      budget.spend(answer);
      report.inner_solves = report.iterations = 1;
      if (!core::has_solution(answer.status)) {
        keep_best_point_after_failed_mip(report, answer);
      } else {
        lower_bound = answer.best_bound;
        const core::Vector w = answer.primal.head(at.d);
        const double b = answer.primal[at.b()];
        const double value = objective.value(data, w, b);
        if (value < report.objective) {
          report.model = core::LinearModel(w, b);
          report.objective = value;
        }
        report.trace_objective(report.objective, budget.elapsed());
        classify(report, answer, lower_bound, tolerance, scale.trusted());
      }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count();
    report.statistics["mip_weight_bound"] = bounds.weight;
    const double largest = at.d > 0 ? report.model.w().cwiseAbs().maxCoeff() : 0.0;
    report.statistics["mip_box_binding"] = !bounds.box_implied && largest >= bounds.weight * (1.0 - 1e-9) ? 1.0 : 0.0;
    report.statistics["mip_box_implied"] = bounds.box_implied ? 1.0 : 0.0;
    const std::string restriction =
        bounds.box_implied ? std::string() : fmt::format("the search box |w_j| <= {:.3g}", bounds.weight);
    finish_mip_report(report, {trusted_cbc_bound(lower_bound, scale), seconds, budget, scale, restriction},
                      start, used);
    return report;
  }

 protected:
  std::vector<std::string> own_statistic_names() const override {
    return {"mip_weight_bound", "mip_box_binding", "mip_box_implied"};
  }

 private:
  // optimal: Cbc proved its answer at a trusted scale and the true F meets the bound within the tolerance;
  // else feasible (a limit) or solved_inaccurate (F above the bound, or an untrusted scale). No message
  // quotes a bound that is not trusted.
  static void classify(FitReport& report, const optim::MipSolution& answer, double lower_bound, double tolerance,
                       bool bound_trusted) {
    const double gap = mip_relative_gap(report.objective, lower_bound);
    if (answer.status != core::Status::optimal) {
      // At a limit finish_mip_report says which, with the row's gap; stopped otherwise, Cbc's word.
      if (answer.stopped_by == optim::MipLimit::none) {
        report.stop_reason = "Cbc stopped early";
        if (bound_trusted) report.message = answer.message;
      }
      return;
    }
    if (!bound_trusted) {
      report.status = core::Status::solved_inaccurate;
      report.stop_reason = kUntrustedScaleStop;
      return;
    }
    if (gap > tolerance) {
      report.status = core::Status::solved_inaccurate;
      report.stop_reason = "MILP optimum above its bound";
      report.message = fmt::format("F is {:.3g} above Cbc's bound", gap);
      return;
    }
    report.status = core::Status::optimal;
    report.stop_reason = "MILP solved";
  }
};

}  // namespace

std::unique_ptr<const Algorithm> make_global_mip_algorithm() { return std::make_unique<GlobalMipAlgorithm>(); }

}  // namespace sparsesvm::models
