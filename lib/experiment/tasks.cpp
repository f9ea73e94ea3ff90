#include "experiment/tasks.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "core/errors.hpp"
#include "data/splits.hpp"
#include "data/transforms.hpp"
#include "experiment/csv.hpp"
#include "experiment/metrics.hpp"
#include "models/methods.hpp"

namespace sparsesvm::experiment {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string file_safe(const std::string& text) {
  std::string safe;
  for (char c : text) safe.push_back(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '=' ? c : '_');
  return safe;
}

std::string dataset_key(const DatasetInstance& instance) {
  return instance.condition.empty() ? instance.name : instance.name + "|" + instance.condition;
}

std::size_t outer_count(const Protocol& protocol) {
  return protocol.outer == "kfold" ? protocol.outer_folds : protocol.repetitions;
}

// The outer split of repetition r: a holdout drawn with split_seed(seed, data set, r), or fold r of one
// k-fold partition drawn with split_seed(seed, data set, 0).
data::Split outer_split(const ExperimentConfig& config, const DatasetInstance& instance, const core::Vector& labels,
                        std::size_t repetition) {
  const Protocol& p = config.protocol;
  const std::string key = dataset_key(instance);
  if (p.outer == "kfold") {
    core::Rng rng(data::split_seed(config.seed, key, 0));
    return data::kfold_splits(labels, p.outer_folds, p.stratified, rng).at(repetition);
  }
  core::Rng rng(data::split_seed(config.seed, key, repetition));
  return data::holdout_split(labels, p.test_fraction, p.stratified, rng);
}

// Inner splits of a training part (positions within it), seeded from the outer split's seed.
std::vector<data::Split> inner_splits(const ExperimentConfig& config, const DatasetInstance& instance,
                                      const core::Vector& train_labels, std::size_t repetition) {
  const Protocol& p = config.protocol;
  core::Rng rng(core::derive_seed({data::split_seed(config.seed, dataset_key(instance), repetition),
                                   std::string_view("inner")}));
  if (p.inner == "tuning_sets") {
    return data::tuning_set_splits(static_cast<std::size_t>(train_labels.size()), p.tuning_parts, p.tuning_fraction, rng);
  }
  if (p.inner == "kfold") return data::kfold_splits(train_labels, p.inner_folds, p.stratified, rng);
  return {};
}

struct Parts {
  core::Dataset train;
  core::Dataset test;
};

// Subsets and the transforms fitted on the training part.
Parts prepare(const core::Dataset& data, const std::vector<std::size_t>& train_rows,
              const std::vector<std::size_t>& test_rows, const std::vector<std::string>& transform_names) {
  Parts parts{data.subset(train_rows), data.subset(test_rows)};
  std::vector<std::unique_ptr<data::Transform>> transforms;
  for (const std::string& name : transform_names) transforms.push_back(data::make_transform(name));
  data::fit_and_apply(transforms, parts.train, {&parts.test});
  return parts;
}

double get_or_zero(const models::Hyperparameters& h, const char* key) { return h.contains(key) ? h.at(key) : 0.0; }

// The tie-break order of selection: smallest lambda, then mu, then a.
auto tie_break_key(const models::Hyperparameters& h) {
  return std::tuple(get_or_zero(h, "lambda"), get_or_zero(h, "mu"), get_or_zero(h, "a"));
}

// Every combination of the grid's values for the hyperparameters the method takes, with the config's
// fixed values, in fitting order: lambda varies fastest, so consecutive LPs differ only in their costs
// and re-solve warm (a change of mu changes row bounds).
std::vector<models::Hyperparameters> candidates(const ExperimentConfig& config, const MethodEntry& entry) {
  const models::MethodInfo& method = models::find_method(entry.name);
  std::vector<models::Hyperparameters> combos = {entry.fixed};
  for (const std::string key : {"mu", "a", "lambda"}) {
    const auto values = config.grid.find(key);
    if (values == config.grid.end() || !method.defaults.contains(key) || entry.fixed.contains(key)) continue;
    std::vector<models::Hyperparameters> expanded;
    for (const auto& combo : combos) {
      for (double value : values->second) {
        auto next = combo;
        next[key] = value;
        expanded.push_back(std::move(next));
      }
    }
    combos = std::move(expanded);
  }
  return combos;
}

struct Selection {
  models::Hyperparameters chosen;
  double cv_accuracy = kNaN;
  std::size_t inner_failures = 0;
  std::size_t fits = 0;  // inner fits made
};

Selection select_hyperparameters(const ExperimentConfig& config, const Task& task, const MethodEntry& entry,
                                 const core::Dataset& data, const std::vector<std::size_t>& train_rows) {
  const std::vector<models::Hyperparameters> combos = candidates(config, entry);
  Selection selection{combos.front(), kNaN, 0};
  if (combos.size() == 1) return selection;
  const DatasetInstance& instance = config.datasets[task.dataset];
  core::Vector train_labels(static_cast<Eigen::Index>(train_rows.size()));  // labels only: no copy of the features
  for (std::size_t k = 0; k < train_rows.size(); ++k) {
    train_labels[static_cast<Eigen::Index>(k)] = data.labels()[static_cast<Eigen::Index>(train_rows[k])];
  }
  const std::vector<data::Split> folds = inner_splits(config, instance, train_labels, task.repetition);
  if (folds.empty()) return selection;
  std::vector<double> accuracy_sum(combos.size(), 0.0);
  std::vector<bool> eligible(combos.size(), true);
  for (const data::Split& fold : folds) {
    const Parts parts = prepare(data, data::compose(train_rows, fold.train), data::compose(train_rows, fold.test),
                                instance.transforms);
    models::StepSolver solver(parts.train);  // one solver per fold: warm starts along the grid
    for (std::size_t c = 0; c < combos.size(); ++c) {
      const models::FitReport report = models::fit_method(entry.name, combos[c], solver);
      ++selection.fits;
      if (!core::has_solution(report.status)) {
        eligible[c] = false;
        ++selection.inner_failures;
        continue;
      }
      accuracy_sum[c] += report.model.accuracy(parts.test);
    }
  }
  double best = -1.0;
  for (std::size_t c = 0; c < combos.size(); ++c) {
    if (!eligible[c]) continue;
    if (accuracy_sum[c] > best || (accuracy_sum[c] == best && tie_break_key(combos[c]) < tie_break_key(selection.chosen))) {
      best = accuracy_sum[c];
      selection.chosen = combos[c];
    }
  }
  if (best >= 0) selection.cv_accuracy = best / static_cast<double>(folds.size());
  return selection;
}

std::string number(double value) { return format_number(value); }
std::string optional_count(const std::optional<std::size_t>& value) { return value ? std::to_string(*value) : ""; }

std::string hyperparameter(const models::Hyperparameters& h, const char* key) {
  return h.contains(key) ? number(h.at(key)) : "";
}

}  // namespace

const std::vector<std::string>& result_columns() {
  static const std::vector<std::string> columns = {
      "dataset", "condition", "method", "rep", "status", "lambda", "mu", "a", "cv_accuracy", "accuracy",
      "train_accuracy", "n_features", "frac_features", "fp_features", "fn_features", "n_sv", "frac_sv",
      "frac_params", "objective", "iterations", "inner_iterations", "inner_failures", "fits", "train_time_s",
      "task_time_s", "objective_trace", "message"};
  return columns;
}

std::vector<Task> plan_tasks(const ExperimentConfig& config, std::vector<std::string>* missing) {
  std::vector<Task> tasks;
  for (std::size_t d = 0; d < config.datasets.size(); ++d) {
    const DatasetInstance& instance = config.datasets[d];
    if (!instance.missing_hint.empty()) {
      if (missing) missing->push_back(fmt::format("{}: {}", instance.name, instance.missing_hint));
      continue;
    }
    for (std::size_t r = 0; r < outer_count(config.protocol); ++r) {
      for (std::size_t m = 0; m < config.methods.size(); ++m) {
        const std::string id = file_safe(fmt::format("{}{}__rep{:03}__{}", instance.name,
                                                     instance.condition.empty() ? "" : "__" + instance.condition, r,
                                                     config.methods[m].name));
        tasks.push_back(Task{d, r, m, id});
      }
    }
  }
  return tasks;
}

std::vector<Task> shard_tasks(const std::vector<Task>& tasks, std::size_t shard, std::size_t count) {
  std::vector<Task> mine;
  for (std::size_t k = shard; k < tasks.size(); k += count) mine.push_back(tasks[k]);
  return mine;
}

std::vector<std::string> run_task(const ExperimentConfig& config, const Task& task, const core::Dataset& data) {
  const DatasetInstance& instance = config.datasets[task.dataset];
  const MethodEntry& entry = config.methods[task.method];
  std::map<std::string, std::string> row = {{"dataset", instance.name}, {"condition", instance.condition},
                                            {"method", entry.name}, {"rep", std::to_string(task.repetition)}};
  const auto task_start = std::chrono::steady_clock::now();
  try {
    const data::Split split = outer_split(config, instance, data.labels(), task.repetition);
    const Selection selection = select_hyperparameters(config, task, entry, data, split.train);
    const Parts parts = prepare(data, split.train, split.test, instance.transforms);
    models::StepSolver solver(parts.train);
    const models::FitReport report = models::fit_method(entry.name, selection.chosen, solver);
    const models::MethodInfo& method = models::find_method(entry.name);
    const models::Hyperparameters used = models::resolve_hyperparameters(method, selection.chosen);
    row["status"] = core::to_string(report.status);
    row["message"] = report.message;
    row["lambda"] = hyperparameter(used, "lambda");
    row["mu"] = hyperparameter(used, "mu");
    row["a"] = hyperparameter(used, "a");
    row["cv_accuracy"] = number(selection.cv_accuracy);
    row["inner_failures"] = std::to_string(selection.inner_failures);
    row["fits"] = std::to_string(selection.fits + 1);
    row["iterations"] = std::to_string(report.iterations);
    row["inner_iterations"] = std::to_string(report.inner_iterations);
    row["train_time_s"] = number(report.seconds);
    if (core::has_solution(report.status)) {
      const std::optional<double> mu = method.loss == "ramp" ? std::optional<double>(used.at("mu")) : std::nullopt;
      const ModelMetrics m = model_metrics(report.model, parts.train, parts.test, mu);
      row["accuracy"] = number(m.accuracy);
      row["train_accuracy"] = number(m.train_accuracy);
      row["n_features"] = std::to_string(m.n_features);
      row["frac_features"] = number(m.frac_features);
      row["fp_features"] = optional_count(m.fp_features);
      row["fn_features"] = optional_count(m.fn_features);
      row["n_sv"] = std::to_string(m.n_sv);
      row["frac_sv"] = number(m.frac_sv);
      row["frac_params"] = number(m.frac_params);
      row["objective"] = number(report.objective);
      std::vector<std::string> trace;
      for (double value : report.objective_trace) trace.push_back(number(value));
      row["objective_trace"] = fmt::format("{}", fmt::join(trace, ";"));
    }
  } catch (const core::InputError& error) {
    row["status"] = "input_error";
    row["message"] = error.what();
  }
  row["task_time_s"] = number(std::chrono::duration<double>(std::chrono::steady_clock::now() - task_start).count());
  std::vector<std::string> fields;
  for (const std::string& column : result_columns()) fields.push_back(row[column]);
  return fields;
}

RunSummary run_tasks(const ExperimentConfig& config, const std::vector<Task>& tasks, const RunOptions& options) {
  const std::filesystem::path task_dir = std::filesystem::path(options.directory) / "tasks";
  std::filesystem::create_directories(task_dir);
  std::vector<Task> pending;
  RunSummary summary;
  for (const Task& task : tasks) {
    if (std::filesystem::exists(task_dir / (task.id + ".csv"))) {
      ++summary.skipped;
    } else {
      pending.push_back(task);
    }
  }
  // Data sets are loaded (or generated) once, on first use, and shared read-only between workers.
  std::mutex mutex;
  std::map<std::size_t, std::shared_ptr<const core::Dataset>> loaded;
  const auto dataset = [&](std::size_t index) {
    {
      std::lock_guard lock(mutex);
      if (auto found = loaded.find(index); found != loaded.end()) return found->second;
    }
    auto data = std::make_shared<const core::Dataset>(data::load_dataset(config.datasets[index].source));
    std::lock_guard lock(mutex);
    return loaded.emplace(index, std::move(data)).first->second;
  };

  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::exception_ptr failure;
  const auto worker = [&]() {
    for (std::size_t k = next++; k < pending.size(); k = next++) {
      try {
        const Task& task = pending[k];
        const std::vector<std::string> fields = run_task(config, task, *dataset(task.dataset));
        write_file_atomically((task_dir / (task.id + ".csv")).string(), csv_line(result_columns()) + csv_line(fields));
        std::lock_guard lock(mutex);
        ++summary.run;
        static const auto status_column = static_cast<std::size_t>(
            std::find(result_columns().begin(), result_columns().end(), "status") - result_columns().begin());
        if (fields[status_column] != "optimal") ++summary.failed;
        ++done;
        if (options.progress) options.progress(done, pending.size());
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        next = pending.size();  // stop handing out work
      }
    }
  };
  std::vector<std::thread> workers;
  for (std::size_t j = 0; j < std::max<std::size_t>(1, options.jobs); ++j) workers.emplace_back(worker);
  for (std::thread& thread : workers) thread.join();
  if (failure) std::rethrow_exception(failure);
  return summary;
}

}  // namespace sparsesvm::experiment
