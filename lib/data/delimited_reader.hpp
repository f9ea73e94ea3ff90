#pragma once
// Delimited text as the UCI repository ships it: one example a line, a class column, optional header,
// optional ID columns, '?' for a missing value.
#include <optional>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "data/label_map.hpp"

namespace sparsesvm::data {

enum class MissingPolicy {
  error,     // a missing value is an error naming file and line
  drop_row,  // rows with a missing value are left out (and counted in the provenance)
  keep,      // kept as NaN, for MeanImputer fitted on the training part
};

struct DelimitedOptions {
  char delimiter = ',';                 // 0 means runs of blanks
  // The delimiter was not given: ',' unless the first line has no ',' but a ';' or a tab, which is then used.
  bool sniff_delimiter = false;
  std::optional<bool> header;           // unset: a header when the first row has a non-numeric feature field
  int label_column = -1;                // 0-based; negative counts from the end (-1 is the last column)
  std::string label_column_name;        // when set: the header field of that name is the class column (the
                                        // first line is then the header)
  std::vector<int> drop_columns;        // 0-based columns to ignore, e.g. an ID; negative counts from the end
  LabelMap labels;
  bool has_label_column = true;         // false: every column (but drop_columns) is a feature; labels +1
  MissingPolicy missing = MissingPolicy::error;
  std::string missing_token = "?";
  std::string name;                     // dataset name; default: the file name without directory and extension
};

core::Dataset read_delimited(const std::string& path, const DelimitedOptions& options);

// "error", "drop_row", "keep"; the parse throws InputError listing those.
std::string to_string(MissingPolicy policy);
MissingPolicy parse_missing_policy(const std::string& text);

// "data/sonar.csv" -> "sonar".
std::string file_stem(const std::string& path);

}  // namespace sparsesvm::data
