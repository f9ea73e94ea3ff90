#include "experiment/data_check.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <set>
#include <vector>

#include "core/errors.hpp"
#include "data/load.hpp"

namespace sparsesvm::experiment {
namespace {

// Why no task could fit this data set, or "".
std::string unusable(const core::Dataset& data) {
  if (data.d() == 0) {
    return "no features (d = 0): every column but the class column was dropped or the file has one column; check "
           "delimiter, label_column and drop_columns (YAML loader: {...}, or -o key=value)";
  }
  std::size_t positives = 0;
  for (Eigen::Index i = 0; i < data.labels().size(); ++i) positives += data.labels()[i] > 0 ? 1 : 0;
  if (positives == 0 || positives == data.n()) {
    return fmt::format("one class only ({} examples, all {}): check the class rule (positive, negative, "
                       "most_frequent) and label_column", data.n(), positives == 0 ? "negative" : "positive");
  }
  if (!data.is_sparse()) {
    const core::DenseMatrix& x = data.dense();
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      if ((x.col(j).array() != x(0, j)).any()) return "";
    }
  } else {
    // Per column: stored entries and their range; a column is constant when the stored values equal
    // each other and, where some rows are not stored (zeros), equal 0.
    const core::SparseMatrix& x = data.sparse();
    std::vector<std::size_t> stored(data.d(), 0);
    std::vector<double> low(data.d(), 0.0), high(data.d(), 0.0);
    for (Eigen::Index outer = 0; outer < x.outerSize(); ++outer) {
      for (core::SparseMatrix::InnerIterator entry(x, outer); entry; ++entry) {
        const auto j = static_cast<std::size_t>(entry.col());
        low[j] = stored[j] == 0 ? entry.value() : std::min(low[j], entry.value());
        high[j] = stored[j] == 0 ? entry.value() : std::max(high[j], entry.value());
        ++stored[j];
      }
    }
    for (std::size_t j = 0; j < data.d(); ++j) {
      const bool all_stored = stored[j] == data.n();
      if (low[j] != high[j] || (!all_stored && stored[j] > 0 && low[j] != 0.0)) return "";
    }
  }
  return "every feature is constant: no classifier can use it";
}

}  // namespace

void check_data_files(const ExperimentConfig& config) {
  std::set<std::string> checked;  // a file listed under several conditions is loaded once
  for (std::size_t k = 0; k < config.datasets.size(); ++k) {
    const DatasetInstance& instance = config.datasets[k];
    if (!instance.generator.empty() || !instance.missing_hint.empty()) continue;  // generated: checked on load
    if (!checked.insert(instance.content.key + "|" + instance.source.format).second) continue;
    const std::string where = fmt::format("{}: {} (data set '{}')", config.path, instance.key, instance.name);
    try {
      const core::Dataset data = data::load_dataset(instance.source);
      if (const std::string problem = unusable(data); !problem.empty()) {
        throw core::InputError(fmt::format("{}: {}", instance.source.location, problem));
      }
    } catch (const core::InputError& error) {
      throw core::InputError(fmt::format("{}: {}", where, error.what()));
    }
  }
}

}  // namespace sparsesvm::experiment
