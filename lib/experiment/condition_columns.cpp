#include "experiment/condition_columns.hpp"

#include <algorithm>

namespace sparsesvm::experiment {
namespace {

// "noise_dims=10,flip_fraction=0.1" -> its (key, value) pairs; "" -> none.
std::vector<std::pair<std::string, std::string>> parse_condition(const std::string& condition) {
  std::vector<std::pair<std::string, std::string>> values;
  for (std::size_t start = 0; start < condition.size();) {
    const std::size_t comma = std::min(condition.find(',', start), condition.size());
    const std::string part = condition.substr(start, comma - start);
    const std::size_t equals = part.find('=');
    values.emplace_back(part.substr(0, equals), equals == std::string::npos ? "" : part.substr(equals + 1));
    start = comma + 1;
  }
  return values;
}

}  // namespace

ConditionColumns::ConditionColumns(const ExperimentConfig& config) {
  for (const DatasetInstance& instance : config.datasets) {
    for (const auto& [key, value] : parse_condition(instance.condition)) {
      if (std::find(keys_.begin(), keys_.end(), key) == keys_.end()) keys_.push_back(key);
    }
  }
}

std::vector<std::string> ConditionColumns::header(std::vector<std::string> before,
                                                  const std::vector<std::string>& after) const {
  before.emplace_back("condition");
  for (const std::string& key : keys_) before.push_back("condition_" + key);
  before.insert(before.end(), after.begin(), after.end());
  return before;
}

std::vector<std::string> ConditionColumns::fields(std::vector<std::string> before, const std::string& condition,
                                                  const std::vector<std::string>& after) const {
  before.push_back(condition_field(condition));
  const std::vector<std::pair<std::string, std::string>> values = parse_condition(condition);
  for (const std::string& key : keys_) {
    const auto found = std::find_if(values.begin(), values.end(), [&](const auto& value) { return value.first == key; });
    before.push_back(found == values.end() ? "" : found->second);
  }
  before.insert(before.end(), after.begin(), after.end());
  return before;
}

std::string condition_field(const std::string& condition) { return condition.empty() ? "none" : condition; }

}  // namespace sparsesvm::experiment
