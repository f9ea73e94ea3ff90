#pragma once
// A config expands into a deterministic list of tasks, one per (data set instance, outer split,
// method), each with one result row in DIR/tasks/<id>.csv, written atomically. The tasks of one
// (data set instance, outer split) form a group that runs as one unit: every training set of the
// group (each inner fold, and the final training part) gets one models::Workspace that all the
// group's methods fit on in config order (inner folds side by side when threads outnumber groups), so
// RLSVM0 starts from the OneNormSVM fits that OneNormSVM made and the LP caches are built once. Splits
// come from split_seed(config seed, data set + condition, repetition), never from the method or the
// order of execution, so `-j`, sharding (by group) and reruns give identical rows (timing columns aside). A rerun skips tasks whose file exists;
// a group with any missing task is recomputed whole (its rows depend on the shared workspaces) and
// only the missing files are written. A task also writes its inner scores to DIR/cv/<id>.csv (and, with
// keep: [weights], DIR/weights/<id>.csv) before its row; it is finished when all its files exist. An
// interrupted task writes nothing.
//
// Protocols (protocol.hpp): outer holdout | kfold | half_half | train_tune_test; inner kfold | tuning_sets |
// tuning_set | none; inner scores by protocol.inner.metric (models/scoring.hpp), selection rules in
// models/selection.hpp. A candidate where some inner fit returned no solution is not eligible
// (inner_failures counts such fits); a metric undefined on an inner part is the method's input_error.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dataset.hpp"
#include "core/errors.hpp"
#include "experiment/config.hpp"
#include "models/parameters.hpp"

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
  std::size_t refused = 0;  // of the failed, refused before a solver answered (refused_before_fit)
  std::size_t refused_for_memory = 0;  // of those, memory_budget rows
  std::string first_refused;  // the first of them in plan order, quoted (quote_row)
};

// The statuses of rows whose fit was refused before a solver answered (never a solver's: core::Status):
// the data or config cannot be fitted, or the fit would allocate past the memory budget.
inline constexpr std::string_view kInputErrorStatus = "input_error";
inline constexpr std::string_view kMemoryBudgetStatus = "memory_budget";
inline bool refused_before_fit(std::string_view status) {
  return status == kInputErrorStatus || status == kMemoryBudgetStatus;
}
// How warnings quote a row: "DATASET[ CONDITION] / METHOD rep R: MESSAGE".
std::string quote_row(const std::string& dataset, const std::string& condition, const std::string& method,
                      const std::string& rep, const std::string& message);
// The warning for rows refused before a solver answered: `refused` of what `counted` names ("4 rows",
// "the 2 tasks run"), the first quoted (quote_row); with `memory_budget_rows`, how to recompute those.
std::string refused_rows_warning(std::size_t refused, const std::string& counted, const std::string& first_refused,
                                 bool memory_budget_rows);
// The status of a row whose every candidate parameter had an inner fit without a solution: no model.
inline constexpr std::string_view kNoEligibleCandidateStatus = "no_eligible_candidate";
// TaskRecord's status for a row that cannot be read as one.
inline constexpr std::string_view kDamagedRow = "damaged";

// What a run directory holds of a task. `has_row`: its row (tasks/) is a file. `blocked`: the first of its
// paths (below) where something other than a file stands (a directory, a FIFO), which run cannot write
// over. `complete`: its row, its inner scores (cv/) and, when the config keeps weights, its weights
// (weights/) are all files. `status`: the row's status column, read only when complete ("" otherwise);
// kDamagedRow for a row that is not CSV with one header and one line with a status.
struct TaskRecord {
  bool has_row = false;
  bool complete = false;
  std::string status;
  std::string blocked;
};

TaskRecord read_task_record(const ExperimentConfig& config, const std::filesystem::path& directory, const Task& task);
// DIRECTORY/tasks/<task id>.csv: the task's row, whose file says the task is done.
std::filesystem::path task_row_file(const std::filesystem::path& directory, const Task& task);

// With several run directories (shards run into their own --out), a task is read from the first whose
// tasks/ holds its row as a file: `collect` reads that row and its cv/ and weights/ files, `status` counts
// that record. None: no directory has the row. `blocked_row`: the first directory's row path where
// something other than a file stands, "" when there is none.
std::optional<std::filesystem::path> first_directory_with_row(const std::vector<std::string>& directories,
                                                              const Task& task);
std::string blocked_row(const std::vector<std::string>& directories, const Task& task);

// Whether a run computes the task (again): its record is incomplete (a blocked one stops the run, naming
// the path), its row is damaged, or its fit was refused for the memory budget (a larger budget, or a larger machine, may compute it). Every other row is a
// result a rerun keeps; `run` and `status --shards` both decide by this.
bool needs_run(const TaskRecord& record);

// Something stands at `path` that is not a folder: a file, a FIFO, a link to nothing or a link loop (a
// link to a folder is a folder).
bool not_a_folder(const std::filesystem::path& path);
// The error for a run directory's tasks/, cv/ or weights/ where something other than a folder stands.
core::InputError not_a_run_folder(const std::filesystem::path& folder);
// Of a run directory's tasks/, cv/ and (when the config keeps weights) weights/, those where something
// other than a folder stands (a file, a FIFO, a link to nothing or a loop): run cannot write there.
std::vector<std::string> blocked_run_folders(const ExperimentConfig& config, const std::filesystem::path& directory);
// Throws when `run` could not write into the run directory at all: something other than a folder stands
// there (a file, a link to nothing or a loop) or where run would make it, it or the folder run would make
// it in lacks write permission, or its config.yaml or run.log is
// something other than a file (a FIFO would block their reading). Before anything is read or written there.
void check_run_location(const std::filesystem::path& directory);
// Throws when a task's file in `directory` would have a longer path than the system allows (PATH_MAX), so
// that run refuses before it makes the directory.
void check_task_path_lengths(const std::filesystem::path& directory, const std::vector<Task>& tasks);
// Throws, naming the first, when the directory cannot take the results of the tasks a run computes: a
// blocked folder (above) or one without write permission, or a pending task's blocked path
// (TaskRecord::blocked). run_tasks checks before it writes anything, config.yaml included.
void check_run_directory(const ExperimentConfig& config, const std::vector<Task>& tasks,
                         const std::filesystem::path& directory);

// Fits the tasks whose rows the run directory lacks (needs_run), after check_run_directory and writing the
// run's config.yaml there.
RunSummary run_tasks(const ExperimentConfig& config, const std::vector<Task>& tasks, const RunOptions& options);

// The training part of data set instance `dataset` in outer split `repetition`, transformed as its fits see
// it (a boundary figure draws its points).
core::Dataset training_part(const ExperimentConfig& config, std::size_t dataset, std::size_t repetition);

// The data that outer split `repetition` of an instance splits: its one sample (loaded or generated), or a
// new draw of its generator per repetition under protocol.outer.fresh_sample.
core::Dataset repetition_sample(const ExperimentConfig& config, const DatasetInstance& instance, std::size_t repetition);

// The inner selection of one method entry on one training part: every candidate (a combination of
// the grid values it tunes) scored on every inner fold, and the winner under the config's rule.
struct MethodSelection {
  const MethodEntry* entry = nullptr;
  std::vector<models::Hyperparameters> candidates;
  // The grid's lambdas when the entry tunes lambda over more than one: every fit of the entry, the final one
  // too, is a point of that path (models::fit_method); empty otherwise.
  std::vector<double> lambda_path;
  // fold_scores[c][f]: candidate c's score on inner fold f (protocol.inner.metric on the fold's held-out part,
  // 0.5 for a model under protocol.near_zero_norm); NaN where that fit had no solution.
  std::vector<std::vector<double>> fold_scores;
  bool selected = false;       // false: one candidate, or inner none (no folds are run; chosen = 0)
  std::size_t chosen = 0;      // candidates.size() when no candidate is eligible
  std::size_t inner_failures = 0;
  std::size_t fits = 0;
  double seconds = 0.0;        // in this method's fits
  std::string input_error;     // set when the method cannot run on this data
  std::string error_status{kInputErrorStatus};  // the row's status with input_error: memory_budget for a ResourceError
  double mean_score(std::size_t candidate) const;  // over the folds; NaN unless every fit had a solution
};

// The inner selection of every method of the config, as run_group does it, on a training part that is
// the whole pool (protocol.inner kfold or tuning_sets; `seed` derives the folds and the fits' seeds, as
// group_seed() does for a run). `dataset` names the instance whose transforms each fold fits.
std::vector<MethodSelection> select_on_training_part(const ExperimentConfig& config, std::size_t dataset,
                                                     const core::Dataset& train, std::uint64_t seed);

// The seed of everything drawn for data set instance `dataset` in outer split `repetition`: inner folds,
// workspaces.
std::uint64_t group_seed(const ExperimentConfig& config, std::size_t dataset, std::size_t repetition);

// The rows of `data` (repetition_sample()'s) that outer split `repetition` trains on.
std::vector<std::size_t> outer_training_rows(const ExperimentConfig& config, std::size_t dataset,
                                             std::size_t repetition, const core::Dataset& data);

// Columns of the inner scores file of a task (cv/<id>.csv; collect's cv_scores.csv): one line per
// candidate and inner fold, with the candidate's value of every parameter some method of the config tunes.
std::vector<std::string> cv_score_columns(const ExperimentConfig& config);
// Columns of the weights file of a task (weights/<id>.csv; collect's weights.csv), with keep: [weights].
std::vector<std::string> weight_columns();

// What one task writes: its result row (result_columns() order), its inner scores (cv_score_columns(),
// no lines without a selection) and, with keep: [weights], its final model's weights by feature name
// and the bias as feature "(bias)".
struct TaskOutput {
  std::vector<std::string> row;
  std::vector<std::vector<std::string>> cv_scores;
  std::vector<std::vector<std::string>> weights;
};

// The outputs of every method of the config on one data set instance and outer split, in config method
// order, `data` being repetition_sample()'s; exposed for tests. Up to `fold_jobs` inner folds are fitted at
// once (run_tasks gives a group the threads that no other group takes); the outputs do not depend on it.
std::vector<TaskOutput> run_group(const ExperimentConfig& config, std::size_t dataset, std::size_t repetition,
                                  const core::Dataset& data, std::size_t fold_jobs = 1);

}  // namespace sparsesvm::experiment
