#pragma once
// `sparsesvm fit --grid NAME=V1,V2,... --cv K`: the inner selection of `run` (experiment::select_on_training_part,
// the same folds, scores and tie rules) on the whole data set of a fit, before the final fit.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "models/example_weights.hpp"
#include "models/parameters.hpp"
#include "models/scoring.hpp"

namespace sparsesvm::app {

struct SelectionOptions {
  std::vector<std::string> grid;  // "lambda=0.01,0.1,1", repeatable
  std::size_t cv_folds = 0;       // --cv K: k-fold inner selection
  std::size_t tuning_sets = 0;    // --tuning-sets K: [FSV]'s tuning-set rule, K random tuning sets
  double tuning_fraction = 0.1;
  bool stratified = false;
  std::string selection = "best";          // best | median_of_best
  std::string ties = "most_regularized";   // most_regularized | least_regularized
  std::string scoring = "accuracy";        // a metric of models/scoring.hpp

  void add_to(CLI::App& command);
  bool requested() const { return !grid.empty(); }
};

struct SelectionOutcome {
  models::Hyperparameters chosen;  // the given parameters with the winning candidate's values
  double cv_score = 0.0;           // the winner's mean inner score under `metric`
  std::vector<double> lambda_path;  // the lambda grid the selection walked (MethodSelection's), for the final fit
  models::Metric metric = models::Metric::accuracy;
};

// Runs the selection of `method` (with the parameters `given` fixed) on `data`, its transforms fitted in
// each fold and the class weight computed on each fold's training part, printing one line per candidate (mean and std over the folds, the winner marked). InputError
// for a grid the method cannot take, or when no candidate is eligible.
SelectionOutcome select_by_cv(const SelectionOptions& options, const std::string& method,
                              const models::Hyperparameters& given, const models::ClassWeight& class_weight,
                              const std::vector<std::string>& transforms, const core::Dataset& data, std::uint64_t seed);

}  // namespace sparsesvm::app
