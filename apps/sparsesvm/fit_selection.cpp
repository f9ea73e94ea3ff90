#include "fit_selection.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/closest_name.hpp"
#include "core/errors.hpp"
#include "experiment/config.hpp"
#include "experiment/tasks.hpp"
#include "models/methods.hpp"
#include "models/scoring.hpp"
#include "models/selection.hpp"

namespace sparsesvm::app {
namespace {

// "lambda=0.01,0.1,1" -> {"lambda", {0.01, 0.1, 1}}, each value a number the method's spec admits, none twice.
std::pair<std::string, std::vector<double>> parse_grid(const std::string& item, const models::MethodInfo& method,
                                                       const models::Hyperparameters& given) {
  const std::size_t equals = item.find('=');
  const std::string name = item.substr(0, equals);
  if (equals == std::string::npos || name.empty() || equals + 1 == item.size()) {
    throw core::InputError(fmt::format("--grid {}: expected NAME=V1,V2,... (e.g. --grid lambda=0.01,0.1,1)", item));
  }
  const models::ParameterSpec* spec = models::find_parameter(method.parameters, name);
  if (spec == nullptr) {
    std::vector<std::string> known;
    for (const models::ParameterSpec& p : method.parameters) known.push_back(p.name);
    throw core::InputError(fmt::format("--grid {}: {} has no parameter '{}'; {}known: {}", item, method.name, name,
                                       core::did_you_mean(name, known), fmt::join(known, ", ")));
  }
  if (given.contains(name)) {
    throw core::InputError(fmt::format("--grid {}: --{} fixes it too; give one or the other", item, name));
  }
  std::vector<double> values;
  std::size_t start = equals + 1;
  while (start <= item.size()) {
    const std::size_t comma = std::min(item.find(',', start), item.size());
    const std::string text = item.substr(start, comma - start);
    std::size_t used = 0;
    double value = 0.0;
    try {
      value = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (text.empty() || used != text.size() || !std::isfinite(value)) {
      throw core::InputError(fmt::format("--grid {}: '{}' is not a number", item, text));
    }
    if (const std::string problem = spec->check(value); !problem.empty()) {
      throw core::InputError(fmt::format("--grid {}: {}", item, problem));
    }
    if (std::find(values.begin(), values.end(), value) != values.end()) {
      throw core::InputError(fmt::format("--grid {}: {} is listed twice", item, text));
    }
    values.push_back(value);
    start = comma + 1;
  }
  return {name, values};
}

// The one-data-set, one-method config whose selection `run` would make with these options.
experiment::ExperimentConfig selection_config(const SelectionOptions& options, const std::string& method,
                                              const models::Hyperparameters& given, const models::ClassWeight& class_weight,
                                              const std::vector<std::string>& transforms, const core::Dataset& data) {
  const models::MethodInfo& info = models::find_method(method);
  experiment::ExperimentConfig config;
  config.name = "fit";
  experiment::DatasetInstance instance;
  instance.name = data.name();
  instance.transforms = transforms;
  config.datasets.push_back(instance);
  config.methods.push_back({method, method, std::map<std::string, double>(given.begin(), given.end()), class_weight});
  for (const std::string& item : options.grid) {
    auto [name, values] = parse_grid(item, info, given);
    if (config.grid.contains(name)) throw core::InputError(fmt::format("--grid {}: {} has a grid already", item, name));
    config.grid[name] = std::move(values);
  }
  std::size_t combinations = 1;
  for (const auto& [name, values] : config.grid) combinations *= values.size();
  if (combinations < 2) throw core::InputError("--grid: one value leaves nothing to choose; list two or more");
  experiment::Protocol& protocol = config.protocol;
  protocol.stratified = options.stratified;
  protocol.selection = models::parse_selection_rule(options.selection);
  protocol.ties = models::parse_tie_rule(options.ties);
  protocol.metric = models::parse_metric(options.scoring);
  if (options.tuning_sets > 0) {
    protocol.inner = experiment::Inner::tuning_sets;
    protocol.tuning_parts = options.tuning_sets;
    protocol.tuning_fraction = options.tuning_fraction;
  } else {
    protocol.inner = experiment::Inner::kfold;
    protocol.inner_folds = options.cv_folds > 0 ? options.cv_folds : 5;
  }
  if (protocol.selection == models::SelectionRule::median_of_best && config.grid.size() != 1) {
    throw core::InputError("--selection median_of_best takes one --grid parameter");
  }
  return config;
}

void print_candidates(const experiment::ExperimentConfig& config, const experiment::MethodSelection& selection) {
  const experiment::Protocol& protocol = config.protocol;
  const std::string scheme = protocol.inner == experiment::Inner::kfold ? fmt::format("{}-fold CV", protocol.inner_folds)
                                                       : fmt::format("{} tuning sets of {}", protocol.tuning_parts,
                                                                     protocol.tuning_fraction);
  fmt::print("selection   {}, scored by {}, rule {}, ties to the {}\n", scheme, models::to_string(protocol.metric),
             models::to_string(protocol.selection), models::to_string(protocol.ties));
  const std::vector<std::string> tuned = experiment::tuned_parameters(config, config.methods.front());
  std::string header;
  for (const std::string& name : tuned) header += fmt::format("{:>12}", name);
  fmt::print("  {} {:>10} {:>10}\n", header, "mean", "std");
  for (std::size_t c = 0; c < selection.candidates.size(); ++c) {
    std::string values;
    for (const std::string& name : tuned) values += fmt::format("{:>12}", fmt::format("{:g}", selection.candidates[c].at(name)));
    const std::vector<double>& scores = selection.fold_scores[c];
    const double mean = selection.mean_score(c);
    double variance = 0.0;
    for (const double score : scores) variance += (score - mean) * (score - mean);
    const double stddev = scores.size() > 1 ? std::sqrt(variance / static_cast<double>(scores.size() - 1)) : 0.0;
    const std::string scored = std::isnan(mean) ? fmt::format("{:>21}", "no solution in a fold")
                                                : fmt::format("{:>10.4f} {:>10.4f}", mean, stddev);
    fmt::print("  {} {}{}\n", values, scored, c == selection.chosen ? "   <- chosen" : "");
  }
}

}  // namespace

void SelectionOptions::add_to(CLI::App& command) {
  command.add_option("--grid", grid,
                     "choose a parameter by cross-validation among these values, as `run` does: NAME=V1,V2,... "
                     "(repeatable, one per tuned parameter)")
      ->allow_extra_args(false);
  auto* cv = command.add_option("--cv", cv_folds, "with --grid: K-fold inner selection (default 5)")
                 ->check(CLI::Range(2, 1000))
                 ->needs("--grid");
  command.add_option("--tuning-sets", tuning_sets, "with --grid: K random tuning sets instead of folds ([FSV])")
      ->check(CLI::Range(1, 1000))
      ->needs("--grid")
      ->excludes(cv);
  command.add_option("--tuning-fraction", tuning_fraction, "with --tuning-sets: each set's fraction (default 0.1)")
      ->check(CLI::Range(0.0, 1.0))
      ->needs("--tuning-sets");
  command.add_flag("--stratified", stratified, "with --grid: stratified folds")->needs("--grid");
  command.add_option("--selection", selection, "with --grid: best (default) or median_of_best ([RW])")
      ->check(CLI::IsMember({"best", "median_of_best"}))
      ->needs("--grid");
  command.add_option("--scoring", scoring,
                     fmt::format("with --grid: the inner score to optimize: {} (default accuracy)",
                                 fmt::join(models::metric_names(), ", ")))
      ->check(
          [](const std::string& name) {
            try {
              models::parse_metric(name);
              return std::string();
            } catch (const core::InputError& unknown) {
              return std::string(unknown.what());
            }
          },
          "METRIC")
      ->needs("--grid");
  command.add_option("--ties", ties, "with --grid: most_regularized (default) or least_regularized")
      ->check(CLI::IsMember({"most_regularized", "least_regularized"}))
      ->needs("--grid");
}

SelectionOutcome select_by_cv(const SelectionOptions& options, const std::string& method,
                              const models::Hyperparameters& given, const models::ClassWeight& class_weight,
                              const std::vector<std::string>& transforms, const core::Dataset& data, std::uint64_t seed) {
  const experiment::ExperimentConfig config = selection_config(options, method, given, class_weight, transforms, data);
  const std::vector<experiment::MethodSelection> selections = experiment::select_on_training_part(config, 0, data, seed);
  const experiment::MethodSelection& selection = selections.front();
  if (!selection.input_error.empty()) throw core::InputError(selection.input_error);
  print_candidates(config, selection);
  if (selection.chosen == selection.candidates.size()) {
    throw core::InputError("cross-validation: every candidate had a fold without a solution; nothing to choose");
  }
  SelectionOutcome outcome;
  outcome.chosen = given;
  for (const auto& [name, value] : selection.candidates[selection.chosen]) outcome.chosen[name] = value;
  outcome.cv_score = selection.mean_score(selection.chosen);
  outcome.lambda_path = selection.lambda_path;
  return outcome;
}

}  // namespace sparsesvm::app
