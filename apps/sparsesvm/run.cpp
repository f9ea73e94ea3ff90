// `sparsesvm run`, `sparsesvm collect` and `sparsesvm list`: the experiment harness.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <charconv>
#include <filesystem>
#include <set>

#include "commands.hpp"
#include "figures.hpp"
#include "resources.hpp"
#include "core/errors.hpp"
#include "core/progress.hpp"
#include "core/sha256.hpp"
#include "data/generators/generator_registry.hpp"
#include "data/load.hpp"
#include "experiment/collect.hpp"
#include "experiment/data_check.hpp"
#include "experiment/manifest.hpp"
#include "experiment/tasks.hpp"
#include "models/methods.hpp"

namespace sparsesvm::app {
namespace {

struct RunOptions {
  std::string config;
  std::vector<std::string> overrides;
  std::vector<std::string> sweeps;
  std::size_t jobs = 1;
  std::string shard;
  std::string out;
  bool dry_run = false;
  bool skip_missing = false;
  bool force = false;
  bool quiet = false;
  bool verbose = false;
  bool no_figures = false;
};

// "I/N" with whole numbers 0 <= I < N and nothing else ("1/4x" is refused).
std::pair<std::size_t, std::size_t> parse_shard(const std::string& text) {
  const auto whole_number = [](std::string_view part, std::size_t& value) {
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    return !part.empty() && error == std::errc() && end == part.data() + part.size();
  };
  const std::size_t slash = text.find('/');
  std::size_t index = 0, count = 0;
  if (slash != std::string::npos && whole_number(std::string_view(text).substr(0, slash), index) &&
      whole_number(std::string_view(text).substr(slash + 1), count) && count > 0 && index < count &&
      count <= experiment::kMaxShards) {
    return {index, count};
  }
  throw core::InputError(fmt::format("--shard: expected I/N with whole numbers 0 <= I < N <= {}, found '{}'",
                                     experiment::kMaxShards, text));
}

// --sweep NAME=V1,V2,... (each repeat another NAME) is the override sweep.NAME=[V1,V2,...] (the
// config's `sweep` block).
std::vector<std::string> sweep_overrides(const std::vector<std::string>& sweeps) {
  std::vector<std::string> overrides;
  std::set<std::string> names;
  for (const std::string& text : sweeps) {
    const std::size_t equals = text.find('=');
    const std::string name = text.substr(0, equals);
    if (equals == 0 || equals == std::string::npos || equals + 1 == text.size() ||
        name.find_first_of("[]{}.,") != std::string::npos || text.find_first_of("[]{}", equals) != std::string::npos) {
      throw core::InputError(fmt::format("--sweep: expected NAME=V1,V2,... (e.g. a=2,4), found '{}'", text));
    }
    if (!names.insert(name).second) {
      throw core::InputError(fmt::format("--sweep: {} is swept twice; give all its values at once ({}=V1,V2,...)", name, name));
    }
    overrides.push_back(fmt::format("sweep.{}=[{}]", name, text.substr(equals + 1)));
  }
  return overrides;
}

std::shared_ptr<spdlog::logger> make_logger(const std::string& directory, const RunOptions& options) {
  auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  console->set_level(options.quiet ? spdlog::level::warn : (options.verbose ? spdlog::level::debug : spdlog::level::info));
  std::vector<spdlog::sink_ptr> sinks = {console};
  if (!directory.empty()) {
    std::filesystem::create_directories(directory);
    const std::string log_path = (std::filesystem::path(directory) / "run.log").string();
    try {
      sinks.push_back(std::make_shared<spdlog::sinks::basic_file_sink_mt>(log_path));
    } catch (const spdlog::spdlog_ex& error) {
      throw core::InputError(fmt::format("{}: cannot write the run log ({})", log_path, error.what()));
    }
  }
  auto logger = std::make_shared<spdlog::logger>("sparsesvm", sinks.begin(), sinks.end());
  logger->set_level(spdlog::level::debug);
  logger->set_pattern("[%H:%M:%S] %v");
  // A Slurm log or a killed run keeps every line (with --verbose, each fit's progress line too).
  logger->flush_on(options.verbose ? spdlog::level::debug : spdlog::level::info);
  return logger;
}

// --verbose: each fit's progress lines (core/progress.hpp, those of `fit -v`) as debug lines of the log, on
// standard error (not with --quiet) and in run.log, each after the data set and repetition of its task
// group (run_group's label); none without a logger. spdlog hands its own errors to its error handler: a
// line never throws.
class FitProgressInLog {
 public:
  explicit FitProgressInLog(std::shared_ptr<spdlog::logger> log) : set_(log != nullptr) {
    if (set_) core::set_progress_sink([log](const std::string& line) { log->debug("{}", line); });
  }
  ~FitProgressInLog() {
    if (set_) core::set_progress_sink({});
  }
  FitProgressInLog(const FitProgressInLog&) = delete;
  FitProgressInLog& operator=(const FitProgressInLog&) = delete;

 private:
  bool set_;
};

// Tasks done/total, rate and ETA: on a terminal one live line; otherwise (a Slurm log, a redirect) a
// log line every 10 seconds, to stderr and run.log.
std::function<void(std::size_t, std::size_t)> progress_printer(bool enabled, std::shared_ptr<spdlog::logger> log) {
  if (!enabled) return {};
  const auto start = std::chrono::steady_clock::now();
  if (!isatty(STDERR_FILENO)) {
    auto last = std::make_shared<std::chrono::steady_clock::time_point>(start);
    return [start, last, log](std::size_t done, std::size_t total) {
      const auto now = std::chrono::steady_clock::now();
      if (done != total && now - *last < std::chrono::seconds(10)) return;
      *last = now;
      const double elapsed = std::chrono::duration<double>(now - start).count();
      const double rate = static_cast<double>(done) / std::max(elapsed, 1e-9);
      log->info("progress: {}/{} tasks, {:.2f} tasks/s, ETA {:.0f} s", done, total, rate,
                static_cast<double>(total - done) / std::max(rate, 1e-9));
    };
  }
  return [start](std::size_t done, std::size_t total) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double rate = static_cast<double>(done) / std::max(elapsed, 1e-9);
    fmt::print(stderr, "\r  {}/{} tasks  {:.2f}/s  ETA {:.0f}s   {}", done, total, rate, static_cast<double>(total - done) / std::max(rate, 1e-9),
               done == total ? "\n" : "");
  };
}

// A run directory holds one config's results. Running another config into it is refused unless it only
// adds tasks (more repetitions, another data set or method), or --force says so; with content-addressed
// task ids nothing would mix either way, but tables and manifest would stop describing the old run.
void check_same_run(const std::string& directory, const experiment::ExperimentConfig& config,
                    const std::vector<experiment::Task>& planned, bool force) {
  const std::filesystem::path previous_path = std::filesystem::path(directory) / "config.yaml";
  if (force || !std::filesystem::exists(previous_path)) return;
  const experiment::ExperimentConfig previous = experiment::load_config(previous_path.string());
  if (previous.resolved_yaml == config.resolved_yaml) return;
  std::set<std::string> ids;
  for (const experiment::Task& task : planned) ids.insert(task.id);
  std::size_t dropped = 0;
  for (const experiment::Task& task : experiment::plan_tasks(previous)) dropped += ids.contains(task.id) ? 0 : 1;
  if (dropped == 0) return;  // the new config only adds tasks
  throw core::InputError(fmt::format(
      "{} holds a run of another config (sha256 {}; this one is {}), and {} of its tasks are not tasks of this "
      "config; run into another --out, or add --force to run here anyway (its old task files stay, unread)",
      directory, core::sha256_hex(previous.resolved_yaml).substr(0, 12), core::sha256_hex(config.resolved_yaml).substr(0, 12),
      dropped));
}

// results/NAME, or for a run with --sweep results/NAME_sweep_a_2_4_8 (each sweep's text, '=' and ',' as
// '_'): a sweep is another experiment, so that `run mine.yaml` then `run mine.yaml --sweep a=2,4,8` keep both.
// A name past 100 characters keeps its first 80 and a hash of the rest (file names stop at 255 bytes).
std::string default_directory(const std::string& name, const std::vector<std::string>& sweeps) {
  std::string directory = name;
  for (std::string sweep : sweeps) {
    std::replace_if(sweep.begin(), sweep.end(), [](char c) { return c == '=' || c == ',' || c == '/'; }, '_');
    directory += "_sweep_" + sweep;
  }
  constexpr std::size_t kLongest = 100, kKept = 80;
  if (directory.size() > kLongest) directory = directory.substr(0, kKept) + "_" + core::sha256_hex(directory).substr(0, 12);
  return (std::filesystem::path("results") / directory).string();
}

// Fits the planned tasks, writes the manifest and, unless this is one shard, collects the tables. Returns
// experiment::nothing_fitted's message for the collected rows (empty for a shard or when some row has a model).
std::string run_and_collect(const experiment::ExperimentConfig& config, const std::vector<experiment::Task>& tasks,
                     const std::string& directory, const RunOptions& options, const std::vector<std::string>& missing,
                     const std::shared_ptr<spdlog::logger>& log) {
  experiment::RunInfo info{experiment::utc_now(), "", options.jobs, options.shard, 0, 0, 0, missing};
  const experiment::RunSummary summary =
      experiment::run_tasks(config, tasks, {directory, options.jobs, progress_printer(!options.quiet, log)});
  info.finished = experiment::utc_now();
  info.tasks_run = summary.run;
  info.tasks_skipped = summary.skipped;
  info.tasks_failed = summary.failed;
  experiment::write_manifest(directory, config, info);
  log->info("{} tasks run, {} already done, {} neither optimal nor converged", summary.run, summary.skipped, summary.failed);
  if (options.shard.empty()) {
    const experiment::CollectSummary collected = experiment::collect(config, {directory}, directory);
    log->info("collected {} rows ({} without a solution) into {}", collected.rows, collected.failed, fmt::join(collected.written, ", "));
    for (const std::string& warning : experiment::collect_warnings(collected)) log->warn("{}", warning);
    if (collected.ignored_files > 0) {
      log->warn("{} task files in {}/tasks belong to another config or other data; not read", collected.ignored_files,
                directory);
    }
    if (!options.no_figures) {
      const DrawnFigures figures = draw_figures(directory);
      if (figures.drawn) log->info("{}", figures.message);
      if (!figures.drawn && !figures.message.empty()) log->warn("{}", figures.message);
    }
    return experiment::nothing_fitted(collected);
  }
  // A shard is not collected, so collect's warning about refused rows would come only after every shard.
  if (summary.refused > 0) {
    log->warn("{}", experiment::refused_rows_warning(summary.refused, fmt::format("the {} tasks run", summary.run),
                                                     summary.first_refused, summary.refused_for_memory > 0));
  }
  log->info("shard done; after all shards: sparsesvm collect {}", directory);
  return "";
}

int run(const RunOptions& options) {
  std::vector<std::string> overrides = options.overrides;
  for (const std::string& sweep : sweep_overrides(options.sweeps)) overrides.push_back(sweep);
  const experiment::ExperimentConfig config = experiment::load_config(options.config, overrides);
  const std::string directory = options.out.empty() ? default_directory(config.name, options.sweeps) : options.out;
  std::vector<std::string> missing;
  const std::vector<experiment::Task> all_tasks = experiment::plan_tasks(config, &missing);  // hashes the data once
  std::vector<experiment::Task> tasks = all_tasks;
  const std::size_t planned = tasks.size();
  if (!options.shard.empty()) {
    const auto [index, count] = parse_shard(options.shard);
    tasks = experiment::shard_tasks(tasks, index, count);
  }
  if (!missing.empty() && !options.skip_missing) {
    throw core::InputError(fmt::format("{}: {} data set(s) not present:\n  {}\nget them, or run with --skip-missing to "
                                       "run the others (the manifest then lists what was skipped)",
                                       config.path, missing.size(), fmt::join(missing, "\n  ")));
  }
  experiment::check_run_location(directory);
  experiment::check_task_path_lengths(directory, tasks);
  check_same_run(directory, config, all_tasks, options.force);  // --dry-run too: it says what run would do
  experiment::check_data_files(config);  // before anything is queued or written
  auto log = make_logger(options.dry_run ? "" : directory, options);
  for (const std::string& warning : config.warnings) log->warn("{}", warning);
  for (const std::string& note : missing) log->warn("skipping data set {} (--skip-missing)", note);
  if (options.dry_run) {
    std::map<std::string, std::size_t> per_dataset;
    for (const auto& task : tasks) {
      const auto& instance = config.datasets[task.dataset];
      ++per_dataset[instance.condition.empty() ? instance.name : instance.name + " " + instance.condition];
    }
    fmt::print("config {} ({}): {} tasks{} over {} methods, {} outer splits each; results would go to {}\n", config.name,
               config.path, tasks.size(), options.shard.empty() ? "" : fmt::format(" in shard {} (of {})", options.shard, planned),
               config.methods.size(), experiment::outer_count(config.protocol), directory);
    for (const auto& [name, count] : per_dataset) fmt::print("  {:<40} {} tasks\n", name, count);
    std::vector<std::string> labels;
    for (const experiment::MethodEntry& method : config.methods) labels.push_back(method.label);
    fmt::print("methods: {}\n", fmt::join(labels, ", "));
    return 0;
  }
  log->info("run {}: {} tasks with -j {}, results in {}", config.name, tasks.size(), options.jobs, directory);
  const FitProgressInLog fit_progress(options.verbose ? log : nullptr);  // with --quiet, in run.log only
  std::string unfitted;
  try {
    unfitted = run_and_collect(config, tasks, directory, options, missing, log);
  } catch (const std::exception& error) {
    log->error("stopped: {} (finished task files are kept; once the cause is fixed, run again to resume)", error.what());
    throw;
  }
  if (unfitted.empty()) return 0;
  log->error("{}", unfitted);  // on stderr and in run.log; the run itself finished
  return 1;
}

}  // namespace

Command add_run(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand("run", "Run an experiment config: plan tasks, fit, write results and tables");
  command->add_option("config", options->config, "the experiment config (YAML)")->required()->check(CLI::ExistingFile);
  command->add_option("overrides", options->overrides, "key.path=value overrides, e.g. protocol.outer.repetitions=3");
  command->add_option("-j,--jobs", options->jobs, "threads: groups of tasks run in parallel, and a group's inner folds when -j is at least twice the groups")->check(CLI::Range(1, 256));
  command->add_option("--sweep", options->sweeps,
                      "NAME=V1,V2,...: one labelled variant per value of every method taking NAME (label_NAMEvalue); "
                      "another --sweep with another NAME gives every combination")
      ->allow_extra_args(false);
  command->add_option("--shard", options->shard, "run only shard I of N, e.g. 0/4: whole groups of tasks sharing a data set and outer split, balanced by data set size");
  command->add_option("--out", options->out, "run directory (default results/<config name>; with --sweep a=2,4: results/<config name>_sweep_a_2_4)");
  command->add_flag("--dry-run", options->dry_run, "print the task plan without fitting");
  command->add_flag("--force", options->force, "run into a directory that holds another config's run");
  command->add_flag("--skip-missing", options->skip_missing,
                    "run the data sets that are present and skip absent ones (default: an absent data file is an error)");
  command->add_flag("-q,--quiet", options->quiet, "warnings and errors only");
  command->add_flag("--no-figures", options->no_figures, "do not draw the config's figures after collecting (sparsesvm plot DIR draws them)");
  command->add_flag("-v,--verbose", options->verbose,
                    "each fit's progress in the log (fit -v's lines, after the task's data set and repetition; with -q in run.log only)");
  return {command, [options]() { return run(*options); }};
}

Command add_collect(CLI::App& app) {
  auto directories = std::make_shared<std::vector<std::string>>();
  auto partial = std::make_shared<bool>(false);
  auto no_figures = std::make_shared<bool>(false);
  CLI::App* command = app.add_subcommand(
      "collect", "Merge task results (of one run directory, or several shard directories) into summary and tables");
  command->add_option("directories", *directories, "run directories (shards of one config); tables go to the first")->required();
  command->add_flag("--partial", *partial, "write tables although planned tasks have no result (cells say n of N)");
  command->add_flag("--no-figures", *no_figures, "do not draw the config's figures (sparsesvm plot DIR draws them)");
  return {command, [directories, partial, no_figures]() {
    const experiment::ExperimentConfig config = experiment::read_shards_config(*directories, "collect");
    for (const std::string& warning : config.warnings) fmt::print(stderr, "sparsesvm: warning: {}\n", warning);
    const experiment::CollectSummary summary = experiment::collect(config, *directories, directories->front(), *partial);
    fmt::print("{} rows of {} planned tasks ({} without a solution)\n", summary.rows, summary.expected, summary.failed);
    std::vector<std::string> statuses;
    for (const auto& [status, count] : summary.statuses) statuses.push_back(fmt::format("{} {}", status, count));
    fmt::print("statuses: {} (docs/user-guide.md, \"Statuses and certificates\", says what each promises; statuses.csv has them per method)\n",
               fmt::join(statuses, ", "));
    for (const std::string& note : summary.missing_datasets) {
      fmt::print(stderr, "sparsesvm: warning: data set {}; its rows are not collected\n", note);
    }
    if (summary.ignored_files > 0) {
      fmt::print("{} task files in the directories belong to other configs (or other data) and were not read\n",
                 summary.ignored_files);
    }
    for (const std::string& warning : experiment::collect_warnings(summary)) fmt::print(stderr, "sparsesvm: warning: {}\n", warning);
    for (const std::string& path : summary.written) fmt::print("  {}\n", path);
    if (!*no_figures) {
      const DrawnFigures figures = draw_figures(directories->front());
      if (figures.drawn) fmt::print("{}\n", figures.message);
      if (!figures.drawn && !figures.message.empty()) fmt::print(stderr, "sparsesvm: warning: {}\n", figures.message);
    }
    if (const std::string unfitted = experiment::nothing_fitted(summary); !unfitted.empty()) {
      fmt::print(stderr, "sparsesvm: error: {}\n", unfitted);
      return 1;
    }
    return 0;
  }};
}

Command add_list(CLI::App& app) {
  // ./configs in a checkout, else the configs installed beside the binary (resources.hpp).
  auto configs_dir = std::make_shared<std::string>(
      std::filesystem::is_directory("configs") ? "configs" : (resource_directory() / "configs").string());
  CLI::App* command = app.add_subcommand("list", "List configs, methods, generators and data formats");
  command->add_option("--configs", *configs_dir, "folder searched for configs (default: ./configs, else the installed ones)");
  return {command, [configs_dir]() {
    fmt::print("configs (in {}):\n", *configs_dir);
    std::vector<std::string> configs;
    if (std::filesystem::is_directory(*configs_dir)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(*configs_dir)) {
        if (entry.path().extension() == ".yaml") configs.push_back(entry.path().string());
      }
    }
    std::sort(configs.begin(), configs.end());
    for (const std::string& path : configs) fmt::print("  {}\n", path);
    fmt::print("methods (sparsesvm describe METHOD for the parameter table):\n");
    for (const models::MethodInfo& m : models::method_registry()) {
      std::vector<std::string> defaults;
      for (const models::ParameterSpec& spec : m.parameters) {
        if (spec.kind == models::ParameterKind::model) defaults.push_back(fmt::format("{}={}", spec.name, spec.default_value));
      }
      fmt::print("  {:<14} {} loss, {} penalty, {}{}; {}  [{}]\n", m.name, m.loss, m.penalty, m.algorithm,
                 m.start.empty() ? "" : " from " + m.start, fmt::join(defaults, " "), m.citation);
    }
    fmt::print("generators:\n");
    for (const data::GeneratorInfo& g : data::generator_registry()) fmt::print("  {:<14} {}  [{}]\n", g.name, g.summary, g.citation);
    fmt::print("data formats: {}\n", fmt::join(data::loader_formats(), ", "));
    return 0;
  }};
}

}  // namespace sparsesvm::app
