#include "models/selection.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/enum_names.hpp"

namespace sparsesvm::models {
namespace {

// Mean scores of candidates that tie in exact arithmetic can differ in the last bits, because their
// fold scores were added in another order: scores closer than this count as equal.
constexpr double kScoreTieTolerance = 1e-12;

constexpr std::pair<SelectionRule, std::string_view> kSelectionRules[] = {{SelectionRule::best, "best"},
                                                                       {SelectionRule::median_of_best, "median_of_best"}};
constexpr std::pair<TieRule, std::string_view> kTieRules[] = {{TieRule::most_regularized, "most_regularized"},
                                                              {TieRule::least_regularized, "least_regularized"}};

bool same_score(double a, double b) { return std::abs(a - b) <= kScoreTieTolerance * std::max(1.0, std::abs(b)); }

// The order "more regularized first" on one parameter's values.
bool more_regularized(const ParameterSpec& spec, double x, double y) {
  switch (spec.regularizes) {
    case Regularizes::when_larger: return x > y;
    case Regularizes::when_smaller: return x < y;
    case Regularizes::neither: return x < y;  // no direction: the smaller value, to be deterministic
  }
  return x < y;
}

// True when a should win a tie against b.
bool preferred_in_tie(const Candidate& a, const Candidate& b, const ParameterTable& table,
                      const std::vector<std::string>& tuned, TieRule ties) {
  for (const ParameterSpec& spec : table) {
    if (std::find(tuned.begin(), tuned.end(), spec.name) == tuned.end()) continue;
    const double x = a.values.at(spec.name);
    const double y = b.values.at(spec.name);
    if (x == y) continue;
    if (spec.regularizes == Regularizes::neither) return x < y;
    return ties == TieRule::most_regularized ? more_regularized(spec, x, y) : more_regularized(spec, y, x);
  }
  return false;
}

// [RW] 4: "the rounded-down median" of the best C values, i.e. the lower middle one, the more
// regularized of the two middles. For any parameter: sort most regularized first, take the first middle.
// The parameter is the one whose values differ among the candidates (others have one grid value).
std::size_t median_of_best(const std::vector<Candidate>& candidates, std::vector<std::size_t> best,
                           const ParameterTable& table, const std::vector<std::string>& tuned) {
  const ParameterSpec* spec = nullptr;
  for (const std::string& name : tuned) {
    const bool varies = std::any_of(candidates.begin(), candidates.end(), [&](const Candidate& c) {
      return c.values.at(name) != candidates.front().values.at(name);
    });
    if (varies && spec) throw std::invalid_argument("median_of_best needs exactly one varied parameter");
    if (varies) spec = find_parameter(table, name);
  }
  if (!spec) return best.front();  // a single candidate value: nothing to choose
  std::sort(best.begin(), best.end(), [&](std::size_t a, std::size_t b) {
    return more_regularized(*spec, candidates[a].values.at(spec->name), candidates[b].values.at(spec->name));
  });
  return best[(best.size() - 1) / 2];
}

}  // namespace

std::string_view to_string(SelectionRule rule) { return core::enum_name(kSelectionRules, rule); }
std::string_view to_string(TieRule ties) { return core::enum_name(kTieRules, ties); }
SelectionRule parse_selection_rule(const std::string& name) {
  return core::enum_value(kSelectionRules, name, "selection rule");
}
TieRule parse_tie_rule(const std::string& name) { return core::enum_value(kTieRules, name, "tie rule"); }

std::size_t select_candidate(const std::vector<Candidate>& candidates, const ParameterTable& table,
                             const std::vector<std::string>& tuned, const SelectionRules& rules) {
  double best_score = 0.0;
  bool any = false;
  for (const Candidate& candidate : candidates) {
    if (candidate.eligible && (!any || better_score(rules.metric, candidate.score, best_score))) best_score = candidate.score;
    any = any || candidate.eligible;
  }
  if (!any) return candidates.size();
  std::vector<std::size_t> best;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    if (candidates[k].eligible && same_score(candidates[k].score, best_score)) best.push_back(k);
  }
  switch (rules.rule) {
    case SelectionRule::median_of_best: return median_of_best(candidates, best, table, tuned);
    case SelectionRule::best: break;
  }
  std::size_t winner = best.front();
  for (std::size_t k : best) {
    if (preferred_in_tie(candidates[k], candidates[winner], table, tuned, rules.ties)) winner = k;
  }
  return winner;
}
}  // namespace sparsesvm::models
