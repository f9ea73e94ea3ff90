#include "experiment/metrics.hpp"

#include <fmt/format.h>

#include "models/scoring.hpp"

namespace sparsesvm::experiment {

std::vector<std::string> summary_metric_names(const std::vector<std::string>& method_columns, models::Metric inner_metric) {
  std::vector<std::string> names = {"accuracy", "train_accuracy", "cv_accuracy", "n_features", "frac_features",
                                    "fp_features", "fn_features", "n_sv", "frac_sv", "frac_params", "objective",
                                    "majority_accuracy", "iterations", "fits", "train_time_s", "task_time_s"};
  if (inner_metric != models::Metric::accuracy) {
    names[2] = "cv_score";
    names.insert(names.begin() + 1, std::string(models::to_string(inner_metric)));
  }
  names.insert(names.end(), method_columns.begin(), method_columns.end());
  return names;
}

std::vector<std::string> inner_score_columns(models::Metric inner_metric) {
  if (inner_metric == models::Metric::accuracy) return {"cv_accuracy", "accuracy"};
  return {"cv_metric", "cv_score", "accuracy", std::string(models::to_string(inner_metric))};
}

ModelMetrics model_metrics(const core::LinearModel& model, const core::Dataset& train, const core::Dataset& test,
                           std::pair<double, double> support_region) {
  ModelMetrics m;
  m.accuracy = model.accuracy(test);
  m.train_accuracy = model.accuracy(train);
  const std::vector<std::size_t> selected = model.selected_features();
  m.n_features = selected.size();
  m.frac_features = static_cast<double>(m.n_features) / static_cast<double>(train.d());
  if (const auto& informative = train.informative_features()) {
    std::size_t true_positives = 0;
    for (std::size_t j : selected) true_positives += (*informative)[j] ? 1 : 0;
    m.fp_features = m.n_features - true_positives;
    m.fn_features = static_cast<std::size_t>(std::count(informative->begin(), informative->end(), true)) - true_positives;
  }
  const core::Vector t = (train.labels().array() * model.decision_values(train).array()).matrix();
  for (Eigen::Index i = 0; i < t.size(); ++i) {
    const bool support = t[i] >= support_region.first - kSupportVectorSlack &&
                         t[i] < support_region.second + kSupportVectorSlack;
    m.n_sv += support ? 1 : 0;
  }
  m.frac_sv = static_cast<double>(m.n_sv) / static_cast<double>(train.n());
  m.frac_params = static_cast<double>(m.n_features * m.n_sv) / static_cast<double>(train.d() * train.n());
  return m;
}

double majority_accuracy(const core::Vector& train_labels, const core::Vector& test_labels) {
  const auto positives = (train_labels.array() > 0.0).count();
  const double majority = 2 * positives >= train_labels.size() ? 1.0 : -1.0;
  const auto hits = (test_labels.array() == majority).count();
  return static_cast<double>(hits) / static_cast<double>(test_labels.size());
}

Confusion confusion(const core::LinearModel& model, const core::Dataset& data) {
  Confusion counts;
  counts.n = data.n();
  counts.accuracy = model.accuracy(data);
  const models::ConfusionCounts c = models::confusion_counts(model.decision_values(data), data.labels());
  counts.true_positive = static_cast<std::size_t>(c.true_positive);
  counts.false_positive = static_cast<std::size_t>(c.false_positive);
  counts.true_negative = static_cast<std::size_t>(c.true_negative);
  counts.false_negative = static_cast<std::size_t>(c.false_negative);
  return counts;
}

std::string confusion_counts(const Confusion& counts) {
  return fmt::format("{} examples; true +1 {}, false +1 {}, true -1 {}, false -1 {}", counts.n, counts.true_positive,
                     counts.false_positive, counts.true_negative, counts.false_negative);
}

}  // namespace sparsesvm::experiment
