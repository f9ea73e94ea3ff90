#include <catch2/catch.hpp>

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
