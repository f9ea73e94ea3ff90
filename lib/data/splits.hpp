#pragma once
// Splits of examples into parts, as index lists (sorted, 0-based rows of the data set they were made
// for). Every protocol of the papers is here:
//   holdout_split        one train/test split by a test fraction ([DCA] 70/30; [RW] half/half)
//   kfold_splits         k folds, each the test part once ([DCA] 5-fold CV, [FSV] 10-fold CV)
//   repeated_holdout     repetition r uses the seed split_seed(experiment seed, data set id, r)
//   tuning_set_splits    [FSV] section 4: ten disjoint 10% tuning parts of a training part
//   fixed_size_split     train/tune/test of given sizes ([PSI] 100/100/369 on WDBC)
// Stratified variants keep each class's share in every part (up to rounding).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/dataset.hpp"
#include "core/rng.hpp"

namespace sparsesvm::data {

struct Split {
  std::vector<std::size_t> train;
  std::vector<std::size_t> test;
};

struct TrainTuneTest {
  std::vector<std::size_t> train;
  std::vector<std::size_t> tune;
  std::vector<std::size_t> test;
};

// The seed of repetition `repetition` of data set `dataset_id`: independent of the method and of the
// order in which work runs, so every method sees the same splits.
std::uint64_t split_seed(std::uint64_t experiment_seed, std::string_view dataset_id, std::uint64_t repetition);

// round(test_fraction * n) test examples (per class when stratified).
Split holdout_split(const core::Vector& labels, double test_fraction, bool stratified, core::Rng& rng);

// Example p of the shuffled order (classes one after the other when stratified) goes to fold p mod k.
std::vector<Split> kfold_splits(const core::Vector& labels, std::size_t k, bool stratified, core::Rng& rng);

std::vector<Split> repeated_holdout(const core::Vector& labels, double test_fraction, std::size_t repetitions,
                                    bool stratified, std::uint64_t experiment_seed, std::string_view dataset_id);

// `parts` disjoint tuning parts of floor(fraction * n_train) examples each, of a training part with
// n_train examples; indices are positions within that training part.
std::vector<Split> tuning_set_splits(std::size_t n_train, std::size_t parts, double fraction, core::Rng& rng);

// n_test may be 0 when the test part comes from elsewhere (an independent generated sample).
TrainTuneTest fixed_size_split(std::size_t n, std::size_t n_train, std::size_t n_tune, std::size_t n_test,
                               core::Rng& rng);

// Maps positions within `part` to the rows they stand for: result[i] = part[positions[i]].
std::vector<std::size_t> compose(const std::vector<std::size_t>& part, const std::vector<std::size_t>& positions);

}  // namespace sparsesvm::data
