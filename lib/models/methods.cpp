#include "models/methods.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"

namespace sparsesvm::models {

using core::InputError;

const std::vector<MethodInfo>& method_registry() {
  static const std::vector<MethodInfo> registry = {
      // [DCA] Table 1 and appendix A.
      {"SVM", "[DCA] A.1", "hinge", "l2", "qp", "", Weighting::plain, {{"lambda", 1.0}}},
      {"OneNormSVM", "[DCA] A.2", "hinge", "l1", "lp", "", Weighting::plain, {{"lambda", 1.0}}},
      {"ZeroNormSVM", "[DCA] A.3", "hinge", "approx_l0", "dca", "OneNormSVM", Weighting::plain,
       {{"lambda", 1.0}, {"a", 4.0}}},
      {"CapOneNormSVM", "[DCA] 3.4, Algorithm 3", "hinge", "capped_l1", "dca", "OneNormSVM", Weighting::plain,
       {{"lambda", 1.0}, {"a", 1.0}}},
      {"RLSVM2", "[DCA] A.4", "ramp", "l2", "dca", "SVM", Weighting::plain, {{"lambda", 1.0}, {"mu", 1.0}}},
      {"RLSVM1", "[DCA] A.5", "ramp", "l1", "dca", "OneNormSVM", Weighting::plain, {{"lambda", 1.0}, {"mu", 1.0}}},
      {"RLSVM0", "[DCA] 3.3, Algorithm 2", "ramp", "approx_l0", "dca", "OneNormSVM", Weighting::plain,
       {{"lambda", 1.0}, {"mu", 1.0}, {"a", 4.0}}},
      {"RLSVMC1", "[DCA] 3.5, Algorithm 4", "ramp", "capped_l1", "dca", "OneNormSVM", Weighting::plain,
       {{"lambda", 1.0}, {"mu", 1.0}, {"a", 1.0}}},
      // [FSV] sections 2-3.
      {"RLP", "[FSV] (4)", "hinge", "none", "lp", "", Weighting::fsv_average, {}},
      {"FSV", "[FSV] (8), SLA Algorithm 2.1", "hinge", "approx_l0", "dca", "zero", Weighting::fsv_average,
       {{"lambda", 0.5}, {"a", 5.0}}, true},
      {"SVM-inf", "[FSV] (12)", "hinge", "linf", "lp", "", Weighting::fsv_svm, {{"lambda", 0.5}}},
      {"SVM-1", "[FSV] (13)", "hinge", "l1", "lp", "", Weighting::fsv_svm, {{"lambda", 0.5}}},
      {"SVM-2", "[FSV] (14)", "hinge", "l2", "qp", "", Weighting::fsv_svm, {{"lambda", 0.5}}},
  };
  return registry;
}

const MethodInfo& find_method(const std::string& name) {
  std::vector<std::string> known;
  for (const MethodInfo& method : method_registry()) {
    if (method.name == name) return method;
    known.push_back(method.name);
  }
  throw InputError(fmt::format("unknown method '{}' (known: {})", name, fmt::join(known, ", ")));
}

Hyperparameters resolve_hyperparameters(const MethodInfo& method, const Hyperparameters& given) {
  Hyperparameters resolved = method.defaults;
  for (const auto& [key, value] : given) {
    if (!resolved.contains(key)) {
      std::vector<std::string> known;
      for (const auto& entry : method.defaults) known.push_back(entry.first);
      throw InputError(fmt::format("method {}: unknown hyperparameter '{}' (known: {})", method.name, key,
                                   known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
    }
    resolved[key] = value;
  }
  if (resolved.contains("lambda")) {
    const double lambda = resolved.at("lambda");
    const bool fsv = method.weighting != Weighting::plain;
    if (fsv ? !(lambda > 0.0 && lambda < 1.0) : !(lambda > 0.0)) {
      throw InputError(fmt::format("method {}: lambda must lie in {}, found {}", method.name, fsv ? "(0, 1)" : "(0, inf)",
                                   lambda));
    }
  }
  return resolved;
}

namespace {

std::shared_ptr<const Loss> make_loss(const MethodInfo& method, const Hyperparameters& h) {
  if (method.loss == "ramp") return std::make_shared<RampLoss>(h.at("mu"));
  return std::make_shared<HingeLoss>();
}

std::shared_ptr<const Penalty> make_penalty(const MethodInfo& method, const Hyperparameters& h) {
  if (method.penalty == "l1") return std::make_shared<L1Penalty>();
  if (method.penalty == "l2") return std::make_shared<L2SquaredPenalty>();
  if (method.penalty == "linf") return std::make_shared<LInfPenalty>();
  if (method.penalty == "approx_l0") return std::make_shared<ApproxL0Penalty>(h.at("a"));
  if (method.penalty == "capped_l1") return std::make_shared<CappedL1Penalty>(h.at("a"));
  return std::make_shared<NoPenalty>();
}

}  // namespace

Objective make_objective(const MethodInfo& method, const Hyperparameters& h, const core::Dataset& train) {
  const double lambda = h.contains("lambda") ? h.at("lambda") : 0.0;
  Objective objective{make_loss(method, h), make_penalty(method, h), core::Vector::Ones(static_cast<Eigen::Index>(train.n())),
                      lambda};
  switch (method.weighting) {
    case Weighting::plain: break;
    case Weighting::fsv_average: {
      // [FSV] (4): e'y/m + e'z/k with m positives (set A) and k negatives (set B), weighted by (1 - lambda).
      const double positives = static_cast<double>(train.count_positive());
      const double negatives = static_cast<double>(train.count_negative());
      for (Eigen::Index i = 0; i < objective.example_weights.size(); ++i) {
        objective.example_weights[i] = (1.0 - lambda) / (train.labels()[i] > 0 ? positives : negatives);
      }
      break;
    }
    case Weighting::fsv_svm:
      objective.example_weights *= 1.0 - lambda;
      objective.penalty_weight = lambda / 2.0;
      break;
  }
  return objective;
}

FitReport fit_method(const std::string& name, const Hyperparameters& given, StepSolver& solver,
                     const DcaOptions& options) {
  const MethodInfo& method = find_method(name);
  const Hyperparameters h = resolve_hyperparameters(method, given);
  const Objective objective = make_objective(method, h, solver.data());
  if (method.algorithm != "dca") return fit_convex(objective, solver);

  DcaOptions dca_options = options;
  dca_options.stop_on_surrogate_stall = method.stop_on_surrogate_stall;
  if (method.start == "zero") {
    // DCA from (0, 0): the first step solves the convex part G alone (for FSV, SLA from v^0 = 0).
    return fit_dca(objective, solver, core::LinearModel(core::Vector::Zero(static_cast<Eigen::Index>(solver.data().d())), 0.0),
                   dca_options);
  }
  Hyperparameters start_h{{"lambda", h.at("lambda")}};
  const FitReport start = fit_method(method.start, start_h, solver, options);
  if (!core::has_solution(start.status)) {
    FitReport failed = start;
    failed.message = fmt::format("starting point {} ended '{}': {}", method.start, core::to_string(start.status),
                                 start.message);
    return failed;
  }
  return fit_dca(objective, solver, start.model, dca_options, &start);
}

}  // namespace sparsesvm::models
