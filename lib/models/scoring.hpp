#pragma once
// The scores model selection can optimize (a config's protocol.inner.metric, `fit --scoring`), each a
// function of a model's decision values f and the true labels (+1 / -1). A prediction is +1 where f >= 0,
// as core::LinearModel::predict makes it. With tp, fp, tn, fn the confusion counts of class +1:
//   accuracy            (tp + tn) / n; 0 for no examples (as LinearModel::accuracy)
//   error_rate          1 - accuracy, the papers' tables' measure; lower is better
//   balanced_accuracy   the mean, over the classes present in the labels, of each class's recall
//                       (tp / (tp + fn) and tn / (tn + fp)): scikit-learn's balanced_accuracy_score
//   f1                  2 tp / (2 tp + fp + fn) for class +1; 0 when tp + fp + fn = 0 (scikit-learn's f1_score
//                       with zero_division=0), no examples included
//   roc_auc             the probability that a random +1 example has a larger f than a random -1 example,
//                       ties counting one half (the Mann-Whitney statistic, scikit-learn's roc_auc_score);
//                       NaN when the labels have one class or a decision value is NaN (it ranks them)
// balanced_accuracy is NaN for no examples; accuracy 0 and error_rate 1 (as LinearModel::accuracy). A NaN
// decision predicts -1 for the counting metrics, as LinearModel::predict does.
#include <string>
#include <string_view>
#include <vector>

#include "core/dataset.hpp"

namespace sparsesvm::models {

enum class Metric { accuracy, error_rate, balanced_accuracy, f1, roc_auc };

struct Scorer {
  Metric metric;
  std::string_view name;
  bool higher_is_better;
  double (*score)(const core::Vector& decisions, const core::Vector& labels);
};

// The confusion counts of class +1 (a prediction is +1 where f >= 0; a NaN decision predicts -1).
struct ConfusionCounts {
  double true_positive = 0, false_positive = 0, true_negative = 0, false_negative = 0;
};
ConfusionCounts confusion_counts(const core::Vector& decisions, const core::Vector& labels);

// Every scorer, in the order of Metric.
const std::vector<Scorer>& scorers();
const Scorer& scorer(Metric metric);
std::string_view to_string(Metric metric);
// The metric called `name`; an InputError "unknown metric 'x' (did you mean ...? known: ...)" otherwise.
Metric parse_metric(const std::string& name);
std::vector<std::string> metric_names();

double score(Metric metric, const core::Vector& decisions, const core::Vector& labels);
// True when score `a` is strictly better than score `b` under the metric's direction.
bool better_score(Metric metric, double a, double b);

// score(), or an InputError saying why the metric is undefined on these labels and decisions (one class for
// ROC AUC, NaN decision values): a NaN would read as a fit without a solution in a selection.
double defined_score(Metric metric, const core::Vector& decisions, const core::Vector& labels);

}  // namespace sparsesvm::models
