#pragma once
// An experiment config (YAML) and its validation. Every map is checked for unknown keys, and every error
// names the file and the key path, e.g. "configs/x.yaml: protocol.outer.repetitons: unknown key (known:
// k, repetitions, stratified, test_fraction, type)". Overrides "key.path=value" from the command line
// are applied to the YAML before validation and recorded in the manifest. The schema is documented in
// docs/user-guide.md, with an annotated example.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "data/load.hpp"
#include "models/example_weights.hpp"
#include "experiment/protocol.hpp"
#include "models/selection.hpp"
#include "experiment/paper_comparison.hpp"

namespace sparsesvm::experiment {

// One data set of the config, expanded: a generator grid gives one instance per combination (condition).
struct DatasetInstance {
  std::string name;       // as in the config
  std::string condition;  // "noise_dims=10,flip_fraction=0.1", or "" without a grid
  data::DataSource source;
  std::string generator;  // the generator's name, empty for files
  std::map<std::string, std::string> generator_parameters;  // as given (for independent test samples)
  std::vector<std::string> transforms;  // fitted on each training part
  std::string missing_hint;             // non-empty when the file is absent: how to get it
  // method_grid: this data set's values of top-level grid parameters (the RW paper's C range for gene
  // expression data); `key` is where they came from, for error messages.
  std::map<std::string, std::vector<double>> method_grid;
  std::string key;
  std::size_t examples = 0;  // n of a generated set (known when the config loads); 0 for files
  // What seeds and task ids derive from (data::source_content): a generator's spec, a present file's bytes.
  data::SourceContent content;
  models::ClassWeight class_weight;  // class_weight: of every method here that gives none of its own
};

// A data set instance by its name and condition (e.g. quadratic, case=3), as published cells name it.
struct DatasetKey {
  std::string dataset, condition;
  bool operator==(const DatasetKey&) const = default;
};

struct MethodEntry {
  std::string name;                     // a method of the registry
  std::string label;                    // the name in rows and tables; `name` unless the config gives one
  std::map<std::string, double> fixed;  // parameters fixed by the config (a, mu, tolerance, ...)
  std::optional<models::ClassWeight> class_weight;  // the entry's class_weight: (else the data set's)
};

// The class weight a method entry fits with on a data set: its own, else the data set's.
models::ClassWeight effective_class_weight(const MethodEntry& entry, const DatasetInstance& instance);
// Whether any data set or method entry gives a class_weight (results.csv then has a class_weight column).
struct ExperimentConfig;
bool uses_class_weights(const ExperimentConfig& config);


// tables.convergence ([RW] Fig. 2): every row of method `walk` against the row of method `optimum` with
// the same data set, condition, repetition and optimum parameters (C): (F_t - F*) / F* per iteration t
// of the walk's objective trace.
struct ConvergenceTable {
  std::string walk;     // a method name (all entries of it, whatever their labels)
  std::string optimum;  // a method name
};

// figures: what scripts/plot.py draws from a collect directory (collect writes them to figures.json).
//   convergence          the curves of convergence.csv, on a log scale ([RW] Fig. 2)
//   metric_by_condition  a metric's mean (error bars: std) against one generator grid parameter `x`, one
//                        line per method; as_error plots 1 - metric ([RW] Fig. 3, [DCA] Fig. 3-6)
//   metric_by_dataset    a metric's mean (error bars: std) as grouped bars, one group per data set and
//                        condition, one bar per method ([ADMM] tables as a figure)
//   objective_trace      the objective traces of one method label, normalized by the start ([DCA] Fig. 13)
//   coefficient_path     for one repetition, the weights of every entry of method `method` against the
//                        model parameter `x` the entries fix, test error below ([PSI] Fig. 4); rows then
//                        keep their weights (columns `weights`, `bias`)
//   metric_by_parameter  a metric's mean (error bars: std) against the model parameter `x` that the entries
//                        of method `method` fix (a sweep), one line per data set and condition
//   validation_curve     the inner CV score (mean over the outer splits of each candidate's mean over the
//                        inner folds; band: std) against the tuned parameter `x`, one line per label of
//                        `methods` (default: every label that tunes x), each outer split's chosen value
//                        marked (validation_curves.hpp); over other tuned parameters, each x's best candidate
//   race                 for methods `methods` that minimize one objective (the same loss, penalty and
//                        weighting; the rows' parameters checked when drawn): each fit's suboptimality
//                        (F - F*) / |F*| against seconds and against its iterations, from its timestamped
//                        objective trace, F* the least F any of them reached on that split (benchopt's
//                        curves); one row of panels per data set and condition
//   boundary             for the first data set (two features) and repetition 0: the training points
//                        (collect writes boundary_points.csv) and the lines w.x + b = 0 of the labels
//                        `methods`, and `bayes_line: [w1, w2, b]` when given; points a restricted psi
//                        label fixed to region 3 are marked ([PSI] Fig. 3)
struct FigureSpec {
  std::string kind;
  std::string file;     // a .png name in the collect directory
  std::string title;
  std::string metric;
  std::string x;
  bool as_error = false;
  std::string method;   // objective_trace: the label whose objective traces are drawn; coefficient_path: a method name
  std::vector<std::string> methods;  // boundary, validation_curve, race: the labels drawn
  std::vector<double> bayes_line;    // boundary: (w1, w2, b) of the Bayes boundary when known; empty: none
};

// tables.comparisons: statistics over methods (comparisons.hpp). Each metric names which end is better.
struct Comparisons {
  std::string against;  // a method label: each other method is tested against it; empty: every pair
  std::vector<std::pair<std::string, bool>> metrics;  // metric, higher is better
  // Friedman's ranks and the CD diagram take only methods whose every row is proven (comparisons.hpp,
  // proven_row); the others are listed apart. true ranks every method whatever its rows' statuses.
  bool include_unproven = false;
};

struct ExperimentConfig {
  std::string path;
  std::string name;
  std::uint64_t seed = 1;
  std::vector<DatasetInstance> datasets;
  std::vector<MethodEntry> methods;
  std::map<std::string, std::vector<double>> grid;  // parameter name -> values, chosen by inner selection
  Protocol protocol;
  std::vector<std::string> table_metrics;           // metrics collect tabulates
  std::vector<std::string> paired_test;              // two methods for paired t-tests over outer splits
  Comparisons comparisons;
  // tables.objective_ratio: pairs (A, B) of method labels of one objective, compared by F_A / F_B - 1.
  std::vector<std::pair<std::string, std::string>> objective_ratios;
  std::optional<ConvergenceTable> convergence;
  // tables.published: the paper's cells this config reproduces (a CSV beside the config, stored absolute),
  // for collect's paper_comparison.csv.
  std::string published_file;
  std::vector<PublishedCell> published;
  // tables.published_left_out: data set instances (name, condition) whose published cells this run leaves
  // out on purpose (a reference run of part of a table): their cells are not_run. Every other cell must name
  // a data set of the config.
  std::vector<DatasetKey> published_left_out;
  std::vector<FigureSpec> figures;
  // keep: [weights]: every task also writes its final model's weights by feature name (weights/<id>.csv;
  // collect's weights.csv).
  bool keep_weights = false;
  // What loading noticed and did not refuse (a table of a statistic no method of the run reports), for
  // run and collect to log.
  std::vector<std::string> warnings;
  std::string resolved_yaml;                         // the config after overrides, as YAML text
  std::vector<std::string> overrides;
};

// The grid parameters `entry` tunes: those of its method's table that the grid lists and the entry
// does not fix, in table order (lambda, then the loss's, the penalty's, the algorithm's).
std::vector<std::string> tuned_parameters(const ExperimentConfig& config, const MethodEntry& entry);

// Whether rows keep the fitted weights (column `weights`): a coefficient_path figure draws them.
bool rows_keep_weights(const ExperimentConfig& config);
// Whether some method entry of the config is labelled `label`.
bool has_method_label(const ExperimentConfig& config, const std::string& label);
// The data set instance named `name` with condition `condition`, or nullptr.
const DatasetInstance* find_instance(const ExperimentConfig& config, const std::string& name, const std::string& condition);
// Whether tables.published_left_out lists this data set instance.
bool is_published_left_out(const ExperimentConfig& config, const std::string& name, const std::string& condition);

// The model parameters of the config's methods (lambda, mu, a, ...), in order of first appearance:
// one result column each.
std::vector<std::string> parameter_columns(const ExperimentConfig& config);
// parameter_columns, then the statistics of the config's algorithms (ADMM's iteration_s, ...): the
// method columns that collect summarizes and tables.metrics may name.
std::vector<std::string> summarized_method_columns(const ExperimentConfig& config);

// Loads, applies overrides and validates; ConfigError (an InputError) naming file and key on any problem.
ExperimentConfig load_config(const std::string& path, const std::vector<std::string>& overrides = {});

}  // namespace sparsesvm::experiment
