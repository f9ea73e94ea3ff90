#include "models/parameters.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/closest_name.hpp"
#include "core/errors.hpp"

namespace sparsesvm::models {

std::string ParameterSpec::range() const {
  return fmt::format("{}{}, {}{}", lower_open ? "(" : "[", lower, upper, upper_open ? ")" : "]");
}

std::string ParameterSpec::check(double value) const {
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

}  // namespace sparsesvm::models
