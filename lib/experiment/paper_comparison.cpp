#include "experiment/paper_comparison.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "core/errors.hpp"
#include "experiment/csv.hpp"
#include "experiment/stats.hpp"

namespace sparsesvm::experiment {
namespace {

const std::vector<std::string> kColumns = {"table",  "row",   "column", "dataset",     "condition", "method", "metric",
                                           "scale",  "value", "spread", "spread_kind", "paper_n",   "note"};

double parse_number(const std::string& text, const std::string& where) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    throw core::InputError(fmt::format("{}: expected a number, found '{}'", where, text));
  }
  return value;
}

// The paper's standard error of a cell's mean. A paper that prints no spread ([PSI] Table 1) ran the same
// design: its standard error is estimated by our standard deviation over sqrt(its replications).
double paper_standard_error(const PublishedCell& cell, double our_std) {
  if (cell.spread_kind == "se") return cell.spread;
  const double spread = cell.spread_kind == "std" ? cell.spread : our_std;
  return spread / std::sqrt(static_cast<double>(cell.paper_n));
}

// The standard errors of a cell with values, by the protocol's rule (paper_comparison.hpp).
struct CellErrors {
  double ours = 0.0;
  double paper = 0.0;
  std::string rule;
};

CellErrors cell_errors(const PublishedCell& cell, const OurCell& our) {
  if (our.partition_means.size() >= 2) {
    const double spread = sample_stddev(our.partition_means);
    const double paper = cell.spread_kind == "none" ? spread : paper_standard_error(cell, spread);
    return {spread / std::sqrt(static_cast<double>(our.partition_means.size())), paper,
            fmt::format("re-partitions {}", our.partition_means.size())};
  }
  const double our_std = our.values.size() > 1 ? sample_stddev(our.values) : 0.0;
  return {our_std / std::sqrt(static_cast<double>(our.values.size())), paper_standard_error(cell, our_std),
          our.one_data_set_cv ? "one partition" : "replications"};
}

// z = (ours - paper) / sqrt(se_ours^2 + se_paper^2) for a cell with values; without any spread (one value of
// ours against an exact number) only equality is within (0), anything else +-inf.
double cell_z(const PublishedCell& cell, const OurCell& our) {
  const CellErrors errors = cell_errors(cell, our);
  const double combined = std::hypot(errors.ours, errors.paper);
  const double difference = mean(our.values) - cell.value;
  return combined > 0 ? difference / combined : (difference == 0 ? 0.0 : std::copysign(INFINITY, difference));
}

}  // namespace

std::vector<PublishedCell> read_published(const std::string& path) {
  std::string content = read_whole_file(path);
  if (content.empty()) throw core::InputError(fmt::format("{}: no published numbers (the file is empty)", path));
  if (content.rfind("\xEF\xBB\xBF", 0) == 0) content.erase(0, 3);  // a UTF-8 byte order mark
  auto table = parse_csv(content, path);
  while (!table.empty() && table.back().size() == 1 && table.back()[0].empty()) table.pop_back();  // blank last lines
  if (table.empty() || table[0] != kColumns) {
    throw core::InputError(fmt::format("{}: line 1: expected the header {}", path, csv_line(kColumns)));
  }
  std::vector<PublishedCell> cells;
  std::set<std::tuple<std::string, std::string, std::string>> seen;  // (table, row, column)
  for (std::size_t k = 1; k < table.size(); ++k) {
    const std::vector<std::string>& fields = table[k];
    const std::size_t line = k + 1;
    if (fields.size() != kColumns.size()) {
      throw core::InputError(fmt::format("{}: line {}: {} fields, expected {}", path, line, fields.size(), kColumns.size()));
    }
    std::map<std::string, std::string> field;
    for (std::size_t c = 0; c < kColumns.size(); ++c) field[kColumns[c]] = fields[c];
    const auto where = [&](const char* column) { return fmt::format("{}: line {}, column {}", path, line, column); };
    PublishedCell cell;
    cell.line = line;
    cell.table = field["table"];
    cell.row = field["row"];
    cell.column = field["column"];
    cell.dataset = field["dataset"];
    cell.condition = field["condition"];
    cell.method = field["method"];
    cell.metric = field["metric"];
    if (const auto minus = cell.metric.find('-'); minus != std::string::npos) {
      cell.subtracted_from = parse_number(cell.metric.substr(0, minus), where("metric") + " (K of K-column)");
      cell.metric = cell.metric.substr(minus + 1);
    }
    cell.scale = parse_number(field["scale"], where("scale"));
    if (cell.scale == 0) throw core::InputError(fmt::format("{}: the scale of a printed number is not 0", where("scale")));
    cell.value = parse_number(field["value"], where("value"));
    cell.spread_kind = field["spread_kind"];
    if (cell.spread_kind != "std" && cell.spread_kind != "se" && cell.spread_kind != "none") {
      throw core::InputError(fmt::format("{}: '{}': expected std, se or none", where("spread_kind"), cell.spread_kind));
    }
    if (cell.spread_kind != "none") cell.spread = parse_number(field["spread"], where("spread"));
    if (cell.spread_kind == "none" && !field["spread"].empty()) {
      throw core::InputError(fmt::format("{}: a spread is given but spread_kind is none; say std or se", where("spread")));
    }
    if (cell.spread < 0) throw core::InputError(fmt::format("{}: a spread is not negative", where("spread")));
    const double paper_n = parse_number(field["paper_n"], where("paper_n"));
    if (!(paper_n >= 1 && paper_n <= 1e9) || paper_n != std::floor(paper_n)) {
      throw core::InputError(fmt::format("{}: expected a whole number of replications, 1 to 1e9", where("paper_n")));
    }
    cell.paper_n = static_cast<std::size_t>(paper_n);
    cell.note = field["note"];
    if (cell.table.empty() || cell.method.empty() || cell.dataset.empty() || cell.metric.empty()) {
      throw core::InputError(fmt::format("{}: line {}: table, dataset, method and metric are required", path, line));
    }
    if (!seen.emplace(cell.table, cell.row, cell.column).second) {
      throw core::InputError(fmt::format("{}: line {}: the cell ({}, {}, {}) is listed twice", path, line, cell.table,
                                         cell.row, cell.column));
    }
    cells.push_back(std::move(cell));
  }
  if (cells.empty()) throw core::InputError(fmt::format("{}: no published cells below the header", path));
  return cells;
}

std::vector<double> holm_adjusted(const std::vector<double>& p) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  std::vector<double> adjusted(p.size());
  double running = 0.0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    running = std::max(running, std::min(1.0, static_cast<double>(p.size() - i) * p[order[i]]));
    adjusted[order[i]] = running;
  }
  return adjusted;
}

namespace {

// Per cell: Holm's adjusted p over the compared cells (a finite z) of its table; NaN for the others.
std::vector<double> holm_by_table(const std::vector<PublishedCell>& cells, const std::vector<double>& z) {
  std::vector<double> adjusted(cells.size(), std::nan(""));
  std::map<std::string, std::vector<std::size_t>> by_table;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    if (!std::isnan(z[k])) by_table[cells[k].table].push_back(k);
  }
  for (const auto& [table, members] : by_table) {
    std::vector<double> p;
    for (const std::size_t k : members) p.push_back(2.0 * normal_cdf(-std::abs(z[k])));
    const std::vector<double> holm = holm_adjusted(p);
    for (std::size_t i = 0; i < members.size(); ++i) adjusted[members[i]] = holm[i];
  }
  return adjusted;
}

// The baseline cells: its mean, and whether ours beats it (higher accuracy; for a complemented metric, an
// error rate, lower). Empty without a baseline.
std::pair<std::string, std::string> baseline_fields(const PublishedCell& cell, const OurCell& our) {
  if (our.baseline.empty() || our.values.empty()) return {"", ""};
  const double baseline = mean(our.baseline), ours = mean(our.values);
  const bool lower_is_better = cell.subtracted_from.has_value();
  const bool beats = lower_is_better ? ours < baseline : ours > baseline;
  return {format_number(baseline), beats ? "yes" : "no"};
}

}  // namespace

std::string paper_comparison_csv(const std::vector<PublishedCell>& cells, const std::vector<OurCell>& ours) {
  std::string text = csv_line({"table", "row", "column", "dataset", "condition", "method", "metric", "paper",
                               "paper_spread", "paper_spread_kind", "paper_n", "paper_se", "ours", "ours_std", "ours_se",
                               "n", "failed", "z", "verdict", "p", "holm_p", "holm_verdict", "baseline", "beats_baseline",
                               "se_rule", "paper_se_source", "note"});
  std::vector<double> z_of(cells.size(), std::nan(""));
  for (std::size_t k = 0; k < cells.size(); ++k) {
    if (ours[k].run && !ours[k].values.empty()) z_of[k] = cell_z(cells[k], ours[k]);
  }
  const std::vector<double> holm = holm_by_table(cells, z_of);
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const PublishedCell& cell = cells[k];
    const OurCell& our = ours[k];
    std::string mean_text, std_text, se_text, paper_se_text, z_text, verdict, p_text, holm_text, holm_verdict, rule;
    if (!our.run) {
      verdict = "not_run";
    } else if (our.values.empty()) {
      verdict = "no_result";
    } else {
      const double m = mean(our.values);
      const double our_std = our.values.size() > 1 ? sample_stddev(our.values) : 0.0;
      const CellErrors errors = cell_errors(cell, our);
      const double z = z_of[k];
      rule = errors.rule;
      verdict = std::abs(z) <= 1 ? "within_1se" : std::abs(z) <= 2 ? "within_2se" : "off";
      p_text = format_number(2.0 * normal_cdf(-std::abs(z)));
      holm_text = format_number(holm[k]);
      holm_verdict = holm[k] < kHolmAlpha ? "off" : "consistent";
      mean_text = format_number(m);
      std_text = our.values.size() > 1 ? format_number(our_std) : "";
      se_text = our.values.size() > 1 ? format_number(errors.ours) : "";
      paper_se_text = format_number(errors.paper);
      z_text = std::isfinite(z) ? format_number(z) : (z > 0 ? "inf" : "-inf");
    }
    const std::string metric = (cell.subtracted_from ? format_number(*cell.subtracted_from) + "-" : "") + cell.metric;
    const auto baseline = baseline_fields(cell, our);
    text += csv_line({cell.table, cell.row, cell.column, cell.dataset, cell.condition, cell.method, metric,
                      format_number(cell.value), cell.spread_kind == "none" ? "" : format_number(cell.spread),
                      cell.spread_kind, std::to_string(cell.paper_n), paper_se_text,
                      mean_text, std_text, se_text, std::to_string(our.values.size()), std::to_string(our.failed), z_text,
                      verdict, p_text, holm_text, holm_verdict, baseline.first, baseline.second, rule,
                      rule.empty() ? "" : (cell.spread_kind == "none" ? "ours" : "paper"),
                      our.reason.empty() ? cell.note : our.reason});
  }
  return text;
}

}  // namespace sparsesvm::experiment
