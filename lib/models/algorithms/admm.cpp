// ADMM for the hinge loss with a separable penalty that has a proximal operator (shared/ADMM.md; [ADMM]
// section 3). Splitting (3): min sum_i c_i xi_i + rho P(z)  s.t.  w = z,  A w + b y + xi - s - 1 = 0,
// xi, s >= 0, with A = diag(y) X. One sweep of the scaled augmented Lagrangian (5), all variables from 0:
//   q  = (rho1/rho2)(z - u) + A'(1 + s - xi - v - b y);   w = (A'A + (rho1/rho2) I)^{-1} q
//   b  = y'(1 + s - xi - v - A w) / n
//   z  = prox of (rho/rho1) P at w + u, coordinate by coordinate
//   xi = (1 + s - v - A w - b y - c / rho2)_+      (the paper's mean hinge: c_i = 1/n)
//   s  = (A w + b y + xi - 1 + v)_+
//   u += w - z;   v += A w + b y + xi - s - 1
// The w-system is factored once per (training set, rho1/rho2) in the workspace (optim/ridge_system.hpp)
// and shared by every lambda and penalty. Stopping (Boyd et al. 2011, 3.3.1): after min_iterations, when
//   primal  ||(w - z, A w + b y + xi - s - 1)|| <= sqrt(d + n) abs + rel max(||(w, A w + b y)||, ||(z, xi - s - 1)||)
//   dual    ||(rho1 (z - z_prev), rho2 A'(dxi - ds))|| <= sqrt(d) abs + rel max(rho1 ||u||, rho2 ||A'v||)
// The classifier is (z, b): z is the sparse copy, its nonzeros the selected features.
#include <chrono>
#include <cmath>
#include <optional>
#include <fmt/format.h>

#include "core/errors.hpp"
#include "models/algorithms/algorithm.hpp"
#include "models/workspace_state.hpp"
#include "optim/l2_svm.hpp"
#include "optim/ridge_system.hpp"

namespace sparsesvm::models {
namespace {

struct RidgeState : WorkspaceState {
  RidgeState(const core::Dataset& data, double rho, optim::RidgeRegime regime) : system(data, rho, regime) {}
  optim::RidgeSystem system;
};

double square(double x) { return x * x; }

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Iterations at which traces are recorded: 1..10, then 10 per decade (20, 30, ..., 100, 200, ...).
bool recorded(int k) {
  if (k <= 10) return true;
  int stride = 1;
  while (stride * 10 <= k) stride *= 10;
  return k % stride == 0;
}

struct AdmmOptions {
  double rho1, rho2, abs_tolerance, rel_tolerance, gap_tolerance;
  int min_iterations, max_iterations;
  ProxRule prox_rule;
  optim::RidgeRegime regime;
};

AdmmOptions read_options(const Hyperparameters& options, std::size_t n) {
  const double scale = options.at("rho2_per_n") == 1.0 ? 1.0 / static_cast<double>(n) : 1.0;
  return {options.at("rho1"),
          scale * options.at("rho2"),
          options.at("abs_tolerance"),
          options.at("rel_tolerance"),
          options.at("gap_tolerance"),
          static_cast<int>(options.at("min_iterations")),
          static_cast<int>(options.at("max_iterations")),
          options.at("prox_public_code") == 1.0 ? ProxRule::public_code : ProxRule::exact,
          static_cast<optim::RidgeRegime>(static_cast<int>(options.at("factorization")))};
}

// The ADMM iterates and one sweep over them.
class Sweeps {
 public:
  Sweeps(const Objective& objective, const core::Dataset& data, const optim::RidgeSystem& system, const AdmmOptions& o)
      : objective_(objective), data_(data), system_(system), o_(o), y_(data.labels()),
        w_(core::Vector::Zero(static_cast<Eigen::Index>(data.d()))), z_(w_), u_(w_),
        xi_(core::Vector::Zero(static_cast<Eigen::Index>(data.n()))), s_(xi_), v_(xi_) {}

  // One sweep; fills the primal and dual residuals and whether they meet the tolerances.
  void sweep() {
    const double n = static_cast<double>(data_.n());
    const double ratio = o_.rho1 / o_.rho2;
    const core::Vector q = ratio * (z_ - u_) + a_transpose_times(1.0 + (s_ - xi_ - v_ - b_ * y_).array());
    w_ = system_.solve(q);
    const core::Vector aw = y_.cwiseProduct(data_.times(w_));
    b_ = y_.dot((1.0 + (s_ - xi_ - v_ - aw).array()).matrix()) / n;
    const core::Vector z_previous = z_;
    const double step = objective_.penalty_weight / o_.rho1;
    for (Eigen::Index j = 0; j < z_.size(); ++j) z_[j] = objective_.penalty->prox(w_[j] + u_[j], step, o_.prox_rule);
    const core::Vector xi_minus_s_previous = xi_ - s_;
    const core::Vector fit = aw + b_ * y_;  // A w + b y
    xi_ = (1.0 + (s_ - v_ - fit).array() - objective_.example_weights.array() / o_.rho2).max(0.0);
    s_ = (fit + xi_ + v_).array() - 1.0;
    s_ = s_.cwiseMax(0.0);
    const core::Vector r1 = w_ - z_;
    const core::Vector r2 = (fit + xi_ - s_).array() - 1.0;
    u_ += r1;
    v_ += r2;
    primal_ = std::sqrt(r1.squaredNorm() + r2.squaredNorm());
    // Dual residual of the (w, b) block: its w-row split in two (conservative), and its b-row
    // rho2 y'(dxi - ds), which alone sees a bias that still moves when A'(dxi - ds) = 0.
    const core::Vector slack_change = xi_ - s_ - xi_minus_s_previous;
    dual_ = std::sqrt(square(o_.rho1 * (z_ - z_previous).norm()) + square(o_.rho2 * a_transpose_times(slack_change).norm()) +
                      square(o_.rho2 * y_.dot(slack_change)));
    const double d = static_cast<double>(data_.d());
    const double primal_scale = std::max(std::hypot(w_.norm(), fit.norm()),
                                         std::hypot(z_.norm(), ((xi_ - s_).array() - 1.0).matrix().norm()));
    const double dual_scale = std::max({o_.rho1 * u_.norm(), o_.rho2 * a_transpose_times(v_).norm(), o_.rho2 * std::abs(y_.dot(v_))});
    finite_ = std::isfinite(primal_) && std::isfinite(dual_) && std::isfinite(primal_scale) && std::isfinite(dual_scale) &&
              std::isfinite(b_) && z_.allFinite();
    converged_ = finite_ && primal_ <= std::sqrt(d + n) * o_.abs_tolerance + o_.rel_tolerance * primal_scale &&
                 dual_ <= std::sqrt(d + 1) * o_.abs_tolerance + o_.rel_tolerance * dual_scale;
  }

  // For an objective  sum_i c_i hinge_i + mu ||w||_1  (convex), the relative duality gap (F - D) / F at
  // (z, b), with D from the multipliers of the margin constraint: alpha = -rho2 v solves the LP dual
  //   max sum_i alpha_i  s.t.  0 <= alpha_i <= c_i,  y'alpha = 0,  ||X'(alpha .* y)||_inf <= mu
  // at a solution; alpha is clipped to the box, moved onto y'alpha = 0 and scaled into the norm bound
  // (scaling keeps the box and the equality), so D is a lower bound of the optimum. NaN when no dual
  // point is at hand (the box cannot meet the equality).
  double relative_gap(double l1_weight) const {
    core::Vector alpha = (-o_.rho2 * v_).cwiseMax(0.0).cwiseMin(objective_.example_weights);
    if (!optim::move_onto_equality(alpha, y_, objective_.example_weights, 0.0)) return std::nan("");
    const double correlation = a_transpose_times(alpha).lpNorm<Eigen::Infinity>();
    if (correlation > l1_weight) alpha *= l1_weight / correlation;
    const double value = objective_value();
    return (value - alpha.sum()) / std::max(std::abs(value), 1e-300);
  }
  double primal_residual() const { return primal_; }
  double dual_residual() const { return dual_; }
  bool converged() const { return converged_; }
  // False when an iterate, a residual or a residual's scale overflowed.
  bool finite() const { return finite_; }
  double objective_value() const { return objective_.value(data_, z_, b_); }
  core::LinearModel model() const { return core::LinearModel(z_, b_); }

 private:
  // A' r = X' (y .* r)
  core::Vector a_transpose_times(const core::Vector& r) const { return data_.transpose_times(y_.cwiseProduct(r)); }

  const Objective& objective_;
  const core::Dataset& data_;
  const optim::RidgeSystem& system_;
  AdmmOptions o_;
  const core::Vector& y_;
  core::Vector w_, z_, u_, xi_, s_, v_;
  double b_ = 0.0;
  double primal_ = 0.0, dual_ = 0.0;
  bool finite_ = true;
  bool converged_ = false;
};

// mu when F is  sum_i c_i hinge_i + mu ||w||_1  (a convex objective that relative_gap certifies).
std::optional<double> l1_weight(const Objective& objective) {
  if (!objective.is_convex() || objective.penalty->convex_regularizer() != Regularizer::l1) return std::nullopt;
  return objective.penalty_weight * objective.penalty->convex_weight();
}

void record_trace(const Sweeps& sweeps, int k, FitReport& report) {
  report.traces["trace_iterations"].push_back(k);
  report.traces["primal_residual_trace"].push_back(k == 0 ? std::nan("") : sweeps.primal_residual());
  report.traces["dual_residual_trace"].push_back(k == 0 ? std::nan("") : sweeps.dual_residual());
  report.objective_trace.push_back(sweeps.objective_value());
}

// Sweeps until the stopping rule holds (after min_iterations: the residual tolerances, and for an l1
// objective also gap_tolerance on the certified relative duality gap), the iterates overflow, or
// max_iterations. Fills the report's status, stop reason, model, objective, traces and statistics.
void run_sweeps(Sweeps& sweeps, const AdmmOptions& o, std::optional<double> l1, FitReport& report) {
  record_trace(sweeps, 0, report);
  report.status = core::Status::feasible;
  report.stop_reason = "iteration limit";
  double gap = std::nan("");
  int k = 0;
  while (k < o.max_iterations) {
    sweeps.sweep();
    ++k;
    if (!sweeps.finite()) {
      report.status = core::Status::numerical_error;
      report.stop_reason = "iterates not finite";
      report.message = fmt::format("ADMM iterates or residuals overflowed at sweep {} (badly scaled data, or rho1/rho2 "
                                   "= {:g} too far from the data's scale)",
                                   k, o.rho1 / o.rho2);
      break;
    }
    bool stop = k >= o.min_iterations && sweeps.converged();
    if (stop && l1) {
      gap = sweeps.relative_gap(*l1);
      stop = gap <= o.gap_tolerance;
    }
    if (recorded(k) || stop || k == o.max_iterations) record_trace(sweeps, k, report);
    if (stop) {
      report.status = core::Status::optimal;
      report.stop_reason = l1 ? "residuals and duality gap below tolerance" : "residuals below tolerance";
      break;
    }
  }
  if (report.status == core::Status::feasible) {
    if (l1) gap = sweeps.relative_gap(*l1);
    report.message = fmt::format("stopped after {} sweeps before the residuals{} met their tolerances", k,
                                 l1 ? fmt::format(" and the duality gap ({:.3g})", gap) : "");
  }
  report.iterations = k;
  report.inner_iterations = k;
  report.inner_solves = k;
  if (report.has_solution()) {
    report.model = sweeps.model();
    report.objective = report.objective_trace.back();
  }
  report.statistics["primal_residual"] = sweeps.primal_residual();
  report.statistics["dual_residual"] = sweeps.dual_residual();
  report.statistics["relative_gap"] = gap;
}

class AdmmAlgorithm : public Algorithm {
 public:
  std::string id() const override { return "admm"; }
  std::string description() const override {
    return "ADMM on the hinge loss with a proximable penalty ([ADMM] 3, shared/ADMM.md): one factored linear system, "
           "closed-form steps";
  }
  const ParameterTable& options() const override {
    static const ParameterTable table = {
        {"rho1", "penalty parameter of w = z (1.5 as published)", 1.5, 0.0, 1e8, true, false, Scale::log,
         Regularizes::neither, ParameterKind::solver},
        {"rho2", "penalty parameter of the margin constraint (10 as published; scale with n, see the README)", 10.0, 0.0,
         1e8, true, false, Scale::log, Regularizes::neither, ParameterKind::solver},
        {"rho2_per_n", "1: rho2 is divided by n, the scale of the mean hinge's weights 1/n (see the README); 0: used "
         "as given, as published", 0, 0, 1, false, false, Scale::linear, Regularizes::neither, ParameterKind::solver,
         true},
        {"abs_tolerance", "absolute tolerance of the primal and dual residuals (per sqrt of their size)", 1e-6, 0.0, 1.0,
         true, false, Scale::log, Regularizes::neither, ParameterKind::solver},
        {"rel_tolerance", "relative tolerance of the primal and dual residuals", 1e-4, 0.0, 1.0, true, false, Scale::log,
         Regularizes::neither, ParameterKind::solver},
        {"gap_tolerance", "l1 objectives (convex) also need this certified relative duality gap to stop", 1e-3, 0.0,
         1.0, true, false, Scale::log, Regularizes::neither, ParameterKind::solver},
        {"min_iterations", "sweeps before the residual test may stop (max_iterations still ends the run)", 10, 1, 1e6, false, false, Scale::log,
         Regularizes::neither, ParameterKind::solver, true},
        {"max_iterations", "sweeps before stopping with status feasible (the last iterate kept)", 10000, 1, 1e7, false,
         false, Scale::log, Regularizes::neither, ParameterKind::solver, true},
        {"factorization", "the w-system's factor: 0 the smaller of d x d and n x n, 1 d x d, 2 n x n (Woodbury)", 0, 0,
         2, false, false, Scale::linear, Regularizes::neither, ParameterKind::solver, true},
        {"prox_public_code", "1: the public code's prox, unit weight at strength lambda/rho1 (inexact for SCAD and MCP)",
         0, 0, 1, false, false, Scale::linear, Regularizes::neither, ParameterKind::solver, true},
    };
    return table;
  }
  std::vector<std::string> statistic_names() const override {
    // factor_s: seconds this fit spent factoring the w-system (0 when an earlier fit in the workspace did).
    // relative_gap: the certified (F - D) / F of an l1 objective, NaN for the nonconvex penalties.
    return {"primal_residual", "dual_residual", "relative_gap", "factor_s", "iteration_s", "woodbury"};
  }
  std::vector<std::string> trace_names() const override {
    return {"trace_iterations", "primal_residual_trace", "dual_residual_trace"};
  }
  bool finds_optimum() const override { return false; }
  bool needs_start() const override { return false; }

  std::string unsupported(const Objective& objective) const override {
    if (objective.loss->id() != "hinge") return fmt::format("admm solves the hinge loss, not {}", objective.loss->id());
    if (!objective.penalty->has_prox()) {
      return fmt::format("admm needs a penalty with a proximal operator; {} has none", objective.penalty->id());
    }
    return "";
  }

  FitReport fit(const Objective& objective, Workspace& workspace, const Start&,
                const Hyperparameters& options) const override {
    if (const std::string reason = unsupported(objective); !reason.empty()) throw core::InputError(reason);
    const auto clock_start = std::chrono::steady_clock::now();
    const core::Dataset& data = workspace.data();
    const AdmmOptions o = read_options(options, data.n());
    const double ratio = o.rho1 / o.rho2;
    bool factored_here = false;
    const RidgeState& ridge = workspace.state<RidgeState>(
        fmt::format("admm_ridge|{}|{}", ratio, static_cast<int>(o.regime)), [&] {
          factored_here = true;
          return std::make_unique<RidgeState>(data, ratio, o.regime);
        });
    const double setup_seconds = seconds_since(clock_start);
    FitReport report;
    report.statistics["factor_s"] = factored_here ? setup_seconds : 0.0;
    if (!ridge.system.factored()) {
      report.status = core::Status::numerical_error;
      report.stop_reason = "factorization failed";
      report.message = "the Cholesky factor of the w-system failed or overflowed (data too badly scaled)";
      return report;
    }
    Sweeps sweeps(objective, data, ridge.system, o);
    run_sweeps(sweeps, o, l1_weight(objective), report);
    report.seconds = seconds_since(clock_start);
    report.statistics["iteration_s"] =
        report.iterations > 0 ? (report.seconds - setup_seconds) / report.iterations : 0.0;
    report.statistics["woodbury"] = ridge.system.uses_woodbury() ? 1.0 : 0.0;
    return report;
  }
};

}  // namespace

std::unique_ptr<const Algorithm> make_admm_algorithm() { return std::make_unique<AdmmAlgorithm>(); }

}  // namespace sparsesvm::models
