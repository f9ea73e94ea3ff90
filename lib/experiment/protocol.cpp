#include "experiment/protocol.hpp"

#include <cmath>
#include <stdexcept>

#include "core/enum_names.hpp"

namespace sparsesvm::experiment {
namespace {

constexpr std::pair<Outer, std::string_view> kOuterNames[] = {{Outer::holdout, "holdout"},
                                                               {Outer::kfold, "kfold"},
                                                               {Outer::half_half, "half_half"},
                                                               {Outer::train_tune_test, "train_tune_test"},
                                                               {Outer::given, "given"}};
constexpr std::pair<Inner, std::string_view> kInnerNames[] = {{Inner::kfold, "kfold"},
                                                               {Inner::tuning_sets, "tuning_sets"},
                                                               {Inner::tuning_set, "tuning_set"},
                                                               {Inner::none, "none"}};

}  // namespace

std::string_view to_string(Outer outer) { return core::enum_name(kOuterNames, outer); }
std::string_view to_string(Inner inner) { return core::enum_name(kInnerNames, inner); }
Outer parse_outer(const std::string& name) { return core::enum_value(kOuterNames, name, "outer protocol"); }
Inner parse_inner(const std::string& name) { return core::enum_value(kInnerNames, name, "inner selection"); }

std::size_t outer_count(const Protocol& protocol) {
  switch (protocol.outer) {
    case Outer::kfold: return protocol.outer_folds * protocol.partitions;
    case Outer::holdout:
    case Outer::half_half:
    case Outer::train_tune_test: return protocol.repetitions;
    case Outer::given: return 1;
  }
  throw std::logic_error("an outer protocol without a count");
}

double test_train_ratio(const Protocol& protocol) {
  if (protocol.fresh_sample) return 0.0;
  if (protocol.independent_test || protocol.outer == Outer::given) return std::nan("");
  switch (protocol.outer) {
    case Outer::kfold: return 1.0 / static_cast<double>(protocol.outer_folds - 1);
    case Outer::half_half: return 1.0;
    case Outer::train_tune_test: return static_cast<double>(protocol.test_size) / static_cast<double>(protocol.train_size);
    case Outer::holdout: return protocol.test_fraction / (1.0 - protocol.test_fraction);
    case Outer::given: break;  // (above)
  }
  throw std::logic_error("an outer protocol without a test/train ratio");
}

}  // namespace sparsesvm::experiment
