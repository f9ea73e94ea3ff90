#include "experiment/model_file.hpp"

#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "core/errors.hpp"
#include "experiment/csv.hpp"
#include "experiment/yaml_guard.hpp"

namespace sparsesvm::experiment {
namespace {

constexpr int kFormatVersion = 1;

void emit_vector(YAML::Emitter& out, const core::Vector& values) {
  out << YAML::Flow << YAML::BeginSeq;
  for (const double value : values) out << value;
  out << YAML::EndSeq;
}

// The node `key` of `map`, required; InputError naming the file and the key otherwise.
YAML::Node required(const YAML::Node& map, const std::string& key, const std::string& path) {
  const YAML::Node node = map.IsMap() ? map[key] : YAML::Node();
  if (!node) throw core::InputError(fmt::format("{}: model file has no '{}'", path, key));
  return node;
}

template <typename T>
T as(const YAML::Node& node, const std::string& key, const std::string& path) {
  try {
    return node.as<T>();
  } catch (const YAML::Exception&) {
    throw core::InputError(fmt::format("{}: model file's '{}' is not a {}", path, key,
                                       std::is_same_v<T, double> ? "number" : "value of the expected kind"));
  }
}

// A number the model computes with: a NaN or infinite weight, bias or transform value would turn every
// prediction into one class without a word.
double finite(const YAML::Node& node, const std::string& key, const std::string& path) {
  const double value = as<double>(node, key, path);
  if (!std::isfinite(value)) throw core::InputError(fmt::format("{}: model file's '{}' holds {}, not a finite number", path, key, value));
  return value;
}

core::Vector read_vector(const YAML::Node& node, const std::string& key, const std::string& path) {
  if (!node.IsSequence()) throw core::InputError(fmt::format("{}: model file's '{}' is not a list", path, key));
  core::Vector values(static_cast<Eigen::Index>(node.size()));
  for (std::size_t k = 0; k < node.size(); ++k) values[static_cast<Eigen::Index>(k)] = finite(node[k], key, path);
  return values;
}

// The model file at `path`, read by read_model_file (which turns yaml-cpp's errors into InputError).
SavedModel read_model_text(const std::string& path);

}  // namespace

void write_model_file(const std::string& path, const SavedModel& saved) {
  YAML::Emitter out;
  out.SetDoublePrecision(17);
  out << YAML::BeginMap;
  out << YAML::Key << "sparsesvm_model" << YAML::Value << kFormatVersion;
  out << YAML::Key << "commit" << YAML::Value << saved.commit;
  out << YAML::Key << "method" << YAML::Value << saved.method;
  out << YAML::Key << "parameters" << YAML::Value << YAML::BeginMap;
  for (const auto& [name, value] : saved.parameters) out << YAML::Key << name << YAML::Value << value;
  out << YAML::EndMap;
  out << YAML::Key << "status" << YAML::Value << saved.status;
  out << YAML::Key << "objective" << YAML::Value << saved.objective;
  out << YAML::Key << "stop_reason" << YAML::Value << saved.stop_reason;
  if (!saved.class_weight.empty()) out << YAML::Key << "class_weight" << YAML::Value << saved.class_weight;
  out << YAML::Key << "statistics" << YAML::Value << YAML::BeginMap;
  for (const auto& [name, value] : saved.statistics) out << YAML::Key << name << YAML::Value << value;
  out << YAML::EndMap;
  out << YAML::Key << "train" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value << saved.train_name
      << YAML::Key << "n" << YAML::Value << saved.train_n << YAML::Key << "d" << YAML::Value << saved.features.size()
      << YAML::Key << "source" << YAML::Value << saved.train_source << YAML::EndMap;
  out << YAML::Key << "loader" << YAML::Value << YAML::BeginMap << YAML::Key << "format" << YAML::Value
      << saved.loader_format << YAML::Key << "options" << YAML::Value << YAML::BeginMap;
  for (const auto& [key, value] : saved.loader_options) out << YAML::Key << key << YAML::Value << value;
  out << YAML::EndMap << YAML::EndMap;
  out << YAML::Key << "transforms" << YAML::Value << YAML::BeginSeq;
  for (const auto& transform : saved.transforms) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << transform->name();
    for (const auto& [name, values] : transform->learned()) {
      out << YAML::Key << name << YAML::Value;
      emit_vector(out, values);
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::Key << "features" << YAML::Value << YAML::Flow << saved.features;
  out << YAML::Key << "weights" << YAML::Value;
  emit_vector(out, saved.model.w());
  out << YAML::Key << "bias" << YAML::Value << saved.model.b();
  out << YAML::EndMap;
  write_file_atomically(path, std::string(out.c_str()) + "\n");
}

SavedModel read_model_file(const std::string& path) {
  // Any yaml-cpp error left (a key that is a list, say) is a malformed file, not an internal error.
  try {
    return read_model_text(path);
  } catch (const YAML::Exception& error) {
    throw core::InputError(fmt::format("{}: malformed model file: {}", path, error.msg));
  }
}

namespace {

SavedModel read_model_text(const std::string& path) {
  if (path_kind(path) == PathKind::absent) {  // a folder without search permission is an error naming it
    throw core::InputError(fmt::format("{}: no such model file (`fit --model-out` writes one)", path));
  }
  const std::string text = read_whole_file(path);
  check_yaml_text(text, path);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& error) {
    throw core::InputError(fmt::format("{}:{}: not a model file: {}", path, error.mark.line + 1, error.msg));
  }
  if (!root.IsMap() || !root["sparsesvm_model"]) {
    throw core::InputError(fmt::format("{}: not a model file (no 'sparsesvm_model' key; `fit --model-out` writes one)", path));
  }
  if (as<int>(root["sparsesvm_model"], "sparsesvm_model", path) != kFormatVersion) {
    throw core::InputError(fmt::format("{}: model file format {} is not the {} this binary reads", path,
                                       root["sparsesvm_model"].as<std::string>(), kFormatVersion));
  }
  SavedModel saved;
  saved.commit = as<std::string>(required(root, "commit", path), "commit", path);
  saved.method = as<std::string>(required(root, "method", path), "method", path);
  for (const auto& item : required(root, "parameters", path)) {
    saved.parameters[item.first.as<std::string>()] = as<double>(item.second, "parameters", path);
  }
  saved.status = as<std::string>(required(root, "status", path), "status", path);
  saved.objective = as<double>(required(root, "objective", path), "objective", path);
  saved.stop_reason = as<std::string>(required(root, "stop_reason", path), "stop_reason", path);
  if (root["class_weight"]) saved.class_weight = as<std::string>(root["class_weight"], "class_weight", path);
  for (const auto& item : required(root, "statistics", path)) {
    saved.statistics[item.first.as<std::string>()] = as<double>(item.second, "statistics", path);
  }
  const YAML::Node train = required(root, "train", path);
  saved.train_name = as<std::string>(required(train, "name", path), "train.name", path);
  saved.train_n = as<std::size_t>(required(train, "n", path), "train.n", path);
  saved.train_source = as<std::string>(required(train, "source", path), "train.source", path);
  const YAML::Node loader = required(root, "loader", path);
  saved.loader_format = as<std::string>(required(loader, "format", path), "loader.format", path);
  for (const auto& item : required(loader, "options", path)) {
    saved.loader_options.emplace_back(item.first.as<std::string>(), as<std::string>(item.second, "loader.options", path));
  }
  const YAML::Node features = required(root, "features", path);
  if (!features.IsSequence()) throw core::InputError(fmt::format("{}: model file's 'features' is not a list", path));
  for (const auto& name : features) saved.features.push_back(as<std::string>(name, "features", path));
  const std::size_t d = saved.features.size();
  const core::Vector w = read_vector(required(root, "weights", path), "weights", path);
  if (static_cast<std::size_t>(w.size()) != d) {
    throw core::InputError(fmt::format("{}: model file has {} weights for {} features", path, w.size(), d));
  }
  saved.model = core::LinearModel(w, finite(required(root, "bias", path), "bias", path));
  const YAML::Node transforms = required(root, "transforms", path);
  if (!transforms.IsSequence()) throw core::InputError(fmt::format("{}: model file's 'transforms' is not a list", path));
  for (const auto& node : transforms) {
    const std::string name = as<std::string>(required(node, "name", path), "transforms.name", path);
    std::unique_ptr<data::Transform> transform = data::make_transform(name);
    data::Transform::Learned learned;
    for (const auto& item : node) {
      const std::string key = item.first.as<std::string>();
      if (key != "name") learned.emplace_back(key, read_vector(item.second, "transforms." + key, path));
    }
    try {
      transform->restore(learned, d);
    } catch (const core::InputError& error) {
      throw core::InputError(fmt::format("{}: {}", path, error.what()));
    }
    saved.transforms.push_back(std::move(transform));
  }
  return saved;
}

}  // namespace

void check_same_features(const core::Dataset& data, const std::vector<std::string>& features, const std::string& where) {
  if (data.d() != features.size()) {
    throw core::InputError(fmt::format(
        "{}: {} features, but the training data has {}; a model applies only to data with the same "
        "features (for LIBSVM files, give both the same count with -o n_features=D)",
        where, data.d(), features.size()));
  }
  for (std::size_t j = 0; j < features.size(); ++j) {
    if (data.feature_names()[j] != features[j]) {
      throw core::InputError(fmt::format("{}: feature {} is '{}', but in the training data it is '{}'; a model "
                                         "applies only to data with the same features in the same order",
                                         where, j + 1, data.feature_names()[j], features[j]));
    }
  }
}

}  // namespace sparsesvm::experiment
