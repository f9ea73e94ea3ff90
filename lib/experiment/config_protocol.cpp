#include "experiment/config_reader.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace sparsesvm::experiment::config_detail {

Protocol read_protocol(const YAML::Node& node, const Reader& reader) {
  Protocol protocol;
  if (!node) return protocol;
  reader.check_keys(node, "protocol", {"outer", "inner", "selection"});
  if (const YAML::Node outer = node["outer"]) {
    const std::string key = "protocol.outer";
    reader.check_keys(outer, key, {"type", "test_fraction", "repetitions", "folds", "partitions", "stratified", "train",
                                   "tune", "test", "independent_test", "fresh_sample"});
    protocol.outer = read_choice(reader, outer, key, "type", "holdout", parse_outer);
    // Sizes the type does not use are named before any value is checked, never ignored; the message says
    // which type is in effect (it may come from an override or the default).
    // (half_half's and given's own refusals of test_fraction come below, with their reasons.)
    const auto unused_by_type = [&](const char* name, bool used, const std::string& users, const std::string& hint) {
      if (outer[name] && !used) {
        reader.fail(Reader::join(key, name),
                    fmt::format("applies to {} only; {}.type is {}{}", users, key, to_string(protocol.outer), hint));
      }
    };
    unused_by_type("folds", protocol.outer == Outer::kfold, "type kfold", "");
    unused_by_type("test_fraction", protocol.outer != Outer::kfold && protocol.outer != Outer::train_tune_test,
                   "type holdout", "");
    unused_by_type("repetitions", protocol.outer != Outer::kfold, "types holdout, half_half, train_tune_test and given",
                   " (k-fold repeats by partitions)");
    protocol.test_fraction = reader.optional<double>(outer, key, "test_fraction", 0.3, "a number");
    if (!(protocol.test_fraction > 0 && protocol.test_fraction < 1)) reader.fail(key + ".test_fraction", "must lie in (0, 1)");
    if (protocol.outer == Outer::half_half) {
      if (outer["test_fraction"]) reader.fail(key + ".test_fraction", "half_half splits in halves; use holdout to choose");
      protocol.test_fraction = 0.5;
    }
    protocol.repetitions = reader.positive_count(outer, key, "repetitions", protocol.outer == Outer::given ? 1 : 20);
    protocol.outer_folds = reader.positive_count(outer, key, "folds", 10);
    if (protocol.outer == Outer::kfold && protocol.outer_folds < 2) reader.fail(key + ".folds", "k-fold needs at least 2 folds");
    protocol.partitions = reader.positive_count(outer, key, "partitions", 1);
    if (outer["partitions"] && protocol.outer != Outer::kfold) {
      reader.fail(key + ".partitions", "re-partitions apply to kfold (the other protocols draw a new split per repetition)");
    }
    protocol.stratified = reader.optional<bool>(outer, key, "stratified", false, "true or false");
    protocol.fresh_sample = reader.optional<bool>(outer, key, "fresh_sample", false, "true or false");
    if (protocol.fresh_sample && protocol.outer == Outer::kfold) {
      reader.fail(key + ".fresh_sample", "k-fold partitions one sample; a fresh sample per repetition goes with holdout, "
                                         "half_half or train_tune_test");
    }
    if (protocol.outer == Outer::train_tune_test) {
      for (const char* part : {"train", "tune", "test"}) {
        if (!outer[part]) reader.fail(key, fmt::format("train_tune_test needs the sizes train, tune and test; {} is missing", part));
      }
      protocol.train_size = reader.positive_count(outer, key, "train", 1);
      // tune: 0 when nothing is tuned ([PSI] Table 1 fixes C and a per column); check_selection checks it.
      const bool no_tune_part = outer["tune"].IsScalar() && outer["tune"].Scalar() == "0";
      protocol.tune_size = no_tune_part ? 0 : reader.positive_count(outer, key, "tune", 1);
      protocol.test_size = reader.positive_count(outer, key, "test", 1);
      protocol.independent_test = reader.optional<bool>(outer, key, "independent_test", false, "true or false");
    } else if (protocol.outer == Outer::given) {
      if (!outer["train"]) reader.fail(key, "given needs train, the number of examples that train (the rest test)");
      protocol.train_size = reader.positive_count(outer, key, "train", 1);
      for (const char* drawn : {"test_fraction", "stratified", "fresh_sample", "tune", "test", "independent_test"}) {
        if (outer[drawn]) reader.fail(Reader::join(key, drawn), "a given split is the file's order: nothing is drawn or sized but train");
      }
      if (protocol.repetitions != 1) reader.fail(key + ".repetitions", "a given split is one split: 1 repetition");
    } else {
      if (outer["train"]) reader.fail(Reader::join(key, "train"), "applies to types train_tune_test and given only");
      for (const char* part : {"tune", "test", "independent_test"}) {
        if (outer[part]) reader.fail(Reader::join(key, part), "applies to type train_tune_test only");
      }
    }
  }
  if (const YAML::Node inner = node["inner"]) {
    reader.check_keys(inner, "protocol.inner", {"type", "folds", "parts", "fraction", "metric"});
    protocol.metric = read_choice(reader, inner, "protocol.inner", "metric", "accuracy", models::parse_metric);
    protocol.inner = read_choice(reader, inner, "protocol.inner", "type",
                                 protocol.outer == Outer::train_tune_test ? "tuning_set" : "kfold", parse_inner);
    // As for the outer sizes: named, with the type in effect, before their values are checked.
    const auto unused_by_type = [&](const char* name, Inner user) {
      if (inner[name] && protocol.inner != user) {
        reader.fail(Reader::join("protocol.inner", name), fmt::format("applies to inner type {} only; protocol.inner.type is {}",
                                                                       to_string(user), to_string(protocol.inner)));
      }
    };
    unused_by_type("folds", Inner::kfold);
    unused_by_type("parts", Inner::tuning_sets);
    unused_by_type("fraction", Inner::tuning_sets);
    protocol.inner_folds = reader.positive_count(inner, "protocol.inner", "folds", 5);
    if (protocol.inner == Inner::kfold && protocol.inner_folds < 2) reader.fail("protocol.inner.folds", "k-fold needs at least 2 folds");
    protocol.tuning_parts = reader.positive_count(inner, "protocol.inner", "parts", 10);
    protocol.tuning_fraction = reader.optional<double>(inner, "protocol.inner", "fraction", 0.1, "a number");
    if (!(protocol.tuning_fraction > 0 && protocol.tuning_fraction < 1)) reader.fail("protocol.inner.fraction", "must lie in (0, 1)");
  } else if (protocol.outer == Outer::train_tune_test) {
    protocol.inner = Inner::tuning_set;
  }
  if ((protocol.inner == Inner::tuning_set) != (protocol.outer == Outer::train_tune_test)) {
    reader.fail("protocol.inner.type", "tuning_set (the tune part of the outer split) goes with outer type "
                                       "train_tune_test, and train_tune_test selects on it");
  }
  if (const YAML::Node selection = node["selection"]) {
    reader.check_keys(selection, "protocol.selection", {"rule", "ties", "near_zero_norm"});
    protocol.selection = read_choice(reader, selection, "protocol.selection", "rule", "best", models::parse_selection_rule);
    protocol.ties = read_choice(reader, selection, "protocol.selection", "ties", "most_regularized", models::parse_tie_rule);
    protocol.near_zero_norm =
        reader.optional<double>(selection, "protocol.selection", "near_zero_norm", 0.0, "a number");
    if (!(protocol.near_zero_norm >= 0.0 && protocol.near_zero_norm < 1e10)) {
      reader.fail("protocol.selection.near_zero_norm",
                  fmt::format("must be a number in [0, 1e10) (0: off), found {}", protocol.near_zero_norm));
    }
  }
  return protocol;
}

}  // namespace sparsesvm::experiment::config_detail
