#include "experiment/collect.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <set>
#include <tuple>

#include "core/errors.hpp"
#include "core/status.hpp"
#include "data/load.hpp"
#include "experiment/comparisons.hpp"
#include "experiment/condition_columns.hpp"
#include "experiment/convergence.hpp"
#include "experiment/csv.hpp"
#include "experiment/validation_curves.hpp"
#include "experiment/metrics.hpp"
#include "experiment/paper_comparison.hpp"
#include "experiment/stats.hpp"
#include "experiment/tasks.hpp"
#include "models/algorithms/algorithm.hpp"
#include "models/methods.hpp"

namespace sparsesvm::experiment {
namespace {

using Row = ResultRow;

// Every field collect computes with is a number (or empty); `rep` a whole number.
void check_numbers(const Row& row, const std::vector<std::string>& numeric_columns, const std::string& file) {
  for (const std::string& column : numeric_columns) {
    const std::string& text = row.at(column);
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    const bool number = error == std::errc() && end == text.data() + text.size();
    if (!text.empty() && text != "nan" && !number) {
      throw core::InputError(fmt::format("{}: column {}: expected a number, found '{}'", file, column, text));
    }
  }
}

// A task file's row names the task its file name stands for (an edited or moved file would not).
void check_identity(const Row& row, const ExperimentConfig& config, const Task& task, const std::string& file) {
  const DatasetInstance& instance = config.datasets[task.dataset];
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"dataset", instance.name}, {"condition", instance.condition},
      {"method", config.methods[task.method].label}, {"rep", std::to_string(task.repetition)}};
  for (const auto& [column, value] : expected) {
    if (row.at(column) != value) {
      throw core::InputError(fmt::format("{}: column {} is '{}', but this file is the task with {} '{}'; the file "
                                         "was edited or moved (delete it and run again)",
                                         file, column, row.at(column), column, value));
    }
  }
}

// The rows of the planned tasks, each read from the first directory that has its file; all must share
// `columns` as their header. Task files of other configs (other content hashes) are counted, never read.
std::vector<Row> read_rows(const ExperimentConfig& config, const std::vector<std::string>& directories,
                           const std::vector<std::string>& columns, const std::vector<std::string>& numeric_columns,
                           const std::vector<Task>& planned, std::size_t& ignored_files) {
  std::set<std::string> planned_files;
  for (const Task& task : planned) planned_files.insert(task.id + ".csv");
  ignored_files = 0;
  for (const std::string& directory : directories) {
    const std::filesystem::path tasks = std::filesystem::path(directory) / "tasks";
    const std::vector<std::string> blocked = blocked_run_folders(config, directory);  // cv/ too: its rows would be lost
    if (!blocked.empty()) throw not_a_run_folder(blocked.front());
    std::error_code error;
    if (!std::filesystem::is_directory(tasks, error)) {
      throw core::InputError(fmt::format("{}: no tasks/ folder; is this a run directory?", directory));
    }
    std::filesystem::directory_iterator listing(tasks, error);
    if (error) throw core::InputError(fmt::format("{}: cannot be listed ({})", tasks.string(), error.message()));
    for (const auto& entry : listing) {
      const std::string name = entry.path().filename().string();
      if (entry.path().extension() == ".csv" && !planned_files.contains(name)) ++ignored_files;
    }
  }
  std::vector<Row> rows;
  for (const Task& task : planned) {
    // The same task in two shard folders counts once. Something else at its row's path (a directory, a
    // FIFO) is refused only when no directory has the row.
    const auto with_row = first_directory_with_row(directories, task);
    if (!with_row) {
      if (const std::string blocked = blocked_row(directories, task); !blocked.empty()) throw not_a_run_file(blocked);
      continue;
    }
    const std::string file = task_row_file(*with_row, task).string();
    const auto table = parse_csv(read_run_file(file), file);
    if (table.size() != 2 || table[0] != columns) {
      throw core::InputError(fmt::format("{}: not a task result of this config and version (expected a header "
                                         "and one row with columns {}); delete it and run again to compute it",
                                         file, fmt::join(columns, ",")));
    }
    if (table[1].size() != columns.size()) {
      throw core::InputError(fmt::format("{}: {} fields, expected {}; the file is damaged (delete it and run again)",
                                         file, table[1].size(), columns.size()));
    }
    Row row;
    for (std::size_t c = 0; c < columns.size(); ++c) row[columns[c]] = table[1][c];
    check_numbers(row, numeric_columns, file);
    check_identity(row, config, task, file);
    rows.push_back(std::move(row));
  }
  return rows;
}

// The side files of the tasks that have a row (cv/<id>.csv, weights/<id>.csv), each read from the first
// directory whose tasks/ has the task's row, concatenated under `header` in config order (data set, method,
// repetition). A task with a row but without its side file counts in `missing` (a run of an older version).
// Every field of a side file's line that is not text (identity, feature names) is a number or empty; the
// flags solved and chosen are 0 or 1, and one candidate at most is chosen per file.
void check_side_lines(const std::vector<std::vector<std::string>>& lines, const std::string& file) {
  const std::vector<std::string>& header = lines.front();
  const std::set<std::string> text_columns = {"dataset", "condition", "method", "feature"};
  std::vector<std::string> numeric;
  for (const std::string& column : header) {
    if (!text_columns.contains(column)) numeric.push_back(column);
  }
  std::set<std::string> chosen_candidates;
  for (std::size_t k = 1; k < lines.size(); ++k) {
    Row row;
    for (std::size_t c = 0; c < header.size(); ++c) row[header[c]] = lines[k][c];
    check_numbers(row, numeric, fmt::format("{}:{}", file, k + 1));
    for (const char* flag : {"solved", "chosen"}) {
      if (row.contains(flag) && row.at(flag) != "0" && row.at(flag) != "1") {
        throw core::InputError(fmt::format("{}:{}: column {}: expected 0 or 1, found '{}'", file, k + 1, flag, row.at(flag)));
      }
    }
    if (row.contains("chosen") && row.at("chosen") == "1") chosen_candidates.insert(row.at("candidate"));
  }
  if (chosen_candidates.size() > 1) {
    throw core::InputError(fmt::format("{}: candidates {} are all marked chosen; the file was edited (delete the "
                                       "task's files and run again)", file, fmt::join(chosen_candidates, ", ")));
  }
}

std::string side_table(const std::vector<std::string>& directories, const std::vector<Task>& planned,
                       const std::string& folder, const std::vector<std::string>& header,
                       const ConditionColumns& conditions, std::size_t& missing) {
  std::vector<const Task*> ordered;
  for (const Task& task : planned) ordered.push_back(&task);
  std::stable_sort(ordered.begin(), ordered.end(), [](const Task* a, const Task* b) {
    return std::tuple(a->dataset, a->method, a->repetition) < std::tuple(b->dataset, b->method, b->repetition);
  });
  // Written like results.csv: the condition's columns in place of `condition` (the second column).
  const auto with_conditions = [&](const std::vector<std::string>& fields, auto&& convert) {
    return convert(std::vector<std::string>(fields.begin(), fields.begin() + 1),
                   std::vector<std::string>(fields.begin() + 2, fields.end()));
  };
  std::string table = csv_line(with_conditions(header, [&](const auto& before, const auto& after) {
    return conditions.header(before, after);
  }));
  missing = 0;
  for (const Task* task : ordered) {
    const auto with_row = first_directory_with_row(directories, *task);
    if (!with_row) continue;
    const std::filesystem::path file = *with_row / folder / (task->id + ".csv");
    if (path_kind(file) == PathKind::absent) {
      ++missing;
      continue;
    }
    const auto lines = parse_csv(read_run_file(file.string()), file.string());
    if (lines.empty() || lines.front() != header) {
      throw core::InputError(fmt::format("{}: not a {} file of this config and version (expected the header {}); "
                                         "delete the task's files and run again", file.string(), folder, fmt::join(header, ",")));
    }
    for (std::size_t k = 1; k < lines.size(); ++k) {
      if (lines[k].size() != header.size()) {
        throw core::InputError(fmt::format("{}: line {} has {} fields, expected {}; the file is damaged (delete the "
                                           "task's files and run again)", file.string(), k + 1, lines[k].size(), header.size()));
      }
    }
    check_side_lines(lines, file.string());
    for (std::size_t k = 1; k < lines.size(); ++k) {
      table += csv_line(with_conditions(lines[k], [&](const auto& before, const auto& after) {
        return conditions.fields(before, lines[k][1], after);
      }));
    }
  }
  return table;
}


std::string json_string(const std::string& text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      quoted += fmt::format("\\u{:04x}", static_cast<int>(c));
      continue;
    }
    quoted += c;
  }
  return quoted + "\"";
}

// The config's figures for scripts/plot.py, with the method labels in config order (and, per figure, its
// labels: a boundary figure's `methods`, a coefficient_path's entries of its method).
std::string figures_json(const ExperimentConfig& config) {
  std::vector<std::string> labels, figures;
  for (const MethodEntry& entry : config.methods) labels.push_back(json_string(entry.label));
  for (const FigureSpec& f : config.figures) {
    std::vector<std::string> entries_of_method;  // boundary: its labels; else the entries of method `method`
    for (const std::string& label : f.methods) entries_of_method.push_back(json_string(label));
    for (const MethodEntry& entry : config.methods) {
      if (entry.name == f.method) entries_of_method.push_back(json_string(entry.label));
    }
    figures.push_back(fmt::format(
        R"({{"kind": {}, "file": {}, "title": {}, "metric": {}, "x": {}, "as_error": {}, "method": {}, "labels": [{}], )"
        R"("bayes_line": [{}]}})",
        json_string(f.kind), json_string(f.file), json_string(f.title), json_string(f.metric), json_string(f.x),
        f.as_error ? "true" : "false", json_string(f.method), fmt::join(entries_of_method, ", "),
        fmt::join(f.bayes_line, ", ")));
  }
  // Each label's method and that method's start (a boundary figure crosses a restricted psi's fixed points
  // only when its start is the first label's fit).
  std::vector<std::string> names, starts;
  for (const MethodEntry& entry : config.methods) {
    names.push_back(fmt::format("{}: {}", json_string(entry.label), json_string(entry.name)));
    starts.push_back(fmt::format("{}: {}", json_string(entry.label), json_string(models::find_method(entry.name).start)));
  }
  return fmt::format("{{\"config\": {}, \"methods\": [{}], \"names\": {{{}}}, \"starts\": {{{}}}, \"figures\": [\n  {}\n]}}\n",
                     json_string(config.name), fmt::join(labels, ", "), fmt::join(names, ", "), fmt::join(starts, ", "),
                     fmt::join(figures, ",\n  "));
}

// A boundary figure's points: the training part of repetition 0 of the config's first data set present
// (features as the fits saw them, then the label).
std::string boundary_points_csv(const ExperimentConfig& config) {
  for (std::size_t d = 0; d < config.datasets.size(); ++d) {
    if (!config.datasets[d].missing_hint.empty()) continue;
    const core::Dataset train = training_part(config, d, 0);
    std::vector<std::string> header = {"dataset", "condition"};
    for (std::size_t j = 0; j < train.d(); ++j) header.push_back(fmt::format("x{}", j + 1));
    header.emplace_back("y");
    std::string table = csv_line(header);
    for (std::size_t i = 0; i < train.n(); ++i) {
      std::vector<std::string> line = {config.datasets[d].name, condition_field(config.datasets[d].condition)};
      for (std::size_t j = 0; j < train.d(); ++j) line.push_back(format_number(train.value(i, j)));
      line.push_back(format_number(train.labels()[static_cast<Eigen::Index>(i)]));
      table += csv_line(line);
    }
    return table;
  }
  return csv_line({"dataset", "condition", "y"});
}

// "0.770 ± 0.020"; a mean below 0.01 in magnitude (seconds per sweep, residuals) keeps three significant
// digits instead: "0.000123 ± 4.5e-05", not "0.000 ± 0.000".
// One value (n = 1) has no spread: the value alone. A metric whose values are all whole numbers (feature
// and SV counts, iterations) keeps one decimal in its mean instead of three.
std::string table_cell(const std::vector<double>& values) {
  const double m = mean(values);
  const bool whole = std::all_of(values.begin(), values.end(), [](double v) { return v == std::floor(v); });
  if (values.size() == 1) return whole ? fmt::format("{}", m) : (m != 0.0 && std::abs(m) < 0.01 ? fmt::format("{:.3g}", m) : fmt::format("{:.3f}", m));
  const double stddev = sample_stddev(values);
  if (whole) return fmt::format("{:.1f} ± {:.1f}", m, stddev);
  if (m != 0.0 && std::abs(m) < 0.01) return fmt::format("{:.3g} ± {:.3g}", m, stddev);
  return fmt::format("{:.3f} ± {:.3f}", m, stddev);
}

// The chosen values of a tuned parameter over the outer splits, as a distribution: the median (the lower
// middle of an even count, so always a grid value) and how often each value was chosen, ascending:
// "median 0.1 (0.01 x3, 0.1 x12, 1 x5)". Mean and std of a log grid's choices say little.
std::string chosen_values_cell(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  std::vector<std::string> counts;
  for (auto value = values.begin(); value != values.end();) {
    const auto next = std::upper_bound(value, values.end(), *value);
    counts.push_back(fmt::format("{} x{}", format_number(*value), next - value));
    value = next;
  }
  return fmt::format("median {} ({})", format_number(values[(values.size() - 1) / 2]), fmt::join(counts, ", "));
}

struct Cell {
  std::vector<double> values;
  std::size_t failed = 0;
  std::size_t rows = 0;          // result rows of the cell, whether or not they have this metric
  std::size_t empty_models = 0;  // rows with a solution whose model has no feature (w = 0)
  std::size_t undefined = 0;     // rows with a solution but no value (the selection metric on a one-class test part)
};

// The label of the baseline row in accuracy tables.
constexpr const char* kMajorityLabel = "majority class";


// How close to the true minimum a certified objective is, relative to max(1, |F|): Cbc's feasibility and
// integrality tolerances put its bounds up to about 6e-6 above exact minima in a reviewer's brute-force
// probes (800 tiny fits), whatever relative_gap asks.
constexpr double kCertificateAccuracy = 1e-5;

// An optimum certified by its algorithm: status optimal, or a MIP whose gap Cbc closed over a search box
// (`global` with capped-l1: mip_closed; status feasible, since the objective does not imply the box), not
// on the face of that box (mip_box_binding), and not a restricted problem (psi with examples fixed to a
// region, mip_fixed_examples).
bool certified_optimum(const Row& row) {
  const auto is_set = [&](const char* column) {
    const auto found = row.find(column);
    return found != row.end() && !found->second.empty() && std::stod(found->second) != 0.0;
  };
  return (row.at("status") == core::to_string(core::Status::optimal) || is_set("mip_closed")) &&
         !is_set("mip_box_binding") && !is_set("mip_fixed_examples");
}

// A certificate over a search box the objective does not imply (`global` with capped-l1): the optimum over
// the box, not necessarily over all weights.
bool box_limited(const Row& row) {
  const auto found = row.find("mip_box_implied");
  return found != row.end() && found->second == "0";
}

// objective_ratio.csv: per data set, condition and pair [A, B] of tables.objective_ratio, over the
// repetitions both solved: the relative difference F_A / F_B - 1 (mean, min, max), how many repetitions A
// ends above B by more than 1e-4 relative, and, where B's algorithm finds optima (`global`, an LP or QP):
// how many of B's fits are certified (certified_optimum), how many of those only over a search box
// (box_limited), on how many A reaches B's optimum (|F_A - F_B| <= 1e-5 max(1, |F_B|)), and on how many A
// is below it by more than that (a certificate that failed).
std::string objective_ratio_csv(const ExperimentConfig& config, const std::vector<Row>& rows,
                                const std::vector<std::pair<std::string, std::string>>& columns,
                                const ConditionColumns& conditions) {
  std::map<std::string, bool> finds_optimum;  // label -> whether its algorithm certifies an optimum
  for (const MethodEntry& entry : config.methods) {
    finds_optimum[entry.label] = models::find_algorithm(models::find_method(entry.name).algorithm).finds_optimum();
  }
  std::string table = csv_line(conditions.header(
      {"dataset"}, {"method", "baseline", "n", "mean_relative", "min_relative", "max_relative", "worse_by_1e-4",
                    "certified", "box_limited", "at_optimum", "below_certified"}));
  for (const auto& [name, condition] : columns) {
    for (const auto& [method, baseline] : config.objective_ratios) {
      std::vector<double> relative;
      std::size_t certified = 0, in_box = 0, at_optimum = 0, below = 0;
      for (const auto& [row, baseline_row] : paired_rows(rows, name, condition, method, baseline)) {
        const double f = std::stod(row->at("objective"));
        const double f_baseline = std::stod(baseline_row->at("objective"));
        relative.push_back(f / f_baseline - 1.0);
        if (finds_optimum[baseline] && certified_optimum(*baseline_row)) {
          const double tolerance = kCertificateAccuracy * std::max(1.0, std::abs(f_baseline));
          ++certified;
          in_box += box_limited(*baseline_row) ? 1 : 0;
          at_optimum += std::abs(f - f_baseline) <= tolerance ? 1 : 0;
          below += f < f_baseline - tolerance ? 1 : 0;
        }
      }
      const auto worse = std::count_if(relative.begin(), relative.end(), [](double r) { return r > 1e-4; });
      const bool any = !relative.empty();
      const bool certifies = finds_optimum[baseline];
      table += csv_line(conditions.fields(
          {name}, condition,
          {method, baseline, std::to_string(relative.size()), any ? format_number(mean(relative)) : "",
           any ? format_number(*std::min_element(relative.begin(), relative.end())) : "",
           any ? format_number(*std::max_element(relative.begin(), relative.end())) : "", std::to_string(worse),
           certifies ? std::to_string(certified) : "", certifies ? std::to_string(in_box) : "",
           certifies ? std::to_string(at_optimum) : "", certifies ? std::to_string(below) : ""}));
    }
  }
  return table;
}

// A cell's mean (empty without values) and sample std (empty for fewer than two values) as CSV fields.
std::string mean_field(const std::vector<double>& values) { return values.empty() ? "" : format_number(mean(values)); }
std::string std_field(const std::vector<double>& values) {
  return values.size() < 2 ? "" : format_number(sample_stddev(values));
}

// The numbers behind table_<metric>.csv, one row per (method, data set, condition): mean, sample std
// (empty for fewer than two values), n and failed, for pandas or R rather than for reading.
std::string numeric_table(const ExperimentConfig& config, const std::vector<std::pair<std::string, std::string>>& columns,
                          const std::map<std::tuple<std::string, std::string, std::string, std::string>, Cell>& cells,
                          const std::string& metric, const ConditionColumns& conditions) {
  std::string table = csv_line(conditions.header({"method", "dataset"}, {"mean", "std", "n", "failed"}));
  for (const MethodEntry& method : config.methods) {
    for (const auto& [name, condition] : columns) {
      const auto found = cells.find({name, condition, method.label, metric});
      if (found == cells.end()) continue;
      const Cell& cell = found->second;
      table += csv_line(conditions.fields({method.label, name}, condition,
                                          {mean_field(cell.values), std_field(cell.values),
                                           std::to_string(cell.values.size()), std::to_string(cell.failed)}));
    }
  }
  return table;
}

// Our side of every published cell: the cell's metric over its rows with a solution, complemented and
// scaled as the paper prints it; not run when the data set is absent or the run has no such method label.
std::vector<OurCell> our_published_cells(const ExperimentConfig& config, const std::vector<Row>& rows) {
  std::vector<OurCell> ours;
  for (const PublishedCell& cell : config.published) {
    OurCell our;
    const DatasetInstance* instance = find_instance(config, cell.dataset, cell.condition);
    const bool has_data = instance != nullptr && instance->missing_hint.empty();
    const bool has_label = has_method_label(config, cell.method);
    our.run = !cell.not_run() && has_data && has_label;
    if (!cell.not_run() && instance == nullptr) {
      our.reason = fmt::format("not run: tables.published_left_out leaves out data set '{}' with condition '{}'",
                               cell.dataset, cell.condition);
    } else if (!cell.not_run() && !has_label) {
      our.reason = fmt::format("not run: this run has no method labelled '{}' (an override left it out, or the "
                               "label is misspelled)", cell.method);
    }
    // k-fold of one data set: the values by partition (rep / folds), for the re-partition spread.
    our.one_data_set_cv = config.protocol.outer == Outer::kfold;
    std::map<std::size_t, std::vector<double>> by_partition;
    for (const Row& row : rows) {
      if (row.at("dataset") != cell.dataset || row.at("condition") != cell.condition || row.at("method") != cell.method) continue;
      if (failed(row) || row.at(cell.metric).empty()) {
        ++our.failed;
        continue;
      }
      const double value = std::stod(row.at(cell.metric));
      our.values.push_back(cell.as_printed(value));
      if (our.one_data_set_cv) by_partition[std::stoul(row.at("rep")) / config.protocol.outer_folds].push_back(our.values.back());
      if (cell.metric == "accuracy" && !row.at("majority_accuracy").empty()) {
        our.baseline.push_back(cell.as_printed(std::stod(row.at("majority_accuracy"))));
      }
    }
    if (by_partition.size() >= 2) {
      for (const auto& [partition, values] : by_partition) our.partition_means.push_back(mean(values));
    }
    ours.push_back(std::move(our));
  }
  return ours;
}

// Whether a row's search was stopped by the wall clock (kTimeLimitStop): a row another machine, or the same
// one under another load, may not reproduce.
bool stopped_by_wall_clock(const Row& row) { return row.at("stop_reason") == models::kTimeLimitStop; }

// statuses.csv: per data set, method, status and certificate kind, the rows, their largest certificate,
// and how many of them the wall-clock limit stopped (machine_dependent)
// (docs/user-guide.md, "Statuses and certificates": what each status promises and what the certificate measures).
std::string statuses_csv(const ExperimentConfig& config, const std::vector<Row>& rows,
                         const std::vector<std::pair<std::string, std::string>>& datasets, const ConditionColumns& conditions) {
  struct Count {
    std::size_t rows = 0;
    std::size_t machine_dependent = 0;
    double largest = -std::numeric_limits<double>::infinity();
  };
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, Count> counts;
  for (const Row& row : rows) {
    Count& count = counts[{row.at("dataset"), row.at("condition"), row.at("method"), row.at("status"), row.at("certificate_kind")}];
    ++count.rows;
    count.machine_dependent += stopped_by_wall_clock(row) ? 1 : 0;
    if (!row.at("certificate").empty()) count.largest = std::max(count.largest, std::stod(row.at("certificate")));
  }
  std::string table = csv_line(conditions.header({"dataset"}, {"method", "status", "certificate_kind", "rows", "largest_certificate",
                                                                  "machine_dependent"}));
  for (const auto& [name, condition] : datasets) {
    for (const MethodEntry& method : config.methods) {
      for (auto found = counts.lower_bound({name, condition, method.label, "", ""});
           found != counts.end() && std::get<0>(found->first) == name && std::get<1>(found->first) == condition &&
           std::get<2>(found->first) == method.label;
           ++found) {
        const auto& [dataset, condition_key, label, status, kind] = found->first;
        const double largest = found->second.largest;
        const bool measured = largest > -std::numeric_limits<double>::infinity();  // some row had a certificate
        table += csv_line(conditions.fields({name}, condition, {label, status, kind, std::to_string(found->second.rows),
                                                                measured ? format_number(largest) : "",
                                                                std::to_string(found->second.machine_dependent)}));
      }
    }
  }
  return table;
}

}  // namespace

std::vector<std::string> collect_warnings(const CollectSummary& summary) {
  std::vector<std::string> warnings;
  if (summary.machine_dependent > 0) {
    warnings.push_back(fmt::format("{} rows were stopped by the wall-clock time_limit (stop_reason `time limit`, counted "
                                   "in statuses.csv's machine_dependent): they depend on the machine's speed and load; "
                                   "a work limit (lp_iteration_limit, node_limit) below it reproduces anywhere",
                                   summary.machine_dependent));
  }
  if (summary.refused_rows > 0 && summary.refused_rows < summary.rows) {  // all: nothing_fitted
    const bool memory_budget_rows = summary.statuses.contains(std::string(kMemoryBudgetStatus));
    warnings.push_back(refused_rows_warning(summary.refused_rows, fmt::format("{} rows", summary.rows),
                                            summary.first_refused_row, memory_budget_rows));
  }
  // Every row without a model, not all refused (those nothing_fitted reports): solver outcomes only, which
  // are results, so the run exits 0; but no score in the tables comes from a model.
  if (summary.rows > 0 && summary.failed == summary.rows && summary.refused_rows < summary.rows) {
    std::vector<std::string> by_status;
    for (const auto& [name, count] : summary.statuses) by_status.push_back(fmt::format("{} {}", name, count));
    warnings.push_back(fmt::format("no score in the tables comes from a model: all {} rows end without a solution "
                                   "({}); results.csv's message column says why for each",
                                   summary.rows, fmt::join(by_status, ", ")));
  }
  for (const auto& [count, folder, table] : {std::tuple(summary.tasks_without_cv_scores, "cv", "cv_scores.csv"),
                                             std::tuple(summary.tasks_without_weights, "weights", "weights.csv")}) {
    if (count > 0) {
      warnings.push_back(fmt::format("{} tasks have a row but no {}/ file (deleted, or run by an older version); {} "
                                     "lacks them", count, folder, table));
    }
  }
  return warnings;
}

std::string nothing_fitted(const CollectSummary& summary) {
  if (summary.rows == 0 || summary.refused_rows < summary.rows) return "";
  return fmt::format("no row has a model: all {} are input_error or memory_budget, the first: {}. The tables are "
                     "written; results.csv's message column says why for each. A run with a larger --memory-budget "
                     "recomputes memory_budget rows; a changed config runs into another --out (or into this "
                     "one with --force)",
                     summary.rows, summary.first_refused_row);
}

CollectSummary collect(const ExperimentConfig& config, const std::vector<std::string>& input_directories,
                       const std::string& output_directory, bool partial) {
  const std::vector<std::string> columns_of_rows = result_columns(config);
  const std::vector<std::string> metrics = summary_metric_names(summarized_method_columns(config), config.protocol.metric);
  CollectSummary summary;
  std::vector<std::string> missing;
  const std::vector<Task> planned = plan_tasks(config, &missing);
  summary.missing_datasets = missing;
  std::vector<Row> rows = read_rows(config, input_directories, columns_of_rows, metrics, planned, summary.ignored_files);
  // Config order: data set instance, then method, then repetition.
  std::map<std::pair<std::string, std::string>, std::size_t> dataset_order;
  std::vector<std::pair<std::string, std::string>> columns;  // data sets with results, in config order
  // The formatted tables' columns: those, and data sets whose file is absent (skipped with
  // --skip-missing), whose cells say so.
  std::vector<std::tuple<std::string, std::string, bool>> table_columns;  // name, condition, absent
  for (const DatasetInstance& instance : config.datasets) {
    dataset_order.emplace(std::pair(instance.name, instance.condition), dataset_order.size());
    const bool has_rows = std::any_of(rows.begin(), rows.end(), [&](const Row& row) {
      return row.at("dataset") == instance.name && row.at("condition") == instance.condition;
    });
    if (has_rows) columns.emplace_back(instance.name, instance.condition);
    if (has_rows || !instance.missing_hint.empty()) {
      table_columns.emplace_back(instance.name, instance.condition, !instance.missing_hint.empty());
    }
  }
  std::map<std::string, std::size_t> method_order;
  for (const MethodEntry& method : config.methods) method_order.emplace(method.label, method_order.size());
  const auto order = [&](const Row& row) {
    const auto d = dataset_order.find({row.at("dataset"), row.at("condition")});
    const auto m = method_order.find(row.at("method"));
    return std::tuple(d == dataset_order.end() ? SIZE_MAX : d->second, m == method_order.end() ? SIZE_MAX : m->second,
                      std::stoul(row.at("rep")));
  };
  std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) { return order(a) < order(b); });
  summary.rows = rows.size();
  summary.expected = planned.size();
  if (summary.rows < summary.expected && !partial) {
    throw core::InputError(fmt::format(
        "{} of {} planned tasks have no result in {}; run them (sparsesvm status lists them) or collect with "
        "--partial to write tables from the {} that have one (cells then say n of N)",
        summary.expected - summary.rows, summary.expected, fmt::join(input_directories, ", "), summary.rows));
  }
  const std::size_t planned_per_cell = outer_count(config.protocol);
  const ConditionColumns conditions(config);
  // The side files are read (and checked) before anything is written.
  const std::string cv_scores =
      side_table(input_directories, planned, "cv", cv_score_columns(config), conditions, summary.tasks_without_cv_scores);
  const std::string weights = config.keep_weights ? side_table(input_directories, planned, "weights", weight_columns(),
                                                               conditions, summary.tasks_without_weights)
                                                  : "";
  if (!partial && summary.tasks_without_cv_scores + summary.tasks_without_weights > 0) {
    throw core::InputError(fmt::format("{}; run again (the run recomputes them) or collect with --partial",
                                       fmt::join(collect_warnings(summary), "; ")));
  }
  // results.csv: the rows' columns, with the condition's columns in place of `condition`.
  const auto condition_at = std::find(columns_of_rows.begin(), columns_of_rows.end(), "condition");
  const std::vector<std::string> columns_before(columns_of_rows.begin(), condition_at);
  const std::vector<std::string> columns_after(condition_at + 1, columns_of_rows.end());
  std::string all = csv_line(conditions.header(columns_before, columns_after));
  for (const Row& row : rows) {
    const auto fields_of = [&](const std::vector<std::string>& names) {
      std::vector<std::string> fields;
      for (const std::string& column : names) fields.push_back(row.at(column));
      return fields;
    };
    all += csv_line(conditions.fields(fields_of(columns_before), row.at("condition"), fields_of(columns_after)));
    summary.failed += failed(row) ? 1 : 0;
    summary.machine_dependent += stopped_by_wall_clock(row) ? 1 : 0;
    ++summary.statuses[row.at("status")];
    if (refused_before_fit(row.at("status"))) {
      if (summary.refused_rows++ == 0) {
        summary.first_refused_row =
            quote_row(row.at("dataset"), row.at("condition"), row.at("method"), row.at("rep"), row.at("message"));
      }
    }
  }
  const auto write = [&](const std::string& name, const std::string& content) {
    const std::string path = (std::filesystem::path(output_directory) / name).string();
    write_file_atomically(path, content);
    summary.written.push_back(path);
  };
  write("results.csv", all);
  write("statuses.csv", statuses_csv(config, rows, columns, conditions));

  // The test score under a selection metric other than accuracy can be undefined (ROC AUC on a one-class test
  // part): its cells say in how many rows.
  const std::string selection_metric =
      config.protocol.metric == models::Metric::accuracy ? "" : std::string(models::to_string(config.protocol.metric));
  // (dataset, condition, method, metric) -> values
  std::map<std::tuple<std::string, std::string, std::string, std::string>, Cell> cells;
  for (const Row& row : rows) {
    for (const std::string& metric : metrics) {
      Cell& cell = cells[{row.at("dataset"), row.at("condition"), row.at("method"), metric}];
      ++cell.rows;
      if (failed(row)) {
        ++cell.failed;
        continue;
      }
      if (!row.at(metric).empty()) cell.values.push_back(std::stod(row.at(metric)));
      if (row.at(metric).empty() && metric == selection_metric) ++cell.undefined;
      if (row.at("n_features") == "0") ++cell.empty_models;
    }
  }
  std::string summary_csv = csv_line(conditions.header({"dataset"}, {"method", "metric", "mean", "std", "n", "failed"}));
  for (const auto& [column, condition] : columns) {
    for (const MethodEntry& method : config.methods) {
      for (const std::string& metric : metrics) {
        const auto found = cells.find({column, condition, method.label, metric});
        if (found == cells.end() || (found->second.values.empty() && found->second.failed == 0)) continue;
        const Cell& cell = found->second;
        summary_csv += csv_line(conditions.fields({column}, condition,
                                                  {method.label, metric, mean_field(cell.values), std_field(cell.values),
                                                   std::to_string(cell.values.size()), std::to_string(cell.failed)}));
      }
    }
  }
  write("summary.csv", summary_csv);

  // The majority-class baseline of each outer split (the same for every method of the split).
  std::map<std::pair<std::string, std::string>, std::map<std::string, double>> majority;  // data set -> rep -> value
  for (const Row& row : rows) {
    if (!row.at("majority_accuracy").empty()) {
      majority[{row.at("dataset"), row.at("condition")}][row.at("rep")] = std::stod(row.at("majority_accuracy"));
    }
  }
  const auto majority_values = [&](const std::string& name, const std::string& condition) {
    std::vector<double> values;
    for (const auto& [rep, value] : majority[{name, condition}]) values.push_back(value);
    return values;
  };
  for (const std::string& metric : config.table_metrics) {
    std::vector<std::string> header = {"method"};
    for (const auto& [name, condition, absent] : table_columns) header.push_back(condition.empty() ? name : name + " " + condition);
    std::string table = csv_line(header);
    for (const MethodEntry& method : config.methods) {
      std::vector<std::string> line = {method.label};
      for (const auto& [name, condition, absent] : table_columns) {
        if (absent) {
          line.emplace_back("absent: not run (data file not present)");
          continue;
        }
        const auto found = cells.find({name, condition, method.label, metric});
        if (found == cells.end()) {
          line.emplace_back("");
          continue;
        }
        const Cell& cell = found->second;
        const std::vector<std::string> tuned = tuned_parameters(config, method);
        const bool chosen = std::find(tuned.begin(), tuned.end(), metric) != tuned.end();
        std::string text = cell.values.empty() ? "-" : chosen ? chosen_values_cell(cell.values) : table_cell(cell.values);
        if (cell.empty_models > 0) text += fmt::format(" [w = 0 in {} of {}]", cell.empty_models, cell.rows - cell.failed);
        if (cell.failed > 0) text += fmt::format(" ({} failed)", cell.failed);
        if (cell.undefined > 0) text += fmt::format(" [undefined in {} of {}]", cell.undefined, cell.rows - cell.failed);
        if (cell.rows < planned_per_cell) text += fmt::format(" (n = {} of {})", cell.rows, planned_per_cell);
        line.push_back(text);
      }
      table += csv_line(line);
    }
    if (metric == "accuracy") {  // the baseline every accuracy is to be read against
      std::vector<std::string> line = {kMajorityLabel};
      for (const auto& [name, condition, absent] : table_columns) {
        const std::vector<double> values = majority_values(name, condition);
        std::string text = absent ? "absent: not run (data file not present)" : values.empty() ? "-" : table_cell(values);
        if (!absent && values.size() < planned_per_cell) text += fmt::format(" (n = {} of {})", values.size(), planned_per_cell);
        line.push_back(text);
      }
      table += csv_line(line);
    }
    write(fmt::format("table_{}.csv", metric), table);
    std::string numeric = numeric_table(config, columns, cells, metric, conditions);
    if (metric == "accuracy") {
      for (const auto& [name, condition] : columns) {
        const std::vector<double> values = majority_values(name, condition);
        numeric += csv_line(conditions.fields({kMajorityLabel, name}, condition,
                                              {mean_field(values), std_field(values), std::to_string(values.size()), "0"}));
      }
    }
    write(fmt::format("table_{}_numeric.csv", metric), numeric);
  }

  if (config.paired_test.size() == 2) {
    write("paired_test.csv", paired_tests_csv(config, rows, columns, {{config.paired_test[0], config.paired_test[1]}},
                                              "accuracy", conditions));
  }
  if (!config.comparisons.metrics.empty()) {
    std::string friedman;
    for (const auto& [metric, higher_is_better] : config.comparisons.metrics) {
      write(fmt::format("tests_{}.csv", metric),
            paired_tests_csv(config, rows, columns, comparison_pairs(config), metric, conditions));
      const RankTables ranked = rank_tables(config, rows, columns, metric, higher_is_better);
      write(fmt::format("ranks_{}.csv", metric), ranked.ranks);
      friedman += friedman.empty() ? ranked.friedman : ranked.friedman.substr(ranked.friedman.find('\n') + 1);
    }
    write("friedman.csv", friedman);
  }
  if (!config.objective_ratios.empty()) write("objective_ratio.csv", objective_ratio_csv(config, rows, columns, conditions));
  if (!config.published.empty()) {
    write("paper_comparison.csv", paper_comparison_csv(config.published, our_published_cells(config, rows)));
  }
  if (config.convergence) {
    const ConvergenceCsv convergence = convergence_tables(config, rows);
    write("convergence_by_walk.csv", convergence.by_walk);
    write("convergence.csv", convergence.summary);
  }
  write("cv_scores.csv", cv_scores);
  // Always (a header only without selection), so that no earlier collect's curves stay beside these rows.
  write("validation_curves.csv", validation_curves_csv(parse_csv(cv_scores, "cv_scores.csv"), config.protocol.metric));
  if (config.keep_weights) write("weights.csv", weights);
  if (!config.figures.empty()) write("figures.json", figures_json(config));
  if (std::any_of(config.figures.begin(), config.figures.end(), [](const FigureSpec& f) { return f.kind == "boundary"; })) {
    write("boundary_points.csv", boundary_points_csv(config));
  }
  return summary;
}

}  // namespace sparsesvm::experiment
