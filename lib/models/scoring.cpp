#include "models/scoring.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/find_by_id.hpp"

namespace sparsesvm::models {

ConfusionCounts confusion_counts(const core::Vector& decisions, const core::Vector& labels) {
  ConfusionCounts counts;
  for (Eigen::Index i = 0; i < labels.size(); ++i) {
    const bool positive = labels[i] > 0.0;
    const bool said_positive = decisions[i] >= 0.0;
    (positive ? (said_positive ? counts.true_positive : counts.false_negative)
              : (said_positive ? counts.false_positive : counts.true_negative)) += 1;
  }
  return counts;
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double accuracy(const core::Vector& decisions, const core::Vector& labels) {
  if (labels.size() == 0) return 0.0;
  const ConfusionCounts c = confusion_counts(decisions, labels);
  return (c.true_positive + c.true_negative) / static_cast<double>(labels.size());
}

double error_rate(const core::Vector& decisions, const core::Vector& labels) { return 1.0 - accuracy(decisions, labels); }

double balanced_accuracy(const core::Vector& decisions, const core::Vector& labels) {
  const ConfusionCounts c = confusion_counts(decisions, labels);
  double recalls = 0.0;
  int classes = 0;
  for (const auto& [found, missed] : {std::pair(c.true_positive, c.false_negative), std::pair(c.true_negative, c.false_positive)}) {
    if (found + missed == 0) continue;  // a class absent from the labels has no recall
    recalls += found / (found + missed);
    ++classes;
  }
  return classes == 0 ? kNaN : recalls / classes;
}

double f1(const core::Vector& decisions, const core::Vector& labels) {
  const ConfusionCounts c = confusion_counts(decisions, labels);
  const double denominator = 2 * c.true_positive + c.false_positive + c.false_negative;
  return denominator == 0 ? 0.0 : 2 * c.true_positive / denominator;
}

// Mann-Whitney: with the decision values ranked 1..n (tied values sharing their mean rank), AUC =
// (sum of the positives' ranks - P (P + 1) / 2) / (P N).
double roc_auc(const core::Vector& decisions, const core::Vector& labels) {
  if (decisions.hasNaN()) return kNaN;  // NaN has no rank (and would break the sort's ordering)
  const auto n = static_cast<std::size_t>(labels.size());
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return decisions[static_cast<Eigen::Index>(a)] < decisions[static_cast<Eigen::Index>(b)];
  });
  double positive_rank_sum = 0.0;
  double positives = 0.0;
  for (std::size_t first = 0; first < n;) {
    std::size_t last = first;  // [first, last) share one decision value
    while (last < n && decisions[static_cast<Eigen::Index>(order[last])] == decisions[static_cast<Eigen::Index>(order[first])]) ++last;
    const double mean_rank = 0.5 * static_cast<double>(first + 1 + last);
    for (std::size_t k = first; k < last; ++k) {
      if (labels[static_cast<Eigen::Index>(order[k])] > 0.0) {
        positive_rank_sum += mean_rank;
        positives += 1;
      }
    }
    first = last;
  }
  const double negatives = static_cast<double>(n) - positives;
  if (positives == 0 || negatives == 0) return kNaN;
  return (positive_rank_sum - positives * (positives + 1) / 2) / (positives * negatives);
}

}  // namespace

const std::vector<Scorer>& scorers() {
  static const std::vector<Scorer> table = {
      {Metric::accuracy, "accuracy", true, accuracy},
      {Metric::error_rate, "error_rate", false, error_rate},
      {Metric::balanced_accuracy, "balanced_accuracy", true, balanced_accuracy},
      {Metric::f1, "f1", true, f1},
      {Metric::roc_auc, "roc_auc", true, roc_auc},
  };
  return table;
}

const Scorer& scorer(Metric metric) { return scorers().at(static_cast<std::size_t>(metric)); }

std::string_view to_string(Metric metric) { return scorer(metric).name; }

Metric parse_metric(const std::string& name) {
  return core::find_by_id(scorers(), name, "metric", [](const Scorer& s) { return std::string(s.name); }).metric;
}

std::vector<std::string> metric_names() {
  std::vector<std::string> names;
  for (const Scorer& s : scorers()) names.emplace_back(s.name);
  return names;
}

double score(Metric metric, const core::Vector& decisions, const core::Vector& labels) {
  return scorer(metric).score(decisions, labels);
}

bool better_score(Metric metric, double a, double b) { return scorer(metric).higher_is_better ? a > b : a < b; }

double defined_score(Metric metric, const core::Vector& decisions, const core::Vector& labels) {
  const double value = score(metric, decisions, labels);
  if (!std::isnan(value)) return value;
  const auto not_a_number = decisions.array().isNaN().count();
  if (not_a_number > 0) {
    throw core::InputError(fmt::format("{} is undefined: {} of {} decision values are NaN (missing feature values, or "
                                       "an overflow of w.x)", to_string(metric), not_a_number, decisions.size()));
  }
  throw core::InputError(fmt::format("{} is undefined on {} examples of which {} are of class +1: it needs both classes",
                                     to_string(metric), labels.size(), (labels.array() > 0.0).count()));
}

}  // namespace sparsesvm::models
