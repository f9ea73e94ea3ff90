#include "models/parameters.hpp"

#include <charconv>
#include <cmath>
#include <optional>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/closest_name.hpp"
#include "core/errors.hpp"
#include "models/methods.hpp"

namespace sparsesvm::models {

std::string ParameterSpec::range() const {
  if (is_choice()) return fmt::format("{}", fmt::join(choices, " | "));
  return fmt::format("{}{}, {}{}", lower_open ? "(" : "[", lower, upper, upper_open ? ")" : "]");
}

bool ParameterSpec::is_switch() const { return choices == kSwitch; }

std::string ParameterSpec::format(double value) const {
  const bool named = is_choice() && value >= 0 && value < static_cast<double>(choices.size()) && value == std::floor(value);
  return named ? choices[static_cast<std::size_t>(value)] : fmt::format("{}", value);
}

double ParameterSpec::parse(const std::string& text, const std::string& where) const {
  if (is_choice()) {
    for (std::size_t k = 0; k < choices.size(); ++k) {
      if (text == choices[k]) return static_cast<double>(k);
    }
    if (is_switch()) {
      if (text == "yes" || text == "on") return 1.0;
      if (text == "no" || text == "off") return 0.0;
    }
    for (std::size_t k = 0; k < choices.size(); ++k) {
      if (text == std::to_string(k)) return static_cast<double>(k);
    }
    const std::optional<std::string> suggestion = core::closest_name(text, choices);
    throw core::InputError(fmt::format("{}{} must be one of {} (or 0-{}), found '{}'{}", where.empty() ? "" : where + ": ", name,
                                       fmt::join(choices, ", "), choices.size() - 1, text,
                                       suggestion ? fmt::format("; did you mean '{}'?", *suggestion) : ""));
  }
  double value = 0.0;
  const char* begin = text.data();
  const char* end = begin + text.size();
  const auto [stop, error] = std::from_chars(begin, end, value);
  if (text.empty() || error != std::errc() || stop != end) {
    throw core::InputError(fmt::format("{}{} must be a number, found '{}'", where.empty() ? "" : where + ": ", name, text));
  }
  return value;
}

std::string ParameterSpec::check(double value) const {
  if (is_choice()) {
    const bool valid = value == std::floor(value) && value >= 0 && value < static_cast<double>(choices.size());
    return valid ? "" : fmt::format("{} must be one of {} (or 0-{}), found {}", name, fmt::join(choices, ", "),
                                    choices.size() - 1, value);
  }
  const bool above_lower = lower_open ? value > lower : value >= lower;
  const bool below_upper = upper_open ? value < upper : value <= upper;
  if (!std::isfinite(value) || !above_lower || !below_upper) {
    return fmt::format("{} must lie in {}, found {}", name, range(), value);
  }
  if (integer && value != std::floor(value)) return fmt::format("{} must be a whole number, found {}", name, value);
  return "";
}

const ParameterSpec* find_parameter(const ParameterTable& table, const std::string& name) {
  for (const ParameterSpec& spec : table) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

Hyperparameters resolve_parameters(const ParameterTable& table, const Hyperparameters& given,
                                   const std::string& owner) {
  Hyperparameters resolved;
  for (const ParameterSpec& spec : table) resolved[spec.name] = spec.default_value;
  for (const auto& [name, value] : given) {
    const ParameterSpec* spec = find_parameter(table, name);
    if (!spec) {
      std::vector<std::string> known;
      for (const ParameterSpec& entry : table) known.push_back(entry.name);
      throw core::InputError(fmt::format("{}: unknown parameter '{}' ({}known: {})", owner, name,
                                         core::did_you_mean(name, known),
                                         known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
    }
    if (const std::string problem = spec->check(value); !problem.empty()) {
      throw core::InputError(fmt::format("{}: {}", owner, problem));
    }
    resolved[name] = value;
  }
  return resolved;
}

std::string parameter_key(const Hyperparameters& values) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : values) parts.push_back(fmt::format("{}={}", name, value));
  return fmt::format("{}", fmt::join(parts, ","));
}

std::string parameter_text(const Hyperparameters& values) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : values) {
    const ParameterSpec* spec = registry_parameter(name);
    parts.push_back(fmt::format("{}={}", name, spec ? spec->format(value) : fmt::format("{}", value)));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

const ParameterSpec* registry_parameter(const std::string& name) {
  for (const MethodInfo& method : method_registry()) {
    if (const ParameterSpec* spec = find_parameter(method.parameters, name)) return spec;
  }
  return nullptr;
}

}  // namespace sparsesvm::models
