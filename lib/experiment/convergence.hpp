#pragma once
// The convergence table of [RW] Fig. 2 (config tables.convergence): for every row of the walk method,
// the relative gap (F_t - F*) / F* of its objective after each iteration t to the optimum F* of the
// same objective, the row of the optimum method with the same data set, condition, repetition and
// parameter values (C).
//   convergence_by_walk.csv  one line per walk row and iteration: dataset, condition (and its columns,
//                            condition_columns.hpp), rep, method
//                            (label), the optimum's parameters, iteration, relative_gap
//   convergence.csv          per iteration: `worst` and `mean` over the per-instance curves (an instance
//                            is a data set, condition and repetition; its curve is the walk whose gap at
//                            the last iteration is largest: the worst C), `true_mean` and `true_median`
//                            over every walk; `instances` and `walks` counted, `unmatched` walk rows
//                            without a usable optimum row (failed or absent), `below_optimum` walks whose
//                            objective went below F* by more than 1e-6 relative (F* is then no optimum).
#include <map>
#include <string>
#include <vector>

#include "experiment/config.hpp"

namespace sparsesvm::experiment {

struct ConvergenceCsv {
  std::string by_walk;
  std::string summary;
};

ConvergenceCsv convergence_tables(const ExperimentConfig& config, const std::vector<std::map<std::string, std::string>>& rows);

}  // namespace sparsesvm::experiment
