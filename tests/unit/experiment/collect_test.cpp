#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/status.hpp"
#include "experiment/collect.hpp"
#include "experiment/tasks.hpp"

using namespace sparsesvm::experiment;

namespace {

// A collected run of `rows` rows with these statuses; `failed` and `refused_rows` counted as collect counts
// them (no solution; input_error or memory_budget).
CollectSummary summary_of(const std::map<std::string, std::size_t>& statuses) {
  CollectSummary summary;
  for (const auto& [status, count] : statuses) {
    summary.rows += count;
    const bool refused = refused_before_fit(status);
    if (!sparsesvm::core::has_solution(status)) summary.failed += count;
    if (refused) summary.refused_rows += count;
  }
  summary.statuses = statuses;
  summary.first_refused_row = "d / m rep 0: why";
  return summary;
}

// How many of collect's warnings contain `words`.
std::ptrdiff_t warnings_with(const CollectSummary& summary, const std::string& words) {
  const std::vector<std::string> warnings = collect_warnings(summary);
  return std::count_if(warnings.begin(), warnings.end(),
                       [&](const std::string& warning) { return warning.find(words) != std::string::npos; });
}

}  // namespace

TEST_CASE("collect warns when every row ends without a solution, and says so once", "[collect]") {
  // Solver outcomes only: a result, so no error, but a warning naming the statuses.
  const CollectSummary solver_only = summary_of({{"no_eligible_candidate", 3}, {"infeasible", 1}});
  CHECK(warnings_with(solver_only, "no score in the tables comes from a model: all 4 rows end without a solution (infeasible 1, no_eligible_candidate 3)") == 1);
  CHECK(nothing_fitted(solver_only).empty());
  // One row with a model: no such warning.
  CHECK(warnings_with(summary_of({{"no_eligible_candidate", 3}, {"optimal", 1}}), "no score in the tables comes from a model") == 0);
  CHECK(warnings_with(summary_of({{"feasible", 1}, {"time_limit", 2}}), "no score in the tables comes from a model") == 0);
  // Every row refused: nothing_fitted's error says it, not a warning too.
  const CollectSummary refused = summary_of({{"memory_budget", 2}});
  CHECK(warnings_with(refused, "no score in the tables comes from a model") == 0);
  CHECK_FALSE(nothing_fitted(refused).empty());
  // Some refused, the rest solver outcomes: both warnings.
  const CollectSummary mixed = summary_of({{"memory_budget", 2}, {"infeasible", 2}});
  CHECK(warnings_with(mixed, "2 of 4 rows have no model because of their data or config") == 1);
  CHECK(warnings_with(mixed, "no score in the tables comes from a model: all 4 rows end without a solution (infeasible 2, memory_budget 2)") == 1);
  CHECK(nothing_fitted(mixed).empty());
  // The advice to rerun with a larger budget only when memory_budget rows are among the refused.
  const std::string advice = "a run with a larger --memory-budget recomputes the memory_budget rows";
  CHECK(warnings_with(mixed, advice) == 1);
  CHECK(warnings_with(summary_of({{"input_error", 1}, {"optimal", 3}}), "1 of 4 rows have no model") == 1);
  CHECK(warnings_with(summary_of({{"input_error", 1}, {"optimal", 3}}), advice) == 0);
  // No rows at all: nothing to warn about.
  CHECK(collect_warnings(CollectSummary{}).empty());
}
