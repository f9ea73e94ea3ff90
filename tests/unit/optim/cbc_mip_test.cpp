// solve_mip (optim/cbc_mip.cpp): the relative gap a MIP is solved to is relative to the whole objective,
// constant included.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "core/rng.hpp"
#include "optim/cbc_mip.hpp"
#include "optim/mip_builder.hpp"

using namespace sparsesvm;

TEST_CASE("a MIP's gap is relative to its objective with the constant, not to cost' x alone", "[mip]") {
  // A knapsack written as "value left out": F = sum_i v_i (1 - x_i) = constant - v'x, small next to v'x.
  // With a 1% gap relative to v'x alone Cbc may stop several times F's 1% above the optimum.
  core::Rng rng(3);
  const int items = 60;
  optim::MipBuilder mip(items);
  const Eigen::Index capacity = mip.add_row(-1e30, 0.0);
  double total_weight = 0.0;
  for (int i = 0; i < items; ++i) {
    const double value = rng.uniform(10.0, 20.0);
    const double weight = value + rng.uniform(-1.0, 1.0);  // values near weights: a hard knapsack
    mip.set_binary(i, -value);
    mip.constant += value;
    mip.entries.emplace_back(capacity, i, weight);
    total_weight += weight;
  }
  mip.row_upper[static_cast<std::size_t>(capacity)] = 0.9 * total_weight;
  const optim::MipSolution answer =
      optim::solve_mip(mip.problem(), mip.integers, core::Vector(), {.max_seconds = 30.0, .relative_gap = 0.01, .objective_constant = mip.constant, .rounding = {}});
  REQUIRE(answer.status == core::Status::optimal);
  const core::Vector x = answer.primal;
  CHECK(answer.objective == Approx(mip.problem().cost.dot(x) + mip.constant));
  CHECK(answer.best_bound <= answer.objective);
  CHECK(answer.objective - answer.best_bound <= 0.01 * std::max(1.0, std::abs(answer.objective)) + 1e-9);
}

TEST_CASE("a MIP stopped before its root LP finished claims no bound", "[mip]") {
  // 3000 binaries under 1500 random packing rows, 0.01 s: the root LP stops unfinished, and Cbc then
  // reports the incumbent's value, 1e50 or an unfinished simplex's value (here -1.39, against an optimum
  // of at most 0 that nothing has bounded) as its "best possible".
  core::Rng rng(5);
  const int columns = 3000;
  optim::MipBuilder mip(columns);
  for (int j = 0; j < columns; ++j) mip.set_binary(j, -rng.uniform(1.0, 2.0));
  for (int row = 0; row < 1500; ++row) {
    const Eigen::Index r = mip.add_row(-1e30, 5.0);
    for (int k = 0; k < 30; ++k) mip.entries.emplace_back(r, static_cast<Eigen::Index>(rng.uniform(0.0, columns - 1.0)), 1.0);
  }
  const core::Vector start = core::Vector::Zero(columns);  // feasible: every row 0 <= 5
  const optim::MipSolution answer = optim::solve_mip(mip.problem(), mip.integers, start, {.max_seconds = 0.01, .relative_gap = 1e-6, .objective_constant = 0.0, .rounding = {}});
  REQUIRE(answer.status != core::Status::optimal);
  REQUIRE(answer.nodes == 0);
  if (core::has_solution(answer.status)) CHECK(answer.best_bound == -std::numeric_limits<double>::infinity());
}

namespace {

// A knapsack of 60 items written as "value left out" (F = sum_i v_i (1 - x_i)) whose LP relaxation is
// fractional: Cbc without heuristics has no point of its own after one node.
optim::MipBuilder fractional_knapsack(std::vector<double>& weights, double& capacity) {
  core::Rng rng(7);
  const int items = 60;
  optim::MipBuilder mip(items);
  const Eigen::Index row = mip.add_row(-1e30, 0.0);
  for (int i = 0; i < items; ++i) {
    const double value = rng.uniform(10.0, 20.0);
    weights.push_back(value + rng.uniform(-1.0, 1.0));
    mip.set_binary(i, -value);
    mip.constant += value;
    mip.entries.emplace_back(row, i, weights.back());
  }
  capacity = 0.5 * std::accumulate(weights.begin(), weights.end(), 0.0);
  mip.row_upper[static_cast<std::size_t>(row)] = capacity;
  return mip;
}

// `options` with a rounding that maps each of the knapsack's 60 items through `round`.
optim::MipOptions with_each_item(optim::MipOptions options, double (*round)(double)) {
  options.rounding = [round](const double* relaxed, core::Vector& point) {
    point = Eigen::Map<const core::Vector>(relaxed, 60).unaryExpr(round);
    return true;
  };
  return options;
}

}  // namespace

TEST_CASE("a MIP's rounding gives the search its incumbent, and a rounding outside the MIP is refused", "[mip]") {
  std::vector<double> weights;
  double capacity = 0.0;
  optim::MipBuilder mip = fractional_knapsack(weights, capacity);
  const optim::MipOptions one_node{.max_seconds = 30.0, .max_nodes = 1, .relative_gap = 1e-6,
                                   .objective_constant = mip.constant, .rounding = {}};
  const optim::MipSolution alone = optim::solve_mip(mip.problem(), mip.integers, core::Vector(), one_node);
  REQUIRE_FALSE(core::has_solution(alone.status));

  // Rounding every item down keeps the knapsack's capacity: a point of the MIP.
  const optim::MipSolution found =
      optim::solve_mip(mip.problem(), mip.integers, core::Vector(), with_each_item(one_node, [](double x) { return std::floor(x); }));
  REQUIRE(core::has_solution(found.status));
  CHECK(found.primal.dot(Eigen::Map<const core::Vector>(weights.data(), 60)) <= capacity + 1e-9);
  CHECK(found.objective == Approx(mip.problem().cost.dot(found.primal) + mip.constant));

  // Rounding every item up takes them all: over capacity, not a point of the MIP, and never the incumbent.
  const optim::MipSolution refused =
      optim::solve_mip(mip.problem(), mip.integers, core::Vector(), with_each_item(one_node, [](double x) { return std::ceil(x); }));
  CHECK_FALSE(core::has_solution(refused.status));

  // A point of the wrong length is never copied into Cbc's buffer.
  optim::MipOptions too_short = one_node;
  too_short.rounding = [](const double*, core::Vector& point) {
    point = core::Vector::Zero(59);
    return true;
  };
  CHECK_FALSE(core::has_solution(optim::solve_mip(mip.problem(), mip.integers, core::Vector(), too_short).status));
}
