#include "models/algorithms/dc_iterations.hpp"

#include <chrono>
#include <cmath>
#include <fmt/format.h>

namespace sparsesvm::models {
namespace {

constexpr double kRefusalSlack = 1e-6;  // relative rise of F beyond which a step is called inexact

void append(std::string& message, const std::string& text) { message += (message.empty() ? "" : "; ") + text; }

// A kept iterate whose convergence was not reached is feasible, unless it is already flagged inaccurate.
void keep_unconverged(FitReport& report) {
  if (report.status != core::Status::solved_inaccurate) report.status = core::Status::feasible;
}

}  // namespace

const ParameterTable& dc_iteration_options() {
  static const ParameterTable table = {
      {"tolerance", "stop when sum_j |w_j^{k+1} - w_j^k| + |b^{k+1} - b^k| < tolerance", 1e-3, 0.0, 1e6, true, false,
       Scale::log, Regularizes::neither, ParameterKind::solver},
      {"objective_tolerance", "stop when F_{k+1} >= F_k - objective_tolerance (1 + |F_k|)", 1e-9, 0.0, 1.0, false,
       false, Scale::log, Regularizes::neither, ParameterKind::solver},
      {"max_iterations", "iterations before stopping with status feasible (the last iterate kept)", 200, 1, 1e6, false,
       false, Scale::log, Regularizes::neither, ParameterKind::solver, true},
      lp_form_option(),
      {"surrogate_stop", "1: also stop when the step objective stops decreasing ([FSV] eq. (10))", 0, 0, 1, false,
       false, Scale::linear, Regularizes::neither, ParameterKind::solver, true},
  };
  return table;
}

FitReport run_dc_iterations(const Objective& objective, Workspace& workspace, const Start& start,
                            const Hyperparameters& options,
                            const std::function<ConvexStep(const core::Vector&, double)>& make_step) {
  const auto clock_start = std::chrono::steady_clock::now();
  const double tolerance = options.at("tolerance");
  const double objective_tolerance = options.at("objective_tolerance");
  const auto max_iterations = static_cast<int>(options.at("max_iterations"));
  const bool surrogate_stop = options.at("surrogate_stop") != 0.0;
  const core::Dataset& data = workspace.data();
  FitReport report;
  if (start.report) {
    report.inner_iterations = start.report->inner_iterations;
    report.inner_solves = start.report->inner_solves;
    report.fell_back_to_cold = start.report->fell_back_to_cold;
    report.message = start.report->message;
    report.statistics = start.report->statistics;
    report.text_statistics = start.report->text_statistics;
  }
  core::Vector w = start.model.w();
  double b = start.model.b();
  double value = objective.value(data, w, b);
  report.objective_trace.push_back(value);
  report.status = start.report ? start.report->status : core::Status::optimal;

  for (int k = 0;; ++k) {
    if (k == max_iterations) {
      keep_unconverged(report);
      report.stop_reason = "iteration limit";
      append(report.message, fmt::format("stopped after {} iterations before converging", k));
      break;
    }
    // Linearize at the iterate, then solve the convex step ([DCA] Algorithm 1; [FSV] Algorithm 2.1).
    ConvexStep step = make_step(w, b);
    step.lp_form = static_cast<LpForm>(static_cast<int>(options.at("lp_form")));
    if (options.contains("qp_solver")) step.qp_solver = static_cast<int>(options.at("qp_solver"));
    const StepResult next = workspace.steps().solve(step);
    record_step(report, next);
    report.iterations = k + 1;
    if (!core::has_solution(next.status)) {
      // The previous iterate is a model only if some step or a fitted start produced it: a random or
      // zero start that no step improved is no answer.
      const bool has_iterate = k > 0 || start.report;
      if (has_iterate) {
        keep_unconverged(report);
      } else {
        report.status = next.status;
      }
      report.stop_reason = "step failed";
      append(report.message, fmt::format("step {} ended '{}': {}; {}", k + 1, core::to_string(next.status), next.message,
                                         has_iterate ? "kept the previous iterate" : "no model (the start was not fitted)"));
      break;
    }
    const double next_value = objective.value(data, next.w, next.b);
    const double slack = objective_tolerance * (1.0 + std::abs(value));
    if (next_value > value + std::max(slack, kRefusalSlack * (1.0 + std::abs(value)))) {
      report.status = core::Status::solved_inaccurate;
      report.stop_reason = "step refused: F rose";
      append(report.message, fmt::format("step {} raised F from {:.10g} to {:.10g} (inexact step); kept the "
                                         "previous iterate",
                                         k + 1, value, next_value));
      break;
    }
    if (next_value > value) {  // a rise within rounding: F stopped decreasing; keep the previous iterate
      report.stop_reason = "F stopped decreasing (the last step rose by rounding; not taken)";
      break;
    }
    const double change = (next.w - w).lpNorm<1>() + std::abs(next.b - b);
    const bool surrogate_stalled = surrogate_stop && step.value(data, w, b) - step.value(data, next.w, next.b) <= slack;
    const bool objective_stalled = next_value >= value - slack;
    w = next.w;
    b = next.b;
    value = next_value;
    report.status = next.status;  // the returned iterate is only as accurate as the step that produced it
    report.objective_trace.push_back(value);
    if (change < tolerance || objective_stalled || surrogate_stalled) {
      report.stop_reason = change < tolerance ? "change below tolerance"
                           : objective_stalled ? "F stopped decreasing"
                                               : "step objective stopped decreasing";
      break;
    }
  }
  report.model = core::LinearModel(w, b);
  report.objective = value;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count() +
                   (start.report ? start.report->seconds : 0.0);
  return report;
}

}  // namespace sparsesvm::models
