#include "data/splits.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

#include "core/errors.hpp"

namespace sparsesvm::data {

using core::InputError;

std::uint64_t split_seed(std::uint64_t experiment_seed, std::string_view dataset_id, std::uint64_t repetition) {
  return core::derive_seed({experiment_seed, dataset_id, repetition});
}

namespace {

std::vector<std::size_t> all_rows(std::size_t n) {
  std::vector<std::size_t> rows(n);
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  return rows;
}

// Rows of each class in a random order (positives first), or all rows as one group.
std::vector<std::vector<std::size_t>> shuffled_groups(const core::Vector& labels, bool stratified, core::Rng& rng) {
  std::vector<std::vector<std::size_t>> groups;
  if (stratified) {
    groups.resize(2);
    for (Eigen::Index i = 0; i < labels.size(); ++i) groups[labels[i] > 0 ? 0 : 1].push_back(static_cast<std::size_t>(i));
  } else {
    groups.push_back(all_rows(static_cast<std::size_t>(labels.size())));
  }
  for (auto& group : groups) rng.shuffle(group);
  return groups;
}

std::size_t rounded_share(double fraction, std::size_t n) {
  return static_cast<std::size_t>(std::llround(fraction * static_cast<double>(n)));
}

void sort_split(Split& split) {
  std::sort(split.train.begin(), split.train.end());
  std::sort(split.test.begin(), split.test.end());
}

}  // namespace

Split holdout_split(const core::Vector& labels, double test_fraction, bool stratified, core::Rng& rng) {
  if (!(test_fraction > 0.0 && test_fraction < 1.0)) {
    throw InputError(fmt::format("holdout: test fraction must lie in (0, 1), found {}", test_fraction));
  }
  Split split;
  for (const auto& group : shuffled_groups(labels, stratified, rng)) {
    const std::size_t n_test = rounded_share(test_fraction, group.size());
    split.test.insert(split.test.end(), group.begin(), group.begin() + static_cast<std::ptrdiff_t>(n_test));
    split.train.insert(split.train.end(), group.begin() + static_cast<std::ptrdiff_t>(n_test), group.end());
  }
  sort_split(split);
  return split;
}

std::vector<Split> kfold_splits(const core::Vector& labels, std::size_t k, bool stratified, core::Rng& rng) {
  const auto n = static_cast<std::size_t>(labels.size());
  if (k < 2 || k > n) throw InputError(fmt::format("k-fold: need 2 <= k <= n, found k={} with n={}", k, n));
  std::vector<std::size_t> order;
  for (const auto& group : shuffled_groups(labels, stratified, rng)) order.insert(order.end(), group.begin(), group.end());
  std::vector<Split> folds(k);
  for (std::size_t p = 0; p < order.size(); ++p) {
    for (std::size_t f = 0; f < k; ++f) (f == p % k ? folds[f].test : folds[f].train).push_back(order[p]);
  }
  for (Split& fold : folds) sort_split(fold);
  return folds;
}

std::vector<Split> repeated_holdout(const core::Vector& labels, double test_fraction, std::size_t repetitions,
                                    bool stratified, std::uint64_t experiment_seed, std::string_view dataset_id) {
  std::vector<Split> splits;
  for (std::size_t r = 0; r < repetitions; ++r) {
    core::Rng rng(split_seed(experiment_seed, dataset_id, r));
    splits.push_back(holdout_split(labels, test_fraction, stratified, rng));
  }
  return splits;
}

std::vector<Split> tuning_set_splits(std::size_t n_train, std::size_t parts, double fraction, core::Rng& rng) {
  const auto part_size = static_cast<std::size_t>(std::floor(fraction * static_cast<double>(n_train)));
  if (parts == 0 || part_size == 0 || parts * part_size > n_train) {
    throw InputError(fmt::format("tuning-set rule: cannot take {} disjoint parts of {:.0f}% from {} examples", parts,
                                 100 * fraction, n_train));
  }
  std::vector<std::size_t> order = all_rows(n_train);
  rng.shuffle(order);
  std::vector<Split> splits(parts);
  for (std::size_t p = 0; p < order.size(); ++p) {
    for (std::size_t s = 0; s < parts; ++s) {
      const bool in_tuning_part = p >= s * part_size && p < (s + 1) * part_size;
      (in_tuning_part ? splits[s].test : splits[s].train).push_back(order[p]);
    }
  }
  for (Split& split : splits) sort_split(split);
  return splits;
}

TrainTuneTest fixed_size_split(std::size_t n, std::size_t n_train, std::size_t n_tune, std::size_t n_test,
                               core::Rng& rng) {
  if (n_train == 0 || n_train + n_tune + n_test > n) {
    throw InputError(fmt::format("train/tune/test sizes {}/{}/{} do not fit in {} examples (train must be positive)",
                                 n_train, n_tune, n_test, n));
  }
  std::vector<std::size_t> order = all_rows(n);
  rng.shuffle(order);
  const auto at = [&](std::size_t offset) { return order.begin() + static_cast<std::ptrdiff_t>(offset); };
  TrainTuneTest split{{order.begin(), at(n_train)}, {at(n_train), at(n_train + n_tune)},
                      {at(n_train + n_tune), at(n_train + n_tune + n_test)}};
  for (auto* part : {&split.train, &split.tune, &split.test}) std::sort(part->begin(), part->end());
  return split;
}

std::vector<std::size_t> compose(const std::vector<std::size_t>& part, const std::vector<std::size_t>& positions) {
  std::vector<std::size_t> rows;
  rows.reserve(positions.size());
  for (std::size_t p : positions) rows.push_back(part.at(p));
  return rows;
}

}  // namespace sparsesvm::data
