#include "experiment/config_reader.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>
#include <yaml-cpp/yaml.h>

#include "core/errors.hpp"
#include "models/methods.hpp"

namespace sparsesvm::experiment::config_detail {

MethodEntry read_method(const YAML::Node& node, const std::string& key, const Reader& reader) {
  MethodEntry entry;
  if (node.IsScalar()) {
    entry.name = node.as<std::string>();
  } else {
    if (!node.IsMap() || !node["name"]) {
      reader.fail(key, "expected a method name or {name: ..., label: ..., <parameter>: value}");
    }
    for (const auto& item : node) {
      const std::string field = item.first.as<std::string>();
      if (field == "name") {
        entry.name = reader.scalar<std::string>(item.second, Reader::join(key, "name"), "a method name");
      } else if (field == "label") {
        entry.label = reader.scalar<std::string>(item.second, Reader::join(key, "label"), "a label");
      } else if (field == "class_weight") {
        entry.class_weight = read_class_weight(item.second, Reader::join(key, "class_weight"), reader);
      }
    }
    const auto& registry = models::method_registry();
    const auto method = std::find_if(registry.begin(), registry.end(), [&](const auto& m) { return m.name == entry.name; });
    for (const auto& item : node) {  // parameters, once the method (and so each one's spec) is known
      const std::string field = item.first.as<std::string>();
      if (field == "name" || field == "label" || field == "class_weight") continue;
      const models::ParameterSpec* spec = method != registry.end() ? models::find_parameter(method->parameters, field)
                                                                   : models::registry_parameter(field);
      entry.fixed[field] = reader.parameter_value(item.second, Reader::join(key, field), spec);
    }
  }
  if (entry.label.empty()) entry.label = entry.name;
  try {
    models::resolve_hyperparameters(models::find_method(entry.name), entry.fixed);
  } catch (const core::InputError& error) {
    reader.fail(key, error.what());
  }
  if (entry.class_weight && !entry.class_weight->is_none()) {
    const std::string refusal = models::class_weight_refusal(models::find_method(entry.name));
    if (!refusal.empty()) reader.fail(Reader::join(key, "class_weight"), refusal);
  }
  return entry;
}

std::vector<MethodEntry> expand_sweep(const std::vector<MethodEntry>& methods, const YAML::Node& sweep,
                                      const Reader& reader) {
  if (!sweep.IsMap() || sweep.size() == 0) reader.fail("sweep", "expected a mapping of parameter: [values]");
  std::vector<MethodEntry> expanded = methods;
  for (const auto& item : sweep) {
    const std::string name = item.first.as<std::string>();
    const std::string key = "sweep." + name;
    const models::ParameterSpec* spec = models::registry_parameter(name);
    if (!item.second.IsSequence() || item.second.size() == 0) reader.fail(key, "expected a non-empty list of values");
    std::vector<double> values;
    for (std::size_t k = 0; k < item.second.size(); ++k) {
      values.push_back(reader.parameter_value(item.second[k], fmt::format("{}[{}]", key, k), spec));
    }
    check_distinct(values, key, reader);
    const auto takers = static_cast<std::size_t>(std::count_if(expanded.begin(), expanded.end(), [&](const MethodEntry& entry) {
      return models::find_parameter(models::find_method(entry.name).parameters, name) != nullptr;
    }));
    if (expanded.size() - takers + takers * values.size() > kMaxCombinations) {
      reader.fail(key, fmt::format("more than {} method entries after the sweep", kMaxCombinations));
    }
    std::vector<MethodEntry> next;
    bool taken = false;
    for (const MethodEntry& entry : expanded) {
      const models::MethodInfo& method = models::find_method(entry.name);
      if (!models::find_parameter(method.parameters, name)) {
        next.push_back(entry);
        continue;
      }
      if (entry.fixed.contains(name)) {
        reader.fail(key, fmt::format("method {} fixes {} itself; remove it there or from the sweep", entry.label, name));
      }
      taken = true;
      for (std::size_t k = 0; k < values.size(); ++k) {
        MethodEntry variant = entry;
        variant.fixed[name] = values[k];
        // RLSVM0_a2; a choice by its name: RLSVM0_lp_form_generation
        variant.label = spec && spec->is_choice() ? fmt::format("{}_{}_{}", entry.label, name, spec->format(values[k]))
                                                  : fmt::format("{}_{}{}", entry.label, name, values[k]);
        try {
          models::resolve_hyperparameters(method, variant.fixed);
        } catch (const core::InputError& error) {
          reader.fail(fmt::format("{}[{}]", key, k), error.what());
        }
        next.push_back(std::move(variant));
      }
    }
    if (!taken) reader.fail(key, fmt::format("no method of this config takes a parameter '{}'", name));
    expanded = std::move(next);
  }
  return expanded;
}

void check_unique_labels(const std::vector<MethodEntry>& methods, const Reader& reader) {
  for (std::size_t k = 0; k < methods.size(); ++k) {
    if (!is_file_safe(methods[k].label)) {
      reader.fail(fmt::format("methods[{}].label", k),
                  fmt::format("'{}': use letters, digits and . _ - =, beginning with a letter or digit (labels name "
                              "task files)", methods[k].label));
    }
    for (std::size_t j = 0; j < k; ++j) {
      if (methods[j].label == methods[k].label) {
        reader.fail(fmt::format("methods[{}]", k),
                    fmt::format("'{}' is also methods[{}]; give the variants distinct labels, e.g. "
                                "{{name: {}, label: {}_2, ...}}",
                                methods[k].label, j, methods[k].name, methods[k].name));
      }
    }
  }
}

void check_labels_after_sweep(const std::vector<MethodEntry>& methods, const Reader& reader) {
  std::set<std::string> seen;
  for (const MethodEntry& entry : methods) {
    if (!seen.insert(entry.label).second) {
      reader.fail("sweep", fmt::format("the sweep makes the label '{}', which another method entry has; relabel "
                                       "that entry", entry.label));
    }
  }
}

namespace {

// Every grid key is tuned by some method of the run (a method that fixes it does not tune it), and
// every value is admissible for each method that tunes it (the method's parameter table says the range).
// Whether some method tunes `name`; fails at `key`[k] on a value one of them does not admit.
bool check_grid_values(const ExperimentConfig& config, const std::string& name, const std::vector<double>& values,
                       const std::string& key, const Reader& reader) {
  bool used = false;
  for (const MethodEntry& entry : config.methods) {
    const models::ParameterSpec* spec = models::find_parameter(models::find_method(entry.name).parameters, name);
    if (!spec || entry.fixed.contains(name)) continue;
    used = true;
    for (std::size_t k = 0; k < values.size(); ++k) {
      if (const std::string problem = spec->check(values[k]); !problem.empty()) {
        reader.fail(fmt::format("{}[{}]", key, k), fmt::format("method {}: {}", entry.label, problem));
      }
    }
  }
  return used;
}

}  // namespace

void check_method_grids(const ExperimentConfig& config, const Reader& reader) {
  for (const DatasetInstance& instance : config.datasets) {
    for (const auto& [name, values] : instance.method_grid) {
      const std::string key = fmt::format("{}.method_grid.{}", instance.key, name);
      const auto top = config.grid.find(name);
      if (top == config.grid.end()) reader.fail(key, "not a parameter of the top-level grid");
      if ((values.size() > 1) != (top->second.size() > 1)) {
        reader.fail(key, fmt::format("gives {} value(s) where grid.{} gives {}: vary a parameter in both or in neither",
                                     values.size(), name, top->second.size()));
      }
      check_grid_values(config, name, values, key, reader);
    }
  }
}

namespace {

// Whether an entry's start is tuned over grid key `name` on the tune part ([PSI] 3.2's best-tuned SVM for
// PSI-1r and PSI-2r, methods.hpp); fails at grid.`name`[k] on a value the start does not admit.
bool tunes_a_start(const ExperimentConfig& config, const std::string& name, const std::vector<double>& values,
                   const Reader& reader) {
  if (config.protocol.inner != Inner::tuning_set || config.protocol.tune_size == 0) return false;
  bool used = false;
  for (const MethodEntry& entry : config.methods) {
    const models::MethodInfo& method = models::find_method(entry.name);
    if (!method.start_tuned) continue;
    const models::ParameterSpec* spec = models::find_parameter(models::find_method(method.start).parameters, name);
    if (!spec) continue;
    used = true;
    for (std::size_t k = 0; k < values.size(); ++k) {
      if (const std::string problem = spec->check(values[k]); !problem.empty()) {
        reader.fail(fmt::format("grid.{}[{}]", name, k), fmt::format("{} (the start {} of {})", problem, method.start, entry.label));
      }
    }
  }
  return used;
}

}  // namespace

void check_grid(const ExperimentConfig& config, const Reader& reader) {
  for (const auto& [name, values] : config.grid) {
    const bool used = check_grid_values(config, name, values, "grid." + name, reader);
    if (!used && !tunes_a_start(config, name, values, reader)) {
      reader.fail("grid." + name, "no method of this config tunes this parameter (none takes it, or every one that "
                                  "does fixes it; see sparsesvm describe METHOD)");
    }
  }
}

void check_selection(const ExperimentConfig& config, const Reader& reader) {
  if (config.protocol.near_zero_norm > 0 && config.protocol.inner == Inner::none) {
    reader.fail("protocol.selection.near_zero_norm", "scores inner selection, and protocol.inner.type is none");
  }
  // A near-zero model scores as a coin: 0.5 under accuracy, error rate, balanced accuracy and ROC AUC; a coin's
  // F1 depends on the class balance, and 0.5 would reward w = 0 (which predicts no +1: F1 0).
  if (config.protocol.near_zero_norm > 0 && config.protocol.metric == models::Metric::f1) {
    reader.fail("protocol.selection.near_zero_norm", "scores a near-zero model as a coin (0.5), which f1 has no "
                                                     "value for; use another protocol.inner.metric or leave it out");
  }
  for (std::size_t k = 0; k < config.methods.size(); ++k) {
    const std::vector<std::string> tuned = tuned_parameters(config, config.methods[k]);
    for (const std::string& name : tuned) {
      if (config.protocol.inner == Inner::none && config.grid.at(name).size() > 1) {
        reader.fail("grid." + name, fmt::format("{} values but protocol.inner.type is none: method {} would take "
                                                "the first silently; give one value or an inner selection",
                                                config.grid.at(name).size(), config.methods[k].label));
      }
    }
    std::vector<std::string> varied;
    for (const std::string& name : tuned) {
      if (config.grid.at(name).size() > 1) varied.push_back(name);
    }
    if (config.protocol.outer == Outer::train_tune_test && config.protocol.tune_size == 0 && !varied.empty()) {
      reader.fail("protocol.outer.tune", fmt::format("0 leaves nothing to select on, and method {} tunes {}",
                                                     config.methods[k].label, fmt::join(varied, ", ")));
    }
    if (config.protocol.selection == models::SelectionRule::median_of_best && varied.size() > 1) {
      reader.fail("protocol.selection.rule", fmt::format("median_of_best takes one tuned parameter; method {} tunes {}",
                                                         config.methods[k].label, fmt::join(varied, ", ")));
    }
  }
}

}  // namespace sparsesvm::experiment::config_detail
