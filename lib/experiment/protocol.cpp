#include "experiment/protocol.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "core/find_by_id.hpp"

namespace sparsesvm::experiment {
namespace {

constexpr std::pair<Outer, std::string_view> kOuterNames[] = {{Outer::holdout, "holdout"},
                                                               {Outer::kfold, "kfold"},
                                                               {Outer::half_half, "half_half"},
                                                               {Outer::train_tune_test, "train_tune_test"}};
constexpr std::pair<Inner, std::string_view> kInnerNames[] = {{Inner::kfold, "kfold"},
                                                               {Inner::tuning_sets, "tuning_sets"},
                                                               {Inner::tuning_set, "tuning_set"},
                                                               {Inner::none, "none"}};

template <typename Kind, std::size_t N>
std::string_view name_of(const std::pair<Kind, std::string_view> (&names)[N], Kind kind) {
  for (const auto& [value, name] : names) {
    if (value == kind) return name;
  }
  throw std::logic_error("a protocol kind without a name");
}

template <typename Kind, std::size_t N>
Kind kind_of(const std::pair<Kind, std::string_view> (&names)[N], const std::string& name, const char* what) {
  return core::find_by_id(names, name, what, [](const auto& row) { return std::string(row.second); }).first;
}

}  // namespace

std::string_view to_string(Outer outer) { return name_of(kOuterNames, outer); }
std::string_view to_string(Inner inner) { return name_of(kInnerNames, inner); }
Outer parse_outer(const std::string& name) { return kind_of(kOuterNames, name, "outer protocol"); }
Inner parse_inner(const std::string& name) { return kind_of(kInnerNames, name, "inner selection"); }

std::size_t outer_count(const Protocol& protocol) {
  switch (protocol.outer) {
    case Outer::kfold: return protocol.outer_folds * protocol.partitions;
    case Outer::holdout:
    case Outer::half_half:
    case Outer::train_tune_test: return protocol.repetitions;
  }
  throw std::logic_error("an outer protocol without a count");
}

double test_train_ratio(const Protocol& protocol) {
  if (protocol.fresh_sample) return 0.0;
  if (protocol.independent_test) return std::nan("");
  switch (protocol.outer) {
    case Outer::kfold: return 1.0 / static_cast<double>(protocol.outer_folds - 1);
    case Outer::half_half: return 1.0;
    case Outer::train_tune_test: return static_cast<double>(protocol.test_size) / static_cast<double>(protocol.train_size);
    case Outer::holdout: return protocol.test_fraction / (1.0 - protocol.test_fraction);
  }
  throw std::logic_error("an outer protocol without a test/train ratio");
}

}  // namespace sparsesvm::experiment
