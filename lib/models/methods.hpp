#pragma once
// The paper methods, one row each (methods.cpp): a loss, a penalty and an algorithm by id, how lambda
// enters the objective, where an iterative algorithm starts, and the method's own defaults
// (shared/REPRODUCTION.md, "Methods").
//
//   weighting plain         c_i = 1,                          rho = lambda       ([DCA] eq. (1))
//   weighting fsv_average   c_i = (1 - lambda)/m (+1), /k (-1), rho = lambda      ([FSV] eq. (4), (8))
//   weighting fsv_svm       c_i = 1 - lambda,                 rho = lambda / 2   ([FSV] eq. (12)-(14))
//   weighting svm_c         c_i = C,                          rho = 1            ([RW] eq. (1): parameter C)
//   weighting mean          c_i = 1/n,                        rho = lambda       ([ADMM] (1): the mean hinge)
//
// A penalty whose table names lambda itself (SCAD, MCP, LSP, capped: p(w; lambda, theta)) takes the
// strength: the objective then adds no lambda of its own and has rho = 1 (weightings plain and mean only).
//
// A method's parameter table is built from the row when the registry is first used: lambda, or C for
// svm_c (unless the penalty is none), the loss's, the penalty's and the algorithm's parameters, the start's (start_radius
// for a random start), each with the row's default where it gives one. Building the registry checks
// every id, every default, that the algorithm can run the loss and penalty, and that no two parts name
// a parameter alike; a bad row is a logic_error at first use (and fails every test).
#include <map>
#include <string>
#include <vector>

#include "models/algorithms/algorithm.hpp"
#include "models/fit_report.hpp"
#include "models/objective.hpp"
#include "models/parameters.hpp"
#include "models/workspace.hpp"

namespace sparsesvm::models {

enum class Weighting { plain, fsv_average, fsv_svm, svm_c, mean };

// "plain", "fsv_average", "fsv_svm", "svm_c", "mean"
std::string to_string(Weighting weighting);

struct MethodInfo {
  std::string name;         // as in the paper and in configs: "RLSVM0"
  std::string citation;     // "[DCA] 3.3, Algorithm 2"
  std::string loss;         // a loss_registry() id
  std::string penalty;      // a penalty_registry() id
  std::string algorithm;    // an algorithm_registry() id
  std::string start{};      // for iterative algorithms: a method name, "zero" or "random"
  Weighting weighting = Weighting::plain;
  Hyperparameters defaults{};  // the row's own defaults, overriding its parts' (a = 5 for FSV)
  ParameterTable parameters{};  // filled when the registry is built
  // The start's parameters that the workspace's tuning grid lists are chosen on its tuning part (the fit that
  // scores best under the config's metric, accuracy by default, ties as the config breaks them): [PSI] 3.2's
  // "best tuned SVM". Without a tuning part (fit, or a split with tune: 0) the start takes the method's own
  // values.
  bool start_tuned = false;
};

const std::vector<MethodInfo>& method_registry();
// InputError listing the known names when `name` is not one.
const MethodInfo& find_method(const std::string& name);

// Defaults overridden by `given`; InputError naming an unknown or out-of-range parameter.
Hyperparameters resolve_hyperparameters(const MethodInfo& method, const Hyperparameters& given);

// `sample_weights` s_i (empty: all 1) scale c_i; the weightings' counts (a class's m or k, n) become sums
// of s_i, so an integer s_i is that many copies of example i and s_i = 0 its removal.
Objective make_objective(const MethodInfo& method, const Hyperparameters& resolved, const core::Dataset& train,
                         const core::Vector& sample_weights = {});

// Why class weights cannot apply to `method` (its loss is averaged per class, [FSV] (4): a weight common
// to a class cancels), or "" when they do. Callers refuse a class weight for such a method with it; sample
// weights still apply (they weigh examples within a class).
std::string class_weight_refusal(const MethodInfo& method);

// Fits `name` on the workspace's training set. A fit already made there with the same resolved
// parameters is returned as it was; a DCA start from another method (OneNormSVM, SVM) is that method's
// fit in the same workspace, so methods fitted on one training set share their starts.
// `lambda_path`: the lambda grid this fit is one point of (the runner's grid when it tunes lambda), for an
// algorithm that follows lambda paths (Algorithm::follows_lambda_path): the fit at lambda then starts from
// the fit at the path's next larger lambda, made first the same way (so from the largest down) and kept
// in the workspace. Each fit on a path is thus a function of the path above it, whatever else ran before
// it. Ignored by other algorithms and when lambda is not a parameter.
FitReport fit_method(const std::string& name, const Hyperparameters& given, Workspace& workspace,
                     const std::vector<double>& lambda_path = {});

// The model a random start draws: w_j and b uniform on [-radius, radius] from a generator seeded with
// (workspace seed, method name); radius 0 gives the zero model.
core::LinearModel random_start(const Workspace& workspace, const std::string& method, double radius);

}  // namespace sparsesvm::models
