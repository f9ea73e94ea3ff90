#pragma once
// How the raw class values of a file become labels in {-1, +1}.
//   positive      values mapped to +1 (numbers compare by value: "1", "1.0" and "+1" are the same)
//   negative      when given, the only values mapped to -1; any other value is an error
//   threshold     numeric class values above it are +1, the rest -1 (e.g. a survival time)
//   most_frequent one-vs-rest: the most frequent value is +1 (ties: the one seen first)
// With none of these, two numeric values map the larger to +1 ({-1,1}, {0,1}, {1,2}); anything else
// is an error that lists the values found and asks for a mapping.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/dataset.hpp"

namespace sparsesvm::data {

struct LabelMap {
  std::vector<std::string> positive;
  std::vector<std::string> negative;
  std::optional<double> threshold;
  bool most_frequent = false;
  // Applying a model to new data: a file may hold one class only (not a loader option).
  bool allow_one_class = false;

  // For provenance, e.g. "positive=M" or "threshold=24" or "auto".
  std::string describe() const;
};

// A raw class value and the line it came from.
struct RawLabel {
  std::string value;
  std::size_t line;
};

// Throws InputError naming the file (and line) on an unmapped value, or when only one class remains.
// `resolved`, when given, receives the mapping as applied, in loader option form: most_frequent and the
// automatic mapping become their positive (and, automatic, negative) values, so that new data can be read
// exactly as this file was (a model file keeps it).
core::Vector map_labels(const std::vector<RawLabel>& raw, const LabelMap& map, const std::string& file,
                        LabelMap* resolved = nullptr);

}  // namespace sparsesvm::data
