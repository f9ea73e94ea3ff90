#include "experiment/selection.hpp"

#include <algorithm>
#include <stdexcept>

namespace sparsesvm::experiment {
namespace {

// True when a should win a tie against b.
bool preferred_in_tie(const Candidate& a, const Candidate& b, const models::ParameterTable& table,
                      const std::vector<std::string>& tuned, bool most_regularized) {
  for (const models::ParameterSpec& spec : table) {
    if (std::find(tuned.begin(), tuned.end(), spec.name) == tuned.end()) continue;
    const double x = a.values.at(spec.name);
    const double y = b.values.at(spec.name);
    if (x == y) continue;
    switch (spec.regularizes) {
      case models::Regularizes::when_larger: return most_regularized ? x > y : x < y;
      case models::Regularizes::when_smaller: return most_regularized ? x < y : x > y;
      case models::Regularizes::neither: return x < y;
    }
  }
  return false;
}

}  // namespace

std::size_t select_candidate(const std::vector<Candidate>& candidates, const models::ParameterTable& table,
                             const std::vector<std::string>& tuned, const std::string& rule, const std::string& ties) {
  double best_score = 0.0;
  bool any = false;
  for (const Candidate& candidate : candidates) {
    if (candidate.eligible && (!any || candidate.score > best_score)) best_score = candidate.score;
    any = any || candidate.eligible;
  }
  if (!any) return candidates.size();
  std::vector<std::size_t> best;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    if (candidates[k].eligible && candidates[k].score == best_score) best.push_back(k);
  }
  if (rule == "median_of_best") {
    if (tuned.size() != 1) throw std::invalid_argument("median_of_best needs exactly one tuned parameter");
    const std::string& name = tuned.front();
    std::sort(best.begin(), best.end(), [&](std::size_t a, std::size_t b) {
      return candidates[a].values.at(name) < candidates[b].values.at(name);
    });
    return best[(best.size() - 1) / 2];
  }
  if (rule != "best") throw std::invalid_argument("unknown selection rule " + rule);
  const bool most_regularized = ties == "most_regularized";
  std::size_t winner = best.front();
  for (std::size_t k : best) {
    if (preferred_in_tie(candidates[k], candidates[winner], table, tuned, most_regularized)) winner = k;
  }
  return winner;
}

}  // namespace sparsesvm::experiment
