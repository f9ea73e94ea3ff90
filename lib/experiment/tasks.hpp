#pragma once
// A config expands into a deterministic list of tasks, one per (data set instance, outer repetition or
// fold, method). A task selects the hyperparameters on its training part (inner k-fold CV, or the FSV
// tuning-set rule) and fits the final model, and its one result row goes to DIR/tasks/<id>.csv,
// written atomically. Splits come from split_seed(config seed, data set + condition, repetition), never
// from the method or the order of execution, so `-j`, sharding and reruns give identical rows (timing
// columns aside). A rerun skips tasks whose file exists; an interrupted task writes nothing.
//
// Selection: the hyperparameter combination (lambda, mu, a from the config's grid, where the method
// takes them) with the best mean inner accuracy; ties go to the smallest lambda, then the smallest mu
// and a. A combination where some inner fit returned no solution is not eligible (inner_failures counts
// such fits).
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
};

// The columns of every result row, in order.
const std::vector<std::string>& result_columns();

// Tasks of the data sets that are present; missing ones are listed in `missing` with how to get them.
std::vector<Task> plan_tasks(const ExperimentConfig& config, std::vector<std::string>* missing = nullptr);

// Tasks with index % count == shard.
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
  std::size_t failed = 0;   // executed with a status that is not optimal
};

RunSummary run_tasks(const ExperimentConfig& config, const std::vector<Task>& tasks, const RunOptions& options);

// One task's result row (fields in result_columns() order); exposed for tests.
std::vector<std::string> run_task(const ExperimentConfig& config, const Task& task, const core::Dataset& data);

}  // namespace sparsesvm::experiment
