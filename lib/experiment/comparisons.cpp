#include "experiment/comparisons.hpp"

#include <cmath>
#include <set>
#include <tuple>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/status.hpp"
#include "experiment/csv.hpp"
#include "experiment/stats.hpp"
#include "models/fit_report.hpp"

namespace sparsesvm::experiment {

bool failed(const ResultRow& row) { return !core::has_solution(row.at("status")); }

std::vector<std::pair<const ResultRow*, const ResultRow*>> paired_rows(const std::vector<ResultRow>& rows,
                                                                       const std::string& dataset,
                                                                       const std::string& condition,
                                                                       const std::string& a, const std::string& b) {
  std::map<std::string, std::map<std::size_t, const ResultRow*>> by_method;  // method -> rep -> row
  for (const ResultRow& row : rows) {
    if (row.at("dataset") == dataset && row.at("condition") == condition && !failed(row)) {
      by_method[row.at("method")][std::stoul(row.at("rep"))] = &row;
    }
  }
  std::vector<std::pair<const ResultRow*, const ResultRow*>> pairs;
  for (const auto& [rep, row] : by_method[a]) {
    const auto other = by_method[b].find(rep);
    if (other != by_method[b].end()) pairs.emplace_back(row, other->second);
  }
  return pairs;
}

namespace {

std::string defined_number(double value, bool defined) { return defined ? format_number(value) : ""; }

std::vector<std::string> test_fields(const std::vector<double>& a, const std::vector<double>& b, double ratio) {
  const PairedTest paired = paired_t_test(a, b);
  const PairedTest corrected = corrected_resampled_t_test(a, b, std::isnan(ratio) ? 0.0 : ratio);
  const SignedRankTest signed_rank = wilcoxon_signed_rank(a, b);
  // With fewer than two pairs, or differences all equal and nonzero (no spread: t would be +-inf, p 0),
  // there is no t-test: empty cells; the corrected test also where the protocol has no correction.
  const bool t_defined = paired.n >= 2 && std::isfinite(paired.t);
  const bool corrected_defined = t_defined && !std::isnan(ratio) && std::isfinite(corrected.t);
  return {std::to_string(paired.n),
          defined_number(paired.mean_difference, paired.n > 0),
          defined_number(paired.t, t_defined),
          defined_number(paired.p_value, t_defined),
          defined_number(corrected.t, corrected_defined),
          defined_number(corrected.p_value, corrected_defined),
          defined_number(std::min(signed_rank.w_plus, signed_rank.w_minus), !a.empty()),
          defined_number(signed_rank.p_value, !a.empty())};
}

}  // namespace

std::string paired_tests_csv(const ExperimentConfig& config, const std::vector<ResultRow>& rows,
                             const std::vector<std::pair<std::string, std::string>>& datasets,
                             const std::vector<std::pair<std::string, std::string>>& method_pairs,
                             const std::string& metric, const ConditionColumns& conditions) {
  const double ratio = test_train_ratio(config.protocol);
  std::string table = csv_line(conditions.header(
      {"dataset"}, {"method_a", "method_b", "n", "mean_difference", "paired_t", "paired_t_p", "corrected_t",
                    "corrected_t_p", "wilcoxon_w", "wilcoxon_p"}));
  for (const auto& [name, condition] : datasets) {
    for (const auto& [a, b] : method_pairs) {
      std::vector<double> values_a, values_b;
      for (const auto& [row_a, row_b] : paired_rows(rows, name, condition, a, b)) {
        if (row_a->at(metric).empty() || row_b->at(metric).empty()) continue;
        values_a.push_back(std::stod(row_a->at(metric)));
        values_b.push_back(std::stod(row_b->at(metric)));
      }
      std::vector<std::string> after = {a, b};
      for (std::string& field : test_fields(values_a, values_b, ratio)) after.push_back(std::move(field));
      table += csv_line(conditions.fields({name}, condition, after));
    }
  }
  return table;
}

std::vector<std::pair<std::string, std::string>> comparison_pairs(const ExperimentConfig& config) {
  std::vector<std::pair<std::string, std::string>> pairs;
  const std::string& against = config.comparisons.against;
  for (std::size_t i = 0; i < config.methods.size(); ++i) {
    const std::string& a = config.methods[i].label;
    if (!against.empty()) {
      if (a != against) pairs.emplace_back(a, against);
      continue;
    }
    for (std::size_t j = i + 1; j < config.methods.size(); ++j) pairs.emplace_back(a, config.methods[j].label);
  }
  return pairs;
}

bool proven_row(const ResultRow& row) {
  const std::string& status = row.at("status");
  if (status == "optimal" || status == "converged") return true;
  if (status != "feasible") return false;
  const std::string& stop = row.at("stop_reason");
  const bool at_limit = stop == models::kIterationLimitStop || stop == models::kNodeLimitStop ||
                        stop == models::kTimeLimitStop || stop == "Cbc stopped early";
  const std::string& kind = row.at("certificate_kind");
  return !at_limit && (kind == "inner_svm_gap" || kind == "restricted_mip_gap");
}

namespace {

// Per method label: its rows on `datasets` and how many are not proven.
struct ProvenCount {
  std::size_t rows = 0;
  std::size_t unproven = 0;
  std::map<std::string, std::size_t> statuses;  // its rows by status
};

std::map<std::string, ProvenCount> proven_counts(const std::vector<ResultRow>& rows,
                                                 const std::vector<std::pair<std::string, std::string>>& datasets) {
  const std::set<std::pair<std::string, std::string>> compared(datasets.begin(), datasets.end());
  std::map<std::string, ProvenCount> counts;
  for (const ResultRow& row : rows) {
    if (!compared.contains({row.at("dataset"), row.at("condition")})) continue;
    ProvenCount& count = counts[row.at("method")];
    ++count.rows;
    count.unproven += proven_row(row) ? 0 : 1;
    ++count.statuses[row.at("status")];
  }
  return counts;
}

}  // namespace

RankTables rank_tables(const ExperimentConfig& config, const std::vector<ResultRow>& rows,
                       const std::vector<std::pair<std::string, std::string>>& datasets, const std::string& metric,
                       bool higher_is_better) {
  const std::map<std::string, ProvenCount> counts = proven_counts(rows, datasets);
  std::vector<const MethodEntry*> ranked;  // the methods ranked; the others go apart
  std::vector<std::string> apart;
  for (const MethodEntry& method : config.methods) {
    const auto count = counts.find(method.label);
    const std::size_t unproven = count == counts.end() ? 0 : count->second.unproven;
    if (unproven > 0 && !config.comparisons.include_unproven) {
      apart.push_back(fmt::format("{} ({} of {} rows unproven)", method.label, unproven, count->second.rows));
    } else {
      ranked.push_back(&method);
    }
  }
  std::map<std::string, std::size_t> statuses;  // the ranked methods' rows by status
  for (const MethodEntry* method : ranked) {
    if (const auto count = counts.find(method->label); count != counts.end()) {
      for (const auto& [status, n] : count->second.statuses) statuses[status] += n;
    }
  }
  std::vector<std::string> status_mix;
  for (const auto& [status, count] : statuses) status_mix.push_back(fmt::format("{} {}", status, count));
  // (data set, condition, method) -> split -> the metric's value, for the splits with a solution
  std::map<std::tuple<std::string, std::string, std::string>, std::map<std::size_t, double>> values;
  for (const ResultRow& row : rows) {
    if (failed(row) || row.at(metric).empty()) continue;
    values[{row.at("dataset"), row.at("condition"), row.at("method")}][std::stoul(row.at("rep"))] = std::stod(row.at(metric));
  }
  std::vector<std::vector<double>> table;  // [data set][ranked method]: the mean over the splits all solved
  std::vector<std::string> dropped;
  for (const auto& [name, condition] : datasets) {
    std::set<std::size_t> common;  // splits with a value of every ranked method
    for (std::size_t m = 0; m < ranked.size(); ++m) {
      const auto found = values.find({name, condition, ranked[m]->label});
      std::set<std::size_t> reps;
      if (found != values.end()) {
        for (const auto& [rep, value] : found->second) reps.insert(rep);
      }
      if (m == 0) {
        common = reps;
      } else {
        std::erase_if(common, [&](std::size_t rep) { return !reps.contains(rep); });
      }
    }
    if (common.empty()) {
      dropped.push_back(condition.empty() ? name : name + " " + condition);
      continue;
    }
    std::vector<double> line;
    for (const MethodEntry* method : ranked) {
      const std::map<std::size_t, double>& by_rep = values.at({name, condition, method->label});
      std::vector<double> shared;
      for (const std::size_t rep : common) shared.push_back(by_rep.at(rep));
      line.push_back(mean(shared));
    }
    table.push_back(std::move(line));
  }
  constexpr double kAlpha = 0.05;
  RankTables tables;
  tables.ranks = csv_line({"method", "mean_rank", "datasets", "rows", "unproven_rows", "ranked"});
  tables.friedman = csv_line({"metric", "better", "methods", "datasets", "chi_square", "iman_davenport_f", "p_value",
                              "alpha", "nemenyi_q", "critical_difference", "dropped", "apart", "statuses"});
  const std::string better = higher_is_better ? "higher" : "lower";
  const std::string apart_text = fmt::format("{}", fmt::join(apart, "; "));
  const std::string statuses_text = fmt::format("{}", fmt::join(status_mix, ", "));
  const bool tested = !table.empty() && ranked.size() >= 2;
  const FriedmanTest test = tested ? friedman_test(table, higher_is_better, kAlpha) : FriedmanTest{};
  for (const MethodEntry& method : config.methods) {
    const auto position = std::find(ranked.begin(), ranked.end(), &method) - ranked.begin();
    const bool is_ranked = tested && static_cast<std::size_t>(position) < ranked.size();
    const auto count = counts.find(method.label);
    const ProvenCount rows_of = count == counts.end() ? ProvenCount{} : count->second;
    tables.ranks += csv_line({method.label, is_ranked ? format_number(test.mean_ranks[static_cast<std::size_t>(position)]) : "",
                              is_ranked ? std::to_string(table.size()) : "", std::to_string(rows_of.rows),
                              std::to_string(rows_of.unproven), is_ranked ? "yes" : (tested ? "no: unproven rows" : "no")});
  }
  if (!tested) {
    tables.friedman += csv_line({metric, better, std::to_string(ranked.size()), "0", "", "", "", "", "", "",
                                 fmt::format("{}", fmt::join(dropped, "; ")), apart_text, statuses_text});
    return tables;
  }
  const bool defined = table.size() >= 2;
  tables.friedman += csv_line({metric, better, std::to_string(test.methods), std::to_string(test.datasets),
                               defined_number(test.chi_square, defined), defined_number(test.iman_davenport_f, defined),
                               defined_number(test.p_value, defined), format_number(kAlpha),
                               format_number(nemenyi_q(test.methods, kAlpha)),
                               defined_number(test.critical_difference, defined), fmt::format("{}", fmt::join(dropped, "; ")),
                               apart_text, statuses_text});
  return tables;
}

}  // namespace sparsesvm::experiment
