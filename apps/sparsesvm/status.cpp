// `sparsesvm status DIR [DIR ...] [--shards N]`: per data set (and condition) and method, how many of the
// planned tasks are done, missing, or done without a solution; with --shards N, which shard indices
// still have tasks to run: missing, damaged, or refused for the memory budget (to resubmit only those:
// scripts/slurm_array.sh --resubmit-missing). With several directories (shards run into their own --out),
// each task is read from the first directory that has its row, as `collect` reads it. Exit 0
// when every task is done with a solution, 4 when a task is missing or has none.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "commands.hpp"
#include "core/errors.hpp"
#include "core/status.hpp"
#include "experiment/config.hpp"
#include "experiment/manifest.hpp"
#include "experiment/tasks.hpp"

namespace sparsesvm::app {
namespace {

enum class TaskState { done, missing, failed };

// A task's record in the first directory that has its row, the one `collect` reads; when none has, the
// first record with a blocked path (the directory a rerun of the task may stop in), else an empty one.
experiment::TaskRecord find_task_record(const experiment::ExperimentConfig& config, const experiment::Task& task,
                                        const std::vector<std::string>& directories) {
  if (const auto with_row = experiment::first_directory_with_row(directories, task)) {
    return experiment::read_task_record(config, *with_row, task);
  }
  for (const std::string& directory : directories) {
    experiment::TaskRecord record = experiment::read_task_record(config, directory, task);
    if (!record.blocked.empty()) return record;
  }
  return experiment::TaskRecord{};
}

// Missing: no complete record, or a damaged row (a rerun computes both again; a blocked one stops it).
TaskState task_state(const experiment::TaskRecord& record) {
  if (!record.complete || record.status == experiment::kDamagedRow) return TaskState::missing;
  return core::has_solution(record.status) ? TaskState::done : TaskState::failed;
}

struct Counts {
  std::size_t done = 0, missing = 0, failed = 0;
};

int status(const std::vector<std::string>& directories, std::size_t shards) {
  for (const std::string& directory : directories) {
    std::error_code error;  // a link loop is not a directory either
    if (!std::filesystem::is_directory(directory, error)) {
      throw core::InputError(fmt::format("{}: not a directory; status reads run directories", directory));
    }
  }
  // The first directory's config plans the tasks; the others are read for its tasks' files alone (a shard
  // run from another path to the same data writes the same task files under another config text).
  const experiment::ExperimentConfig config = experiment::read_run_config(directories.front(), "status");
  std::vector<std::string> absent;
  const std::vector<experiment::Task> tasks = experiment::plan_tasks(config, &absent);
  std::map<std::pair<std::string, std::string>, Counts> counts;  // (data set + condition, method)
  std::vector<std::pair<std::string, std::string>> order;
  // Task ids a rerun of their shard computes (experiment::needs_run): without a complete record, damaged, or
  // refused for the memory budget (run computes those again, with the budget it is given).
  std::set<std::string> to_rerun;
  std::size_t incomplete = 0, damaged = 0;  // of the missing: a row without its cv/ or weights/ file; a damaged row
  std::vector<std::string> blocked;  // paths where something other than a file stands
  std::vector<std::string> blocked_folders;  // tasks/, cv/ or weights/ where something other than a folder stands
  for (const std::string& directory : directories) {
    for (std::string& folder : experiment::blocked_run_folders(config, directory)) blocked_folders.push_back(std::move(folder));
  }
  Counts total;
  std::map<std::string, std::size_t> statuses;  // recorded rows by status
  for (const experiment::Task& task : tasks) {
    const experiment::DatasetInstance& instance = config.datasets[task.dataset];
    const std::pair<std::string, std::string> key{
        instance.condition.empty() ? instance.name : instance.name + " " + instance.condition,
        config.methods[task.method].label};
    if (!counts.contains(key)) order.push_back(key);
    Counts& cell = counts[key];
    const experiment::TaskRecord record = find_task_record(config, task, directories);
    const TaskState state = task_state(record);
    if (state != TaskState::missing) ++statuses[record.status];
    if (!record.blocked.empty()) {
      blocked.push_back(record.blocked);
    } else if (record.has_row && !record.complete) {
      ++incomplete;
    }
    if (record.status == experiment::kDamagedRow) ++damaged;
    if (experiment::needs_run(record)) to_rerun.insert(task.id);
    switch (state) {
      case TaskState::done: ++cell.done; ++total.done; break;
      case TaskState::missing: ++cell.missing; ++total.missing; break;
      case TaskState::failed: ++cell.failed; ++total.failed; break;
    }
  }
  fmt::print("{:<44} {:<16} {:>6} {:>8} {:>7}\n", "data set", "method", "done", "missing", "failed");
  for (const auto& key : order) {
    const Counts& cell = counts.at(key);
    fmt::print("{:<44} {:<16} {:>6} {:>8} {:>7}\n", key.first, key.second, cell.done, cell.missing, cell.failed);
  }
  fmt::print("total: {} done, {} missing, {} without a solution, of {} planned\n", total.done, total.missing,
             total.failed, tasks.size());
  std::vector<std::string> by_status;
  for (const auto& [name, count] : statuses) by_status.push_back(fmt::format("{} {}", name, count));
  if (!by_status.empty()) fmt::print("statuses: {}\n", fmt::join(by_status, ", "));
  if (incomplete > 0) {
    fmt::print("of the missing, {} have a row but lack their cv/ or weights/ file (deleted?): a rerun computes "
               "them again{}\n", incomplete, blocked_folders.empty() ? "" : ", once the blocked folders are moved away");
  }
  if (damaged > 0) {
    fmt::print("of the missing, {} have a damaged row (not CSV with one header and one line with a status): a "
               "rerun computes them again\n", damaged);
  }
  if (!blocked.empty()) {
    fmt::print("of the missing, {} are blocked: something other than a file stands where run writes their row, "
               "cv/ or weights/ file, and a rerun stops on it; move it away. The first: {}\n", blocked.size(),
               blocked.front());
  }
  if (!blocked_folders.empty()) {
    fmt::print("blocked folders: something other than a folder stands where run keeps its tasks' results, and a "
               "rerun stops on it; move it away: {}\n", fmt::join(blocked_folders, ", "));
  }
  for (const std::string& note : absent) fmt::print("absent data set (not planned): {}\n", note);
  // A task without a solution is a recorded result (a rerun skips it and would compute the same), except a
  // damaged row and one refused for the memory budget: only shards with such tasks or missing ones have work left.
  if (shards > 0) {
    const std::vector<std::size_t> shard_of_task = experiment::task_shards(tasks, shards);
    std::set<std::size_t> shards_with_work;
    for (std::size_t k = 0; k < tasks.size(); ++k) {
      if (to_rerun.contains(tasks[k].id)) shards_with_work.insert(shard_of_task[k]);
    }
    const std::vector<std::size_t> with_work(shards_with_work.begin(), shards_with_work.end());
    fmt::print("shards of {} with tasks to run (missing, damaged, or refused for the memory budget): {}\n", shards, with_work.empty() ? "none" : fmt::format("{}", fmt::join(with_work, ",")));
  }
  return total.missing == 0 && total.failed == 0 ? 0 : 4;
}

}  // namespace

Command add_status(CLI::App& app) {
  auto directories = std::make_shared<std::vector<std::string>>();
  auto shards = std::make_shared<std::size_t>(0);
  CLI::App* command = app.add_subcommand(
      "status", "Count done, missing and failed tasks of a run (one directory or several shard directories); exit 4 "
                "while tasks are missing or failed, 0 when all are done");
  command->add_option("directories", *directories, "run directories (the first holds config.yaml)")->required();
  command->add_option("--shards", *shards, "also list which of N shards still have tasks to run (missing, damaged, or refused for the memory budget)")
      ->check(CLI::Range(std::size_t{1}, experiment::kMaxShards));
  return {command, [directories, shards]() { return status(*directories, *shards); }};
}

}  // namespace sparsesvm::app
