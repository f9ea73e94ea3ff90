#include "models/algorithms/mip_support.hpp"

#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace sparsesvm::models {

MipStart mip_start(const Objective& objective, const core::Dataset& data, const Start& start) {
  if (!start.report || start.report->has_solution()) return {start.model, false};
  const auto d = static_cast<Eigen::Index>(data.d());
  const core::LinearModel up(core::Vector::Zero(d), 1.0);
  const core::LinearModel down(core::Vector::Zero(d), -1.0);
  const bool up_better = objective.value(data, up.w(), up.b()) <= objective.value(data, down.w(), down.b());
  return {up_better ? up : down, true};
}

ParameterTable mip_search_options() {
  return {
      {"time_limit", "seconds of branch and bound per fit (all MILPs of a loop together); then status feasible",
       60.0, 0.0, 1e6, true, false, Scale::log, Regularizes::neither, ParameterKind::solver},
      {"relative_gap", "stop when (incumbent - bound) <= relative_gap * max(1, |incumbent|) (Cbc's own tolerances "
                       "keep its bounds accurate to about 1e-5 of that scale, whatever this asks)", 1e-6, 0.0, 1.0, false,
       false, Scale::log, Regularizes::neither, ParameterKind::solver},
  };
}

std::vector<std::string> mip_statistic_names() {
  return {"mip_best_bound", "mip_relative_gap", "mip_nodes", "mip_seconds", "mip_big_m", "mip_closed"};
}

double mip_relative_gap(double objective, double bound) {
  if (!std::isfinite(bound)) return std::numeric_limits<double>::infinity();
  return std::max(0.0, objective - bound) / std::max(1.0, std::abs(objective));
}

void finish_mip_report(FitReport& report, const MipSearch& search, const Start& start, const MipStart& used) {
  report.seconds = search.seconds + (start.report ? start.report->seconds : 0.0);
  report.statistics["mip_best_bound"] = search.lower_bound;
  report.statistics["mip_relative_gap"] = mip_relative_gap(report.objective, search.lower_bound);
  report.certificate_kind = search.restriction.empty() ? kMipGap : kRestrictedMipGap;
  report.statistics["mip_nodes"] = static_cast<double>(search.nodes);
  report.statistics["mip_seconds"] = search.seconds;
  report.statistics["mip_big_m"] = search.largest_big_m;
  const auto append = [&](const std::string& note) {
    report.message = report.message.empty() ? note : report.message + "; " + note;
  };
  if (report.status == core::Status::optimal && search.largest_big_m > kLargestTrustedBigM) {
    report.status = core::Status::solved_inaccurate;
    append(fmt::format("big-M {:.3g} is above {:.0e}: Cbc's tolerances cannot certify the optimum at this scale "
                       "(the bounds grow with the start's objective and the features' spread: a large C or unscaled "
                       "features)", search.largest_big_m, kLargestTrustedBigM));
  }
  if (used.replaced) {
    append(fmt::format("start failed (status {}); started from w = 0, b = {}", core::to_string(start.report->status),
                       used.model.b()));
    // Only a certificate stands without the start: an unproven answer from a failed start is no answer.
    if (report.status != core::Status::optimal) report.status = start.report->status;
  }
  // Cbc closed the gap of the MIP it solved (restricted or not) at a trusted big-M.
  report.statistics["mip_closed"] = report.status == core::Status::optimal ? 1.0 : 0.0;
  if (report.status == core::Status::optimal && !search.restriction.empty()) {
    report.status = core::Status::feasible;
    append(fmt::format("optimal for the MIP restricted to {}, which the objective does not imply: not certified "
                       "for the objective", search.restriction));
  }
  if (report.status == core::Status::feasible && report.message.empty()) {
    append(fmt::format("stopped at its time limit ({} s) {:.3g} above the bound", search.time_limit,
                       report.statistics["mip_relative_gap"]));
  }
  // Set last: the demotions above may leave no solution, and then nothing was certified.
  report.certificate = report.has_solution() ? report.statistics["mip_relative_gap"] : std::nan("");
}

void keep_best_point_after_failed_mip(FitReport& report, const optim::MipSolution& answer) {
  const bool kept = answer.status == core::Status::time_limit || answer.status == core::Status::infeasible;
  report.status = kept ? core::Status::feasible : answer.status;
  if (answer.status != core::Status::infeasible) {
    report.message = answer.message;
    return;
  }
  report.stop_reason = "MIP solver failure";
  report.message = "Cbc called the MIP infeasible although its start is feasible (numerical trouble): the best point "
                   "so far is kept, unproven";
}

}  // namespace sparsesvm::models
