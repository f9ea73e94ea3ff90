#pragma once
// A config expands into a deterministic list of tasks, one per (data set instance, outer split,
// method), each with one result row in DIR/tasks/<id>.csv, written atomically. The tasks of one
// (data set instance, outer split) form a group that runs as one unit: every training set of the
// group (each inner fold, and the final training part) gets one models::Workspace that all the
// group's methods fit on in config order, so RLSVM0 starts from the OneNormSVM fits that OneNormSVM
// made and the LP caches are built once. Splits come from split_seed(config seed, data set +
// condition, repetition), never from the method or the order of execution, so `-j`, sharding (by
// group) and reruns give identical rows (timing columns aside). A rerun skips tasks whose file exists;
// a group with any missing task is recomputed whole (its rows depend on the shared workspaces) and
// only the missing files are written. An interrupted task writes nothing.
//
// Protocols (config.hpp Protocol): outer holdout | kfold | half_half | train_tune_test; inner kfold |
// tuning_sets | tuning_set | none; selection rules in selection.hpp. A candidate where some inner fit
// returned no solution is not eligible (inner_failures counts such fits).
#include <functional>
#include <string>
#include <vector>

#include "experiment/config.hpp"

namespace sparsesvm::experiment {

struct Task {
  std::size_t dataset;  // index into config.datasets
  std::size_t repetition;
  std::size_t method;   // index into config.methods
  std::string id;       // file name stem, unique within the run
  // The estimated cost of the task's group, for balanced shards: its data set's number of examples
  // (a generated set's n; a file's line count). Not part of the id: no row depends on it.
  double weight = 1.0;
};

// The columns of every result row of this config, in order: identity and status, one column per
// model parameter (parameter_columns), scores and metrics, solver columns, one column per statistic
// the config's algorithms report.
std::vector<std::string> result_columns(const ExperimentConfig& config);

// Outer splits per data set instance: the folds of an outer k-fold, else the repetitions.
std::size_t outer_count(const Protocol& protocol);

// Tasks of the data sets that are present; missing ones are listed in `missing` with how to get them.
std::vector<Task> plan_tasks(const ExperimentConfig& config, std::vector<std::string>* missing = nullptr);

// More shards than any cluster array takes are refused (the same bound as repetitions and folds).
constexpr std::size_t kMaxShards = 100'000;

// The shard (0 to count - 1) of each task: whole groups (data set instance, repetition), assigned so that
// the shards' summed group weights are balanced (largest first, each to the lightest shard). InputError
// for a count of 0 or above kMaxShards.
std::vector<std::size_t> task_shards(const std::vector<Task>& tasks, std::size_t count);

// The tasks of shard `shard` of `count` (task_shards).
std::vector<Task> shard_tasks(const std::vector<Task>& tasks, std::size_t shard, std::size_t count);

struct RunOptions {
  std::string directory;
  std::size_t jobs = 1;
  // Called after each task with (done, total); from worker threads, serialized.
  std::function<void(std::size_t, std::size_t)> progress;
};

struct RunSummary {
  std::size_t run = 0;      // tasks executed now
  std::size_t skipped = 0;  // already finished before
  std::size_t failed = 0;   // executed with a status that is neither optimal nor converged
};

RunSummary run_tasks(const ExperimentConfig& config, const std::vector<Task>& tasks, const RunOptions& options);

// The training part of data set instance `dataset` in outer split `repetition`, transformed as its fits see
// it (a boundary figure draws its points).
core::Dataset training_part(const ExperimentConfig& config, std::size_t dataset, std::size_t repetition);

// The data that outer split `repetition` of an instance splits: its one sample (loaded or generated), or a
// new draw of its generator per repetition under protocol.outer.fresh_sample.
core::Dataset repetition_sample(const ExperimentConfig& config, const DatasetInstance& instance, std::size_t repetition);

// The result rows (fields in result_columns() order) of every method of the config on one data set
// instance and outer split, in config method order, `data` being repetition_sample()'s; exposed for tests.
std::vector<std::vector<std::string>> run_group(const ExperimentConfig& config, std::size_t dataset,
                                                std::size_t repetition, const core::Dataset& data);

}  // namespace sparsesvm::experiment
