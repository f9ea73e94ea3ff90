#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <set>

#include "core/errors.hpp"
#include "data/splits.hpp"

using namespace sparsesvm;

namespace {

// 70 positives then 30 negatives.
core::Vector unbalanced_labels() {
  core::Vector y = core::Vector::Constant(100, -1.0);
  y.head(70).setOnes();
  return y;
}

std::size_t positives_in(const core::Vector& y, const std::vector<std::size_t>& rows) {
  return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [&](std::size_t i) { return y[static_cast<Eigen::Index>(i)] > 0; }));
}

void check_partition(const data::Split& split, std::size_t n) {
  std::vector<std::size_t> all = split.train;
  all.insert(all.end(), split.test.begin(), split.test.end());
  std::sort(all.begin(), all.end());
  std::vector<std::size_t> expected(n);
  std::iota(expected.begin(), expected.end(), std::size_t{0});
  CHECK(all == expected);  // disjoint and covering
}

}  // namespace

TEST_CASE("holdout: 70/30, disjoint, covering, stratified", "[splits]") {
  const core::Vector y = unbalanced_labels();
  core::Rng rng(1);
  const data::Split split = data::holdout_split(y, 0.3, true, rng);
  CHECK(split.test.size() == 30);
  check_partition(split, 100);
  CHECK(positives_in(y, split.test) == 21);  // 30% of 70
  CHECK(positives_in(y, split.train) == 49);
  CHECK_THROWS_AS(data::holdout_split(y, 1.0, false, rng), core::InputError);
}

TEST_CASE("k-fold: every example tested exactly once, folds stratified", "[splits]") {
  const core::Vector y = unbalanced_labels();
  core::Rng rng(2);
  const std::vector<data::Split> folds = data::kfold_splits(y, 5, true, rng);
  REQUIRE(folds.size() == 5);
  std::vector<int> tested(100, 0);
  for (const data::Split& fold : folds) {
    check_partition(fold, 100);
    CHECK(fold.test.size() == 20);
    CHECK(positives_in(y, fold.test) == 14);
    for (std::size_t i : fold.test) ++tested[i];
  }
  CHECK(std::all_of(tested.begin(), tested.end(), [](int t) { return t == 1; }));
  core::Rng again(2);
  CHECK(data::kfold_splits(y, 5, false, again).size() == 5);
  CHECK_THROWS_AS(data::kfold_splits(y, 1, false, rng), core::InputError);
}

TEST_CASE("repeated holdout: seeds from (experiment, data set, repetition) only", "[splits]") {
  const core::Vector y = unbalanced_labels();
  const auto twenty = data::repeated_holdout(y, 0.3, 20, false, 7, "sonar");
  const auto three = data::repeated_holdout(y, 0.3, 3, false, 7, "sonar");
  // Asking for fewer repetitions, or running them in another order, gives the same splits.
  for (std::size_t r = 0; r < 3; ++r) {
    CHECK(twenty[r].test == three[r].test);
    core::Rng alone(data::split_seed(7, "sonar", r));
    CHECK(data::holdout_split(y, 0.3, false, alone).test == twenty[r].test);
  }
  CHECK(twenty[0].test != twenty[1].test);
  CHECK(data::repeated_holdout(y, 0.3, 1, false, 7, "pima")[0].test != twenty[0].test);
  CHECK(data::repeated_holdout(y, 0.3, 1, false, 8, "sonar")[0].test != twenty[0].test);
}

TEST_CASE("tuning-set rule: ten disjoint 10% tuning parts of the training part", "[splits]") {
  core::Rng rng(3);
  const auto parts = data::tuning_set_splits(135, 10, 0.1, rng);
  REQUIRE(parts.size() == 10);
  std::set<std::size_t> seen;
  for (const data::Split& part : parts) {
    CHECK(part.test.size() == 13);  // floor(13.5)
    check_partition(part, 135);
    for (std::size_t i : part.test) CHECK(seen.insert(i).second);  // no example in two tuning parts
  }
  CHECK_THROWS_WITH(data::tuning_set_splits(9, 10, 0.1, rng), Catch::Contains("cannot take 10 disjoint parts"));
  // Positions map back to rows of the data set.
  CHECK(data::compose({10, 20, 30}, {2, 0}) == std::vector<std::size_t>{30, 10});
}

TEST_CASE("fixed train/tune/test sizes (PSI on WDBC: 100/100/369)", "[splits]") {
  core::Rng rng(4);
  const data::TrainTuneTest split = data::fixed_size_split(569, 100, 100, 369, rng);
  CHECK(split.train.size() == 100);
  CHECK(split.tune.size() == 100);
  CHECK(split.test.size() == 369);
  std::set<std::size_t> all(split.train.begin(), split.train.end());
  all.insert(split.tune.begin(), split.tune.end());
  all.insert(split.test.begin(), split.test.end());
  CHECK(all.size() == 569);
  CHECK_THROWS_AS(data::fixed_size_split(100, 60, 30, 20, rng), core::InputError);
}
