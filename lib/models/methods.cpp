#include "models/methods.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/find_by_id.hpp"
#include "core/progress.hpp"
#include "core/rng.hpp"
#include "models/convex_step.hpp"
#include "models/losses/loss.hpp"
#include "models/penalties/penalty.hpp"
#include "models/scoring.hpp"
#include "models/selection.hpp"

namespace sparsesvm::models {
namespace {

using core::InputError;

// The paper methods, one row each (MethodInfo's fields by name; an iterative method's start, its own defaults
// and start_tuned only where it has them).
std::vector<MethodInfo> method_rows() {
  return {
      // [DCA] Table 1 and appendix A.
      {.name = "SVM", .citation = "[DCA] A.1", .loss = "hinge", .penalty = "l2", .algorithm = "direct",
       .weighting = Weighting::plain},
      {.name = "OneNormSVM", .citation = "[DCA] A.2", .loss = "hinge", .penalty = "l1", .algorithm = "direct",
       .weighting = Weighting::plain},
      {.name = "ZeroNormSVM", .citation = "[DCA] A.3", .loss = "hinge", .penalty = "approx_l0", .algorithm = "dca",
       .start = "OneNormSVM", .weighting = Weighting::plain, .defaults = {{"a", 4.0}}},
      {.name = "CapOneNormSVM", .citation = "[DCA] 3.4, Algorithm 3", .loss = "hinge", .penalty = "capped_l1",
       .algorithm = "dca", .start = "OneNormSVM", .weighting = Weighting::plain, .defaults = {{"a", 1.0}}},
      {.name = "RLSVM2", .citation = "[DCA] A.4", .loss = "ramp", .penalty = "l2", .algorithm = "dca", .start = "SVM",
       .weighting = Weighting::plain},
      {.name = "RLSVM1", .citation = "[DCA] A.5", .loss = "ramp", .penalty = "l1", .algorithm = "dca",
       .start = "OneNormSVM", .weighting = Weighting::plain},
      {.name = "RLSVM0", .citation = "[DCA] 3.3, Algorithm 2", .loss = "ramp", .penalty = "approx_l0",
       .algorithm = "dca", .start = "OneNormSVM", .weighting = Weighting::plain, .defaults = {{"a", 4.0}}},
      {.name = "RLSVMC1", .citation = "[DCA] 3.5, Algorithm 4", .loss = "ramp", .penalty = "capped_l1",
       .algorithm = "dca", .start = "OneNormSVM", .weighting = Weighting::plain, .defaults = {{"a", 1.0}}},
      // [FSV] sections 2-3. SLA starts from a random point ([FSV] Algorithm 2.1).
      {.name = "RLP", .citation = "[FSV] (4)", .loss = "hinge", .penalty = "none", .algorithm = "direct",
       .weighting = Weighting::fsv_average},
      {.name = "FSV", .citation = "[FSV] (8), SLA Algorithm 2.1", .loss = "hinge", .penalty = "approx_l0",
       .algorithm = "sla", .start = "random", .weighting = Weighting::fsv_average,
       .defaults = {{"a", 5.0}, {"surrogate_stop", 1.0}}},
      {.name = "SVM-inf", .citation = "[FSV] (12)", .loss = "hinge", .penalty = "linf", .algorithm = "direct",
       .weighting = Weighting::fsv_svm},
      {.name = "SVM-1", .citation = "[FSV] (13)", .loss = "hinge", .penalty = "l1", .algorithm = "direct",
       .weighting = Weighting::fsv_svm},
      {.name = "SVM-2", .citation = "[FSV] (14)", .loss = "hinge", .penalty = "l2", .algorithm = "direct",
       .weighting = Weighting::fsv_svm},
      // [RW]: the walk approaches ||w||_1 + C sum loss, the 1-norm SVM in C's convention (algorithms/rw.cpp).
      {.name = "RW", .citation = "[RW] Algorithm 1, L1-SVM inner solver", .loss = "hinge", .penalty = "l1",
       .algorithm = "rw", .weighting = Weighting::svm_c},
      {.name = "RW-L2", .citation = "[RW] Algorithm 1, L2-SVM inner solver", .loss = "squared_hinge", .penalty = "l1",
       .algorithm = "rw", .weighting = Weighting::svm_c},
      {.name = "OneNormSVM-C", .citation = "[RW] 4.1: ||w||_1 + C sum hinge by LP", .loss = "hinge", .penalty = "l1",
       .algorithm = "direct", .weighting = Weighting::svm_c},
      // [PSI] 3: psi-learning by MIP, started from the SVM of the same C; the restricted variants start from (and fix
      // region 3 by) the SVM whose C is best on the tuning part.
      {.name = "SVM-C", .citation = "[PSI] the 2-norm SVM: (1/2)||w||^2 + C sum hinge", .loss = "hinge",
       .penalty = "l2", .algorithm = "direct", .weighting = Weighting::svm_c},
      {.name = "PSI-1", .citation = "[PSI] (3.14) with ||w||_1: one MILP", .loss = "psi", .penalty = "l1",
       .algorithm = "psi_mip", .start = "OneNormSVM-C", .weighting = Weighting::svm_c},
      {.name = "PSI-2", .citation = "[PSI] (3.14) with (1/2)||w||^2: MILPs with tangent cuts", .loss = "psi",
       .penalty = "l2", .algorithm = "psi_mip", .start = "SVM-C", .weighting = Weighting::svm_c},
      {.name = "PSI-1r",
       .citation = "[PSI] 3.2-3.3: PSI-1 with y f > 1.1 under the best-tuned 1-norm SVM fixed to region 3",
       .loss = "psi", .penalty = "l1", .algorithm = "psi_mip", .start = "OneNormSVM-C", .weighting = Weighting::svm_c,
       .defaults = {{"restrict_margin", 1.1}}, .start_tuned = true},
      {.name = "PSI-2r", .citation = "[PSI] 3.2-3.3: PSI-2 with y f > 1.1 under the best-tuned SVM fixed to region 3",
       .loss = "psi", .penalty = "l2", .algorithm = "psi_mip", .start = "SVM-C", .weighting = Weighting::svm_c,
       .defaults = {{"restrict_margin", 1.1}}, .start_tuned = true},
      // Beyond the papers: the DCA objectives that are piecewise linear, solved to a certified global optimum by
      // one MILP (algorithms/global_mip.cpp), started from the DCA method's own answer.
      {.name = "CapOneNormSVM-global", .citation = "CapOneNormSVM's objective ([DCA] 3.4) by MILP", .loss = "hinge",
       .penalty = "capped_l1", .algorithm = "global", .start = "CapOneNormSVM", .weighting = Weighting::plain,
       .defaults = {{"a", 1.0}}},
      {.name = "RLSVM1-global", .citation = "RLSVM1's objective ([DCA] A.5) by MILP", .loss = "ramp", .penalty = "l1",
       .algorithm = "global", .start = "RLSVM1", .weighting = Weighting::plain},
      {.name = "RLSVMC1-global", .citation = "RLSVMC1's objective ([DCA] 3.5) by MILP", .loss = "ramp",
       .penalty = "capped_l1", .algorithm = "global", .start = "RLSVMC1", .weighting = Weighting::plain,
       .defaults = {{"a", 1.0}}},
      // [ADMM] (1): mean hinge + sum_j p(w_j; lambda, theta), by ADMM (shared/ADMM.md) and, on the identical
      // objective, by DCA from zero (its first step is the 1-norm SVM with weight phi'(0)).
      {.name = "ADMM-LSP", .citation = "[ADMM] 3, LSP", .loss = "hinge", .penalty = "lsp", .algorithm = "admm",
       .weighting = Weighting::mean},
      {.name = "ADMM-SCAD", .citation = "[ADMM] 3, SCAD", .loss = "hinge", .penalty = "scad", .algorithm = "admm",
       .weighting = Weighting::mean},
      // The paper's algorithm as written: its rho1 = 1.5 and rho2 = 10 fixed, no equilibration or
      // relaxation, the public code's 1000 sweeps.
      {.name = "ADMM-SCAD-published", .citation = "[ADMM] 3, SCAD with the published settings", .loss = "hinge",
       .penalty = "scad", .algorithm = "admm", .weighting = Weighting::mean,
       .defaults = {{"rho1", 1.5}, {"rho2", 10.0}, {"rho2_per_n", 0.0}, {"adapt_rho", 0.0}, {"relaxation", 1.0},
                    {"equilibrate", 0.0}, {"max_iterations", 1000.0}, {"l1_start", 0.0}, {"exact_check", 0.0},
                    {"path_start", 0.0}}},
      {.name = "ADMM-MCP", .citation = "[ADMM] 3, MCP", .loss = "hinge", .penalty = "mcp", .algorithm = "admm",
       .weighting = Weighting::mean},
      {.name = "ADMM-Capped", .citation = "[ADMM] 3, capped-l1", .loss = "hinge", .penalty = "capped",
       .algorithm = "admm", .weighting = Weighting::mean},
      {.name = "ADMM-L1", .citation = "[ADMM] 3 with the l1 penalty (convex: checks against OneNormSVM-mean)",
       .loss = "hinge", .penalty = "l1", .algorithm = "admm", .weighting = Weighting::mean},
      {.name = "DCA-LSP", .citation = "[DCA] Algorithm 1 on [ADMM] (1), LSP", .loss = "hinge", .penalty = "lsp",
       .algorithm = "dca", .start = "zero", .weighting = Weighting::mean},
      {.name = "DCA-SCAD", .citation = "[DCA] Algorithm 1 on [ADMM] (1), SCAD", .loss = "hinge", .penalty = "scad",
       .algorithm = "dca", .start = "zero", .weighting = Weighting::mean},
      {.name = "DCA-MCP", .citation = "[DCA] Algorithm 1 on [ADMM] (1), MCP", .loss = "hinge", .penalty = "mcp",
       .algorithm = "dca", .start = "zero", .weighting = Weighting::mean},
      {.name = "DCA-Capped", .citation = "[DCA] Algorithm 1 on [ADMM] (1), capped-l1", .loss = "hinge",
       .penalty = "capped", .algorithm = "dca", .start = "zero", .weighting = Weighting::mean},
      {.name = "OneNormSVM-mean", .citation = "[ADMM] (1) with the l1 penalty, by LP", .loss = "hinge",
       .penalty = "l1", .algorithm = "direct", .weighting = Weighting::mean},
      // The same penalties with the ramp loss: free through DCA ([DCA] section 3's ramp split).
      {.name = "RLSVM-LSP", .citation = "[DCA] Algorithm 1: ramp loss, LSP", .loss = "ramp", .penalty = "lsp",
       .algorithm = "dca", .start = "zero", .weighting = Weighting::mean},
      {.name = "RLSVM-SCAD", .citation = "[DCA] Algorithm 1: ramp loss, SCAD", .loss = "ramp", .penalty = "scad",
       .algorithm = "dca", .start = "zero", .weighting = Weighting::mean},
      {.name = "RLSVM-MCP", .citation = "[DCA] Algorithm 1: ramp loss, MCP", .loss = "ramp", .penalty = "mcp",
       .algorithm = "dca", .start = "zero", .weighting = Weighting::mean},
      {.name = "RLSVM-Capped", .citation = "[DCA] Algorithm 1: ramp loss, capped-l1", .loss = "ramp",
       .penalty = "capped", .algorithm = "dca", .start = "zero", .weighting = Weighting::mean},
  };
}

ParameterSpec weight_spec(Weighting weighting) {
  if (weighting == Weighting::svm_c) {
    return {"C", "weight of the loss: F = ||w||_1 + C sum_i loss_i ([RW] eq. (1)), (1/2)||w||_2^2 + C sum_i loss_i for l2",
            1.0, 0.0, 1e10, true, false,
            Scale::log, Regularizes::when_smaller};
  }
  if (weighting == Weighting::plain) {
    return {"lambda", "weight of the penalty: F = sum_i loss_i + lambda Omega(w)", 1.0, 0.0, 1e10, true, false,
            Scale::log, Regularizes::when_larger};
  }
  if (weighting == Weighting::mean) {
    return {"lambda", "weight of the penalty: F = (1/n) sum_i loss_i + lambda Omega(w) ([ADMM] (1))", 0.015625, 0.0, 1e10,
            true, false, Scale::log, Regularizes::when_larger};
  }
  const char* description = weighting == Weighting::fsv_svm
                                ? "trade-off in (0, 1): F = (1 - lambda) sum_i loss_i + (lambda / 2) Omega(w) ([FSV] (11)-(14))"
                                : "trade-off in (0, 1): F = (1 - lambda) (mean loss of each class, summed) + lambda Omega(w) "
                                  "([FSV] (4), (8))";
  return {"lambda", description, 0.5, 0.0, 1.0, true, true, Scale::linear, Regularizes::when_larger};
}

ParameterSpec start_radius_spec() {
  return {"start_radius", "random start: w_j and b uniform on [-r, r], seeded by the task; 0 starts from zero", 1.0,
          0.0, 1e6, false, false, Scale::linear, Regularizes::neither, ParameterKind::solver};
}

// Whether the penalty names lambda in its own table (its shape depends on it): then rho = 1.
bool penalty_takes_strength(const std::string& penalty) {
  return find_parameter(find_penalty(penalty).parameters, "lambda") != nullptr;
}

[[noreturn]] void bad_row(const MethodInfo& row, const std::string& problem) {
  throw std::logic_error(fmt::format("method registry, row {}: {}", row.name, problem));
}

// The row's parameter table, checked: every id known, no name twice, every row default admissible.
ParameterTable build_table(const MethodInfo& row) {
  ParameterTable table;
  const auto add = [&](const ParameterTable& part, const std::string& owner) {
    for (const ParameterSpec& spec : part) {
      if (find_parameter(table, spec.name)) bad_row(row, fmt::format("{} names parameter '{}' again", owner, spec.name));
      table.push_back(spec);
    }
  };
  try {
    if (penalty_takes_strength(row.penalty)) {
      if (row.weighting != Weighting::plain && row.weighting != Weighting::mean) {
        bad_row(row, "penalty " + row.penalty + " takes lambda itself: only weightings plain and mean apply");
      }
    } else if (row.penalty != "none") {
      add({weight_spec(row.weighting)}, "the objective");
    }
    add(find_loss(row.loss).parameters, "loss " + row.loss);
    add(find_penalty(row.penalty).parameters, "penalty " + row.penalty);
    const Algorithm& algorithm = find_algorithm(row.algorithm);
    add(algorithm.options(), "algorithm " + row.algorithm);
    if (row.start == "random") add({start_radius_spec()}, "the random start");
    if (algorithm.needs_start() == row.start.empty()) {
      bad_row(row, fmt::format("algorithm {} {} a start", row.algorithm, algorithm.needs_start() ? "needs" : "takes no"));
    }
  } catch (const InputError& error) {
    bad_row(row, error.what());
  }
  for (const auto& [name, value] : row.defaults) {
    ParameterSpec* spec = nullptr;
    for (ParameterSpec& entry : table) spec = entry.name == name ? &entry : spec;
    if (!spec) bad_row(row, fmt::format("default for unknown parameter '{}'", name));
    if (const std::string problem = spec->check(value); !problem.empty()) bad_row(row, problem);
    spec->default_value = value;
  }
  return table;
}

// A start from another method (which may itself start from one: RLSVM1-global from RLSVM1 from
// OneNormSVM) must name a row, and the chain must end at a method solved directly, without a loop.
void check_start_chain(const std::vector<MethodInfo>& rows, const MethodInfo& row) {
  const MethodInfo* at = &row;
  for (std::size_t step = 0; step <= rows.size(); ++step) {
    if (at->start.empty() || at->start == "zero" || at->start == "random") return;
    const auto next = std::find_if(rows.begin(), rows.end(), [&](const MethodInfo& other) { return other.name == at->start; });
    if (next == rows.end()) bad_row(row, fmt::format("start '{}' is not a method", at->start));
    at = &*next;
  }
  bad_row(row, "its chain of starts loops");
}

std::vector<MethodInfo> build_registry() {
  std::vector<MethodInfo> rows = method_rows();
  for (MethodInfo& row : rows) row.parameters = build_table(row);
  for (const MethodInfo& row : rows) {
    check_start_chain(rows, row);
    const core::Dataset probe("registry_probe", core::DenseMatrix::Zero(2, 1), (core::Vector(2) << 1, -1).finished(),
                              {}, {});
    const Objective objective = make_objective(row, resolve_parameters(row.parameters, {}, row.name), probe);
    if (const std::string reason = find_algorithm(row.algorithm).unsupported(objective); !reason.empty()) {
      bad_row(row, reason);
    }
  }
  return rows;
}

// The entries of `resolved` that `table` names.
Hyperparameters restricted_to(const ParameterTable& table, const Hyperparameters& resolved) {
  Hyperparameters part;
  for (const ParameterSpec& spec : table) part[spec.name] = resolved.at(spec.name);
  return part;
}

const FitReport& fit_in_workspace(const std::string& name, const Hyperparameters& given, Workspace& workspace,
                                  const std::vector<double>& lambda_path = {});

// The workspace key of a fit on a lambda path: the path is part of it, since the fit depends on it.
std::string path_fit_key(const MethodInfo& method, const Hyperparameters& resolved, const std::vector<double>& lambda_path) {
  return fmt::format("{}|{}|path={:.17g}", method.name, parameter_key(resolved), fmt::join(lambda_path, ","));
}

// The fit of method `name` at `shared` with its parameters that the tuning grid lists set to each grid value
// in turn: the one that scores best on the tuning part, chosen as the runner's selection chooses
// (selection.hpp, by the tuning's rules: best, the config's metric and ties). When none has a solution, the
// fit at `shared` (whose failure the caller reports); a metric the tuning part cannot define is an
// InputError (scoring.hpp defined_score). The fits are made in grid order.
Start tuned_start(const std::string& name, const Hyperparameters& shared, Workspace& workspace) {
  const Workspace::Tuning& tuning = *workspace.tuning();
  const ParameterTable& table = find_method(name).parameters;
  std::vector<Hyperparameters> candidates{shared};
  std::vector<std::string> varied;
  for (const ParameterSpec& spec : table) {
    const auto values = tuning.grid.find(spec.name);
    if (values == tuning.grid.end()) continue;
    varied.push_back(spec.name);
    std::vector<Hyperparameters> expanded;
    for (const Hyperparameters& candidate : candidates) {
      for (const double value : values->second) {
        expanded.push_back(candidate);
        expanded.back()[spec.name] = value;
      }
    }
    candidates = std::move(expanded);
  }
  std::vector<Candidate> scored;
  std::vector<const FitReport*> fits;
  for (const Hyperparameters& candidate : candidates) {
    const FitReport& fit = fit_in_workspace(name, candidate, workspace);
    fits.push_back(&fit);
    const double on_tune = fit.has_solution() ? defined_score(tuning.rules.metric, fit.model.decision_values(*tuning.data),
                                                              tuning.data->labels())
                                              : 0.0;
    scored.push_back({candidate, on_tune, fit.has_solution()});
  }
  const std::size_t chosen = select_candidate(scored, table, varied, tuning.rules);
  const FitReport& best = chosen < fits.size() ? *fits[chosen] : fit_in_workspace(name, shared, workspace);
  return {best.model, &best};
}

// Where the DCA of `method` starts; a start from another method is that method's fit in the workspace.
Start find_start(const MethodInfo& method, const Hyperparameters& h, Workspace& workspace) {
  const auto d = static_cast<Eigen::Index>(workspace.data().d());
  if (method.start == "zero") return {core::LinearModel(core::Vector::Zero(d), 0.0), nullptr};
  if (method.start == "random") return {random_start(workspace, method.name, h.at("start_radius")), nullptr};
  // The start method gets the values of the parameters it shares with this one (lambda).
  Hyperparameters shared;
  for (const ParameterSpec& spec : find_method(method.start).parameters) {
    if (h.contains(spec.name)) shared[spec.name] = h.at(spec.name);
  }
  if (method.start_tuned && workspace.tuning()) return tuned_start(method.start, shared, workspace);
  const FitReport& start = fit_in_workspace(method.start, shared, workspace);
  return {start.model, &start};
}

// A model with w = 0 predicts sign(b) for every point. Where the objective does not choose the class
// (losses averaged per class, RLP and FSV's: every b in [-1, 1] has the same F), b is whichever vertex the
// solver returned; at b = 0 (psi at small C puts every margin at 0) the class is the convention f = 0 -> +1.
// The rule: such a model predicts the training majority class by weight (ties: +1), with b moved to -b or +-1 only
// where F stays the same (within 1e-12 relative), or from 0 by 1e-9 toward the majority where F moves by
// less than 1e-8; where F tells the classes apart (the plain hinge leans to the majority), b stays.
constexpr double kMajorityTilt = 1e-9;

void predict_majority_when_constant(const Objective& objective, const Workspace& workspace, FitReport& report) {
  if (!report.has_solution() || report.model.w().size() == 0 || !report.model.w().isZero(0.0)) return;
  const core::Dataset& data = workspace.data();
  const core::Vector& s = workspace.example_weights();
  const double majority = (s.size() > 0 ? s.dot(data.labels()) : data.labels().sum()) >= 0 ? 1.0 : -1.0;
  const double b = report.model.b();
  if ((b >= 0 ? 1.0 : -1.0) == majority) return;
  const core::Vector& w = report.model.w();
  const double f = objective.value(data, w, b);
  // -b, the majority's vertex, or (for b = 0, every margin 0: psi's optimum at small C) the smallest tilt
  // toward the majority, b = +-1e-9, inside psi's rounding band of 0.
  for (const double candidate : {-b, majority, majority * kMajorityTilt}) {
    if ((candidate >= 0 ? 1.0 : -1.0) != majority) continue;
    const double f_candidate = objective.value(data, w, candidate);
    // The tilt moves every margin by 1e-9: F by that order at most, which the tolerance admits.
    const double tolerance = candidate == majority * kMajorityTilt ? 10 * kMajorityTilt : 1e-12;
    if (std::abs(f_candidate - f) <= tolerance * std::max(1.0, std::abs(f))) {
      report.model = core::LinearModel(w, candidate);
      report.message += fmt::format("{}w = 0: b = {} (the training majority class) instead of {}, F unchanged to 1e-8",
                                    report.message.empty() ? "" : "; ", candidate, b);
      return;
    }
  }
}

// The smallest value of `lambda_path` above `lambda`; nullopt when there is none.
std::optional<double> next_larger(const std::vector<double>& lambda_path, double lambda) {
  std::optional<double> next;
  for (const double value : lambda_path) {
    if (value > lambda && (!next || value < *next)) next = value;
  }
  return next;
}

// The fit a path-following fit at h starts from: the same method and parameters at the path's next
// larger lambda, made first when the workspace does not hold it (and it, in turn, from the one above).
// `made_fits` and `made_seconds` receive the fits this call made and their seconds.
const FitReport* path_start(const MethodInfo& method, const Hyperparameters& h, Workspace& workspace,
                            const std::vector<double>& lambda_path, double& made_fits, double& made_seconds) {
  made_fits = made_seconds = 0.0;
  const std::optional<double> larger = next_larger(lambda_path, h.at("lambda"));
  if (!larger) return nullptr;
  Hyperparameters above = h;
  above["lambda"] = *larger;
  if (const FitReport* done = workspace.find_fit(path_fit_key(method, above, lambda_path))) return done;
  const auto clock_start = std::chrono::steady_clock::now();
  const FitReport& made = fit_in_workspace(method.name, above, workspace, lambda_path);
  made_fits = 1.0 + made.statistics.at("path_fits");
  made_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count();
  return &made;
}

const FitReport& fit_in_workspace(const std::string& name, const Hyperparameters& given, Workspace& workspace,
                                  const std::vector<double>& lambda_path) {
  const MethodInfo& method = find_method(name);
  const Hyperparameters h = resolve_hyperparameters(method, given);
  const Algorithm& algorithm = find_algorithm(method.algorithm);
  const Hyperparameters options = restricted_to(algorithm.options(), h);
  const bool on_path = !lambda_path.empty() && h.contains("lambda") && algorithm.follows_lambda_path(options);
  const std::string key = on_path ? path_fit_key(method, h, lambda_path) : method.name + "|" + parameter_key(h);
  const auto progress_name = [&] { return fmt::format("{} ({})", method.name, parameter_text(h)); };
  if (const FitReport* done = workspace.find_fit(key)) {
    if (core::progress_wanted()) core::progress("{}: fitted before on this training set", progress_name());
    return *done;
  }
  if (core::progress_wanted()) core::progress("{}: fit begins", progress_name());

  const Objective objective = make_objective(method, h, workspace.data(), workspace.example_weights());
  double path_fits = 0.0, path_seconds = 0.0;
  Start start{core::LinearModel(core::Vector(), 0.0), nullptr};
  if (algorithm.needs_start()) {
    start = find_start(method, h, workspace);
  } else if (on_path) {
    const FitReport* above = path_start(method, h, workspace, lambda_path, path_fits, path_seconds);
    if (above && above->has_solution()) start = {above->model, above};
  }
  FitReport report;
  if (start.report && !start.report->has_solution() && !algorithm.survives_failed_start()) {
    report = *start.report;
    report.stop_reason = "start failed";
    report.iterations = 0;
    report.message = fmt::format("starting point {} ended '{}': {}", method.start,
                                 core::to_string(start.report->status), start.report->message);
  } else {
    report = algorithm.fit(objective, workspace, start, options);
    predict_majority_when_constant(objective, workspace, report);
  }
  if (on_path) {
    report.statistics["path_fits"] = path_fits;
    report.statistics["path_s"] = path_seconds;
  }
  report.hyperparameters = h;
  if (core::progress_wanted()) core::progress("{} ends: {}", progress_name(), report.brief());
  return workspace.store_fit(key, std::move(report));
}

}  // namespace

std::string to_string(Weighting weighting) {
  switch (weighting) {
    case Weighting::plain: return "plain";
    case Weighting::fsv_average: return "fsv_average";
    case Weighting::fsv_svm: return "fsv_svm";
    case Weighting::svm_c: return "svm_c";
    case Weighting::mean: return "mean";
  }
  throw std::logic_error("to_string: unknown weighting");
}

const std::vector<MethodInfo>& method_registry() {
  static const std::vector<MethodInfo> registry = build_registry();
  return registry;
}

const MethodInfo& find_method(const std::string& name) {
  return core::find_by_id(method_registry(), name, "method", [](const MethodInfo& method) { return method.name; });
}

Hyperparameters resolve_hyperparameters(const MethodInfo& method, const Hyperparameters& given) {
  Hyperparameters resolved = resolve_parameters(method.parameters, given, "method " + method.name);
  // lp_form crossover's first-order start solves l1 steps only (lp_crossover.hpp); refused here, where a
  // config or a command line is checked, rather than in the first fit of a cross-validation.
  const auto lp_form = resolved.find("lp_form");
  if (lp_form != resolved.end() && static_cast<LpForm>(lp_form->second) == LpForm::crossover &&
      make_penalty(method.penalty, restricted_to(find_penalty(method.penalty).parameters, resolved))->convex_regularizer() ==
          Regularizer::linf) {
    throw core::InputError(fmt::format("method {}: lp_form crossover solves l1 LPs only, and {}'s has an l_inf norm; "
                                       "use lp_form full or generation",
                                       method.name, method.name));
  }
  return resolved;
}

// The largest loss weight c_i passed to the solvers.
constexpr double kMaxLossWeight = 1e15;

Objective make_objective(const MethodInfo& method, const Hyperparameters& h, const core::Dataset& train,
                         const core::Vector& sample_weights) {
  const double lambda = h.contains("lambda") ? h.at("lambda") : 0.0;
  const double rho = penalty_takes_strength(method.penalty) ? 1.0 : lambda;
  const core::Vector s = sample_weights.size() > 0 ? sample_weights : core::Vector::Ones(static_cast<Eigen::Index>(train.n()));
  Objective objective{make_loss(method.loss, restricted_to(find_loss(method.loss).parameters, h)),
                      make_penalty(method.penalty, restricted_to(find_penalty(method.penalty).parameters, h)), s, rho};
  switch (method.weighting) {
    case Weighting::plain: break;
    case Weighting::fsv_average: {
      // [FSV] (4): e'y/m + e'z/k with m positives (set A) and k negatives (set B), weighted by (1 - lambda);
      // with sample weights, m and k are the classes' weight sums.
      const double positives = (train.labels().array() > 0).select(s, 0.0).sum();
      const double negatives = s.sum() - positives;
      for (Eigen::Index i = 0; i < objective.example_weights.size(); ++i) {
        objective.example_weights[i] *= (1.0 - lambda) / (train.labels()[i] > 0 ? positives : negatives);
      }
      break;
    }
    case Weighting::fsv_svm:
      objective.example_weights *= 1.0 - lambda;
      objective.penalty_weight = lambda / 2.0;
      break;
    case Weighting::svm_c:
      objective.example_weights *= h.at("C");
      // ||w||_1 + C sum loss ([RW] eq. (1)); the 2-norm in the SVM's own convention (1/2)||w||^2 ([PSI] (3.14)).
      objective.penalty_weight = objective.penalty->convex_regularizer() == Regularizer::l2_squared ? 0.5 : 1.0;
      break;
    case Weighting::mean:  // the mean over the examples: over their total weight
      objective.example_weights /= s.sum();
      break;
  }
  // Loss weights the LP and MIP solvers accept (Clp aborts on costs near 1e25): large sample or class
  // weights times C are refused, not passed on.
  if (const double largest = objective.example_weights.maxCoeff(); !(largest <= kMaxLossWeight)) {
    throw core::InputError(fmt::format("{}: an example's loss weight is {:g} (its sample or class weight times the "
                                       "method's C or 1 - lambda), above the {:g} the solvers accept; rescale the weights",
                                       method.name, largest, kMaxLossWeight));
  }
  return objective;
}

std::string class_weight_refusal(const MethodInfo& method) {
  if (method.weighting != Weighting::fsv_average) return "";
  return fmt::format("{} averages its loss over each class ([FSV] (4)), so a weight common to a class cancels; "
                     "class weights would change nothing (sample weights apply within a class)", method.name);
}

core::LinearModel random_start(const Workspace& workspace, const std::string& method, double radius) {
  const auto d = static_cast<Eigen::Index>(workspace.data().d());
  core::Vector w = core::Vector::Zero(d);
  double b = 0.0;
  if (radius > 0) {
    core::Rng rng(core::derive_seed({workspace.seed(), std::string_view("start"), std::string_view(method)}));
    for (Eigen::Index j = 0; j < d; ++j) w[j] = rng.uniform(-radius, radius);
    b = rng.uniform(-radius, radius);
  }
  return core::LinearModel(w, b);
}

FitReport fit_method(const std::string& name, const Hyperparameters& given, Workspace& workspace,
                     const std::vector<double>& lambda_path) {
  return fit_in_workspace(name, given, workspace, lambda_path);
}

}  // namespace sparsesvm::models
