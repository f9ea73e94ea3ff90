#pragma once
// Model selection: which candidate (a combination of the tuned parameters) wins on its inner scores. The
// one place the runner's inner selection, `fit --grid` and a start tuned on a tune part ([PSI] 3.2) choose.
//   best            the best mean score under the metric's direction (scoring.hpp); ties go to the most
//                   regularized candidate (or, with ties least_regularized, the least), compared parameter by
//                   parameter in the method's table order, each by its spec's direction (larger lambda,
//                   smaller C regularize more); a parameter that regularizes neither way breaks ties toward
//                   its smaller value.
//   median_of_best  [RW] section 4: of the values of the one tuned parameter that reach the best score,
//                   the rounded-down median: with the values sorted most regularized first (C ascending,
//                   lambda descending), the first of the two middles of an even count.
// Scores within 1e-12 (relative) of each other tie: a mean of fold scores depends on summation order.
// Candidates that are not eligible (some inner fit had no solution) never win.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "models/parameters.hpp"
#include "models/scoring.hpp"

namespace sparsesvm::models {

enum class SelectionRule { best, median_of_best };
enum class TieRule { most_regularized, least_regularized };

std::string_view to_string(SelectionRule rule);
std::string_view to_string(TieRule ties);
// The rule called `name`; an InputError with did-you-mean and the known names otherwise.
SelectionRule parse_selection_rule(const std::string& name);
TieRule parse_tie_rule(const std::string& name);

struct SelectionRules {
  SelectionRule rule = SelectionRule::best;
  TieRule ties = TieRule::most_regularized;
  Metric metric = Metric::accuracy;
};

struct Candidate {
  Hyperparameters values;  // the tuned parameters (and the fixed ones)
  double score = 0.0;      // mean inner score under the rules' metric
  bool eligible = true;
};

// The index of the winner, or candidates.size() when none is eligible. `table` is the method's
// parameter table; `tuned` the names that vary.
std::size_t select_candidate(const std::vector<Candidate>& candidates, const ParameterTable& table,
                             const std::vector<std::string>& tuned, const SelectionRules& rules);

}  // namespace sparsesvm::models
