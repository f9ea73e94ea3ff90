#pragma once
// The papers' published numbers as data, and our cells against them. A config names a CSV of the cells it
// reproduces (tables.published, a path beside the config); collect writes paper_comparison.csv from it.
//
// The published CSV, one line per cell the paper prints, with a header naming these columns:
//   table, row, column   where the number stands in the paper ("Table 1", "2-norm SVM nflip=0", "C=1")
//   dataset, condition   our data set and condition ("flip_count=0"; empty without a generator grid)
//   method               our method label
//   metric               our column, or "K-column": K minus it ("1-accuracy" an error rate, "30-n_features"
//                        the zero coefficients of 30) ...
//   scale                ... times this (100 for percentages; 1 otherwise)
//   value                the paper's number
//   spread, spread_kind  the paper's spread and what it is: std (over its replications), se, or none
//   paper_n              the paper's replications (for std: its standard error is spread / sqrt(paper_n))
//   note                 free text (a caveat); a note beginning "not run:" lists a cell we cannot run (its
//                        data is not offline): its data set and method need not be in the config
#include <optional>
#include <string>
#include <vector>

namespace sparsesvm::experiment {

struct PublishedCell {
  std::size_t line = 0;  // in the published CSV, for messages
  std::string table, row, column;
  std::string dataset, condition, method, metric;
  std::optional<double> subtracted_from;  // K of a metric written "K-<column>"
  double scale = 1.0;
  double value = 0.0;
  double spread = 0.0;
  std::string spread_kind;  // std | se | none
  std::size_t paper_n = 0;
  std::string note;
  bool not_run() const { return note.rfind("not run:", 0) == 0; }
  // Our value as the paper prints it: scale * value, or scale * (K - value).
  double as_printed(double ours) const { return scale * (subtracted_from ? *subtracted_from - ours : ours); }
};

// Reads and checks a published CSV (InputError naming the file, line and column).
std::vector<PublishedCell> read_published(const std::string& path);

// Our rows' side of one cell: the values of the cell's metric over the rows with a solution, and how many
// rows had none.
struct OurCell {
  std::vector<double> values;  // already complemented and scaled
  std::vector<double> baseline;  // accuracy cells: the majority-class rate of the same rows, printed alike
  // k-fold of one fixed data set: each partition's mean of the cell (printed alike), in partition order; and
  // whether the protocol is such (then one partition gives no spread to compare with but the folds').
  std::vector<double> partition_means;
  bool one_data_set_cv = false;
  std::size_t failed = 0;
  bool run = true;  // false when the data set was not run (its file is not present offline) or an override
                    // dropped the method
  std::string reason;  // why not run, when the published note does not say
};

// paper_comparison.csv: per published cell, the paper's value and standard error (printed, from its std over
// sqrt(paper_n), or, where it prints no spread, our std over sqrt(paper_n): the same design's estimate), our
// mean, standard error (sample std / sqrt(n)), n and failed, z = (ours - paper) / sqrt(se_ours^2 +
// se_paper^2) and a verdict. The standard errors follow the protocol (column se_rule):
//   replications     independent replications or random splits (holdout, half/half, fresh samples): as above;
//   re-partitions P  k-fold CV of one fixed data set over P >= 2 partitions (protocol.outer.partitions): the
//                    folds of one partition are not replications of a CV estimate; its spread is that of the
//                    P partition means, s_P: ours s_P / sqrt(P), the paper's one partition s_P (unless printed);
//   one partition    k-fold of one data set with a single partition: the folds' spread, as for replications,
//                    which is lenient (run several partitions to compare).
// paper_se_source says whether the paper's standard error is printed by it (paper) or estimated (ours).
// Verdicts:
// within_1se, within_2se, off, no_result (no row with a solution) or not_run (the data set is absent, or the
// run's overrides dropped the method).
// Beside them: p (two-sided, of z under the normal), holm_p (Holm's step-down adjustment over the compared
// cells of the same table: about one cell in twenty lands beyond 2 SE by chance) and holm_verdict (off where
// holm_p < 0.05, else consistent); for accuracy cells, baseline (the majority-class rate of the same splits,
// printed as the cell is) and beats_baseline (no where ours is not better than it: a near-trivial classifier).
inline constexpr double kHolmAlpha = 0.05;

// Holm's step-down adjusted p-values of `p` (in the same order): sorted ascending, the i-th smallest times
// (m - i), made non-decreasing and capped at 1.
std::vector<double> holm_adjusted(const std::vector<double>& p);
std::string paper_comparison_csv(const std::vector<PublishedCell>& cells, const std::vector<OurCell>& ours);

}  // namespace sparsesvm::experiment
