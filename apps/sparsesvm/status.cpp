// `sparsesvm status DIR [DIR ...] [--shards N]`: per data set (and condition) and method, how many of the
// planned tasks are done, missing, or done without a solution; with --shards N, which shard indices
// still have tasks to run: missing, or refused for the memory budget (to resubmit only those:
// scripts/slurm_array.sh --resubmit-missing). Exit 0
// when every task is done with a solution, 4 when a task is missing or has none.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <map>
#include <set>

#include "commands.hpp"
#include "core/errors.hpp"
#include "core/status.hpp"
#include "experiment/config.hpp"
#include "experiment/csv.hpp"
#include "experiment/tasks.hpp"

namespace sparsesvm::app {
namespace {

enum class TaskState { done, missing, failed };

// The state of a task and the status its row records ("" when missing, "damaged" for an unreadable file):
// its file in the first directory that has one, and the file's status column.
std::pair<TaskState, std::string> task_state(const experiment::Task& task, const std::vector<std::string>& directories) {
  for (const std::string& directory : directories) {
    const std::filesystem::path file = std::filesystem::path(directory) / "tasks" / (task.id + ".csv");
    if (!std::filesystem::exists(file)) continue;
    const auto table = experiment::parse_csv(experiment::read_whole_file(file.string()), file.string());
    if (table.size() != 2 || table[0].size() != table[1].size()) return {TaskState::failed, "damaged"};
    for (std::size_t c = 0; c < table[0].size(); ++c) {
      if (table[0][c] != "status") continue;
      return {core::has_solution(table[1][c]) ? TaskState::done : TaskState::failed, table[1][c]};
    }
    return {TaskState::failed, "damaged"};
  }
  return {TaskState::missing, ""};
}

struct Counts {
  std::size_t done = 0, missing = 0, failed = 0;
};

int status(const std::vector<std::string>& directories, std::size_t shards) {
  const std::string config_path = (std::filesystem::path(directories.front()) / "config.yaml").string();
  if (!std::filesystem::exists(config_path)) {
    throw core::InputError(fmt::format("{}: missing; status needs a directory written by sparsesvm run", config_path));
  }
  const experiment::ExperimentConfig config = experiment::load_config(config_path);
  std::vector<std::string> absent;
  const std::vector<experiment::Task> tasks = experiment::plan_tasks(config, &absent);
  std::map<std::pair<std::string, std::string>, Counts> counts;  // (data set + condition, method)
  std::vector<std::pair<std::string, std::string>> order;
  // Task ids a rerun of their shard computes: without a file, or refused for the memory budget (run computes
  // those again, with the budget it is given: experiment::run_tasks).
  std::set<std::string> to_rerun;
  Counts total;
  std::map<std::string, std::size_t> statuses;  // recorded rows by status
  for (const experiment::Task& task : tasks) {
    const experiment::DatasetInstance& instance = config.datasets[task.dataset];
    const std::pair<std::string, std::string> key{
        instance.condition.empty() ? instance.name : instance.name + " " + instance.condition,
        config.methods[task.method].label};
    if (!counts.contains(key)) order.push_back(key);
    Counts& cell = counts[key];
    const auto [state, recorded] = task_state(task, directories);
    if (!recorded.empty()) ++statuses[recorded];
    if (state == TaskState::missing || recorded == "memory_budget") to_rerun.insert(task.id);
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
  for (const std::string& note : absent) fmt::print("absent data set (not planned): {}\n", note);
  // A task without a solution is a recorded result (a rerun skips it and would compute the same), except one
  // refused for the memory budget: only shards with missing or refused tasks have work left.
  if (shards > 0) {
    const std::vector<std::size_t> shard_of_task = experiment::task_shards(tasks, shards);
    std::set<std::size_t> shards_with_work;
    for (std::size_t k = 0; k < tasks.size(); ++k) {
      if (to_rerun.contains(tasks[k].id)) shards_with_work.insert(shard_of_task[k]);
    }
    const std::vector<std::size_t> with_work(shards_with_work.begin(), shards_with_work.end());
    fmt::print("shards of {} with tasks to run (missing, or refused for the memory budget): {}\n", shards, with_work.empty() ? "none" : fmt::format("{}", fmt::join(with_work, ",")));
  }
  return total.missing == 0 && total.failed == 0 ? 0 : 4;
}

}  // namespace

Command add_status(CLI::App& app) {
  auto directories = std::make_shared<std::vector<std::string>>();
  auto shards = std::make_shared<std::size_t>(0);
  CLI::App* command = app.add_subcommand(
      "status", "Count done, missing and failed tasks of a run (one directory or several shard directories)");
  command->add_option("directories", *directories, "run directories (the first holds config.yaml)")->required();
  command->add_option("--shards", *shards, "also list which of N shards still have tasks to run (missing, or refused for the memory budget)")
      ->check(CLI::Range(std::size_t{1}, experiment::kMaxShards));
  return {command, [directories, shards]() { return status(*directories, *shards); }};
}

}  // namespace sparsesvm::app
