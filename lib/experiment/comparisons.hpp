#pragma once
// Comparing methods on the rows of a run (collect writes these tables):
//   paired tests  per data set, two methods' values of a metric over the outer splits where both have a
//                 solution: the paired t-test, the corrected resampled t-test (the splits share training
//                 examples) and Wilcoxon's signed-rank test (stats.hpp)
//   ranks         per data set the methods' mean values ranked (1 = the best), then Friedman's test over
//                 the data sets and Nemenyi's critical difference (Demsar 2006), for a CD diagram
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "experiment/condition_columns.hpp"
#include "experiment/config.hpp"

namespace sparsesvm::experiment {

using ResultRow = std::map<std::string, std::string>;

// A row without a solution: any status but optimal, converged, feasible and solved_inaccurate.
bool failed(const ResultRow& row);

// The rows of methods a and b on the repetitions of (dataset, condition) where both have a solution, in
// repetition order.
std::vector<std::pair<const ResultRow*, const ResultRow*>> paired_rows(const std::vector<ResultRow>& rows,
                                                                       const std::string& dataset,
                                                                       const std::string& condition,
                                                                       const std::string& a, const std::string& b);

// The paired tests' table: one line per data set (with its condition's columns) and pair (a, b):
// method_a, method_b, n, mean_difference (a - b), paired_t, paired_t_p, corrected_t, corrected_t_p,
// wilcoxon_w (the smaller signed-rank sum), wilcoxon_p. Empty cells where a test is undefined.
std::string paired_tests_csv(const ExperimentConfig& config, const std::vector<ResultRow>& rows,
                             const std::vector<std::pair<std::string, std::string>>& datasets,
                             const std::vector<std::pair<std::string, std::string>>& method_pairs,
                             const std::string& metric, const ConditionColumns& conditions);

// The pairs tables.comparisons tests: each label against `against`, or every pair when it is empty.
std::vector<std::pair<std::string, std::string>> comparison_pairs(const ExperimentConfig& config);

// A row that delivered what its method promises: optimal or converged, or feasible where that is the promise
// and it was kept (RW(N)'s truncated walk, certificate inner_svm_gap; a restricted psi MIP whose restricted
// problem closed), never a row stopped by a limit (iteration, node or time limit; Cbc stopped early),
// solved_inaccurate, or a DCA/ADMM iterate whose stationarity is unproven.
bool proven_row(const ResultRow& row);

struct RankTables {
  std::string ranks;     // method, mean_rank, datasets, rows, unproven_rows, ranked (yes, or why not)
  std::string friedman;  // one line: metric, better, methods, datasets, chi_square, iman_davenport_f,
                         // p_value, alpha, nemenyi_q, critical_difference, dropped, apart, statuses
};

// Friedman and Nemenyi for `metric` over the data sets (with conditions): per data set each method's mean
// over the outer splits where every method has a value, so that all are ranked on the same splits (a data
// set without such a split is dropped and named in `dropped`). Unless comparisons.include_unproven, a
// method with an unproven row (proven_row) on these data sets is not ranked: `apart` names it with its
// count; `statuses` is the status mix of the ranked methods' rows.
RankTables rank_tables(const ExperimentConfig& config, const std::vector<ResultRow>& rows,
                       const std::vector<std::pair<std::string, std::string>>& datasets, const std::string& metric,
                       bool higher_is_better);

}  // namespace sparsesvm::experiment
