#pragma once
// The condition fields of the collected CSVs (results, summary, numeric tables, paired tests, objective
// ratios, convergence): `condition` as a whole ("none" for a data set without a generator grid: an
// empty field would read as missing, NaN in pandas, and drop out of a groupby), then one column
// condition_<key> per generator grid parameter of the config, in order of first appearance, empty
// where a data set has no such parameter.
#include <string>
#include <utility>
#include <vector>

#include "experiment/config.hpp"

namespace sparsesvm::experiment {

class ConditionColumns {
 public:
  explicit ConditionColumns(const ExperimentConfig& config);

  // `before`, the condition's column names, `after`.
  std::vector<std::string> header(std::vector<std::string> before, const std::vector<std::string>& after) const;

  // `before`, the fields of `condition` (a DatasetInstance's, "" or "noise_dims=10,flip_fraction=0.1"), `after`.
  std::vector<std::string> fields(std::vector<std::string> before, const std::string& condition,
                                  const std::vector<std::string>& after) const;

 private:
  std::vector<std::string> keys_;
};

// The `condition` field of a DatasetInstance's condition: "none" for a set without a generator grid.
std::string condition_field(const std::string& condition);

}  // namespace sparsesvm::experiment
