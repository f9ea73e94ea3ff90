#include "experiment/config.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <set>
#include <sstream>
#include <yaml-cpp/yaml.h>

#include "core/closest_name.hpp"
#include "core/errors.hpp"
#include "data/generators/generator_registry.hpp"
#include "data/transforms.hpp"
#include "experiment/metrics.hpp"
#include "experiment/yaml_guard.hpp"
#include "models/algorithms/algorithm.hpp"
#include "models/methods.hpp"

namespace sparsesvm::experiment {
namespace {

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

// Every mapping of the tree has plain scalar keys, each once (yaml-cpp would keep the first of two
// silently, and a non-scalar key cannot be read as a name).
// Aliases can make a cycle or an exponential fan-out (also of one long string: fuzzing found a config
// whose aliases expanded to gigabytes when the resolved config was written out): a depth, a number of
// values or an amount of text, counted with aliases expanded, that no config needs is an error.
constexpr std::size_t kMaxConfigDepth = 32;
constexpr std::size_t kMaxConfigNodes = 100'000;
constexpr std::size_t kMaxConfigCharacters = 4'000'000;
// Combinations of a data set's generator grid, and method entries after a sweep: a few lists of a few
// hundred values multiply past any run (fuzzing: three lists took the config load above 2 GB).
constexpr std::size_t kMaxCombinations = 10'000;

struct TreeSize {
  std::size_t nodes = 0;
  std::size_t characters = 0;
};

void check_tree(const YAML::Node& node, const std::string& key, const Reader& reader, std::size_t depth,
                TreeSize& size) {
  size.characters += node.IsScalar() ? node.Scalar().size() : 0;
  if (depth > kMaxConfigDepth || ++size.nodes > kMaxConfigNodes || size.characters > kMaxConfigCharacters) {
    reader.fail(key.empty() ? "(top level)" : key,
                fmt::format("the config nests deeper than {} levels or holds more than {} values or {} characters "
                            "(an alias cycle or fan-out?)",
                            kMaxConfigDepth, kMaxConfigNodes, kMaxConfigCharacters));
  }
  if (node.IsSequence()) {
    for (std::size_t k = 0; k < node.size(); ++k) {
      check_tree(node[k], fmt::format("{}[{}]", key, k), reader, depth + 1, size);
    }
  }
  if (!node.IsMap()) return;
  std::set<std::string> seen;
  for (const auto& entry : node) {
    if (!entry.first.IsScalar()) reader.fail(key.empty() ? "(top level)" : key, "a mapping key must be a plain name");
    const std::string name = entry.first.Scalar();
    if (!seen.insert(name).second) reader.fail(Reader::join(key, name), "given twice; give each key once");
    size.characters += name.size();
    check_tree(entry.second, Reader::join(key, name), reader, depth + 1, size);
  }
}

void check_tree(const YAML::Node& root, const Reader& reader) {
  TreeSize size;
  check_tree(root, "", reader, 0, size);
}

// Sets "a.b.c=value" in the YAML tree (the value parsed as YAML); the parent path must exist.
void apply_override(YAML::Node& root, const std::string& item, const Reader& reader) {
  const std::size_t equals = item.find('=');
  if (equals == std::string::npos || equals == 0) reader.fail(item, "override must be key.path=value");
  const std::string path = item.substr(0, equals);
  std::vector<std::string> parts;
  for (std::size_t start = 0, dot; start <= path.size(); start = dot + 1) {
    dot = path.find('.', start);
    if (dot == std::string::npos) dot = path.size();
    parts.push_back(path.substr(start, dot - start));
    if (parts.back().empty()) reader.fail(path, fmt::format("override '{}': an empty key in the path", item));
  }
  // A list is indexed by a whole number that exists in it.
  const auto index_of = [&](const YAML::Node& list, const std::string& part, const std::string& key) {
    std::size_t index = 0;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), index);
    if (error != std::errc() || end != part.data() + part.size() || index >= list.size()) {
      reader.fail(key, fmt::format("override '{}': '{}' is not an index of this list (0 to {})", item, part,
                                   list.size() == 0 ? 0 : list.size() - 1));
    }
    return index;
  };
  YAML::Node current = root;
  std::string walked;
  for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
    walked = Reader::join(walked, parts[k]);
    YAML::Node next = current.IsSequence() ? current[index_of(current, parts[k], walked)] : current[parts[k]];
    // A section the file omits is made here (empty); the schema check that follows refuses unknown keys.
    if (!next && current.IsMap()) {
      current[parts[k]] = YAML::Node(YAML::NodeType::Map);
      next.reset(current[parts[k]]);
    }
    if (!next || next.IsScalar()) {
      reader.fail(walked, fmt::format("override '{}': the path goes through a value, not a section", item));
    }
    current.reset(next);
  }
  YAML::Node value;
  try {
    check_yaml_text(item.substr(equals + 1), fmt::format("override '{}'", item));
    const std::vector<YAML::Node> documents = YAML::LoadAll(item.substr(equals + 1));
    if (documents.size() > 1) reader.fail(path, fmt::format("override '{}': the value holds several YAML documents", item));
    value = documents.empty() ? YAML::Node() : documents.front();
  } catch (const YAML::Exception& error) {
    reader.fail(path, fmt::format("override '{}': the value is not valid YAML ({})", item, error.msg));
  }
  if (current.IsSequence()) {
    current[index_of(current, parts.back(), path)] = value;
  } else {
    current[parts.back()] = value;
  }
}

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

std::string spec_of(const std::string& generator, const std::vector<std::pair<std::string, std::string>>& values) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : values) parts.push_back(name + "=" + value);
  return parts.empty() ? generator : generator + ":" + fmt::format("{}", fmt::join(parts, ","));
}

// A value twice in a grid would be fitted twice and tie with itself.
void check_distinct(const std::vector<double>& values, const std::string& key, const Reader& reader) {
  for (std::size_t k = 1; k < values.size(); ++k) {
    if (std::find(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values[k]) != values.begin() + static_cast<std::ptrdiff_t>(k)) {
      reader.fail(fmt::format("{}[{}]", key, k), fmt::format("{} is listed twice", values[k]));
    }
  }
}

// class_weight: none | balanced | {positive: P, negative: N} (models/example_weights.hpp).
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

// A data set's class_weight reaches every method entry without one of its own: refused where it would
// cancel (RLP, FSV: models::class_weight_refusal).
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

// sweep: {a: [2, 4], ...} (or --sweep a=2,4): every method entry that takes `a` becomes one labelled
// variant per value, "<label>_a2", "<label>_a4" (several keys: every combination, in the block's key
// order); entries that do not take it stay as they are. A key no method takes, or one an entry fixes
// itself, is an error.
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

// A label names task files: letters, digits and . _ - =, beginning with a letter or digit, so that no two labels map to one file.
// The first character a letter or digit: no "." or "..", and no leading "_" (which matplotlib's legends hide).
bool is_file_safe(const std::string& text) {
  return !text.empty() && std::isalnum(static_cast<unsigned char>(text.front())) && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' || c == '=';
  });
}

// Two entries with one label would write the same task files.
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

// After a sweep the entries are its variants: a clash names the label, not a position in the file.
void check_labels_after_sweep(const std::vector<MethodEntry>& methods, const Reader& reader) {
  std::set<std::string> seen;
  for (const MethodEntry& entry : methods) {
    if (!seen.insert(entry.label).second) {
      reader.fail("sweep", fmt::format("the sweep makes the label '{}', which another method entry has; relabel "
                                       "that entry", entry.label));
    }
  }
}

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

// A data set's method_grid names top-level grid parameters and varies each exactly when the grid does
// (which parameters are tuned stays the config's), with admissible values.
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

void check_grid(const ExperimentConfig& config, const Reader& reader) {
  for (const auto& [name, values] : config.grid) {
    const bool used = check_grid_values(config, name, values, "grid." + name, reader);
    if (!used && !tunes_a_start(config, name, values, reader)) {
      reader.fail("grid." + name, "no method of this config tunes this parameter (none takes it, or every one that "
                                  "does fixes it; see sparsesvm describe METHOD)");
    }
  }
}

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

Protocol read_protocol(const YAML::Node& node, const Reader& reader) {
  Protocol protocol;
  if (!node) return protocol;
  reader.check_keys(node, "protocol", {"outer", "inner", "selection"});
  if (const YAML::Node outer = node["outer"]) {
    const std::string key = "protocol.outer";
    reader.check_keys(outer, key, {"type", "test_fraction", "repetitions", "folds", "partitions", "stratified", "train",
                                   "tune", "test", "independent_test", "fresh_sample"});
    protocol.outer = read_choice(reader, outer, key, "type", "holdout", parse_outer);
    protocol.test_fraction = reader.optional<double>(outer, key, "test_fraction", 0.3, "a number");
    if (!(protocol.test_fraction > 0 && protocol.test_fraction < 1)) reader.fail(key + ".test_fraction", "must lie in (0, 1)");
    if (protocol.outer == Outer::half_half) {
      if (outer["test_fraction"]) reader.fail(key + ".test_fraction", "half_half splits in halves; use holdout to choose");
      protocol.test_fraction = 0.5;
    }
    protocol.repetitions = reader.positive_count(outer, key, "repetitions", 20);
    protocol.outer_folds = reader.positive_count(outer, key, "folds", 10);
    if (protocol.outer == Outer::kfold && protocol.outer_folds < 2) reader.fail(key + ".folds", "k-fold needs at least 2 folds");
    protocol.partitions = reader.positive_count(outer, key, "partitions", 1);
    if (outer["partitions"] && protocol.outer != Outer::kfold) {
      reader.fail(key + ".partitions", "re-partitions apply to kfold (the other protocols draw a new split per repetition)");
    }
    protocol.stratified = reader.optional<bool>(outer, key, "stratified", false, "true or false");
    protocol.fresh_sample = reader.optional<bool>(outer, key, "fresh_sample", false, "true or false");
    if (protocol.fresh_sample && protocol.outer == Outer::kfold) {
      reader.fail(key + ".fresh_sample", "k-fold partitions one sample; a fresh sample per repetition goes with holdout, "
                                         "half_half or train_tune_test");
    }
    if (protocol.outer == Outer::train_tune_test) {
      for (const char* part : {"train", "tune", "test"}) {
        if (!outer[part]) reader.fail(key, fmt::format("train_tune_test needs the sizes train, tune and test; {} is missing", part));
      }
      protocol.train_size = reader.positive_count(outer, key, "train", 1);
      // tune: 0 when nothing is tuned ([PSI] Table 1 fixes C and a per column); check_selection checks it.
      const bool no_tune_part = outer["tune"].IsScalar() && outer["tune"].Scalar() == "0";
      protocol.tune_size = no_tune_part ? 0 : reader.positive_count(outer, key, "tune", 1);
      protocol.test_size = reader.positive_count(outer, key, "test", 1);
      protocol.independent_test = reader.optional<bool>(outer, key, "independent_test", false, "true or false");
    } else {
      for (const char* part : {"train", "tune", "test", "independent_test"}) {
        if (outer[part]) reader.fail(Reader::join(key, part), "applies to type train_tune_test only");
      }
    }
  }
  if (const YAML::Node inner = node["inner"]) {
    reader.check_keys(inner, "protocol.inner", {"type", "folds", "parts", "fraction", "metric"});
    protocol.metric = read_choice(reader, inner, "protocol.inner", "metric", "accuracy", models::parse_metric);
    protocol.inner = read_choice(reader, inner, "protocol.inner", "type",
                                 protocol.outer == Outer::train_tune_test ? "tuning_set" : "kfold", parse_inner);
    protocol.inner_folds = reader.positive_count(inner, "protocol.inner", "folds", 5);
    if (protocol.inner == Inner::kfold && protocol.inner_folds < 2) reader.fail("protocol.inner.folds", "k-fold needs at least 2 folds");
    protocol.tuning_parts = reader.positive_count(inner, "protocol.inner", "parts", 10);
    protocol.tuning_fraction = reader.optional<double>(inner, "protocol.inner", "fraction", 0.1, "a number");
    if (!(protocol.tuning_fraction > 0 && protocol.tuning_fraction < 1)) reader.fail("protocol.inner.fraction", "must lie in (0, 1)");
  } else if (protocol.outer == Outer::train_tune_test) {
    protocol.inner = Inner::tuning_set;
  }
  if ((protocol.inner == Inner::tuning_set) != (protocol.outer == Outer::train_tune_test)) {
    reader.fail("protocol.inner.type", "tuning_set (the tune part of the outer split) goes with outer type "
                                       "train_tune_test, and train_tune_test selects on it");
  }
  if (const YAML::Node selection = node["selection"]) {
    reader.check_keys(selection, "protocol.selection", {"rule", "ties", "near_zero_norm"});
    protocol.selection = read_choice(reader, selection, "protocol.selection", "rule", "best", models::parse_selection_rule);
    protocol.ties = read_choice(reader, selection, "protocol.selection", "ties", "most_regularized", models::parse_tie_rule);
    protocol.near_zero_norm =
        reader.optional<double>(selection, "protocol.selection", "near_zero_norm", 0.0, "a number");
    if (!(protocol.near_zero_norm >= 0.0 && protocol.near_zero_norm < 1e10)) {
      reader.fail("protocol.selection.near_zero_norm",
                  fmt::format("must be a number in [0, 1e10) (0: off), found {}", protocol.near_zero_norm));
    }
  }
  return protocol;
}

// The walk is an iterative method (its objective trace has a value per iteration) and the optimum a method
// that finds the optimum of the same objective (loss, penalty and weighting); the walk's entries differ
// only in the optimum's parameters (C), so their curves are comparable iteration by iteration.
// tables.objective_ratio: a list of [A, B] method labels whose methods share one objective, neither tuning a parameter.
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

// Whether a metric the config names at `key` is this run's (`known`); false, with a warning, when only
// methods the run lacks report it; else the unknown metric is refused.
bool keep_metric(const std::string& metric, const std::vector<std::string>& known, const std::string& key,
                 std::vector<std::string>& warnings, const Reader& reader) {
  if (std::find(known.begin(), known.end(), metric) != known.end()) return true;
  if (!reported_by_some_method(metric)) {
    reader.fail(key, fmt::format("unknown metric '{}' (known: {})", metric, fmt::join(known, ", ")));
  }
  warnings.push_back(fmt::format("{}: {}: no method of this run reports '{}'; left out", reader.path(), key, metric));
  return false;
}

// A figure metric's own checks: this run's (else false, keep_metric), and as_error only with an accuracy.
bool check_figure_metric(const FigureSpec& figure, const std::vector<std::string>& metrics, const Reader& reader,
                         const std::string& key, std::vector<std::string>& warnings) {
  if (!keep_metric(figure.metric, metrics, key + ".metric", warnings, reader)) return false;
  if (figure.as_error && !figure.metric.ends_with("accuracy")) {
    reader.fail(key + ".as_error", fmt::format("1 - {} is not an error; as_error goes with the accuracies", figure.metric));
  }
  return true;
}

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

// tables.comparisons: {against: LABEL (optional), metrics: {METRIC: higher | lower, ...}}.
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
    if (figure.kind != "boundary" && figure.kind != "validation_curve" && entry["methods"]) {
      reader.fail(key + ".methods", "only boundary and validation_curve figures take methods");
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
                                             "metric_by_parameter, objective_trace, validation_curve)", figure.kind));
    }
    figures.push_back(std::move(figure));
  }
  return figures;
}

// Per method, the grid parameters it tunes; `inner: none` admits one value each, median_of_best one
// tuned parameter.
void check_selection(const ExperimentConfig& config, const Reader& reader) {
  if (config.protocol.near_zero_norm > 0 && config.protocol.inner == Inner::none) {
    reader.fail("protocol.selection.near_zero_norm", "scores inner selection, and protocol.inner.type is none");
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

// Data set names are unique and file-safe (they name task files), and an independent test sample needs
// a generator to draw it from.
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
    if (config.protocol.fresh_sample && instance.generator.empty()) {
      reader.fail("protocol.outer.fresh_sample",
                  fmt::format("data set '{}' is a file; a fresh sample per repetition needs a generator", instance.name));
    }
  }
}

// tables.published: a CSV of the paper's cells (paper_comparison.hpp), relative to the config's folder (or
// to the working directory); each cell must name a data set, method label and metric of this config.
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
  const std::vector<std::string> metrics = summary_metric_names(summarized_method_columns(config), config.protocol.metric);
  for (const PublishedCell& cell : config.published) {
    if (cell.not_run()) continue;  // listed only: its data is not offline
    const std::string where = fmt::format("{}: line {}", config.published_file, cell.line);
    if (find_instance(config, cell.dataset, cell.condition) == nullptr) {
      reader.fail("tables.published", fmt::format("{}: no data set '{}' with condition '{}' in this config", where,
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

}  // namespace

bool has_method_label(const ExperimentConfig& config, const std::string& label) {
  return std::any_of(config.methods.begin(), config.methods.end(), [&](const MethodEntry& m) { return m.label == label; });
}

const DatasetInstance* find_instance(const ExperimentConfig& config, const std::string& name, const std::string& condition) {
  const auto found = std::find_if(config.datasets.begin(), config.datasets.end(), [&](const DatasetInstance& instance) {
    return instance.name == name && instance.condition == condition;
  });
  return found == config.datasets.end() ? nullptr : &*found;
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
    std::ifstream stream(path, std::ios::binary);
    if (!stream || !std::filesystem::is_regular_file(path)) throw YAML::BadFile(path);
    const std::string text((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
    check_yaml_text(text, path);
    const std::vector<YAML::Node> documents = YAML::LoadAll(text);
    if (documents.size() != 1) {
      throw ConfigError(fmt::format("{}: holds {} YAML documents; a config is exactly one", path, documents.size()));
    }
    root = documents.front();
  } catch (const YAML::BadFile&) {
    throw ConfigError(fmt::format("{}: cannot open config file", path));
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
    reader.check_keys(tables, "tables", {"metrics", "paired_test", "comparisons", "convergence", "objective_ratio", "published"});
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
    if (tables["published"]) read_published_cells(tables, config_dir, reader, config);
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
