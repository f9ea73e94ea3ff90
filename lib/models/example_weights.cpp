#include "models/example_weights.hpp"

#include <cmath>
#include <fmt/format.h>

#include "core/errors.hpp"

namespace sparsesvm::models {

namespace {

// "where: message", or the message alone for an empty `where`.
std::string located(const std::string& where, const std::string& message) {
  return where.empty() ? message : where + ": " + message;
}

double parse_class_weight(const std::string& text, const std::string& where) {
  std::size_t used = 0;
  double value = std::nan("");
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(value) || value <= 0) {
    throw core::InputError(located(where, fmt::format("class weight '{}' is not a number > 0 (a class of weight 0 "
                                                      "would leave the objective without its loss)", text)));
  }
  return value;
}

}  // namespace

ClassWeight ClassWeight::parse(const std::string& text, const std::string& where) {
  if (text.empty() || text == "none") return {};
  if (text == "balanced") return {Kind::balanced};
  ClassWeight weight{Kind::given};
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string part = text.substr(start, comma - start);
    const std::size_t equals = part.find('=');
    const std::string name = part.substr(0, equals);
    if (equals == std::string::npos || (name != "positive" && name != "negative")) {
      throw core::InputError(located(where, fmt::format("'{}' is not a class weight; expected none, balanced, or "
                                                        "positive=P,negative=N (the +1 and -1 classes)", text)));
    }
    if (text.find(name + "=", comma) != std::string::npos) {
      throw core::InputError(located(where, fmt::format("'{}' gives the {} class's weight twice", text, name)));
    }
    (name == "positive" ? weight.positive : weight.negative) = parse_class_weight(part.substr(equals + 1), where);
    start = comma + 1;
  }
  return weight;
}

std::string ClassWeight::to_string() const {
  switch (kind) {
    case Kind::none: return "";
    case Kind::balanced: return "balanced";
    case Kind::given: return fmt::format("positive={},negative={}", positive, negative);
  }
  return "";
}

core::Vector class_example_weights(const ClassWeight& weight, const core::Vector& labels) {
  if (weight.is_none()) return {};
  double positive = weight.positive, negative = weight.negative;
  if (weight.kind == ClassWeight::Kind::balanced) {
    const auto n = static_cast<double>(labels.size());
    const auto positives = static_cast<double>((labels.array() > 0).count());
    // n / (2 n_class): each class then carries half of the total weight n (a class absent here gets 0).
    positive = positives > 0 ? n / (2 * positives) : 0.0;
    negative = positives < n ? n / (2 * (n - positives)) : 0.0;
  }
  return labels.unaryExpr([&](double y) { return y > 0 ? positive : negative; });
}

void check_example_weights(const core::Vector& weights, const core::Dataset& data) {
  if (static_cast<std::size_t>(weights.size()) != data.n()) {
    throw core::InputError(fmt::format("data set {}: {} example weights for {} examples", data.name(), weights.size(),
                                       data.n()));
  }
  double positive_total = 0, negative_total = 0;
  for (Eigen::Index i = 0; i < weights.size(); ++i) {
    if (!std::isfinite(weights[i]) || weights[i] < 0) {
      throw core::InputError(fmt::format("data set {}: example {} has weight {}; weights must be finite and >= 0",
                                         data.name(), i, weights[i]));
    }
    (data.labels()[i] > 0 ? positive_total : negative_total) += weights[i];
  }
  if (!std::isfinite(positive_total + negative_total)) {
    throw core::InputError(fmt::format("data set {}: the example weights sum to {}; rescale them (only their ratios "
                                       "and the objective's scale depend on them)", data.name(), positive_total + negative_total));
  }
  if (positive_total <= 0 || negative_total <= 0) {
    throw core::InputError(fmt::format("data set {}: class {} has total weight 0; every class needs a positive weight",
                                       data.name(), positive_total <= 0 ? "+1" : "-1"));
  }
}

}  // namespace sparsesvm::models
