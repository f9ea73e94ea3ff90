#pragma once
// A workspace belongs to one training set. It owns the view of the data that every algorithm fits on,
// builds solver state lazily (the convex-step caches: Clp LPs with their warm bases, the l2 SVM's dual
// coordinate-descent state and interior-point factor), and remembers every fit made on it, so
// that all grid points, all DCA iterations and all methods fitted on one training set share them:
// RLSVM0 at lambda starts from the OneNormSVM fit that OneNormSVM itself made at lambda, not a copy.
//
// Fits in one workspace depend on the order they are made in (a warm LP basis can pick another vertex
// of a degenerate optimum; dual coordinate descent stops at a tolerance from its warm start). The experiment runner
// therefore always fits the methods of one training set in config order.
//
// Construction checks what every algorithm needs: no missing values, at least one feature, both
// classes present.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "models/convex_step.hpp"
#include "models/fit_report.hpp"
#include "models/selection.hpp"
#include "models/workspace_state.hpp"

namespace sparsesvm::models {

class Workspace {
 public:
  // `seed` seeds random starting points (FSV's SLA): the runner derives it from the task's split seed.
  // InputError (naming the data set) when `train` has missing values or only one class.
  // `step_options` configures the convex-step caches (benchmarks turn warm starts off).
  explicit Workspace(const core::Dataset& train, std::uint64_t seed = 0, StepSolverOptions step_options = {});
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  const core::Dataset& data() const { return *data_; }
  std::uint64_t seed() const { return seed_; }

  // Per-example weights s_i of the loss (example_weights.hpp); empty: every s_i = 1. Set before the first
  // fit (logic_error after); InputError naming the data set for a bad vector (check_example_weights).
  // Examples of weight 0 are removed: data() is then the others, and example_weights() theirs, so that a
  // zero weight is exactly a removal, also for the algorithms whose path depends on every row (ADMM).
  void set_example_weights(core::Vector weights);
  const core::Vector& example_weights() const { return example_weights_; }

  // The LP/QP caches of convex steps (built on first use), shared by every fit here: a solve starts warm
  // from whatever LP another method solved last.
  StepSolver& steps();
  // The options those caches are made with, for caches of a fit's own.
  const StepSolverOptions& step_options() const { return step_options_; }

  // The state stored under `key`, built by `make` on first use.
  template <typename State>
  State& state(const std::string& key, const std::function<std::unique_ptr<State>()>& make) {
    auto found = states_.find(key);
    if (found == states_.end()) found = states_.emplace(key, make()).first;
    return static_cast<State&>(*found->second);
  }

  // The tuning part of a train/tune/test split (transformed like the training set) and the config's grid,
  // when the runner has them: a start chosen on them ([PSI] 3.2's best-tuned SVM, methods.hpp) uses them.
  // `tune` must outlive the workspace.
  struct Tuning {
    const core::Dataset* data = nullptr;
    std::map<std::string, std::vector<double>> grid;
    SelectionRules rules;  // the metric the tune part scores by, and how ties break
  };
  void set_tuning(const core::Dataset& tune, std::map<std::string, std::vector<double>> grid, SelectionRules rules);
  // nullptr without a tuning part.
  const Tuning* tuning() const { return tuning_.data ? &tuning_ : nullptr; }

  // Fits already made here, by "method|parameter_key"; nullptr when not made yet.
  const FitReport* find_fit(const std::string& key) const;
  const FitReport& store_fit(const std::string& key, FitReport report);

 private:
  const core::Dataset* data_;
  std::unique_ptr<const core::Dataset> weighted_examples_;  // the examples of positive weight, when some are 0
  std::uint64_t seed_;
  core::Vector example_weights_;
  StepSolverOptions step_options_;
  std::map<std::string, std::unique_ptr<WorkspaceState>> states_;
  std::map<std::string, FitReport> fits_;
  Tuning tuning_;
};

}  // namespace sparsesvm::models
