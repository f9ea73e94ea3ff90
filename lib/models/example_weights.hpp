#pragma once
// Per-example weights s_i >= 0 that scale each example's loss: c_i = s_i * (the method's own c_i), with
// the method's normalizations (a class's count, n) taken as weight sums, so that an integer weight equals
// that many copies of the example and a zero weight equals its removal, for every weighting of methods.hpp.
// A class weight gives every example of a class the same s_i: "balanced" is n / (2 n_class), scikit-learn's
// rule; "positive=P,negative=N" gives P to the +1 class and N to the -1 class.
#include <string>

#include "core/dataset.hpp"

namespace sparsesvm::models {

struct ClassWeight {
  enum class Kind { none, balanced, given };
  Kind kind = Kind::none;
  double positive = 1.0;  // Kind::given
  double negative = 1.0;

  // "" or "none", "balanced", or "positive=P,negative=N" (either part may be left out: weight 1);
  // InputError naming `where` (when not empty) otherwise.
  static ClassWeight parse(const std::string& text, const std::string& where);
  // The spelling parse() reads back ("" for none): task fingerprints and manifests.
  std::string to_string() const;
  bool is_none() const { return kind == Kind::none; }
};

// s_i for `labels` (+-1): empty for ClassWeight::Kind::none (every s_i = 1).
core::Vector class_example_weights(const ClassWeight& weight, const core::Vector& labels);

// InputError naming `data` unless `weights` has one finite, non-negative value per example and each class
// has a positive total (a class of total weight 0 leaves its loss out and the objective without a model).
void check_example_weights(const core::Vector& weights, const core::Dataset& data);

}  // namespace sparsesvm::models
