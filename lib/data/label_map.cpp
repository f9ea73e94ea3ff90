#include "data/label_map.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>

#include "core/errors.hpp"
#include "data/text_reader.hpp"

namespace sparsesvm::data {

using core::InputError;

std::string LabelMap::describe() const {
  std::vector<std::string> parts;
  if (!positive.empty()) parts.push_back(fmt::format("positive={}", fmt::join(positive, "|")));
  if (!negative.empty()) parts.push_back(fmt::format("negative={}", fmt::join(negative, "|")));
  if (threshold) parts.push_back(fmt::format("threshold={}", *threshold));
  if (most_frequent) parts.push_back("most_frequent");
  return parts.empty() ? "auto" : fmt::format("{}", fmt::join(parts, ";"));
}

namespace {

bool same_value(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const Location nowhere{a, 0, 0};
  return is_number(a) && is_number(b) && parse_number(a, nowhere, "label") == parse_number(b, nowhere, "label");
}

bool listed(const std::vector<std::string>& values, const std::string& value) {
  return std::any_of(values.begin(), values.end(), [&](const std::string& v) { return same_value(v, value); });
}

// Distinct values in order of first appearance, with counts.
std::vector<std::pair<std::string, std::size_t>> distinct_values(const std::vector<RawLabel>& raw) {
  std::vector<std::pair<std::string, std::size_t>> values;
  for (const RawLabel& label : raw) {
    auto found = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == label.value; });
    if (found == values.end()) {
      values.emplace_back(label.value, 1);
    } else {
      ++found->second;
    }
  }
  return values;
}

// The mapping used when the caller gave none: two numeric values, the larger is +1.
LabelMap automatic_map(const std::vector<RawLabel>& raw, const std::string& file) {
  const auto values = distinct_values(raw);
  std::vector<std::string> names;
  for (const auto& v : values) names.push_back(v.first);
  const bool numeric = std::all_of(names.begin(), names.end(), [](const std::string& v) { return is_number(v); });
  if (values.size() != 2 || !numeric) {
    constexpr std::size_t kShown = 10;
    constexpr std::size_t kShownLength = 24;  // a whole line read as a label (wrong format) stays short
    std::vector<std::string> shown;
    for (std::size_t k = 0; k < std::min(kShown, names.size()); ++k) {
      shown.push_back(names[k].size() > kShownLength ? names[k].substr(0, kShownLength) + "..." : names[k]);
    }
    // Many distinct numbers with fractions: a measurement, not a class (a file without a class column, or
    // the class in another column). Say so first: naming a positive value would only hide it.
    const bool fractional = std::any_of(names.begin(), names.end(), [](const std::string& v) {
      return is_number(v) && v.find_first_of(".eE") != std::string::npos;
    });
    if (numeric && fractional && values.size() > 20) {
      throw InputError(fmt::format(
          "{}: the class column holds {} distinct numbers with fractions ({}, ...): a feature, not a class; the file "
          "has no class column, or it is another one: loader option label_column=K (a column counted from 0, or its "
          "header name; -o label_column=K, YAML loader: {{label_column: K}}), or a threshold rule (threshold=x: values above it are +1)",
          file, values.size(), fmt::join(shown, ", ")));
    }
    throw InputError(fmt::format(
        "{}: class column has {} distinct value(s) ({}{}); name the positive class (loader option positive={}) or "
        "use most_frequent for one-vs-rest{}",
        file, values.size(), fmt::join(shown, ", "), names.size() > kShown ? ", ..." : "",
        names.empty() ? "" : names.front(),
        values.size() > 20 ? "; so many classes often mean the wrong format, delimiter or label column (-f, delimiter, "
                             "label_column)" : ""));
  }
  const Location nowhere{file, 0, 0};
  const bool first_larger = parse_number(names[0], nowhere, "label") > parse_number(names[1], nowhere, "label");
  LabelMap map;
  map.positive = {first_larger ? names[0] : names[1]};
  map.negative = {first_larger ? names[1] : names[0]};
  return map;
}

double map_one(const RawLabel& label, const LabelMap& map, const std::string& file) {
  if (map.threshold) {
    return parse_number(label.value, Location{file, label.line, 0}, "the class value") > *map.threshold ? 1.0 : -1.0;
  }
  if (listed(map.positive, label.value)) return 1.0;
  if (map.negative.empty() || listed(map.negative, label.value)) return -1.0;
  core::throw_at(file, label.line, 0,
                 fmt::format("class value '{}' is neither positive ({}) nor negative ({})", label.value,
                             fmt::join(map.positive, ", "), fmt::join(map.negative, ", ")));
}

}  // namespace

core::Vector map_labels(const std::vector<RawLabel>& raw, const LabelMap& map, const std::string& file,
                        LabelMap* resolved) {
  LabelMap used = map;
  if (map.most_frequent) {
    const auto values = distinct_values(raw);
    const auto top = std::max_element(values.begin(), values.end(),
                                      [](const auto& a, const auto& b) { return a.second < b.second; });
    if (top != values.end()) used.positive = {top->first};
    used.most_frequent = false;
  } else if (map.positive.empty() && !map.threshold) {
    used = automatic_map(raw, file);
  }
  core::Vector labels(static_cast<Eigen::Index>(raw.size()));
  for (std::size_t i = 0; i < raw.size(); ++i) labels[static_cast<Eigen::Index>(i)] = map_one(raw[i], used, file);
  const auto positives = (labels.array() > 0).count();
  if (resolved) *resolved = used;
  if (!map.allow_one_class && (positives == 0 || positives == labels.size())) {
    throw InputError(fmt::format("{}: all {} examples are in class {} after label mapping ({}); need both classes",
                                 file, labels.size(), positives == 0 ? "-1" : "+1", used.describe()));
  }
  return labels;
}

}  // namespace sparsesvm::data
