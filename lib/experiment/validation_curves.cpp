#include "experiment/validation_curves.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

#include "experiment/csv.hpp"

namespace sparsesvm::experiment {
namespace {

std::size_t column_of(const std::vector<std::string>& header, const std::string& name) {
  const auto found = std::find(header.begin(), header.end(), name);
  if (found == header.end()) throw std::logic_error("cv_scores.csv without column " + name);
  return static_cast<std::size_t>(found - header.begin());
}

// One curve: the values of one parameter for one instance and method.
struct CurvePoint {
  std::map<std::string, double> best_by_split;  // rep -> best mean inner score among its candidates at x
  std::size_t chosen = 0;
};

}  // namespace

std::string validation_curves_csv(const std::vector<std::vector<std::string>>& cv_scores, models::Metric metric) {
  const std::vector<std::string>& header = cv_scores.front();
  const std::size_t method = column_of(header, "method"), rep = column_of(header, "rep"),
                    candidate = column_of(header, "candidate"), score = column_of(header, "score"),
                    solved = column_of(header, "solved"), mean_score = column_of(header, "mean_score"),
                    chosen = column_of(header, "chosen"), fold = column_of(header, "fold");
  const std::vector<std::string> instance(header.begin(), header.begin() + static_cast<std::ptrdiff_t>(method));
  std::vector<std::string> out_header = instance;
  out_header.insert(out_header.end(), {"method", "parameter", "value", "mean_score", "std_score", "splits", "chosen"});
  // (instance fields + method) in order of appearance -> parameter column -> x -> point
  std::vector<std::vector<std::string>> curves;
  std::map<std::vector<std::string>, std::map<std::size_t, std::map<double, CurvePoint>>> points;
  for (std::size_t k = 1; k < cv_scores.size(); ++k) {
    const std::vector<std::string>& line = cv_scores[k];
    std::vector<std::string> key(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(method) + 1);
    if (!points.contains(key)) curves.push_back(key);
    auto& by_parameter = points[key];
    const bool first_fold = line[fold] == "0";  // one line per candidate counts
    for (std::size_t p = candidate + 1; p < score; ++p) {
      if (line[p].empty()) continue;  // a parameter this method does not tune
      CurvePoint& point = by_parameter[p][std::stod(line[p])];
      if (first_fold && line[chosen] == "1") ++point.chosen;
      if (line[solved] != "1" || line[mean_score].empty() || line[mean_score] == "nan") continue;
      const double value = std::stod(line[mean_score]);
      const auto [at, inserted] = point.best_by_split.emplace(line[rep], value);
      if (!inserted && models::better_score(metric, value, at->second)) at->second = value;
    }
  }
  std::string table = csv_line(out_header);
  for (const std::vector<std::string>& key : curves) {
    for (const auto& [p, by_value] : points.at(key)) {
      for (const auto& [x, point] : by_value) {
        std::vector<double> best;
        for (const auto& [split, value] : point.best_by_split) best.push_back(value);
        const double n = static_cast<double>(best.size());
        const double mean = best.empty() ? std::nan("") : std::accumulate(best.begin(), best.end(), 0.0) / n;
        double squares = 0.0;
        for (const double value : best) squares += (value - mean) * (value - mean);
        const double std = std::sqrt(squares / (n - 1));
        std::vector<std::string> fields = key;
        fields.insert(fields.end(), {header[p], format_number(x), format_number(mean), best.size() < 2 ? "" : format_number(std),
                                     std::to_string(best.size()), std::to_string(point.chosen)});
        table += csv_line(fields);
      }
    }
  }
  return table;
}

}  // namespace sparsesvm::experiment
