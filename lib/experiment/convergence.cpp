#include "experiment/convergence.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <sstream>
#include <tuple>

#include "core/status.hpp"
#include "experiment/condition_columns.hpp"
#include "experiment/csv.hpp"
#include "experiment/stats.hpp"
#include "models/methods.hpp"

namespace sparsesvm::experiment {
namespace {

using Row = std::map<std::string, std::string>;

std::vector<double> parse_trace(const std::string& text) {
  std::vector<double> values;
  std::stringstream parts(text);
  for (std::string part; std::getline(parts, part, ';');) values.push_back(std::stod(part));
  return values;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t k = values.size();
  return k % 2 == 1 ? values[k / 2] : 0.5 * (values[k / 2 - 1] + values[k / 2]);
}

struct Walk {
  std::string label;
  std::vector<std::string> parameters;
  std::vector<double> gaps;  // after iterations 1..T
};

}  // namespace

ConvergenceCsv convergence_tables(const ExperimentConfig& config, const std::vector<Row>& rows) {
  const ConvergenceTable& spec = *config.convergence;
  std::map<std::string, std::string> name_of;  // label -> method name
  for (const MethodEntry& entry : config.methods) name_of[entry.label] = entry.name;
  std::vector<std::string> keys;  // the optimum's model parameters: the walk must match them
  for (const models::ParameterSpec& parameter : models::find_method(spec.optimum).parameters) {
    if (parameter.kind == models::ParameterKind::model) keys.push_back(parameter.name);
  }
  using Instance = std::tuple<std::string, std::string, std::string>;  // dataset, condition, rep
  const auto instance_of = [](const Row& row) { return Instance{row.at("dataset"), row.at("condition"), row.at("rep")}; };
  const auto parameters_of = [&](const Row& row) {
    std::vector<std::string> values;
    for (const std::string& key : keys) values.push_back(row.at(key));
    return values;
  };
  const auto usable = [](const Row& row) { return core::has_solution(row.at("status")) && !row.at("objective").empty(); };

  std::map<std::pair<Instance, std::vector<std::string>>, double> optimum;
  for (const Row& row : rows) {
    if (name_of[row.at("method")] == spec.optimum && usable(row)) {
      optimum[{instance_of(row), parameters_of(row)}] = std::stod(row.at("objective"));
    }
  }
  std::map<Instance, std::vector<Walk>> walks;
  std::size_t unmatched = 0;
  std::size_t below_optimum = 0;  // walks that went below F* by more than 1e-6: the optimum is not one
  const ConditionColumns conditions(config);
  std::vector<std::string> header = conditions.header({"dataset"}, {"rep", "method"});
  header.insert(header.end(), keys.begin(), keys.end());
  header.insert(header.end(), {"iteration", "relative_gap"});
  ConvergenceCsv csv{csv_line(header), ""};
  for (const Row& row : rows) {
    if (name_of[row.at("method")] != spec.walk) continue;
    const auto found = optimum.find({instance_of(row), parameters_of(row)});
    if (!usable(row) || found == optimum.end() || !(found->second > 0)) {
      ++unmatched;
      continue;
    }
    Walk walk{row.at("method"), parameters_of(row), {}};
    for (double value : parse_trace(row.at("objective_trace"))) walk.gaps.push_back((value - found->second) / found->second);
    if (!walk.gaps.empty() && *std::min_element(walk.gaps.begin(), walk.gaps.end()) < -1e-6) ++below_optimum;
    for (std::size_t t = 0; t < walk.gaps.size(); ++t) {
      std::vector<std::string> line = conditions.fields({row.at("dataset")}, row.at("condition"), {row.at("rep"), walk.label});
      line.insert(line.end(), walk.parameters.begin(), walk.parameters.end());
      line.insert(line.end(), {std::to_string(t + 1), format_number(walk.gaps[t])});
      csv.by_walk += csv_line(line);
    }
    walks[instance_of(row)].push_back(std::move(walk));
  }

  // Iterations every walk has: the curves are compared at the same t.
  std::size_t iterations = SIZE_MAX;
  std::size_t walk_count = 0;
  for (const auto& [instance, list] : walks) {
    for (const Walk& walk : list) iterations = std::min(iterations, walk.gaps.size());
    walk_count += list.size();
  }
  if (walks.empty()) iterations = 0;
  std::vector<std::vector<double>> worst_curves;  // per instance: the walk worst at the last iteration
  for (const auto& [instance, list] : walks) {
    const auto worst = std::max_element(list.begin(), list.end(), [&](const Walk& a, const Walk& b) {
      return a.gaps[iterations - 1] < b.gaps[iterations - 1];
    });
    worst_curves.push_back(worst->gaps);
  }
  csv.summary = csv_line({"iteration", "worst", "mean", "true_mean", "true_median", "instances", "walks", "unmatched",
                          "below_optimum"});
  for (std::size_t t = 0; t < iterations; ++t) {
    std::vector<double> curve_values, all_values;
    for (const auto& curve : worst_curves) curve_values.push_back(curve[t]);
    for (const auto& [instance, list] : walks) {
      for (const Walk& walk : list) all_values.push_back(walk.gaps[t]);
    }
    csv.summary += csv_line({std::to_string(t + 1), format_number(*std::max_element(curve_values.begin(), curve_values.end())),
                             format_number(mean(curve_values)), format_number(mean(all_values)),
                             format_number(median(all_values)), std::to_string(worst_curves.size()),
                             std::to_string(walk_count), std::to_string(unmatched), std::to_string(below_optimum)});
  }
  return csv;
}

}  // namespace sparsesvm::experiment
