#include "experiment/config_reader.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>
#include <sstream>
#include <yaml-cpp/yaml.h>

#include "core/errors.hpp"
#include "experiment/metrics.hpp"
#include "models/algorithms/algorithm.hpp"
#include "models/methods.hpp"

namespace sparsesvm::experiment::config_detail {

std::vector<std::pair<std::string, std::string>> read_objective_ratios(const YAML::Node& node, const ExperimentConfig& config,
                                                                      const Reader& reader) {
  if (!node.IsSequence() || node.size() == 0) {
    reader.fail("tables.objective_ratio", "expected a non-empty list of [method, baseline] pairs");
  }
  std::vector<std::pair<std::string, std::string>> pairs;
  for (std::size_t k = 0; k < node.size(); ++k) {
    const std::string key = fmt::format("tables.objective_ratio[{}]", k);
    const std::vector<std::string> pair = reader.strings(node[k], key);
    if (pair.size() != 2) reader.fail(key, "expected exactly two method labels [method, baseline]");
    if (pair[0] == pair[1]) reader.fail(key, fmt::format("compares '{}' with itself", pair[0]));
    std::vector<const MethodEntry*> entries;
    for (const std::string& label : pair) {
      const auto found = std::find_if(config.methods.begin(), config.methods.end(),
                                      [&](const MethodEntry& m) { return m.label == label; });
      if (found == config.methods.end()) reader.fail(key, fmt::format("'{}' is not a method label of this config", label));
      if (const std::vector<std::string> tuned = tuned_parameters(config, *found); !tuned.empty()) {
        reader.fail(key, fmt::format("compares fits at the same fixed parameters, but '{}' tunes {} (fix it in the "
                                     "entry, or use protocol.inner: none)", label, fmt::join(tuned, ", ")));
      }
      entries.push_back(&*found);
    }
    const models::MethodInfo& a = models::find_method(entries[0]->name);
    const models::MethodInfo& b = models::find_method(entries[1]->name);
    if (a.loss != b.loss || a.penalty != b.penalty || a.weighting != b.weighting) {
      reader.fail(key, fmt::format("{} ({} + {}, weighting {}) and {} ({} + {}, weighting {}) do not share an objective",
                                   pair[0], a.loss, a.penalty, models::to_string(a.weighting), pair[1], b.loss,
                                   b.penalty, models::to_string(b.weighting)));
    }
    // The same objective also means the same values of the model parameters both take (lambda, theta).
    const models::Hyperparameters ha = models::resolve_hyperparameters(a, entries[0]->fixed);
    const models::Hyperparameters hb = models::resolve_hyperparameters(b, entries[1]->fixed);
    for (const models::ParameterSpec& spec : a.parameters) {
      if (spec.kind == models::ParameterKind::model && hb.contains(spec.name) && ha.at(spec.name) != hb.at(spec.name)) {
        reader.fail(key, fmt::format("{} and {} differ in {} ({} vs {})", pair[0], pair[1], spec.name, ha.at(spec.name),
                                     hb.at(spec.name)));
      }
    }
    pairs.emplace_back(pair[0], pair[1]);
  }
  return pairs;
}

ConvergenceTable read_convergence(const YAML::Node& node, const ExperimentConfig& config, const Reader& reader) {
  reader.check_keys(node, "tables.convergence", {"walk", "optimum"});
  ConvergenceTable table;
  for (auto [name, target] : {std::pair{"walk", &table.walk}, std::pair{"optimum", &table.optimum}}) {
    const std::string key = fmt::format("tables.convergence.{}", name);
    if (!node[name]) reader.fail(key, "missing: a method name of this config");
    *target = reader.scalar<std::string>(node[name], key, "a method name");
    const std::string& method = *target;  // (clang 14 cannot capture a structured binding)
    if (std::none_of(config.methods.begin(), config.methods.end(), [&](const MethodEntry& m) { return m.name == method; })) {
      reader.fail(key, fmt::format("'{}' is not a method of this config", *target));
    }
  }
  const models::MethodInfo& walk = models::find_method(table.walk);
  const models::MethodInfo& optimum = models::find_method(table.optimum);
  if (models::find_algorithm(walk.algorithm).finds_optimum() || walk.algorithm == "direct") {
    reader.fail("tables.convergence.walk", fmt::format("{} solves its objective at once; the walk must iterate (RW)", walk.name));
  }
  if (!models::find_algorithm(optimum.algorithm).finds_optimum()) {
    reader.fail("tables.convergence.optimum", fmt::format("{} does not find an optimum (algorithm {})", optimum.name, optimum.algorithm));
  }
  if (walk.loss != optimum.loss || walk.penalty != optimum.penalty || walk.weighting != optimum.weighting) {
    reader.fail("tables.convergence", fmt::format("{} ({} + {}) and {} ({} + {}) do not share an objective", walk.name,
                                                  walk.loss, walk.penalty, optimum.name, optimum.loss, optimum.penalty));
  }
  const MethodEntry* first = nullptr;
  for (const MethodEntry& entry : config.methods) {
    if (entry.name != table.walk) continue;
    std::map<std::string, double> others = entry.fixed;
    for (const models::ParameterSpec& spec : optimum.parameters) others.erase(spec.name);
    if (!first) {
      first = &entry;
      continue;
    }
    std::map<std::string, double> first_others = first->fixed;
    for (const models::ParameterSpec& spec : optimum.parameters) first_others.erase(spec.name);
    if (others != first_others) {
      reader.fail("tables.convergence.walk", fmt::format("entries {} and {} of {} differ in more than {}'s parameters; "
                                                         "their curves could not be compared", first->label, entry.label,
                                                         table.walk, optimum.name));
    }
  }
  return table;
}

namespace {

// The entries of method `method` that form a sweep over the model parameter x: at least two, each fixing x,
// none differing from the others in anything but x (one path or curve, not several joined).
void check_sweep_entries(const std::string& method, const std::string& x, const ExperimentConfig& config,
                         const Reader& reader, const std::string& key) {
  std::vector<const MethodEntry*> entries;
  for (const MethodEntry& m : config.methods) {
    if (m.name == method) entries.push_back(&m);
  }
  if (entries.size() < 2) {
    reader.fail(key + ".method", fmt::format("'{}' needs at least two entries of that method in this config (a sweep "
                                             "over x; method takes a method name such as PSI-1r, not a label), "
                                             "found {}", method, entries.size()));
  }
  const models::ParameterSpec* spec = models::find_parameter(models::find_method(method).parameters, x);
  if (spec == nullptr || spec->kind != models::ParameterKind::model) {
    reader.fail(key + ".x", fmt::format("'{}' is not a model parameter of {}", x, method));
  }
  std::map<std::string, double> others = entries.front()->fixed;
  others.erase(x);
  for (const MethodEntry* m : entries) {
    if (!m->fixed.contains(x)) {
      reader.fail(key + ".x", fmt::format("entry {} does not fix {} (sweep it: `sweep: {{{}: [...]}}`)", m->label, x, x));
    }
    std::map<std::string, double> own = m->fixed;
    own.erase(x);
    if (own != others) {
      reader.fail(key + ".x", fmt::format("entries {} and {} of {} differ in more than {}; they would not form one "
                                          "curve", entries.front()->label, m->label, method, x));
    }
  }
}

}  // namespace

namespace {

// Whether `metric` is a statistic or a parameter of some registered method: a name a run narrowed by an
// override (methods=[SVM-C]) may lack without being misspelt. Its tables, figures and comparisons are
// then left out with a warning (ExperimentConfig::warnings); an unknown name is refused.
bool reported_by_some_method(const std::string& metric) {
  const auto& algorithms = models::algorithm_registry();
  const bool statistic = std::any_of(algorithms.begin(), algorithms.end(), [&](const auto& algorithm) {
    const std::vector<std::string> names = algorithm->statistic_names();
    return std::find(names.begin(), names.end(), metric) != names.end();
  });
  const auto& methods = models::method_registry();
  return statistic || std::any_of(methods.begin(), methods.end(), [&](const models::MethodInfo& method) {
           return models::find_parameter(method.parameters, metric) != nullptr;
         });
}

}  // namespace

bool keep_metric(const std::string& metric, const std::vector<std::string>& known, const std::string& key,
                 std::vector<std::string>& warnings, const Reader& reader) {
  if (std::find(known.begin(), known.end(), metric) != known.end()) return true;
  if (const auto names = models::metric_names(); std::find(names.begin(), names.end(), metric) != names.end()) {
    reader.fail(key, fmt::format("rows have '{}' only when it is the selection metric (protocol.inner.metric: {}); "
                                 "known: {}", metric, metric, fmt::join(known, ", ")));
  }
  if (!reported_by_some_method(metric)) {
    reader.fail(key, fmt::format("unknown metric '{}' ({}known: {})", metric, core::did_you_mean(metric, known),
                                 fmt::join(known, ", ")));
  }
  warnings.push_back(fmt::format("{}: {}: no method of this run reports '{}'; left out", reader.path(), key, metric));
  return false;
}

namespace {

// A figure metric's own checks: this run's (else false, keep_metric), and as_error only with an accuracy.
bool check_figure_metric(const FigureSpec& figure, const std::vector<std::string>& metrics, const Reader& reader,
                         const std::string& key, std::vector<std::string>& warnings) {
  if (!keep_metric(figure.metric, metrics, key + ".metric", warnings, reader)) return false;
  if (figure.as_error && !figure.metric.ends_with("accuracy")) {
    reader.fail(key + ".as_error", fmt::format("1 - {} is not an error; as_error goes with the accuracies", figure.metric));
  }
  return true;
}

}  // namespace

namespace {

// A validation_curve figure draws the inner CV score against a parameter some method tunes (cv_scores.csv),
// one line per method that tunes it (or per label of `methods`).
void check_validation_curve(const YAML::Node& entry, FigureSpec& figure, const ExperimentConfig& config,
                            const Reader& reader, const std::string& key) {
  if (entry["metric"] || entry["as_error"]) reader.fail(key, "a validation_curve figure takes no metric or as_error");
  if (config.protocol.inner == Inner::none) reader.fail(key + ".kind", "a validation_curve needs an inner selection (protocol.inner is none)");
  figure.metric = models::to_string(config.protocol.metric);  // its scores are the inner selection's
  std::vector<std::string> tuning;
  for (const MethodEntry& m : config.methods) {
    const std::vector<std::string> tuned = tuned_parameters(config, m);
    if (std::find(tuned.begin(), tuned.end(), figure.x) != tuned.end()) tuning.push_back(m.label);
  }
  if (tuning.empty()) {
    reader.fail(key + ".x", fmt::format("'{}' is tuned by no method of this config (a grid parameter that an entry "
                                        "does not fix)", figure.x));
  }
  if (!entry["methods"]) {
    figure.methods = tuning;
    return;
  }
  figure.methods = reader.strings(entry["methods"], key + ".methods");
  for (const std::string& label : figure.methods) {
    if (std::count(figure.methods.begin(), figure.methods.end(), label) > 1) {
      reader.fail(key + ".methods", fmt::format("'{}' is listed twice", label));
    }
    if (std::find(tuning.begin(), tuning.end(), label) == tuning.end()) {
      reader.fail(key + ".methods", fmt::format("'{}' is not a method label that tunes {} (those that do: {})", label,
                                                figure.x, fmt::join(tuning, ", ")));
    }
  }
}

// The model parameters (not solver options) of an entry: those it fixes, the method's defaults for the rest.
std::map<std::string, double> model_parameters(const MethodEntry& entry) {
  const models::MethodInfo& method = models::find_method(entry.name);
  const models::Hyperparameters resolved = models::resolve_hyperparameters(method, entry.fixed);
  std::map<std::string, double> model;
  for (const models::ParameterSpec& spec : method.parameters) {
    if (spec.kind == models::ParameterKind::model) model[spec.name] = resolved.at(spec.name);
  }
  return model;
}

// Whether some data set can give `name` more than one value (the top-level grid or a data set's own).
bool varies(const ExperimentConfig& config, const std::string& name) {
  if (config.grid.contains(name) && config.grid.at(name).size() > 1) return true;
  return std::any_of(config.datasets.begin(), config.datasets.end(), [&](const DatasetInstance& instance) {
    const auto own = instance.method_grid.find(name);
    return own != instance.method_grid.end() && own->second.size() > 1;
  });
}

// A race figure's methods: at least two distinct labels of the config whose methods minimize one objective:
// the same loss, penalty and weighting, the same model parameters (fixed or default) and class weight, no
// model parameter tuned over a grid of several values (each split could choose its own). plot.py compares
// the rows' parameters too.
// The config's entry of each label a race names; fails on a label listed twice or not in the config (with
// the variants `run --sweep` made of it, which rename an entry's label to label_<parameter><value>).
std::vector<const MethodEntry*> race_entries(const std::vector<std::string>& labels, const ExperimentConfig& config,
                                             const Reader& reader, const std::string& key) {
  std::vector<const MethodEntry*> entries;
  for (const std::string& label : labels) {
    if (std::count(labels.begin(), labels.end(), label) > 1) reader.fail(key, fmt::format("'{}' is listed twice", label));
    const auto found = std::find_if(config.methods.begin(), config.methods.end(),
                                    [&](const MethodEntry& m) { return m.label == label; });
    if (found == config.methods.end()) {
      std::vector<std::string> variants;
      for (const MethodEntry& m : config.methods) {
        if (m.label.starts_with(label + "_")) variants.push_back(m.label);
      }
      reader.fail(key, fmt::format("'{}' is not a method label of this config{}", label,
                                   variants.empty() ? "" : fmt::format(" (its swept variants are {}: a race names them)",
                                                                       fmt::join(variants, ", "))));
    }
    entries.push_back(&*found);
  }
  return entries;
}

// Fails unless `other` minimizes the objective `first` does: the same loss, penalty and weighting, the
// same fixed model parameters and class weight.
void check_same_objective(const MethodEntry& first, const MethodEntry& other, const Reader& reader, const std::string& key) {
  const models::MethodInfo& a = models::find_method(first.name);
  const models::MethodInfo& b = models::find_method(other.name);
  if (a.loss != b.loss || a.penalty != b.penalty || a.weighting != b.weighting) {
    reader.fail(key, fmt::format("'{}' ({} loss, {} penalty, {} weighting) and '{}' ({} loss, {} penalty, {} weighting) do "
                                 "not minimize one objective (loss, penalty and weighting must agree)",
                                 first.label, a.loss, a.penalty, models::to_string(a.weighting), other.label, b.loss,
                                 b.penalty, models::to_string(b.weighting)));
  }
  const auto weight_text = [](const MethodEntry& m) { return m.class_weight ? m.class_weight->to_string() : ""; };
  if (model_parameters(first) != model_parameters(other) || weight_text(first) != weight_text(other)) {
    reader.fail(key, fmt::format("'{}' and '{}' fix different model parameters or class weights: a race needs one "
                                 "objective", first.label, other.label));
  }
}

void check_race(const YAML::Node& entry, FigureSpec& figure, const ExperimentConfig& config, const Reader& reader,
                const std::string& key) {
  if (entry["metric"] || entry["x"] || entry["as_error"]) reader.fail(key, "a race figure takes no metric, x or as_error");
  if (!entry["methods"]) reader.fail(key, "a race figure needs methods: [label, label, ...] that share one objective");
  figure.methods = reader.strings(entry["methods"], key + ".methods");
  if (figure.methods.size() < 2) reader.fail(key + ".methods", "a race needs at least two method labels");
  const std::vector<const MethodEntry*> entries = race_entries(figure.methods, config, reader, key + ".methods");
  for (const MethodEntry* other : entries) check_same_objective(*entries.front(), *other, reader, key + ".methods");
  for (const MethodEntry* race_entry : entries) {
    const models::MethodInfo& method = models::find_method(race_entry->name);
    for (const std::string& name : tuned_parameters(config, *race_entry)) {
      const auto spec = std::find_if(method.parameters.begin(), method.parameters.end(),
                                     [&](const models::ParameterSpec& p) { return p.name == name; });
      if (spec != method.parameters.end() && spec->kind == models::ParameterKind::model && varies(config, name)) {
        reader.fail(key + ".methods", fmt::format("'{}' tunes {} over a grid, so each split may choose another value "
                                                  "than the other methods: fix it in the entry for a race",
                                                  race_entry->label, name));
      }
    }
  }
}

}  // namespace

Comparisons read_comparisons(const YAML::Node& node, const ExperimentConfig& config, const std::vector<std::string>& known,
                             std::vector<std::string>& warnings, const Reader& reader) {
  const std::string key = "tables.comparisons";
  if (!node.IsMap()) reader.fail(key, "expected a mapping: {against: LABEL, metrics: {accuracy: higher, ...}}");
  reader.check_keys(node, key, {"against", "metrics", "include_unproven"});
  Comparisons comparisons;
  comparisons.against = reader.optional<std::string>(node, key, "against", "", "a method label");
  comparisons.include_unproven = reader.optional<bool>(node, key, "include_unproven", false, "true or false");
  if (node["against"] && !has_method_label(config, comparisons.against)) {
    reader.fail(key + ".against", fmt::format("'{}' is not a method label of this config", comparisons.against));
  }
  const YAML::Node metrics = node["metrics"];
  if (!metrics || !metrics.IsMap() || metrics.size() == 0) {
    reader.fail(key + ".metrics", "expected a mapping of metric: higher | lower (which end is better)");
  }
  for (const auto& entry : metrics) {
    const std::string metric = entry.first.as<std::string>();
    const std::string better = entry.second.IsScalar() ? entry.second.as<std::string>() : "";
    if (better != "higher" && better != "lower") {
      reader.fail(key + ".metrics." + metric, "expected higher or lower (which end of the metric is better)");
    }
    if (keep_metric(metric, known, key + ".metrics." + metric, warnings, reader)) comparisons.metrics.emplace_back(metric, better == "higher");
  }
  return comparisons;
}

std::vector<FigureSpec> read_figures(const YAML::Node& node, const ExperimentConfig& config, std::vector<std::string>& warnings,
                                     const Reader& reader) {
  if (!node.IsSequence()) reader.fail("figures", "expected a list of figures");
  const std::vector<std::string> metrics = summary_metric_names(summarized_method_columns(config), config.protocol.metric);
  std::set<std::string> condition_names;  // the generator grid parameters: "d_rel" of "d_rel=5"
  for (const DatasetInstance& instance : config.datasets) {
    std::stringstream parts(instance.condition);
    for (std::string part; std::getline(parts, part, ',');) condition_names.insert(part.substr(0, part.find('=')));
  }
  std::vector<FigureSpec> figures;
  std::set<std::string> files;
  for (std::size_t k = 0; k < node.size(); ++k) {
    const std::string key = fmt::format("figures[{}]", k);
    const YAML::Node entry = node[k];
    reader.check_keys(entry, key, {"kind", "file", "title", "metric", "x", "as_error", "method", "methods", "bayes_line"});
    FigureSpec figure;
    figure.kind = reader.optional<std::string>(entry, key, "kind", "", "a figure kind");
    figure.file = reader.optional<std::string>(entry, key, "file", "", "a file name");
    figure.title = reader.optional<std::string>(entry, key, "title", "", "a title");
    figure.metric = reader.optional<std::string>(entry, key, "metric", "", "a metric name");
    figure.x = reader.optional<std::string>(entry, key, "x", "", "a generator parameter");
    figure.as_error = reader.optional<bool>(entry, key, "as_error", false, "true or false");
    figure.method = reader.optional<std::string>(entry, key, "method", "", "a method label");
    if (figure.kind != "boundary" && figure.kind != "validation_curve" && figure.kind != "race" && entry["methods"]) {
      reader.fail(key + ".methods", "only boundary, validation_curve and race figures take methods");
    }
    if (figure.kind != "boundary" && entry["bayes_line"]) {
      reader.fail(key + ".bayes_line", "only a boundary figure takes bayes_line");
    }
    if (figure.kind != "objective_trace" && figure.kind != "coefficient_path" && figure.kind != "metric_by_parameter" &&
        entry["method"]) {
      reader.fail(key + ".method", "only objective_trace, coefficient_path and metric_by_parameter figures take a method");
    }
    const bool safe = figure.file.size() > 4 && figure.file.ends_with(".png") &&
                      figure.file.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == std::string::npos;
    if (!safe) reader.fail(key + ".file", fmt::format("expected a file name like fig2.png (letters, digits, _ - .), found '{}'", figure.file));
    if (!files.insert(figure.file).second) reader.fail(key + ".file", fmt::format("'{}' is drawn twice", figure.file));
    if (figure.kind == "convergence") {
      if (!config.convergence) reader.fail(key + ".kind", "a convergence figure needs tables.convergence");
      if (entry["metric"] || entry["x"] || entry["as_error"]) reader.fail(key, "a convergence figure takes no metric, x or as_error");
    } else if (figure.kind == "metric_by_condition" || figure.kind == "metric_by_dataset") {
      if (!check_figure_metric(figure, metrics, reader, key, warnings)) continue;
      if (figure.kind == "metric_by_dataset" && entry["x"]) reader.fail(key + ".x", "a metric_by_dataset figure takes no x");
      if (figure.kind == "metric_by_condition" && !condition_names.contains(figure.x)) {
        reader.fail(key + ".x", condition_names.empty()
                                    ? fmt::format("'{}': this config has no generator grid to plot against (use "
                                                  "metric_by_dataset)", figure.x)
                                    : fmt::format("'{}' is not a generator parameter of this config (known: {})",
                                                  figure.x, fmt::join(condition_names, ", ")));
      }
    } else if (figure.kind == "objective_trace") {
      if (entry["metric"] || entry["x"] || entry["as_error"]) reader.fail(key, "an objective_trace figure takes no metric, x or as_error");
      if (!has_method_label(config, figure.method)) {
        reader.fail(key + ".method", fmt::format("'{}' is not a method label of this config", figure.method));
      }
    } else if (figure.kind == "coefficient_path") {
      if (entry["metric"] || entry["as_error"]) reader.fail(key, "a coefficient_path figure takes no metric or as_error");
      check_sweep_entries(figure.method, figure.x, config, reader, key);
    } else if (figure.kind == "metric_by_parameter") {
      if (!check_figure_metric(figure, metrics, reader, key, warnings)) continue;
      check_sweep_entries(figure.method, figure.x, config, reader, key);
    } else if (figure.kind == "validation_curve") {
      check_validation_curve(entry, figure, config, reader, key);
    } else if (figure.kind == "critical_difference") {
      if (entry["x"] || entry["as_error"]) reader.fail(key, "a critical_difference figure takes no x or as_error");
      const auto& ranked = config.comparisons.metrics;
      if (!keep_metric(figure.metric, metrics, key + ".metric", warnings, reader)) continue;
      if (std::none_of(ranked.begin(), ranked.end(), [&](const auto& m) { return m.first == figure.metric; })) {
        reader.fail(key + ".metric", fmt::format("'{}' is not ranked: a critical_difference figure draws a metric of "
                                                 "tables.comparisons.metrics", figure.metric));
      }
    } else if (figure.kind == "race") {
      check_race(entry, figure, config, reader, key);
    } else if (figure.kind == "boundary") {
      if (entry["metric"] || entry["x"] || entry["as_error"]) reader.fail(key, "a boundary figure takes no metric, x or as_error");
      if (!entry["methods"]) reader.fail(key, "a boundary figure needs methods: [label, ...]");
      figure.methods = reader.strings(entry["methods"], key + ".methods");
      if (figure.methods.empty()) reader.fail(key + ".methods", "expected at least one method label");
      if (entry["bayes_line"]) {
        figure.bayes_line = reader.numbers(entry["bayes_line"], key + ".bayes_line");
        if (figure.bayes_line.size() != 3 || (figure.bayes_line[0] == 0.0 && figure.bayes_line[1] == 0.0)) {
          reader.fail(key + ".bayes_line", "expected [w1, w2, b] of a line w1 x1 + w2 x2 + b = 0 (w1, w2 not both 0)");
        }
      }
      for (const std::string& label : figure.methods) {
        if (!has_method_label(config, label)) {
          reader.fail(key + ".methods", fmt::format("'{}' is not a method label of this config", label));
        }
      }
    } else {
      reader.fail(key + ".kind", fmt::format("unknown figure kind '{}' (known: boundary, coefficient_path, convergence, "
                                             "critical_difference, metric_by_condition, metric_by_dataset, "
                                             "metric_by_parameter, objective_trace, race, validation_curve)", figure.kind));
    }
    figures.push_back(std::move(figure));
  }
  return figures;
}

namespace {

// tables.published_left_out: [{dataset, condition}, ...], data set instances the run leaves out on purpose.
std::vector<DatasetKey> read_published_left_out(const YAML::Node& list, const Reader& reader) {
  const std::string key = "tables.published_left_out";
  if (!list.IsSequence()) reader.fail(key, "expected a list of {dataset: NAME, condition: CONDITION}");
  std::vector<DatasetKey> left_out;
  for (std::size_t k = 0; k < list.size(); ++k) {
    const std::string entry_key = fmt::format("{}[{}]", key, k);
    reader.check_keys(list[k], entry_key, {"dataset", "condition"});
    if (!list[k]["dataset"]) reader.fail(entry_key, "expected a dataset");
    DatasetKey entry{reader.scalar<std::string>(list[k]["dataset"], entry_key + ".dataset", "a data set name"),
                     reader.optional<std::string>(list[k], entry_key, "condition", "", "a condition")};
    if (std::find(left_out.begin(), left_out.end(), entry) != left_out.end()) {
      reader.fail(entry_key, fmt::format("data set '{}' with condition '{}' is listed twice", entry.dataset, entry.condition));
    }
    left_out.push_back(std::move(entry));
  }
  return left_out;
}

}  // namespace

void read_published_cells(YAML::Node tables, const std::string& config_dir, const Reader& reader, ExperimentConfig& config) {
  std::filesystem::path file = reader.scalar<std::string>(tables["published"], "tables.published", "a path");
  if (file.empty()) reader.fail("tables.published", "expected the path of a CSV of published cells, found ''");
  // Beside the config, unless the path names a file from the working directory.
  std::error_code error;
  if (file.is_relative() && !std::filesystem::exists(file, error)) file = std::filesystem::path(config_dir) / file;
  config.published_file = std::filesystem::absolute(file).lexically_normal().string();
  tables["published"] = config.published_file;  // the run directory's config.yaml finds it from anywhere
  try {
    config.published = read_published(config.published_file);
  } catch (const core::InputError& failure) {
    reader.fail("tables.published", failure.what());
  }
  if (const YAML::Node left_out = tables["published_left_out"]) {
    config.published_left_out = read_published_left_out(left_out, reader);
    for (std::size_t k = 0; k < config.published_left_out.size(); ++k) {
      const DatasetKey& entry = config.published_left_out[k];
      const auto names_it = [&](const PublishedCell& cell) { return DatasetKey{cell.dataset, cell.condition} == entry; };
      if (find_instance(config, entry.dataset, entry.condition) != nullptr) {
        reader.fail(fmt::format("tables.published_left_out[{}]", k),
                    fmt::format("data set '{}' with condition '{}' is run by this config", entry.dataset, entry.condition));
      }
      if (std::none_of(config.published.begin(), config.published.end(), names_it)) {
        reader.fail(fmt::format("tables.published_left_out[{}]", k),
                    fmt::format("no published cell names data set '{}' with condition '{}'", entry.dataset, entry.condition));
      }
    }
  }
  const std::vector<std::string> metrics = summary_metric_names(summarized_method_columns(config), config.protocol.metric);
  for (const PublishedCell& cell : config.published) {
    if (cell.not_run()) continue;  // listed only: its data is not offline
    const std::string where = fmt::format("{}: line {}", config.published_file, cell.line);
    // A data set listed in published_left_out (a reference run of part of a table) makes its cells not_run.
    if (find_instance(config, cell.dataset, cell.condition) == nullptr &&
        !is_published_left_out(config, cell.dataset, cell.condition)) {
      reader.fail("tables.published", fmt::format("{}: no data set '{}' with condition '{}' in this config (one "
                                                  "left out on purpose goes in tables.published_left_out)", where,
                                                  cell.dataset, cell.condition));
    }
    // A label the config lacks is not checked here: an override may drop methods or sweep values (a
    // reference run of part of a table), and those cells are then not_run. The committed configs are
    // checked to name only their own labels (config_test).
    // A cell of a method the run lacks may name a metric only that method reports (it is not_run).
    const bool not_this_runs = !has_method_label(config, cell.method) && reported_by_some_method(cell.metric);
    if (std::find(metrics.begin(), metrics.end(), cell.metric) == metrics.end() && !not_this_runs) {
      reader.fail("tables.published", fmt::format("{}: unknown metric '{}' (known: {})", where, cell.metric, fmt::join(metrics, ", ")));
    }
  }
}

}  // namespace sparsesvm::experiment::config_detail
