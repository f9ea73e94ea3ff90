#include "models/algorithms/dc_iterations.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>

namespace sparsesvm::models {
namespace {

constexpr double kRefusalSlack = 1e-6;  // relative rise of F beyond which a step is called inexact

void append(std::string& message, const std::string& text) { message += (message.empty() ? "" : "; ") + text; }

// simplex_iteration_limit as the DC iterations take it: over all their LP steps, each held to what is left.
ParameterSpec dc_simplex_iteration_limit_option() {
  ParameterSpec spec = simplex_iteration_limit_option();
  spec.description = "simplex iterations of the LP steps together (a start fitted by another method, OneNormSVM, "
                     "has the same limit for its own fit); past them the fit stops with the iterate it has (the "
                     "stopped step's best point where it lowers F), status feasible with stop_reason `simplex "
                     "iteration limit`, uncertified: a work limit, the same row on any machine with the same memory "
                     "budget. Steps whose LP the basis it holds already answers still run once it is spent (no "
                     "pivot), so a limit equal to the steps' iterations ends converged at the unlimited fit's F (to "
                     "rounding: the rounding may take one step more or another stopping rule); 0 means none";
  return spec;
}

}  // namespace

const ParameterTable& dc_iteration_options() {
  static const ParameterTable table = {
      {"tolerance", "stop when sum_j |w_j^{k+1} - w_j^k| + |b^{k+1} - b^k| < tolerance", 1e-3, 0.0, 1e6, true, false,
       Scale::log, Regularizes::neither, ParameterKind::solver},
      {"objective_tolerance", "stop when F_{k+1} >= F_k - objective_tolerance (1 + |F_k|)", 1e-9, 0.0, 1.0, false,
       false, Scale::log, Regularizes::neither, ParameterKind::solver},
      {"max_iterations", "steps taken before stopping (one more then certifies the iterate kept: converged or feasible)", 200, 1, 1e6, false,
       false, Scale::log, Regularizes::neither, ParameterKind::solver, true},
      lp_form_option(),
      dc_simplex_iteration_limit_option(),
      {"surrogate_stop", "true: also stop when the step objective stops decreasing ([FSV] eq. (10))", 0, 0, 1, false,
       false, Scale::linear, Regularizes::neither, ParameterKind::solver, true, kSwitch},
      {"stationarity_tolerance", "a stop by the rules above needs one more step to certify the iterate: the majorant "
       "gap (what that step could gain, relative to F) within this, else the iteration goes on", 1e-4, 0.0, 1.0, false,
       false, Scale::log, Regularizes::neither, ParameterKind::solver},
  };
  return table;
}

namespace {

constexpr double kRoundingGap = 1e-9;  // a majorant gap below -kRoundingGap contradicts weak duality

// The status of a kept iterate: solved_inaccurate if a step that produced it (or the start) was; else
// converged when its majorant gap is within the tolerance, feasible when not or when the certifying step
// could not certify (NaN; the message says which).
void settle_status(FitReport& report, bool inaccurate, double tolerance) {
  if (inaccurate) {
    report.status = core::Status::solved_inaccurate;
  } else if (report.certificate <= tolerance) {
    report.status = core::Status::converged;
  } else {
    report.status = core::Status::feasible;
    append(report.message, std::isnan(report.certificate)
                               ? std::string("the certifying step was inexact: stationarity unproven")
                               : fmt::format("one more step could still lower the majorant by {:.3g} of F (tolerance {:g})",
                                             report.certificate, tolerance));
  }
}

}  // namespace

double step_majorant_gap(const ConvexStep& step, const StepResult& next, const core::Dataset& data,
                         const core::Vector& w, double b, double value) {
  if (next.status != core::Status::optimal) return std::nan("");
  const double at_iterate = step.value(data, w, b);
  const double at_step = step.value(data, next.w, next.b);
  // The step's optimum is at least its dual bound: for an LP the dual objective in the step's units (the
  // LP's costs are the step's times lp_cost_scale), not at_step less P - D, which would overstate it where
  // rows are violated inside the simplex's tolerance (the true hinge at_step counts exceeds the LP's slacks).
  const double lower_bound = next.kind == StepKind::lp
                                 ? std::min(at_step, next.certificate.dual_objective / next.lp_cost_scale)
                                 : at_step - std::max(0.0, next.qp_relative_gap * std::abs(at_step));
  const double gap = (at_iterate - lower_bound) / (value != 0.0 ? std::abs(value) : 1.0);
  return gap >= -kRoundingGap ? std::max(0.0, gap) : std::nan("");
}

FitReport run_dc_iterations(const Objective& objective, StepSolver& steps, const Start& start,
                            const Hyperparameters& options,
                            const std::function<ConvexStep(const core::Vector&, double)>& make_step) {
  const auto clock_start = std::chrono::steady_clock::now();
  const double tolerance = options.at("tolerance");
  const double objective_tolerance = options.at("objective_tolerance");
  const double stationarity_tolerance = options.at("stationarity_tolerance");
  const auto max_iterations = static_cast<int>(options.at("max_iterations"));
  const bool surrogate_stop = options.at("surrogate_stop") != 0.0;
  const auto simplex_iteration_limit = static_cast<long>(options.at("simplex_iteration_limit"));
  long simplex_iterations_used = 0;  // of the steps so far
  const core::Dataset& data = steps.data();
  FitReport report;
  if (start.report) {
    report.inner_iterations = start.report->inner_iterations;
    report.inner_solves = start.report->inner_solves;
    report.fell_back_to_cold = start.report->fell_back_to_cold;
    // The start's words, marked and enclosed as the start's: they are not the row's, whose status its
    // last steps settle (each step's own notes are marked the same way, by record_step).
    if (!start.report->message.empty()) {
      report.message = fmt::format("the start [{}: {}]", core::to_string(start.report->status), start.report->message);
    }
    report.statistics = start.report->statistics;
    report.text_statistics = start.report->text_statistics;
  }
  report.certificate_kind = kMajorantGap;
  core::Vector w = start.model.w();
  double b = start.model.b();
  double value = objective.value(data, w, b);
  const double start_seconds = start.report ? start.report->seconds : 0.0;
  const auto seconds_now = [&] {
    return start_seconds + std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count();
  };
  report.trace_objective(value, start_seconds);
  // Whether the iterate came from an inexact solve (the start's or a step's).
  bool inaccurate = start.report && start.report->status == core::Status::solved_inaccurate;
  // The paper's rule (change, F or the step objective stalled) held at the iterate: the step just solved
  // there certifies it, or the iteration goes on (it stopped short of a critical point).
  std::string paper_stop;
  int stops_overruled = 0;
  // Stopped by simplex_iteration_limit: the iterate is kept uncertified.
  const auto stop_at_simplex_limit = [&](const std::string& what) {
    report.certificate = std::nan("");
    report.status = inaccurate ? core::Status::solved_inaccurate : core::Status::feasible;
    report.stop_reason = kSimplexLimitStop;
    append(report.message, fmt::format("simplex iteration limit ({}) {}; uncertified", simplex_iteration_limit, what));
  };

  for (int k = 0;; ++k) {
    // Linearize at the iterate, then solve the convex step ([DCA] Algorithm 1; [FSV] Algorithm 2.1).
    ConvexStep step = make_step(w, b);
    step.lp_form = static_cast<LpForm>(static_cast<int>(options.at("lp_form")));
    if (options.contains("qp_solver")) step.qp_solver = static_cast<int>(options.at("qp_solver"));
    if (simplex_iteration_limit > 0) {
      // Once spent, a step still runs at 0: the basis its LP holds may answer it without a pivot (the
      // last steps of a converging chain), or the step stops at once.
      step.simplex_iteration_limit = std::max(0L, simplex_iteration_limit - simplex_iterations_used);
    }
    const StepResult next = steps.solve(step);
    simplex_iterations_used += next.simplex_iterations;
    record_step(report, next, fmt::format("step {}", k + 1));
    report.iterations = k + 1;
    if (!core::has_solution(next.status)) {
      // The previous iterate is a model only if some step or a fitted start produced it: a random or
      // zero start that no step improved is no answer. Its certificate is unknown (NaN).
      const bool has_iterate = k > 0 || start.report;
      report.status = has_iterate ? (inaccurate ? core::Status::solved_inaccurate : core::Status::feasible) : next.status;
      report.stop_reason = "step failed";
      append(report.message, fmt::format("step {} ended '{}': {}; {}", k + 1, core::to_string(next.status), next.message,
                                         has_iterate ? "kept the previous iterate, uncertified" : "no model (the start was not fitted)"));
      report.certificate = std::nan("");
      break;
    }
    const double next_value = objective.value(data, next.w, next.b);
    if (next.stopped_at_simplex_limit) {  // the step's best point, not its minimizer: taken where F falls
      const bool lowers = next_value < value;
      if (lowers) {
        w = next.w;
        b = next.b;
        value = next_value;
        inaccurate = false;
        report.trace_objective(value, seconds_now());
      }
      stop_at_simplex_limit(fmt::format("reached in step {}: kept {}", k + 1, lowers ? "that step's point, which lowered F" : "the previous iterate"));
      break;
    }
    const double slack = objective_tolerance * (1.0 + std::abs(value));
    if (next_value > value + std::max(slack, kRefusalSlack * (1.0 + std::abs(value)))) {
      // F rose: the step is inexact (G(x+) >= F(x+) > F(x) = G(x)), so it certifies nothing either.
      report.certificate = std::nan("");
      report.stop_reason = "step refused: F rose";
      append(report.message, fmt::format("step {} raised F from {:.10g} to {:.10g} (inexact step); kept the "
                                         "previous iterate",
                                         k + 1, value, next_value));
      settle_status(report, true, stationarity_tolerance);
      break;
    }
    report.certificate = step_majorant_gap(step, next, data, w, b, value);
    if (!paper_stop.empty()) {
      if (!(report.certificate > stationarity_tolerance)) {  // within the tolerance, or the step cannot tell (NaN)
        report.stop_reason = paper_stop + (std::isnan(report.certificate) ? "" : "; certified by one more step");
        settle_status(report, inaccurate, stationarity_tolerance);
        break;
      }
      paper_stop.clear();
      ++stops_overruled;
    }
    if (k == max_iterations) {
      report.stop_reason = "iteration limit";
      append(report.message, fmt::format("stopped after {} steps and a certifying one", k));
      settle_status(report, inaccurate, stationarity_tolerance);
      break;
    }
    if (next_value > value) {  // a rise within rounding: F stopped decreasing; keep the previous iterate
      report.stop_reason = "F stopped decreasing (the last step rose by rounding; not taken)";
      settle_status(report, inaccurate, stationarity_tolerance);
      break;
    }
    const double change = (next.w - w).lpNorm<1>() + std::abs(next.b - b);
    const bool surrogate_stalled = surrogate_stop && step.value(data, w, b) - step.value(data, next.w, next.b) <= slack;
    const bool objective_stalled = next_value >= value - slack;
    w = next.w;
    b = next.b;
    value = next_value;
    inaccurate = next.status == core::Status::solved_inaccurate;  // the iterate is only as accurate as its step
    report.trace_objective(value, seconds_now());
    if (change < tolerance || objective_stalled || surrogate_stalled) {
      paper_stop = change < tolerance ? "change below tolerance"
                   : objective_stalled ? "F stopped decreasing"
                                       : "step objective stopped decreasing";
    }
  }
  if (stops_overruled > 0) {
    append(report.message, fmt::format("went on {} time{} after the stopping rule held: the majorant gap was above {:g}",
                                       stops_overruled, stops_overruled == 1 ? "" : "s", stationarity_tolerance));
  }
  report.model = core::LinearModel(w, b);
  report.objective = value;
  report.seconds = seconds_now();
  return report;
}

}  // namespace sparsesvm::models
