#pragma once
// validation_curves.csv, the table a validation_curve figure draws (scripts/plot.py reads it as is): from the
// inner scores of a run (cv_scores.csv's lines), for each data set instance, method label, tuned parameter p
// and value x of it:
//   mean_score, std_score  over the outer splits, of the split's best mean inner score among its candidates
//                          with p = x (best in the inner metric's direction; a candidate with a fold without
//                          a solution is left out); std with n - 1, empty for fewer than two splits
//   splits                 the outer splits with such a candidate
//   chosen                 the outer splits whose chosen candidate has p = x
// Lines in order of first appearance of (instance, method), then parameter by column, then x ascending.
#include <string>
#include <vector>

#include "models/scoring.hpp"

namespace sparsesvm::experiment {

// `cv_scores`: the parsed cv_scores.csv, header first (the instance's columns, then method, rep, fold,
// candidate, one column per tuned parameter, score, solved, mean_score, chosen).
std::string validation_curves_csv(const std::vector<std::vector<std::string>>& cv_scores, models::Metric metric);

}  // namespace sparsesvm::experiment
