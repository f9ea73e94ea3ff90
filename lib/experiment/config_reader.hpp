#pragma once
// The config reader's parts (load_config in config.cpp calls them in order), one file per section of the
// YAML schema: config_reader.cpp (the tree's limits and overrides), config_datasets.cpp, config_methods.cpp
// (entries, sweep, grid, selection), config_protocol.cpp, config_tables.cpp (tables and figures). Internal
// to the library: not installed.
#include <cstddef>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <string>
#include <utility>
#include <vector>
#include <yaml-cpp/yaml.h>

#include "core/closest_name.hpp"
#include "core/errors.hpp"
#include "experiment/config.hpp"

namespace sparsesvm::experiment::config_detail {

using core::ConfigError;

// Reads typed values out of YAML nodes; every error names the file and the key path.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}
  const std::string& path() const { return file_; }

  // A key that a command-line override set (or that holds one) is blamed on the override, not on the file.
  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    const auto within = [](const std::string& inner, const std::string& outer) {
      return inner == outer || inner.starts_with(outer + ".") || inner.starts_with(outer + "[");
    };
    for (const auto& [path, text] : overridden_) {
      if (within(key, path) || within(path, key)) {
        throw ConfigError(fmt::format("override '{}': {}: {}", text, key, message));
      }
    }
    throw ConfigError(fmt::format("{}: {}: {}", file_, key, message));
  }

  // Records the override `text` (key.path=value): `datasets.0.params.n` is key `datasets[0].params.n`.
  void remember_override(const std::string& text) {
    const std::string path = text.substr(0, text.find('='));
    std::string key;
    std::stringstream parts(path);
    for (std::string part; std::getline(parts, part, '.');) {
      const bool index = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
      key += index ? "[" + part + "]" : (key.empty() ? "" : ".") + part;
    }
    overridden_.emplace_back(key, text);
  }

  void check_keys(const YAML::Node& node, const std::string& key, const std::set<std::string>& known) const {
    if (!node.IsMap()) fail(key, "expected a mapping");
    for (const auto& entry : node) {
      const std::string name = entry.first.as<std::string>();
      if (!known.contains(name)) {
        const std::vector<std::string> names(known.begin(), known.end());
        fail(join(key, name), fmt::format("unknown key ({}known: {})", core::did_you_mean(name, names), fmt::join(known, ", ")));
      }
    }
  }

  template <typename T>
  T scalar(const YAML::Node& node, const std::string& key, const char* expected) const {
    if (!node.IsScalar()) fail(key, fmt::format("expected {}", expected));
    try {
      return node.as<T>();
    } catch (const YAML::Exception&) {
      fail(key, fmt::format("expected {}, found '{}'", expected, node.Scalar()));
    }
  }

  template <typename T>
  T optional(const YAML::Node& parent, const std::string& parent_key, const std::string& name, T fallback,
             const char* expected) const {
    const YAML::Node node = parent[name];
    return node ? scalar<T>(node, join(parent_key, name), expected) : fallback;
  }

  std::size_t positive_count(const YAML::Node& parent, const std::string& parent_key, const std::string& name,
                             std::size_t fallback) const {
    const long value = optional<long>(parent, parent_key, name, static_cast<long>(fallback), "a positive integer");
    if (value < 1) fail(join(parent_key, name), fmt::format("expected a positive integer, found {}", value));
    // Repetitions, folds and sizes past this are typos (1e9 repetitions would plan a billion tasks).
    constexpr long kLargestCount = 100'000;
    if (value > kLargestCount) {
      fail(join(parent_key, name), fmt::format("{} is more than {} (a typo?)", value, kLargestCount));
    }
    return static_cast<std::size_t>(value);
  }

  std::vector<double> numbers(const YAML::Node& node, const std::string& key) const {
    if (!node.IsSequence() || node.size() == 0) fail(key, "expected a non-empty list of numbers");
    std::vector<double> values;
    for (std::size_t k = 0; k < node.size(); ++k) values.push_back(scalar<double>(node[k], fmt::format("{}[{}]", key, k), "a number"));
    return values;
  }

  // A grid's values: a list of numbers, or {logspace: [low, high, count]}, count values evenly spaced in
  // log10 from low to high, both included (as numpy.logspace(log10 low, log10 high, count)): the dense grid
  // for a paper that states only a range ("C in [1e-3, 1e3]").
  std::vector<double> grid_values(const YAML::Node& node, const std::string& key) const {
    if (!node.IsMap()) return numbers(node, key);
    check_keys(node, key, {"logspace"});
    const std::string range_key = join(key, "logspace");
    const YAML::Node range = node["logspace"];
    if (!range || !range.IsSequence() || range.size() != 3) fail(range_key, "expected [low, high, count]");
    const double low = scalar<double>(range[0], range_key + "[0]", "a positive number");
    const double high = scalar<double>(range[1], range_key + "[1]", "a positive number");
    const long count = scalar<long>(range[2], range_key + "[2]", "a count");
    if (!(low > 0) || !(high > low) || !std::isfinite(high)) fail(range_key, "expected 0 < low < high");
    constexpr long kLargestGrid = 10'000;
    if (count < 2 || count > kLargestGrid) fail(range_key + "[2]", fmt::format("expected a count from 2 to {}", kLargestGrid));
    const double from = std::log10(low);
    const double to = std::log10(high);
    std::vector<double> values;
    const double step = (to - from) / static_cast<double>(count - 1);
    for (long k = 0; k < count; ++k) {
      values.push_back(k == 0 ? low : k == count - 1 ? high : std::pow(10.0, from + step * static_cast<double>(k)));
    }
    return values;
  }

  // A value of parameter `spec` (a choice's name, a switch's true/false, or a number); without a spec
  // (a name no method takes: refused later, naming the method) a number.
  double parameter_value(const YAML::Node& node, const std::string& key, const models::ParameterSpec* spec) const {
    if (!spec) return scalar<double>(node, key, "a number");
    const std::string text = scalar<std::string>(node, key, "a value");
    try {
      return spec->parse(text, "");
    } catch (const core::InputError& error) {
      fail(key, error.what());
    }
  }

  std::vector<std::string> strings(const YAML::Node& node, const std::string& key) const {
    if (!node.IsSequence()) fail(key, "expected a list");
    std::vector<std::string> values;
    for (std::size_t k = 0; k < node.size(); ++k) {
      values.push_back(scalar<std::string>(node[k], fmt::format("{}[{}]", key, k), "a string"));
    }
    return values;
  }

  static std::string join(const std::string& parent, const std::string& name) {
    return parent.empty() ? name : parent + "." + name;
  }

 private:
  std::string file_;
  std::vector<std::pair<std::string, std::string>> overridden_;  // message key, override text
};

// Combinations of a data set's generator grid, and method entries after a sweep: a few lists of a few
// hundred values multiply past any run (fuzzing: three lists took the config load above 2 GB).
constexpr std::size_t kMaxCombinations = 10'000;

// A named choice at `section`.`key` (default `fallback`), parsed by `parse` (a models parse_* function); its
// InputError (unknown name, did-you-mean, the known names) is reported at the key.
template <typename Parse>
auto read_choice(const Reader& reader, const YAML::Node& node, const std::string& section, const char* key,
                 const char* fallback, Parse parse) {
  const std::string name = reader.optional<std::string>(node, section, key, fallback, "a name");
  try {
    return parse(name);
  } catch (const core::InputError& error) {
    reader.fail(section + "." + key, error.what());
  }
}

// config_reader.cpp: Tree checks and overrides.
void check_tree(const YAML::Node& root, const Reader& reader);
// Sets "a.b.c=value" in the YAML tree (the value parsed as YAML); the parent path must exist.
void apply_override(YAML::Node& root, const std::string& item, const Reader& reader);
// A value twice in a grid would be fitted twice and tie with itself.
void check_distinct(const std::vector<double>& values, const std::string& key, const Reader& reader);
// A label names task files: letters, digits and . _ - =, beginning with a letter or digit, so that no two labels map to one file.
// The first character a letter or digit: no "." or "..", and no leading "_" (which matplotlib's legends hide).
bool is_file_safe(const std::string& text);

// config_datasets.cpp: Data sets.
// class_weight: none | balanced | {positive: P, negative: N} (models/example_weights.hpp).
models::ClassWeight read_class_weight(const YAML::Node& node, const std::string& key, const Reader& reader);
// A data set's class_weight reaches every method entry without one of its own: refused where it would
// cancel (RLP, FSV: models::class_weight_refusal).
void check_class_weights(const ExperimentConfig& config, const Reader& reader);
std::vector<DatasetInstance> read_dataset(const YAML::Node& node, const std::string& key, const Reader& reader,
                                          const std::string& config_dir);
// Data set names are unique and file-safe (they name task files), an independent test sample has a
// generator to draw it from, and the protocol's parts of a generated set are not empty.
void check_datasets(const ExperimentConfig& config, const Reader& reader);

// config_methods.cpp: Method entries, the sweep, the grid and selection.
MethodEntry read_method(const YAML::Node& node, const std::string& key, const Reader& reader);
// sweep: {a: [2, 4], ...} (or --sweep a=2,4): every method entry that takes `a` becomes one labelled
// variant per value, "<label>_a2", "<label>_a4" (several keys: every combination, in the block's key
// order); entries that do not take it stay as they are. A key no method takes, or one an entry fixes
// itself, is an error.
std::vector<MethodEntry> expand_sweep(const std::vector<MethodEntry>& methods, const YAML::Node& sweep,
                                      const Reader& reader);
// Two entries with one label would write the same task files.
void check_unique_labels(const std::vector<MethodEntry>& methods, const Reader& reader);
// After a sweep the entries are its variants: a clash names the label, not a position in the file.
void check_labels_after_sweep(const std::vector<MethodEntry>& methods, const Reader& reader);
// A data set's method_grid names top-level grid parameters and varies each exactly when the grid does
// (which parameters are tuned stays the config's), with admissible values.
void check_method_grids(const ExperimentConfig& config, const Reader& reader);
void check_grid(const ExperimentConfig& config, const Reader& reader);
// Per method, the grid parameters it tunes; `inner: none` admits one value each, median_of_best one
// tuned parameter.
void check_selection(const ExperimentConfig& config, const Reader& reader);

// config_protocol.cpp: The protocol.
Protocol read_protocol(const YAML::Node& node, const Reader& reader);

// config_tables.cpp: Tables and figures.
// tables.objective_ratio: a list of [A, B] method labels whose methods share one objective, neither tuning a parameter.
std::vector<std::pair<std::string, std::string>> read_objective_ratios(const YAML::Node& node, const ExperimentConfig& config,
                                                                      const Reader& reader);
// tables.convergence: the walk is an iterative method (its objective trace has a value per iteration) and
// the optimum a method that finds the optimum of the same objective (loss, penalty and weighting); the walk's entries differ
// only in the optimum's parameters (C), so their curves are comparable iteration by iteration.
ConvergenceTable read_convergence(const YAML::Node& node, const ExperimentConfig& config, const Reader& reader);
// Whether a metric the config names at `key` is this run's (`known`); false, with a warning, when only
// methods the run lacks report it; else the unknown metric is refused.
bool keep_metric(const std::string& metric, const std::vector<std::string>& known, const std::string& key,
                 std::vector<std::string>& warnings, const Reader& reader);
// tables.comparisons: {against: LABEL (optional), metrics: {METRIC: higher | lower, ...}}.
Comparisons read_comparisons(const YAML::Node& node, const ExperimentConfig& config, const std::vector<std::string>& known,
                             std::vector<std::string>& warnings, const Reader& reader);
std::vector<FigureSpec> read_figures(const YAML::Node& node, const ExperimentConfig& config, std::vector<std::string>& warnings,
                                     const Reader& reader);
// tables.published: a CSV of the paper's cells (paper_comparison.hpp), relative to the config's folder (or
// to the working directory); each cell must name a data set, method label and metric of this config.
void read_published_cells(YAML::Node tables, const std::string& config_dir, const Reader& reader, ExperimentConfig& config);
}  // namespace sparsesvm::experiment::config_detail
