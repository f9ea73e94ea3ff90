#include "experiment/tasks.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <set>
#include <system_error>
#include <thread>
#include <tuple>
#include <unistd.h>

#include "core/errors.hpp"
#include "core/memory_budget.hpp"
#include "core/progress.hpp"
#include "core/sha256.hpp"
#include "data/generators/generator_registry.hpp"
#include "data/splits.hpp"
#include "data/text_reader.hpp"
#include "data/transforms.hpp"
#include "experiment/csv.hpp"
#include "experiment/manifest.hpp"
#include "experiment/metrics.hpp"
#include "models/methods.hpp"
#include "models/scoring.hpp"
#include "models/selection.hpp"

namespace sparsesvm::experiment {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kTaskHashLength = 16;  // hex digits of the content hash in a task id
// A task id's readable stem keeps at most this many bytes, so that its files' names (the stem, "__", the
// hash, ".csv" and a write's ".tmp.<pid>", pid at most 7 digits: 34 bytes more) stay within the 255 bytes a
// file name may have; every id that fitted before the cut is unchanged, and the hash tells tasks apart.
constexpr std::size_t kLongestTaskStem = 221;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string file_safe(const std::string& text) {
  std::string safe;
  for (char c : text) safe.push_back(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '=' ? c : '_');
  return safe;
}

// What split, sample and start seeds derive from: the data's content (a file's bytes, a generator's spec
// with its condition), not the name a config gives it, so that a renamed data set keeps its rows' numbers.
std::string dataset_key(const DatasetInstance& instance) { return instance.content.key; }

// Everything about a data set instance that its rows depend on: the source (a generator spec is its
// content; a file's bytes are hashed, and where it lies does not matter), loader options and transforms.
// `examples` is set to the instance's number of examples (a file's line count) for shard balancing.
std::string dataset_fingerprint(const DatasetInstance& instance, std::size_t& examples) {
  const bool generated = instance.source.format == "generator";
  const std::string source = generated ? "spec=" + instance.source.location : "content=" + instance.content.key;
  examples = generated ? instance.examples : instance.content.lines;
  std::string text = fmt::format("name={};condition={};format={};{};", instance.name, instance.condition,
                                 instance.source.format, source);
  for (const auto& [key, value] : instance.source.options) text += fmt::format("option {}={};", key, value);
  for (const std::string& transform : instance.transforms) text += "transform " + transform + ";";
  for (const auto& [name, values] : instance.method_grid) text += fmt::format("method_grid {}={};", name, fmt::join(values, ","));
  if (!instance.class_weight.is_none()) text += fmt::format("class_weight {};", instance.class_weight.to_string());
  return text;
}

// Everything else a group's rows depend on: the seed, the protocol, the grid and every method entry of
// the group in order (the methods share workspaces, so each row depends on the others). Not the number
// of repetitions: repetition r's split does not depend on it, so adding repetitions reuses the rows.
std::string group_fingerprint(const ExperimentConfig& config) {
  const Protocol& p = config.protocol;
  std::string text = fmt::format(
      "seed={};outer={},{},{},{},{},{},{},{};inner={},{},{},{};selection={},{};", config.seed, to_string(p.outer),
      p.test_fraction, p.outer_folds, p.stratified, p.train_size, p.tune_size, p.test_size, p.independent_test,
      to_string(p.inner), p.inner_folds, p.tuning_parts, p.tuning_fraction, models::to_string(p.selection), models::to_string(p.ties));
  if (p.metric != models::Metric::accuracy) text += fmt::format("metric={};", models::to_string(p.metric));  // (likewise)
  if (p.near_zero_norm > 0) text += fmt::format("near_zero_norm={};", p.near_zero_norm);  // (absent before it existed)
  if (p.fresh_sample) text += "fresh_sample;";  // (likewise)
  if (p.partitions > 1) text += fmt::format("partitions={};", p.partitions);  // (likewise)
  for (const auto& [name, values] : config.grid) text += fmt::format("grid {}={};", name, fmt::join(values, ","));
  for (const MethodEntry& entry : config.methods) {
    text += fmt::format("method {} as {}", entry.name, entry.label);
    for (const auto& [name, value] : entry.fixed) text += fmt::format(" {}={}", name, value);
    if (entry.class_weight) text += fmt::format(" class_weight={}", entry.class_weight->to_string());
    text += ";";
  }
  return text;
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The outer split of one repetition: which rows train, which select (tune; empty unless
// train_tune_test), which test (empty when the test part is an independent sample).
struct OuterSplit {
  std::vector<std::size_t> train;
  std::vector<std::size_t> tune;
  std::vector<std::size_t> test;
};

// Holdout and half/half draw with split_seed(seed, data set, r); k-fold takes fold r % folds of partition
// p = r / folds, drawn with split_seed(seed, data set, p) (one partition: p = 0); train_tune_test draws fixed sizes with split_seed(seed, data set, r);
// given takes the file's order: the first train_size examples train, the rest test.
OuterSplit outer_split(const ExperimentConfig& config, const DatasetInstance& instance, const core::Vector& labels,
                       std::size_t repetition) {
  const Protocol& p = config.protocol;
  const std::string key = dataset_key(instance);
  if (p.outer == Outer::kfold) {  // fold r % folds of partition r / folds
    core::Rng rng(data::split_seed(config.seed, key, repetition / p.outer_folds));
    data::Split fold = data::kfold_splits(labels, p.outer_folds, p.stratified, rng).at(repetition % p.outer_folds);
    return {std::move(fold.train), {}, std::move(fold.test)};
  }
  if (p.outer == Outer::given) {
    const auto n = static_cast<std::size_t>(labels.size());
    if (p.train_size >= n) {
      throw core::InputError(fmt::format("data set {}: protocol.outer.train is {}, and it has {} examples: no test part",
                                         instance.name, p.train_size, n));
    }
    OuterSplit split{std::vector<std::size_t>(p.train_size), {}, std::vector<std::size_t>(n - p.train_size)};
    std::iota(split.train.begin(), split.train.end(), std::size_t{0});
    std::iota(split.test.begin(), split.test.end(), p.train_size);
    return split;
  }
  core::Rng rng(data::split_seed(config.seed, key, repetition));
  if (p.outer == Outer::train_tune_test) {
    const std::size_t test = p.independent_test ? 0 : p.test_size;
    if (p.train_size + p.tune_size + test > static_cast<std::size_t>(labels.size())) {
      throw core::InputError(fmt::format("data set {}: train_tune_test needs {} + {} + {} examples, it has {}", instance.name,
                                         p.train_size, p.tune_size, test, labels.size()));
    }
    data::TrainTuneTest parts = data::fixed_size_split(static_cast<std::size_t>(labels.size()), p.train_size, p.tune_size, test, rng);
    return {std::move(parts.train), std::move(parts.tune), std::move(parts.test)};
  }
  data::Split split = data::holdout_split(labels, p.test_fraction, p.stratified, rng);
  return {std::move(split.train), {}, std::move(split.test)};
}

// The independent test sample of train_tune_test: the same generator and parameters with n = test
// size and a seed of its own per repetition. Label flipping by count or fraction (flip_count,
// flip_fraction) corrupts the training sample only ([PSI] Table 1 flips labels of the 50 training
// points); noise that is part of the generator's distribution (psi_quadratic's flip_probability) stays.
core::Dataset independent_test_sample(const ExperimentConfig& config, const DatasetInstance& instance,
                                      std::size_t repetition) {
  if (instance.generator.empty()) {
    throw core::InputError(fmt::format("data set {}: protocol.outer.independent_test needs a generator, not a file",
                                       instance.name));
  }
  std::map<std::string, std::string> params = instance.generator_parameters;
  params.erase("flip_count");
  params.erase("flip_fraction");
  params["n"] = std::to_string(config.protocol.test_size);
  params["seed"] = std::to_string(core::derive_seed(
      {data::split_seed(config.seed, dataset_key(instance), repetition), std::string_view("independent_test")}));
  return data::generate(instance.generator, params);
}

// The selection folds over the pool of rows the inner selection sees, as positions within the pool.
// For tuning_set the pool is train followed by tune, and the one fold trains on train, scores on tune.
std::vector<data::Split> inner_splits(const ExperimentConfig& config, const core::Vector& pool_labels,
                                      const OuterSplit& outer, std::uint64_t inner_seed) {
  const Protocol& p = config.protocol;
  core::Rng rng(inner_seed);
  switch (p.inner) {
    case Inner::tuning_sets:
      return data::tuning_set_splits(static_cast<std::size_t>(pool_labels.size()), p.tuning_parts, p.tuning_fraction, rng);
    case Inner::kfold: return data::kfold_splits(pool_labels, p.inner_folds, p.stratified, rng);
    case Inner::tuning_set: {
      data::Split fold;
      for (std::size_t k = 0; k < outer.train.size(); ++k) fold.train.push_back(k);
      for (std::size_t k = 0; k < outer.tune.size(); ++k) fold.test.push_back(outer.train.size() + k);
      return {fold};
    }
    case Inner::none: return {};
  }
  throw std::logic_error("an inner selection without splits");
}

struct Parts {
  core::Dataset train;
  core::Dataset test;
};

// Subsets and the transforms fitted on the training part.
Parts prepare(const core::Dataset& data, const std::vector<std::size_t>& train_rows, const core::Dataset& test_source,
              const std::vector<std::size_t>& test_rows, const std::vector<std::string>& transform_names) {
  Parts parts{data.subset(train_rows), test_source.subset(test_rows)};
  std::vector<std::unique_ptr<data::Transform>> transforms;
  for (const std::string& name : transform_names) transforms.push_back(data::make_transform(name));
  data::fit_and_apply(transforms, parts.train, {&parts.test});
  // Scores need examples to score, and a NaN would be scored as the negative class.
  if (parts.test.n() == 0) throw core::InputError(fmt::format("data set {}: the part to score on is empty", data.name()));
  if (const std::size_t missing = parts.test.count_missing(); missing > 0) {
    throw core::InputError(fmt::format("data set {}: {} missing values in the part to score on; impute them (transform "
                                       "impute_mean)",
                                       data.name(), missing));
  }
  return parts;
}

// The values a grid parameter takes on data set instance `instance`: its own grid's, else the config's.
const std::vector<double>& grid_values(const ExperimentConfig& config, const DatasetInstance& instance,
                                       const std::string& name) {
  const auto own = instance.method_grid.find(name);
  return own != instance.method_grid.end() ? own->second : config.grid.at(name);
}

// Every combination of the grid's values for the parameters the entry tunes, with the entry's fixed
// values, in fitting order: the first tuned parameter of the table (lambda) varies fastest, so
// consecutive LPs differ only in their costs and re-solve warm (a change of mu changes row bounds).
std::vector<models::Hyperparameters> candidates(const ExperimentConfig& config, const DatasetInstance& instance,
                                                const MethodEntry& entry) {
  std::vector<models::Hyperparameters> combos = {entry.fixed};
  const std::vector<std::string> tuned = tuned_parameters(config, entry);
  for (auto name = tuned.rbegin(); name != tuned.rend(); ++name) {
    std::vector<models::Hyperparameters> expanded;
    for (const auto& combo : combos) {
      for (double value : grid_values(config, instance, *name)) {
        auto next = combo;
        next[*name] = value;
        expanded.push_back(std::move(next));
      }
    }
    combos = std::move(expanded);
  }
  return combos;
}

std::string number(double value) { return format_number(value); }
// "1;0.5;0.25"
std::string joined_numbers(const std::vector<double>& values) {
  std::vector<std::string> parts;
  for (const double value : values) parts.push_back(number(value));
  return fmt::format("{}", fmt::join(parts, ";"));
}
std::string optional_count(const std::optional<std::size_t>& value) { return value ? std::to_string(*value) : ""; }

// The status of a row whose fit threw: memory_budget for a fit refused before allocating past the budget
// (core/memory_budget.hpp), input_error for anything else the data or config caused.
std::string error_status(const core::InputError& error) {
  return std::string(dynamic_cast<const core::ResourceError*>(&error) != nullptr ? kMemoryBudgetStatus : kInputErrorStatus);
}

// A start tuned on the tune part ([PSI] 3.2) sees the grid of the data set (its method_grid over the
// config's) and the config's tie rule.
void set_tuning(models::Workspace& workspace, const core::Dataset& tune, const ExperimentConfig& config,
                const DatasetInstance& instance) {
  std::map<std::string, std::vector<double>> grid = config.grid;
  for (const auto& [name, values] : instance.method_grid) grid[name] = values;
  workspace.set_tuning(tune, std::move(grid), {models::SelectionRule::best, config.protocol.ties, config.protocol.metric});
}

// The workspaces of one training part: the methods that fit with the same class weight share one (in config
// order, so that starts are shared as without weights); another class weight gets a workspace of its own,
// with the same seed and tuning part. Each is made at first use; a class weight the part cannot carry (a
// class of total weight 0) is an InputError there, the method's row.
class ClassWeightWorkspaces {
 public:
  ClassWeightWorkspaces(const core::Dataset& train, std::uint64_t seed, std::function<void(models::Workspace&)> prepare)
      : train_(train), seed_(seed), prepare_(std::move(prepare)) {}

  models::Workspace& for_entry(const MethodEntry& entry, const DatasetInstance& instance) {
    const models::ClassWeight weight = effective_class_weight(entry, instance);
    auto found = by_weight_.find(weight.to_string());
    if (found == by_weight_.end()) {
      auto workspace = std::make_unique<models::Workspace>(train_, seed_);
      prepare_(*workspace);
      workspace->set_example_weights(models::class_example_weights(weight, train_.labels()));
      found = by_weight_.emplace(weight.to_string(), std::move(workspace)).first;
    }
    return *found->second;
  }

 private:
  const core::Dataset& train_;
  std::uint64_t seed_;
  std::function<void(models::Workspace&)> prepare_;
  std::map<std::string, std::unique_ptr<models::Workspace>> by_weight_;
};

// "inner fold 2 of 5", "tuning set 2 of 10", "the tune part": where an inner fit or score failed.
std::string inner_part_name(Inner inner, std::size_t part, std::size_t parts) {
  switch (inner) {
    case Inner::kfold: return fmt::format("inner fold {} of {}", part + 1, parts);
    case Inner::tuning_sets: return fmt::format("tuning set {} of {}", part + 1, parts);
    case Inner::tuning_set: return "the tune part";
    case Inner::none: break;
  }
  throw std::logic_error("no inner part without an inner selection");
}

// What one inner fold gives one method: its score per candidate fitted (NaN where the fit had no
// solution), or, when an InputError stopped it there, the scores before it and the error.
struct FoldOutcome {
  std::vector<double> scores;
  std::size_t fits = 0;
  std::size_t failures = 0;  // fits without a solution
  double seconds = 0.0;
  std::string input_error;
  std::string error_status;
};

// One inner fold: every method with `active[m]` fits every candidate, in config order, on the fold's
// workspaces (shared by the methods, so a method's rows depend on which methods ran before it).
std::vector<FoldOutcome> fit_fold(const ExperimentConfig& config, const core::Dataset& data, const DatasetInstance& instance,
                                  const std::vector<std::size_t>& pool, const std::vector<data::Split>& folds, std::size_t f,
                                  std::uint64_t seed, const std::vector<MethodSelection>& runs, const std::vector<bool>& active) {
  const Parts parts = prepare(data, data::compose(pool, folds[f].train), data, data::compose(pool, folds[f].test),
                              instance.transforms);
  ClassWeightWorkspaces workspaces(parts.train, core::derive_seed({seed, std::string_view("fold"), f}),
                                   [&](models::Workspace& workspace) {
                                     if (config.protocol.inner == Inner::tuning_set) {
                                       set_tuning(workspace, parts.test, config, instance);  // the tune part
                                     }
                                   });
  std::vector<FoldOutcome> outcomes(runs.size());
  for (std::size_t m = 0; m < runs.size(); ++m) {
    if (!active[m]) continue;
    const MethodSelection& run = runs[m];
    FoldOutcome& outcome = outcomes[m];
    const auto start = Clock::now();
    try {
      for (const models::Hyperparameters& candidate : run.candidates) {
        if (core::progress_wanted()) {
          core::progress("selection of {}, {}: candidate {} of {} ({})", run.entry->name,
                         inner_part_name(config.protocol.inner, f, folds.size()), outcome.scores.size() + 1,
                         run.candidates.size(), models::parameter_text(candidate));
        }
        const models::FitReport report =
            models::fit_method(run.entry->name, candidate, workspaces.for_entry(*run.entry, instance), run.lambda_path);
        ++outcome.fits;
        double score = kNaN;
        if (report.has_solution()) {
          const bool near_zero = report.model.w().lpNorm<1>() < config.protocol.near_zero_norm;
          score = near_zero ? 0.5
                            : models::defined_score(config.protocol.metric, report.model.decision_values(parts.test),
                                                    parts.test.labels());
        } else {
          ++outcome.failures;
        }
        outcome.scores.push_back(score);
      }
    } catch (const core::InputError& error) {
      outcome.error_status = error_status(error);
      // A fold is the training part minus one fold: say so, or "training data has only class +1" reads as
      // the outer training part's fault.
      const bool hint_stratified = config.protocol.inner == Inner::kfold && !config.protocol.stratified &&
                                   outcome.error_status == kInputErrorStatus;
      outcome.input_error = fmt::format("{} ({} training examples): {}{}", inner_part_name(config.protocol.inner, f, folds.size()),
                                        parts.train.n(), error.what(),
                                        !hint_stratified ? "" : "; stratified folds keep both classes in "
                                                                "each (a config's protocol.outer.stratified: "
                                                                "true stratifies inner folds too; fit: --stratified)");
    }
    outcome.seconds = seconds_since(start);
  }
  return outcomes;
}

// Runs fit(f) for every fold f on up to `jobs` threads; returns what each fold threw (null where nothing).
template <class Fit>
std::vector<std::exception_ptr> for_each_fold(std::size_t folds, std::size_t jobs, const Fit& fit) {
  std::vector<std::exception_ptr> failures(folds);
  std::atomic<std::size_t> next{0};
  const auto worker = [&]() {
    for (std::size_t f = next++; f < folds; f = next++) {
      try {
        fit(f);
      } catch (...) {
        failures[f] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t j = 1; j < std::min(jobs, folds); ++j) {
    try {
      threads.emplace_back(worker);
    } catch (const std::system_error&) {  // no thread to be had: the folds left run on this one
      break;
    }
  }
  worker();
  for (std::thread& thread : threads) thread.join();
  return failures;
}

// The inner selection of every method of the group: one workspace per fold shared by all methods in
// config order. The folds are independent, so up to `fold_jobs` run at once; a method stopped by an
// InputError in one fold is not fitted in the later ones, and a later fold that ran with it is fitted
// again without it, so the rows are those of folds run one after another.
void select_all(const ExperimentConfig& config, const core::Dataset& data, const DatasetInstance& instance,
                const OuterSplit& outer, std::uint64_t seed, std::vector<MethodSelection>& runs, std::size_t fold_jobs) {
  const bool any_choice =
      std::any_of(runs.begin(), runs.end(), [](const MethodSelection& run) { return run.candidates.size() > 1; });
  if (!any_choice || config.protocol.inner == Inner::none) return;
  std::vector<std::size_t> pool = outer.train;
  pool.insert(pool.end(), outer.tune.begin(), outer.tune.end());
  core::Vector pool_labels(static_cast<Eigen::Index>(pool.size()));  // labels only: no copy of the features
  for (std::size_t k = 0; k < pool.size(); ++k) {
    pool_labels[static_cast<Eigen::Index>(k)] = data.labels()[static_cast<Eigen::Index>(pool[k])];
  }
  const std::vector<data::Split> folds =
      inner_splits(config, pool_labels, outer, core::derive_seed({seed, std::string_view("inner")}));
  std::vector<bool> active(runs.size());
  for (std::size_t m = 0; m < runs.size(); ++m) {
    runs[m].selected = runs[m].candidates.size() > 1;
    active[m] = runs[m].selected && runs[m].input_error.empty();
  }
  // Side by side, every fold is fitted ahead with the methods active at the start; one after another,
  // each fold when its turn comes.
  std::vector<std::vector<FoldOutcome>> outcomes(folds.size());
  std::vector<std::exception_ptr> failures(folds.size());
  const std::vector<bool> ran_with = active;  // the methods the outcomes fitted ahead were fitted with
  if (fold_jobs > 1) {
    const std::string group_label = core::progress_label();  // a copy: the fold threads' lines say whose they are
    failures = for_each_fold(folds.size(), fold_jobs, [&](std::size_t f) {
      const core::ProgressLabel label(group_label);
      outcomes[f] = fit_fold(config, data, instance, pool, folds, f, seed, runs, active);
    });
  }
  for (std::size_t f = 0; f < folds.size(); ++f) {
    if (fold_jobs == 1 || ran_with != active) {  // not fitted ahead, or fitted with a method since stopped
      failures[f] = nullptr;
      outcomes[f] = fit_fold(config, data, instance, pool, folds, f, seed, runs, active);
    }
    if (failures[f]) std::rethrow_exception(failures[f]);
    for (std::size_t m = 0; m < runs.size(); ++m) {
      if (!active[m]) continue;
      MethodSelection& run = runs[m];
      const FoldOutcome& outcome = outcomes[f][m];
      for (std::size_t c = 0; c < outcome.scores.size(); ++c) run.fold_scores[c].push_back(outcome.scores[c]);
      run.fits += outcome.fits;
      run.inner_failures += outcome.failures;
      run.seconds += outcome.seconds;
      if (!outcome.input_error.empty()) {
        run.input_error = outcome.input_error;
        run.error_status = outcome.error_status;
        active[m] = false;
      }
    }
  }
  for (MethodSelection& run : runs) {
    if (!run.selected || !run.input_error.empty()) continue;
    const models::MethodInfo& method = models::find_method(run.entry->name);
    std::vector<models::Candidate> table;
    for (std::size_t c = 0; c < run.candidates.size(); ++c) {
      const double mean = run.mean_score(c);
      table.push_back({run.candidates[c], std::isnan(mean) ? 0.0 : mean, !std::isnan(mean)});
    }
    run.chosen = models::select_candidate(table, method.parameters, tuned_parameters(config, *run.entry),
                                          {config.protocol.selection, config.protocol.ties, config.protocol.metric});
  }
}

// Every method entry of the config with its candidates on data set instance `instance`, nothing scored yet.
std::vector<MethodSelection> unscored_selections(const ExperimentConfig& config, const DatasetInstance& instance) {
  std::vector<MethodSelection> runs(config.methods.size());
  for (std::size_t m = 0; m < runs.size(); ++m) {
    runs[m].entry = &config.methods[m];
    runs[m].candidates = candidates(config, instance, config.methods[m]);
    const std::vector<std::string> tuned = tuned_parameters(config, config.methods[m]);
    if (std::find(tuned.begin(), tuned.end(), "lambda") != tuned.end()) {
      const std::vector<double>& lambdas = grid_values(config, instance, "lambda");
      if (lambdas.size() > 1) runs[m].lambda_path = lambdas;
    }
    runs[m].fold_scores.assign(runs[m].candidates.size(), {});
  }
  return runs;
}

// The model parameters some method of the config tunes, in parameter_columns() order: the parameter
// columns of the inner scores.
std::vector<std::string> tuned_by_any_method(const ExperimentConfig& config) {
  std::vector<std::string> tuned;
  for (const std::string& name : parameter_columns(config)) {
    const bool by_some = std::any_of(config.methods.begin(), config.methods.end(), [&](const MethodEntry& entry) {
      const std::vector<std::string> names = tuned_parameters(config, entry);
      return std::find(names.begin(), names.end(), name) != names.end();
    });
    if (by_some) tuned.push_back(name);
  }
  return tuned;
}

// The inner scores of one method, one line per candidate and fold (cv_score_columns()).
std::vector<std::vector<std::string>> cv_score_lines(const ExperimentConfig& config, const DatasetInstance& instance,
                                                     std::size_t repetition, const MethodSelection& run) {
  std::vector<std::vector<std::string>> lines;
  if (!run.selected || !run.input_error.empty()) return lines;
  const std::vector<std::string> tuned = tuned_by_any_method(config);
  for (std::size_t c = 0; c < run.candidates.size(); ++c) {
    for (std::size_t f = 0; f < run.fold_scores[c].size(); ++f) {
      std::vector<std::string> line = {instance.name, instance.condition, run.entry->label, std::to_string(repetition),
                                       std::to_string(f), std::to_string(c)};
      for (const std::string& name : tuned) {
        const auto value = run.candidates[c].find(name);
        line.push_back(value != run.candidates[c].end() ? number(value->second) : "");
      }
      const double score = run.fold_scores[c][f];
      line.insert(line.end(), {number(score), std::isnan(score) ? "0" : "1", number(run.mean_score(c)),
                               c == run.chosen ? "1" : "0"});
      lines.push_back(std::move(line));
    }
  }
  return lines;
}

// The final model's weights by feature name, then the bias (weight_columns()).
std::vector<std::vector<std::string>> weight_lines(const DatasetInstance& instance, std::size_t repetition,
                                                   const std::string& label, const core::LinearModel& model,
                                                   const std::vector<std::string>& feature_names) {
  std::vector<std::vector<std::string>> lines;
  const std::vector<std::string> identity = {instance.name, instance.condition, label, std::to_string(repetition)};
  for (std::size_t j = 0; j < feature_names.size(); ++j) {
    lines.push_back(identity);
    lines.back().insert(lines.back().end(), {feature_names[j], number(model.w()[static_cast<Eigen::Index>(j)])});
  }
  lines.push_back(identity);
  lines.back().insert(lines.back().end(), {"(bias)", number(model.b())});
  return lines;
}

// The row of one method after its final fit (or its error); `model` receives the fitted model.
std::map<std::string, std::string> final_row(const ExperimentConfig& config, const DatasetInstance& instance,
                                             MethodSelection& run, ClassWeightWorkspaces& workspaces, const Parts* parts,
                                             std::optional<core::LinearModel>& model) {
  std::map<std::string, std::string> row;
  if (!run.input_error.empty()) {
    row["status"] = run.error_status;
    row["message"] = run.input_error;
    return row;
  }
  const models::MethodInfo& method = models::find_method(run.entry->name);
  const std::size_t chosen = run.chosen;
  if (chosen == run.candidates.size()) {
    row["status"] = kNoEligibleCandidateStatus;
    row["message"] = "every candidate had an inner fit without a solution";
    row["inner_failures"] = std::to_string(run.inner_failures);
    row["fits"] = std::to_string(run.fits);
    return row;
  }
  const auto start = Clock::now();
  const models::FitReport report = models::fit_method(run.entry->name, run.candidates[chosen],
                                                      workspaces.for_entry(*run.entry, instance), run.lambda_path);
  run.seconds += seconds_since(start);
  row["status"] = core::to_string(report.status);
  row["message"] = report.message;
  row["stop_reason"] = report.stop_reason;
  row["certificate"] = number(report.certificate);
  row["certificate_kind"] = report.certificate_kind;
  std::vector<std::string> options;
  for (const models::ParameterSpec& spec : method.parameters) {
    const double raw = report.hyperparameters.at(spec.name);
    const std::string value = spec.is_choice() ? spec.format(raw) : number(raw);
    if (spec.kind == models::ParameterKind::model) {
      row[spec.name] = value;
    } else {
      options.push_back(spec.name + "=" + value);
    }
  }
  row["solver_options"] = fmt::format("{}", fmt::join(options, ";"));
  const std::string cv_score = run.selected ? number(run.mean_score(chosen)) : number(kNaN);
  if (config.protocol.metric == models::Metric::accuracy) {
    row["cv_accuracy"] = cv_score;
  } else {
    row["cv_metric"] = models::to_string(config.protocol.metric);
    row["cv_score"] = cv_score;
  }
  row["inner_failures"] = std::to_string(run.inner_failures);
  row["fits"] = std::to_string(run.fits + 1);
  row["iterations"] = std::to_string(report.iterations);
  row["inner_iterations"] = std::to_string(report.inner_iterations);
  row["train_time_s"] = number(report.seconds);
  for (const auto& [name, value] : report.statistics) row[name] = number(value);
  for (const auto& [name, value] : report.text_statistics) row[name] = value;
  if (report.has_solution()) {
    const ModelMetrics m = model_metrics(report.model, parts->train, parts->test,
                                         models::make_objective(method, report.hyperparameters, parts->train).loss->support_region());
    row["accuracy"] = number(m.accuracy);
    if (config.protocol.metric != models::Metric::accuracy) {
      const std::string metric(models::to_string(config.protocol.metric));
      row[metric] = number(models::score(config.protocol.metric, report.model.decision_values(parts->test), parts->test.labels()));
    }
    row["train_accuracy"] = number(m.train_accuracy);
    row["n_features"] = std::to_string(m.n_features);
    row["frac_features"] = number(m.frac_features);
    row["fp_features"] = optional_count(m.fp_features);
    row["fn_features"] = optional_count(m.fn_features);
    row["n_sv"] = std::to_string(m.n_sv);
    row["frac_sv"] = number(m.frac_sv);
    row["frac_params"] = number(m.frac_params);
    row["objective"] = number(report.objective);
    row["objective_trace"] = joined_numbers(report.objective_trace);
    row["objective_seconds_trace"] = joined_numbers(report.objective_seconds);
    model = report.model;
    if (rows_keep_weights(config)) {
      const core::Vector& w = report.model.w();
      row["weights"] = joined_numbers(std::vector<double>(w.data(), w.data() + w.size()));
      row["bias"] = number(report.model.b());
    }
  }
  for (const auto& [name, values] : report.traces) row[name] = joined_numbers(values);
  return row;
}

}  // namespace

// The data set instance as repetition `repetition` sees it: with protocol.outer.fresh_sample a new draw
// of its generator (every parameter as given, the seed derived from the config's seed, the instance, the
// repetition and the given seed), else the instance's one sample.
core::Dataset repetition_sample(const ExperimentConfig& config, const DatasetInstance& instance, std::size_t repetition) {
  if (!config.protocol.fresh_sample) return data::load_dataset(instance.source);
  std::map<std::string, std::string> params = instance.generator_parameters;
  const auto given_seed = params.find("seed");
  params["seed"] = std::to_string(core::derive_seed({data::split_seed(config.seed, dataset_key(instance), repetition),
                                                     std::string_view("fresh_sample"),
                                                     std::string_view(given_seed != params.end() ? given_seed->second : "")}));
  return data::generate(instance.generator, params);
}

std::vector<std::string> result_columns(const ExperimentConfig& config) {
  std::vector<std::string> columns = {"dataset", "condition", "method", "rep", "status"};
  for (const std::string& name : parameter_columns(config)) columns.push_back(name);
  for (const std::string& name : inner_score_columns(config.protocol.metric)) columns.push_back(name);
  for (const char* name : {"majority_accuracy", "train_accuracy", "n_features", "frac_features", "fp_features",
                           "fn_features", "n_sv", "frac_sv", "frac_params", "objective", "certificate", "certificate_kind", "iterations",
                           "inner_iterations", "inner_failures", "fits", "train_time_s", "task_time_s",
                           "objective_trace", "objective_seconds_trace", "message", "stop_reason", "solver_options"}) {
    columns.emplace_back(name);
  }
  if (rows_keep_weights(config)) columns.insert(columns.end(), {"weights", "bias"});
  if (uses_class_weights(config)) columns.emplace_back("class_weight");  // (absent from older configs' rows)
  for (const MethodEntry& entry : config.methods) {
    const models::Algorithm& algorithm = models::find_algorithm(models::find_method(entry.name).algorithm);
    for (const std::vector<std::string>& names :
         {algorithm.statistic_names(), algorithm.text_statistic_names(), algorithm.trace_names()}) {
      for (const std::string& name : names) {
        if (std::find(columns.begin(), columns.end(), name) == columns.end()) columns.push_back(name);
      }
    }
  }
  return columns;
}

std::vector<Task> plan_tasks(const ExperimentConfig& config, std::vector<std::string>* missing) {
  std::vector<Task> tasks;
  const std::string group = group_fingerprint(config);
  for (std::size_t d = 0; d < config.datasets.size(); ++d) {
    const DatasetInstance& instance = config.datasets[d];
    if (!instance.missing_hint.empty()) {
      if (missing) missing->push_back(fmt::format("{}: {}", instance.name, instance.missing_hint));
      continue;
    }
    std::size_t examples = 0;
    const std::string dataset = dataset_fingerprint(instance, examples);
    for (std::size_t r = 0; r < outer_count(config.protocol); ++r) {
      for (std::size_t m = 0; m < config.methods.size(); ++m) {
        // A readable stem, then a hash of everything the row depends on: a changed config or data file
        // makes new tasks, and collect reads only the planned ones.
        const std::string content =
            core::sha256_hex(fmt::format("{}|{}|rep={}|method={}", dataset, group, r, config.methods[m].label));
        std::string stem = file_safe(fmt::format("{}{}__rep{:03}__{}", instance.name,
                                                 instance.condition.empty() ? "" : "__" + instance.condition, r,
                                                 config.methods[m].label));
        if (stem.size() > kLongestTaskStem) stem.resize(kLongestTaskStem);
        const std::string id = stem + "__" + content.substr(0, kTaskHashLength);
        tasks.push_back(Task{d, r, m, id, static_cast<double>(examples)});
      }
    }
  }
  return tasks;
}

// Longest processing time first: groups by decreasing weight (plan order among equals), each to the
// shard with the least weight so far (the lowest index among equals). Groups of equal weight thus go
// round the shards, and a large data set's groups are spread before the small ones fill the gaps.
std::vector<std::size_t> task_shards(const std::vector<Task>& tasks, std::size_t count) {
  if (count == 0 || count > kMaxShards) {
    throw core::InputError(fmt::format("shard count {}: expected 1 to {}", count, kMaxShards));
  }
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> group_number;
  std::vector<std::size_t> group_of_task;
  std::vector<double> group_weight;
  for (const Task& task : tasks) {
    const auto [found, added] = group_number.try_emplace({task.dataset, task.repetition}, group_number.size());
    if (added) group_weight.push_back(task.weight);
    group_of_task.push_back(found->second);
  }
  std::vector<std::size_t> order(group_weight.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return group_weight[a] > group_weight[b]; });
  // Shards by load, lightest (then lowest index) first.
  std::set<std::pair<double, std::size_t>> shards_by_load;
  for (std::size_t shard = 0; shard < count; ++shard) shards_by_load.emplace(0.0, shard);
  std::vector<std::size_t> shard_of_group(group_weight.size());
  for (const std::size_t group : order) {
    const auto [load, lightest] = *shards_by_load.begin();
    shards_by_load.erase(shards_by_load.begin());
    shard_of_group[group] = lightest;
    shards_by_load.emplace(load + group_weight[group], lightest);
  }
  std::vector<std::size_t> shard_of_task;
  for (const std::size_t group : group_of_task) shard_of_task.push_back(shard_of_group[group]);
  return shard_of_task;
}

std::vector<Task> shard_tasks(const std::vector<Task>& tasks, std::size_t shard, std::size_t count) {
  const std::vector<std::size_t> shards = task_shards(tasks, count);
  std::vector<Task> mine;
  for (std::size_t k = 0; k < tasks.size(); ++k) {
    if (shards[k] == shard) mine.push_back(tasks[k]);
  }
  return mine;
}

core::Dataset training_part(const ExperimentConfig& config, std::size_t dataset, std::size_t repetition) {
  const DatasetInstance& instance = config.datasets[dataset];
  const core::Dataset data = repetition_sample(config, instance, repetition);
  const OuterSplit outer = outer_split(config, instance, data.labels(), repetition);
  return prepare(data, outer.train, data, outer.train, instance.transforms).train;
}

double MethodSelection::mean_score(std::size_t candidate) const {
  const std::vector<double>& scores = fold_scores.at(candidate);
  if (scores.empty()) return kNaN;
  return std::accumulate(scores.begin(), scores.end(), 0.0) / static_cast<double>(scores.size());
}

std::uint64_t group_seed(const ExperimentConfig& config, std::size_t dataset, std::size_t repetition) {
  return data::split_seed(config.seed, dataset_key(config.datasets.at(dataset)), repetition);
}

std::vector<std::size_t> outer_training_rows(const ExperimentConfig& config, std::size_t dataset,
                                             std::size_t repetition, const core::Dataset& data) {
  return outer_split(config, config.datasets.at(dataset), data.labels(), repetition).train;
}

std::vector<MethodSelection> select_on_training_part(const ExperimentConfig& config, std::size_t dataset,
                                                     const core::Dataset& train, std::uint64_t seed) {
  if (config.protocol.inner == Inner::tuning_set) {
    throw core::InputError("a selection on one training part needs protocol.inner kfold or tuning_sets, not tuning_set");
  }
  const DatasetInstance& instance = config.datasets.at(dataset);
  std::vector<MethodSelection> runs = unscored_selections(config, instance);
  OuterSplit whole;
  whole.train.resize(train.n());
  std::iota(whole.train.begin(), whole.train.end(), 0);
  select_all(config, train, instance, whole, seed, runs, 1);
  return runs;
}

std::vector<std::string> cv_score_columns(const ExperimentConfig& config) {
  std::vector<std::string> columns = {"dataset", "condition", "method", "rep", "fold", "candidate"};
  for (const std::string& name : tuned_by_any_method(config)) columns.push_back(name);
  columns.insert(columns.end(), {"score", "solved", "mean_score", "chosen"});
  return columns;
}

std::vector<std::string> weight_columns() { return {"dataset", "condition", "method", "rep", "feature", "weight"}; }

std::vector<TaskOutput> run_group(const ExperimentConfig& config, std::size_t dataset, std::size_t repetition,
                                  const core::Dataset& data, std::size_t fold_jobs) {
  const DatasetInstance& instance = config.datasets[dataset];
  const core::ProgressLabel label(fmt::format("{}{} rep {}", instance.name,
                                              instance.condition.empty() ? "" : "[" + instance.condition + "]", repetition));
  std::vector<MethodSelection> runs = unscored_selections(config, instance);
  std::vector<std::map<std::string, std::string>> rows(runs.size());
  std::vector<TaskOutput> outputs(runs.size());
  try {
    const OuterSplit outer = outer_split(config, instance, data.labels(), repetition);
    const std::uint64_t seed = group_seed(config, dataset, repetition);
    select_all(config, data, instance, outer, seed, runs, fold_jobs);
    const std::optional<core::Dataset> independent =
        config.protocol.independent_test ? std::optional(independent_test_sample(config, instance, repetition)) : std::nullopt;
    std::vector<std::size_t> all_independent(independent ? independent->n() : 0);
    for (std::size_t k = 0; k < all_independent.size(); ++k) all_independent[k] = k;
    const Parts parts = independent ? prepare(data, outer.train, *independent, all_independent, instance.transforms)
                                    : prepare(data, outer.train, data, outer.test, instance.transforms);
    // A start tuned on the tune part ([PSI] 3.2) sees the tune part transformed as in the selection; only
    // configs with such a method pay for preparing it.
    const bool tunes_a_start = std::any_of(config.methods.begin(), config.methods.end(), [](const MethodEntry& entry) {
      return models::find_method(entry.name).start_tuned;
    });
    const std::optional<Parts> tune_parts =
        outer.tune.empty() || !tunes_a_start
            ? std::nullopt
            : std::optional(prepare(data, outer.train, data, outer.tune, instance.transforms));
    ClassWeightWorkspaces workspaces(parts.train, core::derive_seed({seed, std::string_view("final")}),
                                     [&](models::Workspace& workspace) {
                                       if (tune_parts) set_tuning(workspace, tune_parts->test, config, instance);
                                     });
    const std::string majority = number(majority_accuracy(parts.train.labels(), parts.test.labels()));
    for (std::size_t m = 0; m < runs.size(); ++m) {
      std::optional<core::LinearModel> model;
      try {
        rows[m] = final_row(config, instance, runs[m], workspaces, &parts, model);
      } catch (const core::InputError& error) {
        rows[m] = {{"status", error_status(error)}, {"message", error.what()}};
      }
      rows[m]["majority_accuracy"] = majority;
      if (uses_class_weights(config)) {
        const models::ClassWeight weight = effective_class_weight(config.methods[m], instance);
        rows[m]["class_weight"] = weight.is_none() ? "none" : weight.to_string();
      }
      outputs[m].cv_scores = cv_score_lines(config, instance, repetition, runs[m]);
      if (config.keep_weights && model) {
        outputs[m].weights = weight_lines(instance, repetition, config.methods[m].label, *model, parts.train.feature_names());
      }
    }
  } catch (const core::InputError& error) {  // the group's data cannot be split or fitted at all
    for (auto& row : rows) row = {{"status", error_status(error)}, {"message", error.what()}};
  }
  const std::vector<std::string> columns = result_columns(config);
  for (std::size_t m = 0; m < runs.size(); ++m) {
    rows[m]["dataset"] = instance.name;
    rows[m]["condition"] = instance.condition;
    rows[m]["method"] = config.methods[m].label;
    rows[m]["rep"] = std::to_string(repetition);
    // A method's share of the group: the time of its own fits (a start shared with another method
    // counts for both, as each would pay it alone).
    rows[m]["task_time_s"] = number(runs[m].seconds);
    for (const std::string& column : columns) outputs[m].row.push_back(rows[m][column]);
  }
  return outputs;
}

std::string quote_row(const std::string& dataset, const std::string& condition, const std::string& method,
                      const std::string& rep, const std::string& message) {
  return fmt::format("{}{} / {} rep {}: {}", dataset, condition.empty() ? "" : " " + condition, method, rep, message);
}

std::string refused_rows_warning(std::size_t refused, const std::string& counted, const std::string& first_refused,
                                 bool memory_budget_rows) {
  return fmt::format("{} of {} have no model because of their data or config (status input_error) or the memory "
                     "budget (memory_budget), the first: {}; their rows' message column says why{}",
                     refused, counted, first_refused,
                     memory_budget_rows ? ", and a run with a larger --memory-budget recomputes the memory_budget rows" : "");
}

namespace {

// tasks/, cv/ and (when the config keeps weights) weights/ of a run directory.
std::vector<std::filesystem::path> run_folders(const ExperimentConfig& config, const std::filesystem::path& directory) {
  std::vector<std::filesystem::path> folders = {directory / "tasks", directory / "cv"};
  if (config.keep_weights) folders.push_back(directory / "weights");
  return folders;
}

// Where run writes a task's result: its row first, then its cv/ file and, when the config keeps weights,
// its weights/ file.
std::vector<std::filesystem::path> task_paths(const ExperimentConfig& config, const std::filesystem::path& directory,
                                              const Task& task) {
  const std::string file = task.id + ".csv";
  std::vector<std::filesystem::path> paths = {task_row_file(directory, task), directory / "cv" / file};
  if (config.keep_weights) paths.push_back(directory / "weights" / file);
  return paths;
}

// The run directory when something stands there, else the nearest path above it where something does
// (a folder run would make it in, or a file or link in the way); an InputError when looking fails for
// another reason (a name too long, say).
std::filesystem::path nearest_existing(const std::filesystem::path& directory) {
  std::filesystem::path existing = directory;
  for (std::error_code error; !existing.empty() && !std::filesystem::exists(std::filesystem::symlink_status(existing, error));
       existing = existing.parent_path()) {
    // Absent, or below a file, a link loop or a folder without search permission: looked for higher up.
    const bool look_higher = !error || error == std::errc::no_such_file_or_directory ||
                             error == std::errc::not_a_directory || error == std::errc::too_many_symbolic_link_levels ||
                             error == std::errc::permission_denied;
    if (!look_higher) {
      throw core::InputError(fmt::format("{}: cannot be made ({}); choose another --out", directory.string(),
                                         error.message()));
    }
  }
  return existing.empty() ? std::filesystem::path(".") : existing;
}

// Throws when an existing folder lacks the write or search permission run needs to write into it.
void check_writable(const std::filesystem::path& folder) {
  if (std::filesystem::exists(folder) && ::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw core::InputError(fmt::format("{}: run cannot write there (no write or search permission)", folder.string()));
  }
}

}  // namespace

bool not_a_folder(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::exists(std::filesystem::symlink_status(path, error)) &&
         !std::filesystem::is_directory(path, error);
}

core::InputError not_a_run_folder(const std::filesystem::path& folder) {
  return core::InputError(fmt::format("{}: exists and is not a folder, where run keeps its tasks' results; move it away",
                                      folder.string()));
}

std::filesystem::path task_row_file(const std::filesystem::path& directory, const Task& task) {
  return directory / "tasks" / (task.id + ".csv");
}

TaskRecord read_task_record(const ExperimentConfig& config, const std::filesystem::path& directory, const Task& task) {
  const std::vector<std::filesystem::path> paths = task_paths(config, directory, task);
  TaskRecord record;
  bool all_files = true;
  for (const std::filesystem::path& path : paths) {
    const PathKind kind = path_kind(path);
    if (kind == PathKind::other && record.blocked.empty()) record.blocked = path.string();
    if (path == paths.front()) record.has_row = kind == PathKind::file;
    all_files = all_files && kind == PathKind::file;
  }
  record.complete = all_files;  // nothing blocked, and every path a file
  if (!record.complete) return record;  // computed again whatever the row says; a damaged row is not read
  for (const std::filesystem::path& path : paths) {  // collect reads every one of a complete task's files
    if (::access(path.c_str(), R_OK) != 0) {
      throw core::InputError(fmt::format("{}: cannot be read ({})", path.string(), std::strerror(errno)));
    }
  }
  record.status = kDamagedRow;
  const std::string text = read_whole_file(paths.front().string());  // an unreadable row is an error, not damage
  std::vector<std::vector<std::string>> table;
  try {
    table = parse_csv(text, paths.front().string());
  } catch (const core::InputError&) {  // not CSV: damaged, and computed again
    return record;
  }
  if (table.size() != 2 || table[0].size() != table[1].size()) return record;
  const auto status = std::find(table[0].begin(), table[0].end(), "status");
  if (status != table[0].end()) record.status = table[1][static_cast<std::size_t>(status - table[0].begin())];
  return record;
}

std::optional<std::filesystem::path> first_directory_with_row(const std::vector<std::string>& directories,
                                                              const Task& task) {
  for (const std::string& directory : directories) {
    if (path_kind(task_row_file(directory, task)) == PathKind::file) return std::filesystem::path(directory);
  }
  return std::nullopt;
}

std::string blocked_row(const std::vector<std::string>& directories, const Task& task) {
  for (const std::string& directory : directories) {
    const std::filesystem::path row = task_row_file(directory, task);
    if (path_kind(row) == PathKind::other) return row.string();
  }
  return "";
}

std::vector<std::string> blocked_run_folders(const ExperimentConfig& config, const std::filesystem::path& directory) {
  std::vector<std::string> blocked;
  for (const std::filesystem::path& folder : run_folders(config, directory)) {
    if (not_a_folder(folder)) blocked.push_back(folder.string());
  }
  return blocked;
}

void check_run_location(const std::filesystem::path& directory) {
  if (not_a_folder(directory)) {
    throw core::InputError(fmt::format("{}: exists and is not a folder, where run writes its results; move it away or "
                                       "choose another --out", directory.string()));
  }
  const std::filesystem::path existing = nearest_existing(directory);
  const long longest_name = ::pathconf(existing.c_str(), _PC_NAME_MAX);  // -1: no limit known
  for (const std::filesystem::path& part : directory) {
    if (longest_name > 0 && part.native().size() > static_cast<std::size_t>(longest_name)) {
      throw core::InputError(fmt::format("{}: a name in it is longer than the {} bytes a file name may have there; "
                                         "choose another --out", directory.string(), longest_name));
    }
  }
  if (not_a_folder(existing)) {
    throw core::InputError(fmt::format("{}: exists and is not a folder, so run cannot make its results' folder {} "
                                       "there; choose another --out", existing.string(), directory.string()));
  }
  if (existing == directory) {
    check_writable(directory);
  } else if (::access(existing.c_str(), W_OK | X_OK) != 0) {
    throw core::InputError(fmt::format("{}: run cannot make its results' folder {} there (no write or search "
                                       "permission); choose another --out", existing.string(), directory.string()));
  }
  for (const char* name : {"config.yaml", "run.log"}) {
    const std::filesystem::path file = directory / name;
    if (path_kind(file) == PathKind::other) {
      throw core::InputError(fmt::format("{}: exists and is not a file, where run writes its {}; move it away",
                                         file.string(), name));
    }
  }
}

void check_task_path_lengths(const std::filesystem::path& directory, const std::vector<Task>& tasks) {
  std::size_t longest_id = 0;
  for (const Task& task : tasks) longest_id = std::max(longest_id, task.id.size());
  // DIR/weights/<id>.csv.tmp.<pid>: the longest path run writes for a task (a pid has at most 7 digits).
  const std::size_t longest = directory.native().size() + std::string_view("/weights/").size() + longest_id +
                              std::string_view(".csv.tmp.4194304").size();
  if (!tasks.empty() && longest >= PATH_MAX) {
    throw core::InputError(fmt::format("{}: with a task's file in it, a path of {} bytes, longer than the {} a path may "
                                       "have; choose a shorter --out", directory.string(), longest, PATH_MAX - 1));
  }
}

void check_run_directory(const ExperimentConfig& config, const std::vector<Task>& tasks,
                         const std::filesystem::path& directory) {
  for (const std::filesystem::path& folder : run_folders(config, directory)) {
    if (not_a_folder(folder)) throw not_a_run_folder(folder);
    check_writable(folder);
  }
  // A blocked task is never complete, so always pending: the paths are looked at, no row is read.
  for (const Task& task : tasks) {
    for (const std::filesystem::path& path : task_paths(config, directory, task)) {
      if (path_kind(path) == PathKind::other) throw not_a_run_file(path.string());
    }
  }
}

bool needs_run(const TaskRecord& record) {
  return !record.complete || record.status == kMemoryBudgetStatus || record.status == kDamagedRow;
}

RunSummary run_tasks(const ExperimentConfig& config, const std::vector<Task>& tasks, const RunOptions& options) {
  const std::filesystem::path directory(options.directory);
  const std::filesystem::path task_dir = directory / "tasks", cv_dir = directory / "cv", weights_dir = directory / "weights";
  check_run_directory(config, tasks, directory);  // a refused run leaves the directory as it was
  std::filesystem::create_directories(directory);
  write_run_config(directory.string(), config);  // `status DIR` works from now on
  const std::vector<std::string> columns = result_columns(config);
  const std::vector<std::string> cv_columns = cv_score_columns(config);
  // Groups with at least one missing task, in plan order; each lists its pending tasks.
  std::vector<std::vector<Task>> groups;
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> group_index;
  RunSummary summary;
  std::size_t pending_count = 0;
  for (const Task& task : tasks) {
    const TaskRecord record = read_task_record(config, directory, task);
    if (!needs_run(record)) {
      ++summary.skipped;
      continue;
    }
    const auto [found, added] = group_index.try_emplace({task.dataset, task.repetition}, groups.size());
    if (added) groups.emplace_back();
    groups[found->second].push_back(task);
    ++pending_count;
  }
  for (const std::filesystem::path& folder : run_folders(config, directory)) std::filesystem::create_directories(folder);
  // Data sets are loaded (or generated) once, on first use, and shared read-only between workers; a fresh
  // sample is drawn for its group alone.
  std::mutex mutex;
  std::map<std::size_t, std::shared_ptr<const core::Dataset>> loaded;
  const auto dataset = [&](std::size_t index, std::size_t repetition) -> std::shared_ptr<const core::Dataset> {
    if (config.protocol.fresh_sample) {
      return std::make_shared<const core::Dataset>(repetition_sample(config, config.datasets[index], repetition));
    }
    {
      std::lock_guard lock(mutex);
      if (auto found = loaded.find(index); found != loaded.end()) return found->second;
    }
    auto data = std::make_shared<const core::Dataset>(data::load_dataset(config.datasets[index].source));
    std::lock_guard lock(mutex);
    return loaded.emplace(index, std::move(data)).first->second;
  };
  const auto column_of = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin());
  };
  const std::size_t status_column = column_of("status");
  const std::vector<std::size_t> quoted_columns = {column_of("dataset"), column_of("condition"), column_of("method"),
                                                   column_of("rep"), column_of("message")};
  std::optional<std::tuple<std::size_t, std::size_t, std::size_t>> first_refused;  // plan order of the quoted one

  // Threads beyond one per group fit a group's inner folds side by side (a single large training set).
  const std::size_t jobs = std::max<std::size_t>(1, options.jobs);
  const std::size_t fold_jobs = std::max<std::size_t>(1, jobs / std::max<std::size_t>(1, groups.size()));
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::exception_ptr failure;
  const auto worker = [&]() {
    for (std::size_t k = next++; k < groups.size(); k = next++) {
      try {
        const std::vector<Task>& pending = groups[k];
        const auto outputs = run_group(config, pending.front().dataset, pending.front().repetition,
                                       *dataset(pending.front().dataset, pending.front().repetition), fold_jobs);
        for (const Task& task : pending) {
          const TaskOutput& output = outputs[task.method];
          const std::vector<std::string>& fields = output.row;
          const std::string file = task.id + ".csv";
          // The row last: its file says the task is done.
          write_file_atomically((cv_dir / file).string(), csv_table(cv_columns, output.cv_scores));
          if (config.keep_weights) write_file_atomically((weights_dir / file).string(), csv_table(weight_columns(), output.weights));
          write_file_atomically((task_dir / file).string(), csv_line(columns) + csv_line(fields));
          std::lock_guard lock(mutex);
          ++summary.run;
          const std::string& status = fields[status_column];
          if (status != core::to_string(core::Status::optimal) && status != core::to_string(core::Status::converged)) {
            ++summary.failed;
          }
          if (refused_before_fit(status)) {
            ++summary.refused;
            if (status == kMemoryBudgetStatus) ++summary.refused_for_memory;
            const std::tuple order(task.dataset, task.repetition, task.method);
            if (!first_refused || order < *first_refused) {
              first_refused = order;
              summary.first_refused = quote_row(fields[quoted_columns[0]], fields[quoted_columns[1]],
                                                fields[quoted_columns[2]], fields[quoted_columns[3]],
                                                fields[quoted_columns[4]]);
            }
          }
          ++done;
          if (options.progress) options.progress(done, pending_count);
        }
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        next = groups.size();  // stop handing out work
      }
    }
  };
  std::vector<std::thread> workers;
  for (std::size_t j = 0; j < std::min(jobs, std::max<std::size_t>(1, groups.size())); ++j) workers.emplace_back(worker);
  for (std::thread& thread : workers) thread.join();
  if (failure) std::rethrow_exception(failure);
  return summary;
}

}  // namespace sparsesvm::experiment
