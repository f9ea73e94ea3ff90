#include "models/dca.hpp"

#include <chrono>
#include <cmath>
#include <fmt/format.h>

namespace sparsesvm::models {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void add_solve(FitReport& report, const StepResult& step) {
  report.inner_iterations += step.inner_iterations;
  report.inner_solves += 1;
  report.fell_back_to_cold = report.fell_back_to_cold || step.fell_back_to_cold;
  if (step.fell_back_to_cold && report.message.find(step.message) == std::string::npos) {
    report.message += (report.message.empty() ? "" : "; ") + step.message;
  }
}

}  // namespace

std::string FitReport::brief() const {
  return fmt::format("{} F={:.6g} iter={} (LP/QP {} in {} solves) nnz={} {:.3f}s{}", core::to_string(status),
                     objective, iterations, inner_iterations, inner_solves, model.count_nonzeros(), seconds,
                     message.empty() ? "" : " [" + message + "]");
}

ConvexStep linearized_step(const Objective& objective, const core::Dataset& data, const core::Vector& w, double b) {
  const auto n = static_cast<Eigen::Index>(data.n());
  const Loss& loss = *objective.loss;
  ConvexStep step;
  step.hinge_weight = objective.example_weights * loss.convex_scale();
  step.margin = core::Vector::Constant(n, loss.convex_margin());
  step.regularizer = objective.penalty->convex_regularizer();
  step.regularizer_weight = objective.penalty_weight * objective.penalty->convex_weight();

  // d/dw of sum_i c_i h(t_i) is sum_i c_i h'(t_i) y_i x_i; d/db is sum_i c_i h'(t_i) y_i.
  const core::Vector t = margins(data, w, b);
  core::Vector weighted_slopes(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    weighted_slopes[i] = objective.example_weights[i] * loss.concave_slope(t[i]) * data.labels()[i];
  }
  step.tilt_w = data.transpose_times(weighted_slopes) +
                objective.penalty_weight * objective.penalty->concave_subgradient(w);
  step.tilt_b = weighted_slopes.sum();
  return step;
}

FitReport fit_convex(const Objective& objective, StepSolver& solver) {
  const auto start = Clock::now();
  const core::Dataset& data = solver.data();
  const auto d = static_cast<Eigen::Index>(data.d());
  FitReport report;
  const StepResult step = solver.solve(linearized_step(objective, data, core::Vector::Zero(d), 0.0));
  add_solve(report, step);
  report.status = step.status;
  if (!step.fell_back_to_cold) report.message = step.message;
  if (core::has_solution(step.status)) {
    report.model = core::LinearModel(step.w, step.b);
    report.objective = objective.value(data, step.w, step.b);
    report.objective_trace = {report.objective};
  }
  report.seconds = seconds_since(start);
  return report;
}

FitReport fit_dca(const Objective& objective, StepSolver& solver, const core::LinearModel& start,
                  const DcaOptions& options, const FitReport* start_report) {
  const auto clock_start = Clock::now();
  const core::Dataset& data = solver.data();
  FitReport report;
  if (start_report) {
    report.inner_iterations = start_report->inner_iterations;
    report.inner_solves = start_report->inner_solves;
    report.fell_back_to_cold = start_report->fell_back_to_cold;
    report.message = start_report->message;
  }
  core::Vector w = start.w();
  double b = start.b();
  double value = objective.value(data, w, b);
  report.objective_trace.push_back(value);
  report.status = start_report ? start_report->status : core::Status::optimal;

  for (int k = 0;; ++k) {
    if (k == options.max_iterations) {
      report.status = core::Status::iteration_limit;
      report.message += fmt::format("{}DCA stopped after {} iterations", report.message.empty() ? "" : "; ", k);
      break;
    }
    const ConvexStep step = linearized_step(objective, data, w, b);
    const StepResult next = solver.solve(step);
    add_solve(report, next);
    report.iterations = k + 1;
    if (!core::has_solution(next.status)) {
      report.status = next.status;
      report.message += fmt::format("{}DCA step {} ended '{}': {}; kept the previous iterate",
                                    report.message.empty() ? "" : "; ", k + 1, core::to_string(next.status), next.message);
      break;
    }
    const double next_value = objective.value(data, next.w, next.b);
    const double slack = options.objective_tolerance * (1.0 + std::abs(value));
    if (next_value > value + std::max(slack, 1e-6 * (1.0 + std::abs(value)))) {
      report.status = core::Status::solved_inaccurate;
      report.message += fmt::format("{}DCA step {} raised F from {:.10g} to {:.10g} (inexact step); kept the previous "
                                    "iterate",
                                    report.message.empty() ? "" : "; ", k + 1, value, next_value);
      break;
    }
    if (next_value > value) break;  // a rise within rounding: F stopped decreasing; keep the previous iterate
    const double change = (next.w - w).lpNorm<1>() + std::abs(next.b - b);
    const bool surrogate_stalled = options.stop_on_surrogate_stall &&
                                   step.value(data, w, b) - step.value(data, next.w, next.b) <= slack;
    const bool objective_stalled = next_value >= value - slack;
    w = next.w;
    b = next.b;
    value = next_value;
    report.status = next.status;  // the returned iterate is only as accurate as the step that produced it
    report.objective_trace.push_back(value);
    if (change < options.tolerance || objective_stalled || surrogate_stalled) break;
  }
  report.model = core::LinearModel(w, b);
  report.objective = value;
  report.seconds = seconds_since(clock_start) + (start_report ? start_report->seconds : 0.0);
  return report;
}

}  // namespace sparsesvm::models
