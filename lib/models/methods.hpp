#pragma once
// The paper methods, one row each: a loss, a penalty, an algorithm, how lambda enters the objective,
// the starting point of DCA, and the default hyperparameters (shared/REPRODUCTION.md, "Methods").
//
//   weighting plain         c_i = 1,                          rho = lambda       ([DCA] eq. (1))
//   weighting fsv_average   c_i = (1 - lambda)/m (+1), /k (-1), rho = lambda      ([FSV] eq. (4), (8))
//   weighting fsv_svm       c_i = 1 - lambda,                 rho = lambda / 2   ([FSV] eq. (12)-(14))
#include <map>
#include <string>
#include <vector>

#include "models/convex_step.hpp"
#include "models/dca.hpp"
#include "models/fit_report.hpp"
#include "models/objective.hpp"

namespace sparsesvm::models {

enum class Weighting { plain, fsv_average, fsv_svm };

struct MethodInfo {
  std::string name;       // as in the paper and in configs: "RLSVM0"
  std::string citation;   // "[DCA] 3.3, Algorithm 2"
  std::string loss;       // "hinge" or "ramp"
  std::string penalty;    // "none", "l1", "l2", "linf", "approx_l0", "capped_l1"
  std::string algorithm;  // "lp", "qp" (convex, one solve) or "dca"
  std::string start;      // for dca: the method whose solution starts it, or "zero"
  Weighting weighting = Weighting::plain;
  std::map<std::string, double> defaults;  // every hyperparameter the method takes: lambda, mu, a
  bool stop_on_surrogate_stall = false;    // FSV's stop rule (10)
};

using Hyperparameters = std::map<std::string, double>;

const std::vector<MethodInfo>& method_registry();
// InputError listing the known names when `name` is not one.
const MethodInfo& find_method(const std::string& name);

// Defaults overridden by `given`; InputError naming an unknown or out-of-range hyperparameter.
Hyperparameters resolve_hyperparameters(const MethodInfo& method, const Hyperparameters& given);

Objective make_objective(const MethodInfo& method, const Hyperparameters& resolved, const core::Dataset& train);

// Fits `name` on the solver's training set; the solver keeps LP bases and QP duals between calls, so
// fitting along a lambda grid, or several methods in turn, starts each solve warm.
FitReport fit_method(const std::string& name, const Hyperparameters& given, StepSolver& solver,
                     const DcaOptions& options = {});

}  // namespace sparsesvm::models
