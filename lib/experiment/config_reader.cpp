#include "experiment/config_reader.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <set>
#include <yaml-cpp/yaml.h>

#include "experiment/yaml_guard.hpp"

namespace sparsesvm::experiment::config_detail {

namespace {

// Every mapping of the tree has plain scalar keys, each once (yaml-cpp would keep the first of two
// silently, and a non-scalar key cannot be read as a name).
// Aliases can make a cycle or an exponential fan-out (also of one long string: fuzzing found a config
// whose aliases expanded to gigabytes when the resolved config was written out): a depth, a number of
// values or an amount of text, counted with aliases expanded, that no config needs is an error.
constexpr std::size_t kMaxConfigDepth = 32;

}  // namespace

namespace {

constexpr std::size_t kMaxConfigNodes = 100'000;

}  // namespace

namespace {

constexpr std::size_t kMaxConfigCharacters = 4'000'000;

}  // namespace

namespace {

struct TreeSize {
  std::size_t nodes = 0;
  std::size_t characters = 0;
};

}  // namespace

namespace {

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

}  // namespace

void check_tree(const YAML::Node& root, const Reader& reader) {
  TreeSize size;
  check_tree(root, "", reader, 0, size);
}

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

void check_distinct(const std::vector<double>& values, const std::string& key, const Reader& reader) {
  for (std::size_t k = 1; k < values.size(); ++k) {
    if (std::find(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values[k]) != values.begin() + static_cast<std::ptrdiff_t>(k)) {
      reader.fail(fmt::format("{}[{}]", key, k), fmt::format("{} is listed twice", values[k]));
    }
  }
}

bool is_file_safe(const std::string& text) {
  return !text.empty() && std::isalnum(static_cast<unsigned char>(text.front())) && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' || c == '=';
  });
}

}  // namespace sparsesvm::experiment::config_detail
