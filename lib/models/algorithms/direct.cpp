// Direct solve of a convex objective: one convex step (convex_step.hpp) with no tilt, an LP in Clp for
// the l1, l_inf and no penalty ([DCA] A.2; [FSV] (4), (12), (13)), the l2 SVM by dual CD or the interior
// point (optim/l2_svm_solver.hpp) for l2^2 ([DCA] A.1; [FSV] (14)). Tolerances are those of the
// workspace's step solver: Clp's defaults; the QP until the relative duality gap is below 1e-6.
#include <chrono>
#include <cmath>
#include <fmt/format.h>

#include "core/errors.hpp"
#include "models/algorithms/algorithm.hpp"
#include "models/convex_step.hpp"

namespace sparsesvm::models {
namespace {

class DirectAlgorithm : public Algorithm {
 public:
  std::string id() const override { return "direct"; }
  std::string description() const override {
    return "one convex solve: an LP (Clp, warm basis) for l1/l_inf/no penalty, the l2 SVM (dual CD or interior point) for l2^2";
  }
  const ParameterTable& options() const override {
    static const ParameterTable table = {lp_form_option(), qp_solver_option(), simplex_iteration_limit_option()};
    return table;
  }
  std::vector<std::string> statistic_names() const override { return step_statistic_names(); }
  std::vector<std::string> text_statistic_names() const override { return {kQpSolverColumn}; }
  bool finds_optimum() const override { return true; }
  bool needs_start() const override { return false; }

  std::string unsupported(const Objective& objective) const override {
    if (std::string reason = convex_step_unsupported(objective); !reason.empty()) return reason;
    if (!objective.loss->is_convex()) {
      return fmt::format("direct needs a convex objective; loss {} is not convex (use dca)", objective.loss->id());
    }
    if (!objective.penalty->is_convex()) {
      return fmt::format("direct needs a convex objective; penalty {} is not convex (use dca)", objective.penalty->id());
    }
    return "";
  }

  FitReport fit(const Objective& objective, Workspace& workspace, const Start&, const Hyperparameters& options) const override {
    if (const std::string reason = unsupported(objective); !reason.empty()) throw core::InputError(reason);
    const auto clock_start = std::chrono::steady_clock::now();
    const core::Dataset& data = workspace.data();
    FitReport report;
    ConvexStep convex_step = linearized_step(objective, data, core::Vector::Zero(static_cast<Eigen::Index>(data.d())), 0.0);
    convex_step.lp_form = static_cast<LpForm>(static_cast<int>(options.at("lp_form")));
    convex_step.qp_solver = static_cast<int>(options.at("qp_solver"));
    const auto simplex_iteration_limit = static_cast<long>(options.at("simplex_iteration_limit"));  // 0: none
    convex_step.simplex_iteration_limit = simplex_iteration_limit > 0 ? simplex_iteration_limit : kNoSimplexLimit;
    const StepResult step = workspace.steps().solve(convex_step);
    record_step(report, step);
    report.status = step.status;
    report.stop_reason = step.stopped_at_simplex_limit ? kSimplexLimitStop : "one convex solve";
    report.certificate_kind = kDualityGap;
    if (core::has_solution(step.status)) {
      report.certificate = step.kind == StepKind::lp ? std::abs(step.certificate.relative_gap) : step.qp_relative_gap;
    }
    if (!step.fell_back_to_cold || step.stopped_at_simplex_limit) report.message = step.message;
    if (core::has_solution(step.status)) {
      report.model = core::LinearModel(step.w, step.b);
      report.objective = objective.value(data, step.w, step.b);
    }
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count();
    if (report.has_solution()) report.trace_objective(report.objective, report.seconds);
    return report;
  }
};

}  // namespace

std::unique_ptr<const Algorithm> make_direct_algorithm() { return std::make_unique<DirectAlgorithm>(); }

}  // namespace sparsesvm::models
