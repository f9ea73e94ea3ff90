#pragma once
// Metrics of one fitted model, exactly as shared/REPRODUCTION.md defines them:
//   accuracy / train_accuracy   fraction of correct predictions on the test / training part
//   n_features, frac_features   #{j : |w_j| > 1e-6} and that over d
//   fp_features, fn_features    selected noise features / unselected informative ones (synthetic data)
//   n_sv, frac_sv               support vectors on the training data: hinge y f < 1 + 1e-2;
//                               ramp y f in [-mu^2 - 1e-2, mu + 1e-2]   ([DCA] section 4)
//   frac_params                 (n_features * n_sv) / (d * n_train)     ([DCA] Fig. 8, 10)
//   majority_accuracy           the baseline: accuracy on the test part of always predicting the training
//                               part's majority class (+1 on a tie, as f = 0 predicts), like scikit-learn's
//                               DummyClassifier(strategy="most_frequent")
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/dataset.hpp"
#include "core/linear_model.hpp"
#include "models/scoring.hpp"

namespace sparsesvm::experiment {

inline constexpr double kSupportVectorSlack = 1e-2;

// Result columns that collect summarizes (mean, std) and that tables.metrics may name: the metrics
// below (with the inner metric's, inner_score_columns), then the run's method columns (config.hpp
// summarized_method_columns), so a table can show the selected lambda or mu, or an algorithm's statistic.
std::vector<std::string> summary_metric_names(const std::vector<std::string>& method_columns, models::Metric inner_metric);

// The columns of a row that score it under the inner metric (protocol.inner.metric): with accuracy, the
// chosen candidate's mean inner accuracy `cv_accuracy` and the test part's `accuracy`; with another metric,
// its name `cv_metric`, the chosen candidate's mean inner score `cv_score`, the test `accuracy` and the test
// score under the metric in a column named after it (`balanced_accuracy`, `roc_auc`, ...).
std::vector<std::string> inner_score_columns(models::Metric inner_metric);

struct ModelMetrics {
  double accuracy = 0.0;
  double train_accuracy = 0.0;
  std::size_t n_features = 0;
  double frac_features = 0.0;
  std::optional<std::size_t> fp_features;
  std::optional<std::size_t> fn_features;
  std::size_t n_sv = 0;
  double frac_sv = 0.0;
  double frac_params = 0.0;
};

// Accuracy and the confusion counts of a model on labelled data (+1 is the loader's positive class; f = 0
// predicts +1, as LinearModel::predict does).
struct Confusion {
  std::size_t n = 0;
  double accuracy = 0.0;
  std::size_t true_positive = 0, false_positive = 0, true_negative = 0, false_negative = 0;
};
Confusion confusion(const core::LinearModel& model, const core::Dataset& data);
// "208 examples; true +1 102, false +1 9, true -1 88, false -1 9"
std::string confusion_counts(const Confusion& counts);

// The fraction of `test_labels` equal to the majority of `train_labels` (+1 on a tie); NaN for an empty test part.
double majority_accuracy(const core::Vector& train_labels, const core::Vector& test_labels);

// `support_region` is the loss's (Loss::support_region): margins inside it, widened by
// kSupportVectorSlack, count as support vectors.
ModelMetrics model_metrics(const core::LinearModel& model, const core::Dataset& train, const core::Dataset& test,
                           std::pair<double, double> support_region);

}  // namespace sparsesvm::experiment
