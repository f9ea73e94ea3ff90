#include <catch2/catch.hpp>
#include <cmath>

#include "core/linear_model.hpp"
#include "models/selection.hpp"
#include "models/methods.hpp"

using namespace sparsesvm;
using models::Candidate;
using models::select_candidate;

namespace {

const models::ParameterTable& rlsvm_table() { return models::find_method("RLSVM1").parameters; }

// lambda is "more regularized when larger"; a C-like parameter "when smaller".
models::ParameterTable c_table() {
  models::ParameterSpec c{"C", "hinge weight", 1.0, 0.0, 1e10, true, false, models::Scale::log,
                          models::Regularizes::when_smaller};
  return {c};
}

const models::SelectionRules kBestMost{models::SelectionRule::best, models::TieRule::most_regularized};
const models::SelectionRules kBestLeast{models::SelectionRule::best, models::TieRule::least_regularized};
const models::SelectionRules kMedian{models::SelectionRule::median_of_best, models::TieRule::most_regularized};

}  // namespace

TEST_CASE("best: highest score; ties to the most (or least) regularized value", "[selection]") {
  // Scores by hand: lambda 0.1 -> 0.80, 0.5 -> 0.85, 1 -> 0.85, 2 -> 0.70.
  const std::vector<Candidate> table = {
      {{{"lambda", 0.1}}, 0.80}, {{{"lambda", 0.5}}, 0.85}, {{{"lambda", 1.0}}, 0.85}, {{{"lambda", 2.0}}, 0.70}};
  CHECK(select_candidate(table, rlsvm_table(), {"lambda"}, kBestMost) == 2);   // larger lambda
  CHECK(select_candidate(table, rlsvm_table(), {"lambda"}, kBestLeast) == 1);  // smaller lambda
  // For C the direction flips: most regularized is the smaller C.
  const std::vector<Candidate> c_scores = {{{{"C", 1.0}}, 0.9}, {{{"C", 10.0}}, 0.9}, {{{"C", 100.0}}, 0.8}};
  CHECK(select_candidate(c_scores, c_table(), {"C"}, kBestMost) == 0);
  CHECK(select_candidate(c_scores, c_table(), {"C"}, kBestLeast) == 1);
}

TEST_CASE("best: two tuned parameters break ties in table order; ineligible never wins", "[selection]") {
  // (lambda, mu): the best score 0.9 is reached by (1, 0.5), (1, 0.2) and (0.5, 0.2). Most regularized
  // prefers lambda 1; among those mu (no direction) goes to its smaller value 0.2.
  const std::vector<Candidate> table = {{{{"lambda", 1.0}, {"mu", 0.5}}, 0.9},
                                        {{{"lambda", 1.0}, {"mu", 0.2}}, 0.9},
                                        {{{"lambda", 0.5}, {"mu", 0.2}}, 0.9},
                                        {{{"lambda", 5.0}, {"mu", 0.2}}, 0.95, false}};
  CHECK(select_candidate(table, rlsvm_table(), {"lambda", "mu"}, kBestMost) == 1);
  CHECK(select_candidate(table, rlsvm_table(), {"lambda", "mu"}, kBestLeast) == 2);
  const std::vector<Candidate> none = {{{{"lambda", 1.0}}, 0.9, false}};
  CHECK(select_candidate(none, rlsvm_table(), {"lambda"}, kBestMost) == 1);  // none eligible
}

TEST_CASE("median_of_best: the rounded-down median of the values with the best score ([RW] 4)", "[selection]") {
  // C = 1e-2 .. 1e3; best error reached at C = 1e-1, 1, 10, 100 (four values): the lower middle is 1.
  std::vector<Candidate> table;
  const std::vector<double> scores = {0.7, 0.9, 0.9, 0.9, 0.9, 0.8};
  double c = 1e-2;
  for (double score : scores) {
    table.push_back({{{"C", c}}, score});
    c *= 10;
  }
  CHECK(select_candidate(table, c_table(), {"C"}, kMedian) == 2);  // C = 1
  table[4].score = 0.5;  // now three best: 1e-1, 1, 10 -> the middle one, 1
  CHECK(select_candidate(table, c_table(), {"C"}, kMedian) == 2);
  table[2].score = 0.5;  // two best: 1e-1, 10 -> rounded down: 1e-1
  CHECK(select_candidate(table, c_table(), {"C"}, kMedian) == 1);
  // For lambda the more regularized middle is the larger: best at 0.001, 0.01, 0.1, 1 -> 0.1.
  std::vector<Candidate> lambdas;
  for (double lambda : {0.001, 0.01, 0.1, 1.0}) lambdas.push_back({{{"lambda", lambda}}, 0.9});
  CHECK(select_candidate(lambdas, rlsvm_table(), {"lambda"}, kMedian) == 2);
  // A second tuned parameter with one grid value does not count.
  for (Candidate& candidate : lambdas) candidate.values["mu"] = 1.0;
  CHECK(select_candidate(lambdas, rlsvm_table(), {"lambda", "mu"}, kMedian) == 2);
}

TEST_CASE("scores equal up to summation order tie", "[selection]") {
  // The same five fold accuracies in another order: the sums differ in the last bit.
  const double a = 0.1 + 0.7 + 0.3 + 0.9 + 0.6, b = 0.9 + 0.3 + 0.6 + 0.1 + 0.7;
  REQUIRE(a != b);
  const std::vector<Candidate> table = {{{{"lambda", 0.5}}, a / 5}, {{{"lambda", 2.0}}, b / 5}};
  CHECK(select_candidate(table, rlsvm_table(), {"lambda"}, kBestMost) == 1);
  CHECK(select_candidate(table, rlsvm_table(), {"lambda"}, kBestLeast) == 0);
}

TEST_CASE("a metric where lower is better selects its smallest score", "[selection][scoring]") {
  // Error rates by lambda: 0.2, 0.1, 0.1, 0.3. The best is the smallest; its tie goes to the larger lambda.
  const std::vector<Candidate> table = {
      {{{"lambda", 0.1}}, 0.2}, {{{"lambda", 0.5}}, 0.1}, {{{"lambda", 1.0}}, 0.1}, {{{"lambda", 2.0}}, 0.3}};
  const models::SelectionRules error_rate{models::SelectionRule::best, models::TieRule::most_regularized,
                                          models::Metric::error_rate};
  CHECK(select_candidate(table, rlsvm_table(), {"lambda"}, error_rate) == 2);
  CHECK(select_candidate(table, rlsvm_table(), {"lambda"}, kBestMost) == 3);  // accuracy: the largest
}

TEST_CASE("scorers on hand-counted cases", "[scoring]") {
  using models::Metric;
  using models::score;
  // Labels + + + - - - - -, decisions chosen so that tp = 2, fn = 1, tn = 3, fp = 2 (f = 0 predicts +1).
  core::Vector labels(8), decisions(8);
  labels << 1, 1, 1, -1, -1, -1, -1, -1;
  decisions << 2.0, 0.0, -1.0, 0.5, 0.0, -0.5, -2.0, -3.0;
  CHECK(score(Metric::accuracy, decisions, labels) == 5.0 / 8.0);
  CHECK(score(Metric::error_rate, decisions, labels) == 1.0 - 5.0 / 8.0);
  CHECK(score(Metric::balanced_accuracy, decisions, labels) == Approx((2.0 / 3.0 + 3.0 / 5.0) / 2).epsilon(1e-15));
  CHECK(score(Metric::f1, decisions, labels) == Approx(4.0 / (4.0 + 2.0 + 1.0)).epsilon(1e-15));
  // ROC AUC by counting the 15 (positive, negative) pairs: the positive 2.0 beats all 5; 0.0 beats 3 and
  // ties 1 (0.0); -1.0 beats 2 (-2, -3). (5 + 3.5 + 2) / 15.
  CHECK(score(Metric::roc_auc, decisions, labels) == Approx(10.5 / 15.0).epsilon(1e-15));
  // Accuracy agrees with LinearModel::accuracy to the bit (rows with accuracy must not move).
  core::DenseMatrix x(8, 1);
  x.col(0) = decisions;
  const core::Dataset data("hand", x, labels, {}, {});
  const core::LinearModel model(core::Vector::Ones(1), 0.0);
  CHECK(score(Metric::accuracy, model.decision_values(data), labels) == model.accuracy(data));
  // One class: ROC AUC is undefined, balanced accuracy is that class's recall, F1 counts what it can.
  const core::Vector positives = core::Vector::Ones(3), three = decisions.head(3);
  CHECK(std::isnan(score(Metric::roc_auc, three, positives)));
  CHECK(score(Metric::balanced_accuracy, three, positives) == Approx(2.0 / 3.0).epsilon(1e-15));
  const core::Vector negatives = -core::Vector::Ones(2);
  CHECK(score(Metric::f1, decisions.tail(2), negatives) == 0.0);  // tp + fp + fn = 0
  CHECK(score(Metric::f1, core::Vector(), core::Vector()) == 0.0);
  // A NaN decision has no rank: ROC AUC is undefined (not a hang or a sort on a broken order), and
  // defined_score says why; the counting metrics predict -1 for it, as LinearModel::predict does.
  core::Vector with_nan = decisions;
  with_nan[1] = std::nan("");
  CHECK(std::isnan(score(Metric::roc_auc, with_nan, labels)));
  CHECK_THROWS_WITH(models::defined_score(Metric::roc_auc, with_nan, labels), Catch::Contains("1 of 8 decision values are NaN"));
  CHECK(score(Metric::accuracy, with_nan, labels) == 4.0 / 8.0);
  CHECK_THROWS_WITH(models::defined_score(Metric::roc_auc, three, positives), Catch::Contains("it needs both classes"));
}

TEST_CASE("metric names: every scorer by name, unknown ones refused with a suggestion", "[scoring]") {
  for (const models::Scorer& scorer : models::scorers()) {
    CHECK(models::parse_metric(std::string(scorer.name)) == scorer.metric);
    CHECK(&models::scorer(scorer.metric) == &scorer);
  }
  CHECK_THROWS_WITH(models::parse_metric("balanced_acuracy"),
                    Catch::Contains("unknown metric 'balanced_acuracy' (did you mean 'balanced_accuracy'?"));
  CHECK_THROWS_WITH(models::parse_selection_rule("medianofbest"), Catch::Contains("unknown selection rule"));
  CHECK_THROWS_WITH(models::parse_tie_rule("most"), Catch::Contains("known: most_regularized, least_regularized"));
}
