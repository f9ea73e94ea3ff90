#pragma once
// Selection rules: which candidate (a combination of the tuned parameters) wins on the inner scores.
//   best            the highest mean score; ties go to the most regularized candidate (or, with ties
//                   least_regularized, the least), compared parameter by parameter in the method's
//                   table order, each by its spec's direction (larger lambda, smaller C regularize
//                   more); a parameter that regularizes neither way breaks ties toward its smaller value.
//   median_of_best  [RW] section 4: of the values of the one tuned parameter that reach the best score,
//                   the rounded-down median: with the values sorted most regularized first (C ascending,
//                   lambda descending), the first of the two middles of an even count.
// Scores within 1e-12 (relative) of each other tie: a mean of fold scores depends on summation order.
// Candidates that are not eligible (some inner fit had no solution) never win.
#include <cstddef>
#include <string>
#include <vector>

#include "models/parameters.hpp"

namespace sparsesvm::experiment {

struct Candidate {
  models::Hyperparameters values;  // the tuned parameters (and the fixed ones)
  double score = 0.0;              // mean inner score, higher is better
  bool eligible = true;
};

// The index of the winner, or candidates.size() when none is eligible. `table` is the method's
// parameter table; `tuned` the names that vary. rule: best | median_of_best; ties: most_regularized |
// least_regularized.
std::size_t select_candidate(const std::vector<Candidate>& candidates, const models::ParameterTable& table,
                             const std::vector<std::string>& tuned, const std::string& rule, const std::string& ties);

}  // namespace sparsesvm::experiment
