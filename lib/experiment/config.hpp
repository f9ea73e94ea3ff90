#pragma once
// An experiment config (YAML) and its validation. Every map is checked for unknown keys, and every error
// names the file and the key path, e.g. "configs/x.yaml: protocol.outer.repetitons: unknown key (known:
// k, repetitions, stratified, test_fraction, type)". Overrides "key.path=value" from the command line
// are applied to the YAML before validation and recorded in the manifest. The schema is documented in
// the README, with an annotated example.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "data/load.hpp"

namespace sparsesvm::experiment {

// One data set of the config, expanded: a generator grid gives one instance per combination (condition).
struct DatasetInstance {
  std::string name;       // as in the config
  std::string condition;  // "noise_dims=10,flip_fraction=0.1", or "" without a grid
  data::DataSource source;
  std::vector<std::string> transforms;  // fitted on each training part
  std::string missing_hint;             // non-empty when the file is absent: how to get it
};

struct MethodEntry {
  std::string name;
  std::map<std::string, double> fixed;  // hyperparameters fixed by the config (a, mu)
};

struct Protocol {
  std::string outer = "holdout";  // holdout | kfold
  double test_fraction = 0.3;
  std::size_t repetitions = 20;   // holdout repetitions
  std::size_t outer_folds = 10;   // kfold
  bool stratified = false;
  std::string inner = "kfold";    // kfold | tuning_sets | none
  std::size_t inner_folds = 5;
  std::size_t tuning_parts = 10;
  double tuning_fraction = 0.1;
};

struct ExperimentConfig {
  std::string path;
  std::string name;
  std::uint64_t seed = 1;
  std::vector<DatasetInstance> datasets;
  std::vector<MethodEntry> methods;
  std::map<std::string, std::vector<double>> grid;  // lambda, mu: chosen by inner selection
  Protocol protocol;
  std::vector<std::string> table_metrics;           // metrics collect tabulates
  std::vector<std::string> paired_test;              // two methods for paired t-tests over outer splits
  std::string resolved_yaml;                         // the config after overrides, as YAML text
  std::vector<std::string> overrides;
};

// Loads, applies overrides and validates; ConfigError (an InputError) naming file and key on any problem.
ExperimentConfig load_config(const std::string& path, const std::vector<std::string>& overrides = {});

}  // namespace sparsesvm::experiment
