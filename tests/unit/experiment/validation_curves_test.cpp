#include <catch2/catch.hpp>
#include <cmath>

#include "experiment/csv.hpp"
#include "experiment/validation_curves.hpp"

using namespace sparsesvm;

namespace {

// Inner scores of one method tuning lambda and mu over two outer splits, two folds each, by hand:
//   rep 0: (lambda 1, mu 1) 0.8, (1, 2) 0.9 chosen, (2, 1) 0.7, (2, 2) no solution in fold 1
//   rep 1: (1, 1) 0.6, (1, 2) 0.5, (2, 1) 0.75 chosen, (2, 2) 0.7
std::vector<std::vector<std::string>> hand_scores() {
  std::vector<std::vector<std::string>> lines = {
      {"dataset", "condition", "method", "rep", "fold", "candidate", "lambda", "mu", "score", "solved", "mean_score", "chosen"}};
  const auto add = [&](const char* rep, const char* candidate, const char* lambda, const char* mu, const char* mean,
                       const char* chosen, bool solved_second = true) {
    // A candidate with a fold without a solution has no mean (NaN on every line), as the runner writes it.
    const char* candidate_mean = solved_second ? mean : "nan";
    lines.push_back({"g", "none", "RLSVM0", rep, "0", candidate, lambda, mu, mean, "1", candidate_mean, chosen});
    lines.push_back({"g", "none", "RLSVM0", rep, "1", candidate, lambda, mu, solved_second ? mean : "nan",
                     solved_second ? "1" : "0", candidate_mean, chosen});
  };
  add("0", "0", "1", "1", "0.8", "0");
  add("0", "1", "1", "2", "0.9", "1");
  add("0", "2", "2", "1", "0.7", "0");
  add("0", "3", "2", "2", "0.95", "0", false);
  add("1", "0", "1", "1", "0.6", "0");
  add("1", "1", "1", "2", "0.5", "0");
  add("1", "2", "2", "1", "0.75", "1");
  add("1", "3", "2", "2", "0.7", "0");
  return lines;
}

}  // namespace

TEST_CASE("validation curves: per value, the best candidate of each split, then mean and std over splits",
          "[collect][validation_curve]") {
  const auto table = experiment::parse_csv(
      experiment::validation_curves_csv(hand_scores(), models::Metric::accuracy), "validation_curves.csv");
  REQUIRE(table.size() == 5);
  CHECK(table[0] == std::vector<std::string>{"dataset", "condition", "method", "parameter", "value", "mean_score",
                                             "std_score", "splits", "chosen"});
  // lambda 1: best 0.9 (rep 0), 0.6 (rep 1); lambda 2: 0.7 (rep 0; 0.95 had a fold without a solution), 0.75.
  CHECK(std::vector<std::string>(table[1].begin(), table[1].begin() + 6) ==
        std::vector<std::string>{"g", "none", "RLSVM0", "lambda", "1", "0.75"});
  CHECK(std::stod(table[1][6]) == Approx(std::sqrt(0.045)).epsilon(1e-12));
  CHECK((table[1][7] == "2" && table[1][8] == "1"));
  CHECK(table[2][4] == "2");
  CHECK(std::stod(table[2][5]) == Approx(0.725));
  CHECK(table[2][8] == "1");
  // mu 1: 0.8 and 0.75; mu 2: 0.9 and 0.7.
  CHECK(table[3][3] == "mu");
  CHECK(std::stod(table[3][5]) == Approx(0.775));
  CHECK(table[3][8] == "1");
  CHECK(std::stod(table[4][5]) == Approx(0.8));
  // Lower is better (error_rate): the worst of each split counts as its best; lambda 1 takes 0.8 and 0.5.
  const auto errors = experiment::parse_csv(
      experiment::validation_curves_csv(hand_scores(), models::Metric::error_rate), "validation_curves.csv");
  CHECK(std::stod(errors[1][5]) == Approx(0.65));
}
