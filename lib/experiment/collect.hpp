#pragma once
// Merges the task results of one or more run directories (shards of the same config) into:
//   results.csv          every row, in the config's data set, method and repetition order
// (each file gives the condition whole, "none" without a generator grid, and one column per grid
// parameter, condition_<key>: condition_columns.hpp)
//   summary.csv          per (dataset, condition, method, metric): mean, std (n - 1), n, failed
//   table_<metric>.csv   paper-shaped: one row per method (config order), one column per data set and
//                        condition, cells "mean ± std"; a cell with failed tasks says "(k failed)", one
//                        whose models have no feature "[w = 0 in k of n]"; a parameter the method tunes
//                        shows its chosen values' median and counts; table_accuracy ends with the
//                        majority-class baseline (column majority_accuracy)
//   cv_scores.csv        every inner score: per task, candidate and inner fold (tasks.hpp cv_score_columns)
//   weights.csv          with keep: [weights], every final model's weights by feature name
//   statuses.csv         per data set and method: rows per status and certificate kind, the largest
//                        certificate (docs/user-guide.md, "Statuses and certificates")
//   paired_test.csv      with tables.paired_test [A, B]: per data set, the paired two-tailed t-test of
//                        A vs B test accuracy over the outer splits both completed ([FSV] Table 2), the
//                        corrected resampled t-test and Wilcoxon's test beside it (comparisons.hpp)
//   tests_<metric>.csv   with tables.comparisons: the same tests for each method against `against` (or
//                        every pair), per data set
//   ranks_<metric>.csv, friedman.csv   with tables.comparisons: mean ranks over the data sets, Friedman's
//                        test and Nemenyi's critical difference per metric
//   objective_ratio.csv  with tables.objective_ratio [[A, B], ...]: per data set, F_A / F_B - 1 over the
//                        repetitions both solved (mean, min, max, how many worse by 1e-4): ADMM vs DCA
// A failed task (a status without a solution: not optimal, converged, feasible or solved_inaccurate) counts in `failed` and never silently
// shortens a mean without saying so.
#include <map>
#include <string>
#include <vector>

#include "experiment/config.hpp"

namespace sparsesvm::experiment {

struct CollectSummary {
  std::size_t rows = 0;
  std::size_t failed = 0;
  std::size_t machine_dependent = 0;  // rows stopped by a wall-clock limit (stop_reason `time limit`)
  // Rows refused before a model: their data or config kept the method from fitting (status input_error),
  // or the fit would have passed the memory budget (memory_budget); and the first of them in table order
  // ("data set / method rep r: message").
  std::size_t refused_rows = 0;
  std::string first_refused_row;
  std::map<std::string, std::size_t> statuses;  // rows by status
  std::size_t expected = 0;       // tasks the config plans
  std::size_t ignored_files = 0;  // task files in the directories that this config does not plan (other configs)
  std::vector<std::string> missing_datasets;  // data sets whose files are absent now: their tasks cannot be named
  std::size_t tasks_without_cv_scores = 0;  // rows whose cv/<id>.csv is absent (deleted, or written by an older version)
  std::size_t tasks_without_weights = 0;    // likewise weights/<id>.csv, with keep: [weights]
  std::vector<std::string> written;
};

// What a reader of the tables must know: rows that depend on the machine (stopped by the wall clock), and
// what the tables lack because side files are absent ("3 tasks have no cv/ file; cv_scores.csv lacks them").
// Also rows without a model because of their data or config, with the first one's message, and a run
// in which no row has a model (solver statuses only: no_eligible_candidate, infeasible, limits).
std::vector<std::string> collect_warnings(const CollectSummary& summary);

// When there are rows and every one is an input failure, what to tell the user: nothing in the tables is a
// model (run and collect then exit 1, after writing the tables, so a script or a Slurm array sees it). Empty
// otherwise.
std::string nothing_fitted(const CollectSummary& summary);

// Writes into output_directory; reads DIR/tasks/*.csv of every input directory. InputError, before
// anything is written, when planned tasks have no result, unless `partial` (then table cells with fewer
// results than planned say "n = k of N").
CollectSummary collect(const ExperimentConfig& config, const std::vector<std::string>& input_directories,
                       const std::string& output_directory, bool partial = false);

}  // namespace sparsesvm::experiment
