#include "experiment/config.hpp"
#include "experiment/config_reader.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "core/errors.hpp"
#include "experiment/csv.hpp"
#include "experiment/metrics.hpp"
#include "experiment/yaml_guard.hpp"
#include "models/algorithms/algorithm.hpp"
#include "models/methods.hpp"

namespace sparsesvm::experiment {

using namespace config_detail;

bool has_method_label(const ExperimentConfig& config, const std::string& label) {
  return std::any_of(config.methods.begin(), config.methods.end(), [&](const MethodEntry& m) { return m.label == label; });
}

const DatasetInstance* find_instance(const ExperimentConfig& config, const std::string& name, const std::string& condition) {
  const auto found = std::find_if(config.datasets.begin(), config.datasets.end(), [&](const DatasetInstance& instance) {
    return instance.name == name && instance.condition == condition;
  });
  return found == config.datasets.end() ? nullptr : &*found;
}

bool is_published_left_out(const ExperimentConfig& config, const std::string& name, const std::string& condition) {
  const auto& left_out = config.published_left_out;
  return std::find(left_out.begin(), left_out.end(), DatasetKey{name, condition}) != left_out.end();
}

bool rows_keep_weights(const ExperimentConfig& config) {
  return std::any_of(config.figures.begin(), config.figures.end(), [](const FigureSpec& figure) {
    return figure.kind == "coefficient_path" || figure.kind == "boundary";
  });
}

models::ClassWeight effective_class_weight(const MethodEntry& entry, const DatasetInstance& instance) {
  return entry.class_weight ? *entry.class_weight : instance.class_weight;
}

bool uses_class_weights(const ExperimentConfig& config) {
  return std::any_of(config.datasets.begin(), config.datasets.end(), [](const DatasetInstance& d) { return !d.class_weight.is_none(); }) ||
         std::any_of(config.methods.begin(), config.methods.end(), [](const MethodEntry& m) { return m.class_weight.has_value(); });
}

std::vector<std::string> tuned_parameters(const ExperimentConfig& config, const MethodEntry& entry) {
  std::vector<std::string> tuned;
  for (const models::ParameterSpec& spec : models::find_method(entry.name).parameters) {
    if (config.grid.contains(spec.name) && !entry.fixed.contains(spec.name)) tuned.push_back(spec.name);
  }
  return tuned;
}

std::vector<std::string> parameter_columns(const ExperimentConfig& config) {
  std::vector<std::string> columns;
  for (const MethodEntry& entry : config.methods) {
    for (const models::ParameterSpec& spec : models::find_method(entry.name).parameters) {
      if (spec.kind == models::ParameterKind::model &&
          std::find(columns.begin(), columns.end(), spec.name) == columns.end()) {
        columns.push_back(spec.name);
      }
    }
  }
  return columns;
}

std::vector<std::string> summarized_method_columns(const ExperimentConfig& config) {
  std::vector<std::string> columns = parameter_columns(config);
  for (const MethodEntry& entry : config.methods) {
    for (const std::string& name : models::find_algorithm(models::find_method(entry.name).algorithm).statistic_names()) {
      if (std::find(columns.begin(), columns.end(), name) == columns.end()) columns.push_back(name);
    }
  }
  return columns;
}

ExperimentConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
  Reader reader(path);
  YAML::Node root;
  try {
    const std::string text = read_whole_file(path);  // a FIFO is refused, not opened
    check_yaml_text(text, path);
    const std::vector<YAML::Node> documents = YAML::LoadAll(text);
    if (documents.size() != 1) {
      throw ConfigError(fmt::format("{}: holds {} YAML documents; a config is exactly one", path, documents.size()));
    }
    root = documents.front();
  } catch (const YAML::ParserException& error) {
    throw ConfigError(fmt::format("{}:{}:{}: YAML syntax error: {}", path, error.mark.line + 1, error.mark.column + 1,
                                  error.msg));
  }
  if (!root.IsMap()) throw ConfigError(fmt::format("{}: the config must be a YAML mapping", path));
  check_tree(root, reader);
  for (const std::string& item : overrides) {
    apply_override(root, item, reader);
    reader.remember_override(item);
  }
  check_tree(root, reader);  // what the overrides set, too
  reader.check_keys(root, "", {"name", "description", "seed", "datasets", "methods", "sweep", "grid", "protocol", "tables", "figures",
                               "keep"});

  ExperimentConfig config;
  config.path = path;
  config.overrides = overrides;
  config.name = reader.optional<std::string>(root, "", "name", std::filesystem::path(path).stem().string(), "a string");
  if (!is_file_safe(config.name)) {
    reader.fail("name", fmt::format("'{}': use letters, digits and . _ - =, beginning with a letter or digit (it names the run directory)", config.name));
  }
  config.seed = reader.optional<std::uint64_t>(root, "", "seed", 1, "a non-negative integer");
  const std::string config_dir = std::filesystem::path(path).parent_path().string();

  const YAML::Node datasets = root["datasets"];
  if (!datasets || !datasets.IsSequence() || datasets.size() == 0) reader.fail("datasets", "expected a non-empty list");
  std::map<std::string, std::size_t> entry_of_name;
  for (std::size_t k = 0; k < datasets.size(); ++k) {
    std::vector<DatasetInstance> instances = read_dataset(datasets[k], fmt::format("datasets[{}]", k), reader, config_dir);
    if (const auto [found, added] = entry_of_name.try_emplace(instances.front().name, k); !added) {
      reader.fail(fmt::format("datasets[{}].name", k), fmt::format("'{}' is also datasets[{}]; names must differ",
                                                                 instances.front().name, found->second));
    }
    for (DatasetInstance& instance : instances) {
      config.datasets.push_back(std::move(instance));
    }
  }
  const YAML::Node methods = root["methods"];
  if (!methods || !methods.IsSequence() || methods.size() == 0) reader.fail("methods", "expected a non-empty list");
  for (std::size_t k = 0; k < methods.size(); ++k) {
    config.methods.push_back(read_method(methods[k], fmt::format("methods[{}]", k), reader));
  }
  check_unique_labels(config.methods, reader);
  if (const YAML::Node sweep = root["sweep"]) {
    config.methods = expand_sweep(config.methods, sweep, reader);
    check_labels_after_sweep(config.methods, reader);
  }
  if (const YAML::Node grid = root["grid"]) {
    if (!grid.IsMap()) reader.fail("grid", "expected a mapping of parameter: [values]");
    for (const auto& entry : grid) {
      const std::string name = entry.first.as<std::string>();
      config.grid[name] = reader.grid_values(entry.second, "grid." + name);
      check_distinct(config.grid[name], "grid." + name, reader);
    }
  }
  config.protocol = read_protocol(root["protocol"], reader);
  check_grid(config, reader);  // after the protocol: a grid may serve only a start tuned on the tune part
  check_selection(config, reader);
  check_datasets(config, reader);
  check_method_grids(config, reader);
  check_class_weights(config, reader);
  config.table_metrics = {"accuracy", "n_features", "frac_sv"};
  if (const YAML::Node tables = root["tables"]) {
    reader.check_keys(tables, "tables", {"metrics", "paired_test", "comparisons", "convergence", "objective_ratio", "published",
                                           "published_left_out"});
    if (tables["metrics"]) config.table_metrics = reader.strings(tables["metrics"], "tables.metrics");
    const std::vector<std::string> known = summary_metric_names(summarized_method_columns(config), config.protocol.metric);
    std::vector<std::string> tabulated;
    for (std::size_t k = 0; k < config.table_metrics.size(); ++k) {
      const std::string& metric = config.table_metrics[k];
      if (keep_metric(metric, known, fmt::format("tables.metrics[{}]", k), config.warnings, reader)) tabulated.push_back(metric);
    }
    config.table_metrics = tabulated;
    if (tables["paired_test"]) {
      config.paired_test = reader.strings(tables["paired_test"], "tables.paired_test");
      if (config.paired_test.size() != 2) reader.fail("tables.paired_test", "expected exactly two method labels");
      for (std::size_t k = 0; k < 2; ++k) {
        const std::string& label = config.paired_test[k];
        if (!has_method_label(config, label)) {
          reader.fail(fmt::format("tables.paired_test[{}]", k), fmt::format("'{}' is not a method of this config", label));
        }
      }
    }
    if (const YAML::Node comparisons = tables["comparisons"]) {
      config.comparisons = read_comparisons(comparisons, config, known, config.warnings, reader);
    }
    if (const YAML::Node convergence = tables["convergence"]) config.convergence = read_convergence(convergence, config, reader);
    if (const YAML::Node ratios = tables["objective_ratio"]) config.objective_ratios = read_objective_ratios(ratios, config, reader);
    if (tables["published"]) {
      read_published_cells(tables, config_dir, reader, config);
    } else if (tables["published_left_out"]) {
      reader.fail("tables.published_left_out", "lists data sets of published cells, but tables.published names no cells");
    }
  }
  if (const YAML::Node figures = root["figures"]) config.figures = read_figures(figures, config, config.warnings, reader);
  if (root["keep"]) {
    const std::vector<std::string> kept = reader.strings(root["keep"], "keep");
    for (std::size_t k = 0; k < kept.size(); ++k) {
      if (kept[k] != "weights") reader.fail(fmt::format("keep[{}]", k), fmt::format("unknown output '{}' (known: weights)", kept[k]));
    }
    config.keep_weights = !kept.empty();
  }
  YAML::Emitter emitter;
  emitter << root;
  config.resolved_yaml = emitter.c_str();
  return config;
}

}  // namespace sparsesvm::experiment
