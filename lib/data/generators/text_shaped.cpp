// A stand-in shaped like a text collection (RCV1, [RW] Table 2's Reuters: 23,149 x 47,236, about 77
// nonzeros a row), stored sparse (CSR). Not real text: a generator of its shape.
//   Vocabulary. Drawn from `vocabulary_seed`, the documents from `seed`, so that samples with other seeds
//   (an independent test set) share the terms' columns and the true w.
//   Terms. Feature ranks follow Zipf's law: the term of rank r (0-based) is drawn with probability
//   proportional to 1 / (r + 1)^zipf. Ranks are mapped to columns by a random permutation, so frequent
//   terms are spread over the columns as in a real vocabulary.
//   Rows. Example i gets k_i distinct terms, k_i uniform on [k - floor(k/2), k + floor(k/2)] for
//   k = nnz_per_row (mean k): tokens are drawn until k_i distinct terms are present (at most 50 k_i
//   draws: a steep law keeps fewer), and a term drawn t times has term frequency t.
//   Values. tf-idf as in text pipelines: (1 + ln tf) (1 + ln((1 + n) / (1 + df_j))), df_j the number of
//   rows containing term j; every row is then scaled to unit Euclidean norm.
//   Labels. A sparse true w: `informative` terms drawn uniformly among the most frequent tenth of the
//   ranks, each with a weight N(0, 1); y = +1 for the upper half of x.w and -1 for the lower half, ties
//   ordered at random (the classes are balanced; rows without an informative term all tie at 0). Label noise comes from the common flip keys.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "data/generators/generator_registry.hpp"

namespace sparsesvm::data {
namespace {

// Draws ranks with P(r) proportional to 1 / (r + 1)^exponent, by binary search in the cumulative weights.
class ZipfRanks {
 public:
  ZipfRanks(std::size_t ranks, double exponent) : cumulative_(ranks) {
    double total = 0.0;
    for (std::size_t r = 0; r < ranks; ++r) cumulative_[r] = total += std::pow(static_cast<double>(r + 1), -exponent);
  }
  std::size_t draw(core::Rng& rng) const {
    const double u = rng.uniform() * cumulative_.back();
    const auto found = std::upper_bound(cumulative_.begin(), cumulative_.end(), u);
    return std::min(static_cast<std::size_t>(found - cumulative_.begin()), cumulative_.size() - 1);
  }

 private:
  std::vector<double> cumulative_;
};

// The sparse sizes the generator accepts: at most this many stored values (400 MB of triplets).
constexpr double kMaxNonzeros = 2.5e7;
constexpr double kMaxColumns = 1e7;  // the generator keeps a few arrays of d entries (240 MB at 10^7)
constexpr std::size_t kDrawsPerTerm = 50;

}  // namespace

std::size_t check_text_shaped(const GeneratorParams& params) {
  const std::size_t n = params.count("n");
  const std::size_t d = params.count("d");
  const std::size_t per_row = params.count("nnz_per_row");
  const std::size_t informative = params.count("informative");
  const double zipf = params.real("zipf");
  if (n < 2 || d < 10 || static_cast<double>(d) > kMaxColumns || per_row < 2 || 3 * per_row > d) {
    throw core::InputError(fmt::format("generator text_shaped: need n >= 2, 10 <= d <= {:g} and 2 <= nnz_per_row <= d / 3, "
                                       "found n = {}, d = {}, nnz_per_row = {}", kMaxColumns, n, d, per_row));
  }
  if (static_cast<double>(n) * 1.5 * static_cast<double>(per_row) > kMaxNonzeros) {
    throw core::InputError(fmt::format("generator text_shaped: n x nnz_per_row = {} x {} exceeds the limit of {:g} "
                                       "nonzeros", n, per_row, kMaxNonzeros / 1.5));
  }
  if (informative < 1 || informative > std::max<std::size_t>(1, d / 10)) {
    throw core::InputError(fmt::format("generator text_shaped: need 1 <= informative <= d / 10 (the true w uses frequent "
                                       "terms), found informative = {} with d = {}", informative, d));
  }
  if (!(zipf >= 0.0 && zipf <= 3.0)) throw core::InputError("generator text_shaped: zipf must lie in [0, 3]");
  return n;
}

core::Dataset make_text_shaped(const GeneratorParams& params) {
  const std::size_t n = check_text_shaped(params);
  const std::size_t d = params.count("d");
  const std::size_t per_row = params.count("nnz_per_row");
  const std::size_t informative_count = params.count("informative");
  // The vocabulary (which column each rank is, and the true w) comes from its own seed, the documents from
  // `seed`: an independent test sample (another seed) speaks the same language.
  core::Rng vocabulary(params.seed_of("vocabulary_seed"));
  core::Rng rng(params.seed());
  std::vector<std::size_t> column_of_rank(d);
  std::iota(column_of_rank.begin(), column_of_rank.end(), std::size_t{0});
  vocabulary.shuffle(column_of_rank);
  const ZipfRanks ranks(d, params.real("zipf"));

  // Term frequencies, row by row: (column, tf), columns sorted.
  std::vector<std::vector<std::pair<std::size_t, double>>> rows(n);
  std::vector<std::size_t> document_frequency(d, 0);
  std::vector<double> frequency_in_row(d, 0.0);
  std::vector<std::size_t> present;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t half = per_row / 2;
    const std::size_t distinct = per_row - half + rng.index_below(2 * half + 1);  // uniform, mean per_row
    present.clear();
    // Tokens are drawn until `distinct` terms are present, at most kDrawsPerTerm per wanted term: with a
    // steep Zipf law the rare terms may take longer than that, and the row keeps what it has.
    for (std::size_t draws = 0; present.size() < distinct && draws < kDrawsPerTerm * distinct; ++draws) {
      const std::size_t j = column_of_rank[ranks.draw(rng)];
      if (frequency_in_row[j] == 0.0) present.push_back(j);
      frequency_in_row[j] += 1.0;
    }
    std::sort(present.begin(), present.end());
    for (const std::size_t j : present) {
      rows[i].emplace_back(j, frequency_in_row[j]);
      ++document_frequency[j];
      frequency_in_row[j] = 0.0;
    }
  }

  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t i = 0; i < n; ++i) {
    double squared_norm = 0.0;
    for (auto& [j, value] : rows[i]) {
      const double idf = 1.0 + std::log((1.0 + static_cast<double>(n)) / (1.0 + static_cast<double>(document_frequency[j])));
      value = (1.0 + std::log(value)) * idf;
      squared_norm += value * value;
    }
    const double norm = std::sqrt(squared_norm);
    for (const auto& [j, value] : rows[i]) entries.emplace_back(static_cast<int>(i), static_cast<int>(j), value / norm);
  }
  core::SparseMatrix x(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
  x.setFromTriplets(entries.begin(), entries.end());
  entries = {};

  // The true w on frequent terms, and balanced labels around the median score.
  core::Vector w_true = core::Vector::Zero(static_cast<Eigen::Index>(d));
  std::vector<bool> informative(d, false);
  for (const std::size_t rank : vocabulary.sample_without_replacement(std::max<std::size_t>(d / 10, informative_count),
                                                                        informative_count)) {
    const std::size_t j = column_of_rank[rank];
    w_true[static_cast<Eigen::Index>(j)] = vocabulary.normal(0.0, 1.0);
    informative[j] = true;
  }
  // Balanced labels: the examples ordered by score (ties in random order), the upper half positive.
  const core::Vector score = x * w_true;
  std::vector<std::pair<double, double>> score_and_tie_key(n);
  for (std::size_t i = 0; i < n; ++i) score_and_tie_key[i] = {score[static_cast<Eigen::Index>(i)], rng.uniform()};
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return score_and_tie_key[a] < score_and_tie_key[b]; });
  core::Vector y(static_cast<Eigen::Index>(n));
  for (std::size_t k = 0; k < n; ++k) y[static_cast<Eigen::Index>(order[k])] = k < n / 2 ? -1.0 : 1.0;
  core::Dataset data("text_shaped", std::move(x), std::move(y), {}, generator_provenance("text_shaped", params));
  data.set_informative_features(std::move(informative));
  return data;
}

}  // namespace sparsesvm::data
