#include "experiment/config_reader.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>
#include <yaml-cpp/yaml.h>

#include "core/errors.hpp"
#include "data/generators/generator_registry.hpp"
#include "data/transforms.hpp"
#include "models/methods.hpp"

namespace sparsesvm::experiment::config_detail {

namespace {

// "noise_dims=10,flip_fraction=0.1" for every combination of the grid's values, in the listed order.
std::vector<std::vector<std::pair<std::string, std::string>>> grid_combinations(const YAML::Node& grid,
                                                                               const std::string& key,
                                                                               const Reader& reader) {
  std::vector<std::vector<std::pair<std::string, std::string>>> combinations = {{}};
  if (!grid) return combinations;
  if (!grid.IsMap()) reader.fail(key, "expected a mapping of parameter: [values]");
  std::size_t count = 1;
  for (const auto& entry : grid) {
    count *= entry.second.IsSequence() ? std::max<std::size_t>(entry.second.size(), 1) : 1;
    if (count > kMaxCombinations) {
      reader.fail(key, fmt::format("more than {} combinations of values (conditions); split the data set", kMaxCombinations));
    }
  }
  for (const auto& entry : grid) {
    const std::string name = entry.first.as<std::string>();
    if (!entry.second.IsSequence() || entry.second.size() == 0) reader.fail(Reader::join(key, name), "expected a non-empty list");
    // Values go into a generator spec "name:key=value,...": a ',' '=' or ':' would add parameters, and
    // two spellings of one number (2 and 2.0) would be two conditions on the same data.
    std::vector<std::string> values;
    std::set<double> numbers;
    for (std::size_t k = 0; k < entry.second.size(); ++k) {
      const std::string item = fmt::format("{}.{}[{}]", key, name, k);
      const std::string value = reader.scalar<std::string>(entry.second[k], item, "a value");
      if (value.empty() || value.find_first_of(",=: \t") != std::string::npos) {
        reader.fail(item, fmt::format("'{}': expected a plain value (no , = : or spaces)", value));
      }
      double number = 0.0;
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
      const bool numeric = error == std::errc() && end == value.data() + value.size();
      if ((numeric && !numbers.insert(number).second) || std::find(values.begin(), values.end(), value) != values.end()) {
        reader.fail(item, fmt::format("'{}' repeats an earlier value of {}", value, name));
      }
      values.push_back(value);
    }
    std::vector<std::vector<std::pair<std::string, std::string>>> expanded;
    for (const auto& partial : combinations) {
      for (const std::string& value : values) {
        auto combination = partial;
        combination.emplace_back(name, value);
        expanded.push_back(std::move(combination));
      }
    }
    combinations = std::move(expanded);
  }
  return combinations;
}

}  // namespace

namespace {

std::string spec_of(const std::string& generator, const std::vector<std::pair<std::string, std::string>>& values) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : values) parts.push_back(name + "=" + value);
  return parts.empty() ? generator : generator + ":" + fmt::format("{}", fmt::join(parts, ","));
}

}  // namespace

models::ClassWeight read_class_weight(const YAML::Node& node, const std::string& key, const Reader& reader) {
  std::string text;
  if (node.IsMap()) {
    reader.check_keys(node, key, {"positive", "negative"});
    std::vector<std::string> parts;
    for (const char* side : {"positive", "negative"}) {
      if (node[side]) parts.push_back(fmt::format("{}={}", side, reader.scalar<std::string>(node[side], Reader::join(key, side), "a number")));
    }
    text = fmt::format("{}", fmt::join(parts, ","));
  } else {
    text = reader.scalar<std::string>(node, key, "none, balanced or {positive: P, negative: N}");
  }
  try {
    return models::ClassWeight::parse(text, "");
  } catch (const core::InputError& error) {
    reader.fail(key, error.what());
  }
}

void check_class_weights(const ExperimentConfig& config, const Reader& reader) {
  for (const DatasetInstance& instance : config.datasets) {
    if (instance.class_weight.is_none()) continue;
    for (const MethodEntry& entry : config.methods) {
      const std::string refusal = models::class_weight_refusal(models::find_method(entry.name));
      if (!entry.class_weight && !refusal.empty()) {
        reader.fail(Reader::join(instance.key, "class_weight"),
                    fmt::format("{}; give {} `class_weight: none` in methods", refusal, entry.label));
      }
    }
  }
}

std::vector<DatasetInstance> read_dataset(const YAML::Node& node, const std::string& key, const Reader& reader,
                                          const std::string& config_dir) {
  reader.check_keys(node, key, {"name", "generator", "params", "grid", "file", "format", "loader", "transforms", "fetch",
                                "method_grid", "class_weight"});
  const std::string name = reader.optional<std::string>(node, key, "name", "", "a string");
  if (name.empty()) reader.fail(Reader::join(key, "name"), "every data set needs a name");
  std::map<std::string, std::vector<double>> method_grid;
  if (const YAML::Node grid = node["method_grid"]) {
    if (!grid.IsMap()) reader.fail(Reader::join(key, "method_grid"), "expected a mapping of parameter: [values]");
    for (const auto& entry : grid) {
      const std::string parameter = entry.first.as<std::string>();
      method_grid[parameter] = reader.grid_values(entry.second, fmt::format("{}.method_grid.{}", key, parameter));
      check_distinct(method_grid[parameter], fmt::format("{}.method_grid.{}", key, parameter), reader);
    }
  }
  const models::ClassWeight class_weight =
      node["class_weight"] ? read_class_weight(node["class_weight"], Reader::join(key, "class_weight"), reader) : models::ClassWeight{};
  std::vector<std::string> transforms;
  if (node["transforms"]) transforms = reader.strings(node["transforms"], Reader::join(key, "transforms"));
  for (std::size_t k = 0; k < transforms.size(); ++k) {
    try {
      data::make_transform(transforms[k]);
    } catch (const core::InputError& error) {
      reader.fail(fmt::format("{}.transforms[{}]", key, k), error.what());
    }
  }
  std::vector<DatasetInstance> instances;
  if (node["generator"]) {
    if (node["file"]) reader.fail(key, "give either generator or file, not both");
    for (const char* file_only : {"loader", "format", "fetch"}) {
      if (node[file_only]) reader.fail(Reader::join(key, file_only), "applies to files only, not to a generator");
    }
    const std::string generator = reader.scalar<std::string>(node["generator"], Reader::join(key, "generator"), "a name");
    std::vector<std::pair<std::string, std::string>> fixed;
    if (const YAML::Node params = node["params"]) {
      if (!params.IsMap()) reader.fail(Reader::join(key, "params"), "expected a mapping");
      for (const auto& entry : params) {
        const std::string param = entry.first.as<std::string>();
        fixed.emplace_back(param, reader.scalar<std::string>(entry.second, fmt::format("{}.params.{}", key, param), "a value"));
      }
    }
    for (const auto& combination : grid_combinations(node["grid"], Reader::join(key, "grid"), reader)) {
      auto values = fixed;
      values.insert(values.end(), combination.begin(), combination.end());
      DatasetInstance instance{name, "", {spec_of(generator, values), "generator", {}}, generator, {}, transforms, "",
                               method_grid, key, 0, {}, class_weight};
      for (const auto& [param, value] : values) instance.generator_parameters[param] = value;
      std::vector<std::string> condition;
      for (const auto& [param, value] : combination) condition.push_back(param + "=" + value);
      instance.condition = fmt::format("{}", fmt::join(condition, ","));
      try {  // catch unknown generators and parameters now, not in the middle of a run
        instance.examples = data::generated_examples(instance.source.location);
        instance.content = data::source_content(instance.source);
      } catch (const core::InputError& error) {
        reader.fail(key, error.what());
      }
      instances.push_back(std::move(instance));
    }
    return instances;
  }
  if (!node["file"]) reader.fail(key, "give a generator or a file");
  if (node["grid"] || node["params"]) reader.fail(key, "grid and params apply to generators only");
  std::string file = reader.scalar<std::string>(node["file"], Reader::join(key, "file"), "a path");
  // Without throwing: a path the OS refuses (too long, say) is a file that is not present.
  const auto exists = [](const std::filesystem::path& path) {
    std::error_code error;
    return std::filesystem::exists(path, error);
  };
  // Relative paths are relative to the working directory (the repository root), else to the config's folder
  // or the nearest folder above it that has the file: configs/ong2010/uci.yaml finds datasets/wdbc.csv from
  // any directory, in a checkout and in an installed share/sparsesvm alike.
  std::error_code no_folder;
  const std::filesystem::path config_folder = std::filesystem::absolute(config_dir.empty() ? "." : config_dir, no_folder);
  if (!exists(file) && !no_folder) {
    for (std::filesystem::path folder = config_folder;; folder = folder.parent_path()) {
      if (exists(folder / file)) {
        file = (folder / file).string();
        break;
      }
      if (folder == folder.parent_path()) break;
    }
  }
  // A path found is stored absolute, also in the resolved config a run directory keeps, so that
  // `collect` finds the data (it identifies tasks by the data's content) from any directory.
  const std::filesystem::path found_at = std::filesystem::path(file);
  std::error_code not_a_directory;
  if (exists(found_at) || std::filesystem::is_directory(found_at.parent_path(), not_a_directory)) {
    file = std::filesystem::absolute(found_at).lexically_normal().string();
    YAML::Node writable = node;
    writable["file"] = file;
  }
  DatasetInstance instance{name, "", {file, reader.optional<std::string>(node, key, "format", "auto", "a format"), {}},
                           "", {}, transforms, "", method_grid, key, 0, {}, class_weight};
  if (const YAML::Node loader = node["loader"]) {
    if (!loader.IsMap()) reader.fail(Reader::join(key, "loader"), "expected a mapping of loader options");
    for (const auto& entry : loader) {
      const std::string option = entry.first.as<std::string>();
      instance.source.options[option] = reader.scalar<std::string>(entry.second, fmt::format("{}.loader.{}", key, option), "a value");
    }
  }
  const bool present = instance.source.format == "nips2003"
                           ? exists(std::filesystem::path(file).parent_path())
                           : exists(file);
  if (!present) {
    instance.missing_hint = fmt::format("{}: not present; {}", file,
                                        reader.optional<std::string>(node, key, "fetch", "see datasets/README.md", "a string"));
  } else {
    try {
      instance.content = data::source_content(instance.source);
    } catch (const core::InputError& error) {
      reader.fail(Reader::join(key, "file"), error.what());
    }
  }
  instances.push_back(std::move(instance));
  return instances;
}

namespace {

// The protocol's parts of a generated set of n examples are not empty (files: checked when a task runs).
void check_sizes(const Protocol& protocol, const DatasetInstance& instance, const Reader& reader) {
  const std::size_t n = instance.examples;
  const std::string what = fmt::format("data set '{}'{} has n = {}", instance.name,
                                       instance.condition.empty() ? "" : " (" + instance.condition + ")", n);
  std::size_t train = n;
  if (protocol.outer == Outer::holdout || protocol.outer == Outer::half_half) {
    const auto test = static_cast<std::size_t>(std::llround(protocol.test_fraction * static_cast<double>(n)));
    if (test < 1 || n - test < 2) {
      reader.fail("protocol.outer.test_fraction", fmt::format("{}: a test part of {} example(s) and a training part "
                                                              "of {}", what, test, n - test));
    }
    train = n - test;
  } else if (protocol.outer == Outer::kfold) {
    if (protocol.outer_folds > n) reader.fail("protocol.outer.folds", fmt::format("{}, fewer than {} folds", what, protocol.outer_folds));
    train = n - (n + protocol.outer_folds - 1) / protocol.outer_folds;
  } else if (protocol.outer == Outer::train_tune_test) {
    train = protocol.train_size;
  }
  if (protocol.inner == Inner::kfold && protocol.inner_folds > train) {
    reader.fail("protocol.inner.folds", fmt::format("{}: its training parts of {} examples cannot make {} folds", what,
                                                    train, protocol.inner_folds));
  }
}

}  // namespace

void check_datasets(const ExperimentConfig& config, const Reader& reader) {
  for (const DatasetInstance& instance : config.datasets) {
    if (!is_file_safe(instance.name)) {
      reader.fail("datasets", fmt::format("data set name '{}': use letters, digits and . _ - =, beginning with a letter or digit (names name task "
                                          "files)", instance.name));
    }
    if (instance.examples > 0) check_sizes(config.protocol, instance, reader);
    if (config.protocol.independent_test && instance.generator.empty()) {
      reader.fail("protocol.outer.independent_test",
                  fmt::format("data set '{}' is a file; an independent test sample needs a generator", instance.name));
    }
    if (config.protocol.outer == Outer::given && !instance.generator.empty()) {
      reader.fail("protocol.outer.type", fmt::format("data set '{}' is generated; a given split is a file's order (a "
                                                     "generator's rows may come sorted by class): use holdout", instance.name));
    }
    if (config.protocol.fresh_sample && instance.generator.empty()) {
      reader.fail("protocol.outer.fresh_sample",
                  fmt::format("data set '{}' is a file; a fresh sample per repetition needs a generator", instance.name));
    }
  }
}

}  // namespace sparsesvm::experiment::config_detail
