// DCA for F = G - H ([DCA] section 3.2, Algorithm 1): at (w^k, b^k) take (eta, kappa) in dH(w^k, b^k)
// and solve the convex step  min G(w, b) - <eta, w> - kappa b  ([DCA] eq. (23)). With the splits of
// losses/ and penalties/,
//   G = sum_i c_i s max(0, m - t_i) + rho g_weight R(w)
//   eta = sum_i c_i h'(t_i) y_i x_i + rho dh_pen(w),   kappa = sum_i c_i h'(t_i) y_i     ([DCA] eq. (22), (30))
// One driver serves every nonconvex method of the DCA and FSV papers: SLA ([FSV] Algorithm 2.1) is DCA
// on the concave part, so FSV is DCA with loss = class-averaged hinge and penalty = approx_l0 (a = alpha).
//
// Stopping ([DCA] section 4; shared/REPRODUCTION.md): at max_iterations with status feasible (the last
// iterate is kept: a model whose criticality is not reached); else when the total change sum_j |dw_j| + |db| is below
// `tolerance`, or F does not decrease (F_{k+1} >= F_k - objective_tolerance (1 + |F_k|)), or, with
// surrogate_stop, the step objective does not decrease ([FSV] eq. (10)). DCA never increases F in exact
// arithmetic; a step that raises F is refused: beyond 1e-6 (1 + |F_k|) it is a solver inaccuracy
// (status solved_inaccurate), within it a rounding-level stall. Either way the previous iterate is
// kept and stop_reason says so, so that tests can tell an accepted step from a refused one.
#include <chrono>
#include <cmath>
#include <fmt/format.h>

#include "models/algorithms/algorithm.hpp"
#include "models/convex_step.hpp"

namespace sparsesvm::models {
namespace {

constexpr double kRefusalSlack = 1e-6;  // relative rise of F beyond which a step is called inexact

class DcaAlgorithm : public Algorithm {
 public:
  std::string id() const override { return "dca"; }
  std::string description() const override {
    return "DC programming: a convex step (LP or QP) per iteration, linearizing the concave part at the iterate";
  }
  const ParameterTable& options() const override {
    static const ParameterTable table = {
        {"tolerance", "stop when sum_j |w_j^{k+1} - w_j^k| + |b^{k+1} - b^k| < tolerance", 1e-3, 0.0, 1e6, true, false,
         Scale::log, Regularizes::neither, ParameterKind::solver},
        {"objective_tolerance", "stop when F_{k+1} >= F_k - objective_tolerance (1 + |F_k|)", 1e-9, 0.0, 1.0, false,
         false, Scale::log, Regularizes::neither, ParameterKind::solver},
        {"max_iterations", "DCA iterations before stopping with status feasible (the last iterate kept)", 200, 1, 1e6, false, false,
         Scale::log, Regularizes::neither, ParameterKind::solver, true},
        {"surrogate_stop", "1: also stop when the step objective stops decreasing ([FSV] eq. (10))", 0, 0, 1, false,
         false, Scale::linear, Regularizes::neither, ParameterKind::solver, true},
    };
    return table;
  }
  std::vector<std::string> statistic_names() const override { return step_statistic_names(); }
  bool needs_start() const override { return true; }
  std::string unsupported(const Objective&) const override { return ""; }  // every loss and penalty has a DC split

  FitReport fit(const Objective& objective, Workspace& workspace, const Start& start,
                const Hyperparameters& options) const override;
};

void append(std::string& message, const std::string& text) { message += (message.empty() ? "" : "; ") + text; }

FitReport DcaAlgorithm::fit(const Objective& objective, Workspace& workspace, const Start& start,
                            const Hyperparameters& options) const {
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
  }
  core::Vector w = start.model.w();
  double b = start.model.b();
  double value = objective.value(data, w, b);
  report.objective_trace.push_back(value);
  report.status = start.report ? start.report->status : core::Status::optimal;

  for (int k = 0;; ++k) {
    if (k == max_iterations) {
      // Every iterate is a model and F has decreased along them; only criticality is not reached.
      report.status = core::Status::feasible;
      report.stop_reason = "iteration limit";
      append(report.message, fmt::format("DCA stopped after {} iterations before converging", k));
      break;
    }
    // Algorithm 1, step 1: linearize H at the iterate; step 2: solve the convex step.
    const ConvexStep step = linearized_step(objective, data, w, b);
    const StepResult next = workspace.steps().solve(step);
    record_step(report, next);
    report.iterations = k + 1;
    if (!core::has_solution(next.status)) {
      report.status = next.status;
      report.stop_reason = "step failed";
      append(report.message, fmt::format("DCA step {} ended '{}': {}; kept the previous iterate", k + 1,
                                         core::to_string(next.status), next.message));
      break;
    }
    const double next_value = objective.value(data, next.w, next.b);
    const double slack = objective_tolerance * (1.0 + std::abs(value));
    if (next_value > value + std::max(slack, kRefusalSlack * (1.0 + std::abs(value)))) {
      report.status = core::Status::solved_inaccurate;
      report.stop_reason = "step refused: F rose";
      append(report.message, fmt::format("DCA step {} raised F from {:.10g} to {:.10g} (inexact step); kept the "
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

}  // namespace

std::unique_ptr<const Algorithm> make_dca_algorithm() { return std::make_unique<DcaAlgorithm>(); }

}  // namespace sparsesvm::models
