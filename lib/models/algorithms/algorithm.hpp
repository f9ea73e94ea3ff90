#pragma once
// An algorithm fits an objective (a loss, a penalty, example weights and lambda) on a workspace. Each
// is one file in this folder: an id, its options as a parameter table (kind solver), the statistics
// it reports, `unsupported(objective)` (the reason it cannot run an objective, or ""), and `fit`.
// The registry (registry.cpp) lists them; the method registry refuses a row whose algorithm cannot
// run the row's loss and penalty.
#include <memory>
#include <string>
#include <vector>

#include "core/linear_model.hpp"
#include "models/fit_report.hpp"
#include "models/objective.hpp"
#include "models/parameters.hpp"
#include "models/workspace.hpp"

namespace sparsesvm::models {

// Where an iterative algorithm starts, and the fit that produced the start (its solves and time count
// toward the report, as the paper's timings include the initialization), or nullptr.
struct Start {
  core::LinearModel model;
  const FitReport* report = nullptr;
};

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  virtual std::string id() const = 0;
  virtual std::string description() const = 0;
  virtual const ParameterTable& options() const = 0;
  // Names of FitReport::statistics this algorithm fills; they become result columns.
  virtual std::vector<std::string> statistic_names() const = 0;
  // Names of FitReport::traces this algorithm fills; they become result columns too.
  virtual std::vector<std::string> trace_names() const { return {}; }
  // Names of FitReport::text_statistics this algorithm fills (words, not numbers: never summarized).
  virtual std::vector<std::string> text_statistic_names() const { return {}; }
  // Whether fit() uses Start (iterative algorithms); the method row then names where it starts.
  virtual bool needs_start() const = 0;
  // Whether fit() can go on when the start's fit has no solution (it uses the start only as a warm
  // start); otherwise such a fit ends with the start's status.
  virtual bool survives_failed_start() const { return false; }
  // Whether a fit at lambda on a lambda path (fit_method's `lambda_path`) starts from the fit at the path's
  // next larger lambda, passed as Start (its report's model and statistics), with these options
  // (resolved); such an algorithm does not need_start() and lists the statistics path_fits and path_s,
  // which fit_method fills.
  virtual bool follows_lambda_path(const Hyperparameters& /*options*/) const { return false; }
  // Whether fit() returns an optimum of the objective (to the solver's tolerance), not a critical point
  // (DCA) or an approximation (RW's walk).
  virtual bool finds_optimum() const = 0;
  virtual std::string unsupported(const Objective& objective) const = 0;
  // `options` holds a value for every entry of options(). Throws InputError when unsupported().
  virtual FitReport fit(const Objective& objective, Workspace& workspace, const Start& start,
                        const Hyperparameters& options) const = 0;
};

const std::vector<std::unique_ptr<const Algorithm>>& algorithm_registry();
// InputError listing the known ids when `id` is not one.
const Algorithm& find_algorithm(const std::string& id);

}  // namespace sparsesvm::models
