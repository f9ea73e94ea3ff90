#include "models/algorithms/mip_support.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
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

ParameterTable mip_search_options(const std::string& where_checked) {
  return {
      {"node_limit", "nodes of branch and bound per fit (all MILPs of a loop together); then status feasible with "
                     "stop_reason `node limit`: a work limit, so the row is the same on any machine; 0 means none",
       kDefaultNodeLimit, 0.0, 2e9, false, false, Scale::log, Regularizes::neither, ParameterKind::solver, true},
      {"lp_iteration_limit", fmt::format("simplex iterations of branch and bound per fit (all MILPs of a loop together), "
                                         "checked after each node and {}; then status feasible with stop_reason "
                                         "`iteration limit`: a work limit like node_limit; 0 means none", where_checked),
       kDefaultIterationLimit, 0.0, 2e9, false, false, Scale::log, Regularizes::neither, ParameterKind::solver, true},
      {"time_limit", "wall-clock seconds per fit, the start's fit included: a safety net; a fit it stops is feasible "
                     "with stop_reason `time limit`, a row that depends on the machine's speed and load",
       kDefaultTimeLimit, 0.0, 1e6, true, false, Scale::log, Regularizes::neither, ParameterKind::solver},
      {"relative_gap", "stop when (incumbent - bound) <= relative_gap * max(1, |incumbent|) (Cbc's own tolerances "
                       "keep its bounds accurate to about 1e-5 of that scale, whatever this asks)", 1e-6, 0.0, 1.0, false,
       false, Scale::log, Regularizes::neither, ParameterKind::solver},
  };
}

std::vector<std::string> mip_statistic_names() {
  return {"mip_best_bound", "mip_relative_gap", "mip_nodes", "mip_lp_iterations", "mip_seconds", "mip_big_m", "mip_closed"};
}

MipBudget::MipBudget(const Hyperparameters& options, double start_seconds)
    : start_seconds_(start_seconds), time_limit_(options.at("time_limit")),
      node_limit_(static_cast<long>(options.at("node_limit"))),
      iteration_limit_(static_cast<long>(options.at("lp_iteration_limit"))) {}

double MipBudget::elapsed() const {
  return start_seconds_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start_).count();
}

MipBudget MipBudget::share(double fraction) const {
  MipBudget part = *this;  // the same clock and time limit: the wall clock is the whole fit's safety net
  const auto part_of = [&](long limit, long used) {
    return limit > 0 ? std::max(1L, static_cast<long>(fraction * static_cast<double>(limit - used))) : 0L;
  };
  part.node_limit_ = part_of(node_limit_, nodes_);
  part.iteration_limit_ = part_of(iteration_limit_, iterations());
  part.nodes_ = 0;
  part.iterations_ = 0;
  part.box_work_ = 0.0;
  part.box_iterations_ = 0;
  return part;
}

bool MipBudget::exhausted() {
  if (stopped_by_ == optim::MipLimit::none) {
    if (elapsed() >= time_limit_) stopped_by_ = optim::MipLimit::time;
    else if (node_limit_ > 0 && nodes_ >= node_limit_) stopped_by_ = optim::MipLimit::nodes;
    else if (iteration_limit_ > 0 && iterations() >= iteration_limit_) stopped_by_ = optim::MipLimit::iterations;
  }
  return stopped_by_ != optim::MipLimit::none;
}

optim::MipOptions MipBudget::next(double relative_gap, double objective_constant) const {
  optim::MipOptions options;
  options.max_seconds = time_limit_ - elapsed();
  options.max_nodes = node_limit_ > 0 ? node_limit_ - nodes_ : 0;
  options.max_iterations = iteration_limit_ > 0 ? iteration_limit_ - iterations() : 0;
  options.relative_gap = relative_gap;
  options.objective_constant = objective_constant;
  return options;
}

void MipBudget::spend_box(long boxes, long lp_iterations, double weight) {
  nodes_ += boxes;
  box_work_ += weight * static_cast<double>(lp_iterations);
  box_iterations_ += lp_iterations;
}

void MipBudget::absorb(const MipBudget& part) {
  nodes_ += part.nodes_;
  iterations_ += part.iterations_;
  box_work_ += part.box_work_;
  box_iterations_ += part.box_iterations_;
  // A share's work limits leave the rest to the next phase; its clock is this budget's, so where the clock
  // stopped the share, the whole fit has reached its time limit.
  if (part.stopped_by_ == optim::MipLimit::time) stopped_by_ = optim::MipLimit::time;
}

void MipBudget::spend(const optim::MipSolution& answer) {
  nodes_ += answer.nodes;
  iterations_ += answer.iterations;
  if (answer.stopped_by != optim::MipLimit::none) stopped_by_ = answer.stopped_by;
}

bool MipScale::big_m_above() const { return !(big_m <= kLargestTrustedMipScale); }

bool MipScale::weight_bound_above() const { return std::isfinite(weight_bound) && weight_bound > kLargestTrustedMipScale; }

bool MipScale::trusted() const { return !big_m_above() && !weight_bound_above(); }

std::string MipScale::untrusted_note() const {
  std::vector<std::string> above;
  if (big_m_above()) above.push_back(fmt::format("big-M ({:.3g})", big_m));
  if (weight_bound_above()) above.push_back(fmt::format("weight bound ({:.3g})", weight_bound));
  if (above.empty()) return "";
  return fmt::format("the MILP's {} {} above {:.0e}: Cbc's tolerances certify neither an optimum nor a bound at this "
                     "scale, so no bound of Cbc's is claimed (the big-M and the weight bound grow with the start's "
                     "objective and the features' spread or smallness: a large C, a small lambda or unscaled "
                     "features; standardize them)",
                     fmt::join(above, " and "), above.size() == 1 ? "is" : "are", kLargestTrustedMipScale);
}

double trusted_cbc_bound(double bound, const MipScale& scale) {
  return scale.trusted() ? bound : -std::numeric_limits<double>::infinity();
}

double mip_relative_gap(double objective, double bound) {
  if (!std::isfinite(bound)) return std::numeric_limits<double>::infinity();
  return std::max(0.0, objective - bound) / std::max(1.0, std::abs(objective));
}

void finish_mip_report(FitReport& report, const MipSearch& search, const Start& start, const MipStart& used) {
  report.seconds = search.seconds + (start.report ? start.report->seconds : 0.0);
  const MipBudget& budget = search.budget;
  // The whole fit's work, as every report counts it (fit_report.hpp): the start's, then the search's
  // simplex iterations (unweighted; mip_lp_iterations holds what the limit counted).
  report.inner_iterations = (start.report ? start.report->inner_iterations : 0) + budget.simplex_iterations();
  report.inner_solves += start.report ? start.report->inner_solves : 0;
  report.statistics["mip_best_bound"] = search.lower_bound;
  report.statistics["mip_relative_gap"] = mip_relative_gap(report.objective, search.lower_bound);
  report.certificate_kind = search.restriction.empty() ? kMipGap : kRestrictedMipGap;
  report.statistics["mip_nodes"] = static_cast<double>(budget.nodes());
  report.statistics["mip_lp_iterations"] = static_cast<double>(budget.iterations());
  report.statistics["mip_seconds"] = search.seconds;
  report.statistics["mip_big_m"] = search.scale.big_m;
  const auto append = [&](const std::string& note) {
    report.message = report.message.empty() ? note : report.message + "; " + note;
  };
  if (!search.scale.trusted()) append(search.scale.untrusted_note());
  if (used.replaced) {
    append(fmt::format("start failed (status {}); started from w = 0, b = {}", core::to_string(start.report->status),
                       used.model.b()));
    // Only a certificate stands without the start: an unproven answer from a failed start is no answer.
    if (report.status != core::Status::optimal) report.status = start.report->status;
  }
  // The gap of the MIP solved (restricted or not) closed on a trusted bound.
  report.statistics["mip_closed"] = report.status == core::Status::optimal ? 1.0 : 0.0;
  if (report.status == core::Status::optimal && !search.restriction.empty()) {
    report.status = core::Status::feasible;
    append(fmt::format("optimal for the MIP restricted to {}, which the objective does not imply: not certified "
                       "for the objective", search.restriction));
  }
  if (budget.stopped_by() != optim::MipLimit::none && report.status == core::Status::feasible) {
    const double gap = report.statistics["mip_relative_gap"];
    // How far the answer is from the proven bound, or that no bound was proven (an infinite gap).
    const std::string distance = std::isfinite(gap) ? fmt::format("{:.3g} above the bound", gap) : "with no bound proven";
    switch (budget.stopped_by()) {
      case optim::MipLimit::time:
        report.stop_reason = kTimeLimitStop;
        append(fmt::format("stopped at its wall-clock time limit ({} s, the start included) {}: this row depends on "
                           "the machine's speed and load", budget.time_limit(), distance));
        break;
      case optim::MipLimit::nodes:
        report.stop_reason = kNodeLimitStop;
        append(fmt::format("stopped at its node limit ({} nodes) {}", budget.node_limit(), distance));
        break;
      case optim::MipLimit::iterations:
        report.stop_reason = kIterationLimitStop;
        append(fmt::format("stopped at its simplex-iteration limit ({}) {}", budget.iteration_limit(), distance));
        break;
      case optim::MipLimit::none: break;
    }
  }
  // Set last: the demotions above may leave no solution, and then nothing was certified.
  report.certificate = report.has_solution() ? report.statistics["mip_relative_gap"] : std::nan("");
}

void keep_best_point_after_failed_mip(FitReport& report, const optim::MipSolution& answer) {
  const bool at_limit = answer.stopped_by != optim::MipLimit::none;
  report.status = at_limit || answer.status == core::Status::infeasible ? core::Status::feasible : answer.status;
  if (at_limit) return;  // finish_mip_report names the limit
  report.stop_reason = "MIP solver failure";
  if (answer.status != core::Status::infeasible) {
    report.message = answer.message;
    return;
  }
  report.message = "Cbc called the MIP infeasible although its start is feasible (numerical trouble): the best point "
                   "so far is kept, unproven";
}

void add_tangent_row(optim::MipBuilder& mip, const Tangent& tangent, Eigen::Index w_column, Eigen::Index s_column) {
  mip.add_row({{s_column, 1.0}, {w_column, -2.0 * tangent.p}}, -tangent.p * tangent.p, std::numeric_limits<double>::infinity());
}

bool short_of_square(double s, double w) { return s < w * w - 1e-9 * (1.0 + w * w); }

}  // namespace sparsesvm::models
