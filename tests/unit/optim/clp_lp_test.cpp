#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "optim/clp_lp.hpp"

using namespace sparsesvm;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A random feasible, bounded LP: min c'x, A x >= 1 (rows), 0 <= x <= 10.
optim::LpProblem random_lp(core::Rng& rng, int rows, int columns) {
  optim::LpProblem lp;
  std::vector<Eigen::Triplet<double>> entries;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j) {
      if (rng.bernoulli(0.5)) entries.emplace_back(i, j, rng.uniform(0.1, 2.0));
    }
    entries.emplace_back(i, i % columns, 1.0 + rng.uniform());  // every row reachable
  }
  lp.matrix.resize(rows, columns);
  lp.matrix.setFromTriplets(entries.begin(), entries.end());
  lp.matrix.makeCompressed();
  lp.column_lower = core::Vector::Zero(columns);
  lp.column_upper = core::Vector::Constant(columns, 10.0);
  lp.row_lower = core::Vector::Ones(rows);
  lp.row_upper = core::Vector::Constant(rows, kInf);
  lp.cost = core::Vector::Zero(columns);
  for (int j = 0; j < columns; ++j) lp.cost[j] = rng.uniform(0.0, 1.0);
  return lp;
}

// How many of a basis's statuses say basic (Clp's status 1 in the low three bits).
long basic_count(const std::vector<unsigned char>& basis) {
  return std::count_if(basis.begin(), basis.end(), [](unsigned char status) { return (status & 7) == 1; });
}

}  // namespace

TEST_CASE("a warm re-solve after a cost change equals a cold solve of the same LP", "[optim][clp]") {
  core::Rng rng(17);
  optim::LpProblem problem = random_lp(rng, 60, 40);
  optim::ClpLp warm(problem);
  REQUIRE(warm.solve().status == core::Status::optimal);
  for (int trial = 0; trial < 15; ++trial) {
    for (Eigen::Index j = 0; j < problem.cost.size(); ++j) problem.cost[j] += rng.uniform(-0.3, 0.3);
    warm.set_cost(problem.cost);
    const optim::LpSolution warm_solution = warm.solve();
    optim::ClpLp cold(problem);
    const optim::LpSolution cold_solution = cold.solve();
    REQUIRE(cold_solution.status == core::Status::optimal);
    REQUIRE(warm_solution.status == core::Status::optimal);
    CHECK(warm_solution.warm);
    CHECK_FALSE(cold_solution.warm);
    CHECK(warm_solution.objective == Approx(cold_solution.objective).epsilon(1e-9).margin(1e-9));
    // The warm solution is feasible for the constraints, and its cost is what Clp reports.
    const core::Vector activity = problem.matrix * warm_solution.primal;
    CHECK((activity.array() >= 1.0 - 1e-7).all());
    CHECK(problem.cost.dot(warm_solution.primal) == Approx(warm_solution.objective).margin(1e-9));
  }
}

TEST_CASE("a warm re-solve after a row-bound change equals a cold solve", "[optim][clp]") {
  core::Rng rng(23);
  optim::LpProblem problem = random_lp(rng, 40, 30);
  optim::ClpLp warm(problem);
  REQUIRE(warm.solve().status == core::Status::optimal);
  for (int trial = 0; trial < 5; ++trial) {
    problem.row_lower = core::Vector::Constant(problem.row_lower.size(), rng.uniform(0.5, 1.5));
    warm.set_row_lower(problem.row_lower);
    const double warm_objective = warm.solve().objective;
    optim::ClpLp cold(problem);
    CHECK(warm_objective == Approx(cold.solve().objective).epsilon(1e-9));
  }
}

TEST_CASE("a warm solve held to an iteration limit goes on cold; the cold solve is not held to it", "[optim][clp]") {
  core::Rng rng(31);
  optim::LpProblem problem = random_lp(rng, 60, 40);
  optim::ClpLp first(problem);
  const optim::LpSolution first_solution = first.solve(1);  // cold: the limit is for warm solves only
  REQUIRE(first_solution.status == core::Status::optimal);
  REQUIRE(first_solution.iterations > 1);
  // New costs: the first optimum's basis is a start some pivots away from the new optimum.
  for (Eigen::Index j = 0; j < problem.cost.size(); ++j) problem.cost[j] = rng.uniform(0.0, 1.0);
  const double optimum = optim::ClpLp(problem).solve().objective;
  for (const long limit : {0L, 1L}) {  // 0: no limit; 1: the warm solve stops after one iteration
    optim::ClpLp lp(problem);
    lp.start_from(first.basis());
    const optim::LpSolution solution = lp.solve(limit);
    INFO("limit " << limit << ": " << solution.message);
    REQUIRE(solution.status == core::Status::optimal);
    CHECK(solution.objective == Approx(optimum).epsilon(1e-9).margin(1e-9));
    if (limit == 0) {
      CHECK_FALSE(solution.fell_back_to_cold);
      CHECK_FALSE(solution.warm_limit_reached);
      CHECK(solution.iterations > 1);  // so that a limit of 1 stops it
    } else {
      CHECK(solution.fell_back_to_cold);
      CHECK(solution.warm_limit_reached);
      CHECK(solution.message.find("iteration_limit") != std::string::npos);
    }
  }
  // A warm start stopped by the solver's own iteration limit, not by the warm limit, does not say it was.
  optim::ClpLp capped(problem, optim::LpOptions{1, 0.0});
  capped.start_from(first.basis());
  const optim::LpSolution capped_solution = capped.solve(5);  // 5 > max_iterations: no warm limit applies
  CHECK(capped_solution.fell_back_to_cold);
  CHECK_FALSE(capped_solution.warm_limit_reached);
}

TEST_CASE("solve_within stops a warm or a cold solve at its budget, with no cold retry", "[optim][clp]") {
  core::Rng rng(37);
  optim::LpProblem problem = random_lp(rng, 60, 40);
  optim::ClpLp first(problem);
  REQUIRE(first.solve().status == core::Status::optimal);
  for (Eigen::Index j = 0; j < problem.cost.size(); ++j) problem.cost[j] = rng.uniform(0.0, 1.0);
  optim::ClpLp unlimited(problem);
  unlimited.start_from(first.basis());
  const optim::LpSolution warm_answer = unlimited.solve();
  REQUIRE(warm_answer.status == core::Status::optimal);
  REQUIRE(warm_answer.iterations > 2);
  // Warm, from the first optimum's basis: stopped after two pivots, not retried cold.
  optim::ClpLp warm(problem);
  warm.start_from(first.basis());
  const optim::LpSolution stopped = warm.solve_within(2);
  CHECK(stopped.status == core::Status::iteration_limit);
  CHECK(stopped.iterations == 2);
  CHECK_FALSE(stopped.fell_back_to_cold);
  // Cold, from the slack basis: the same.
  optim::ClpLp cold(problem);
  const optim::LpSolution cold_stopped = cold.solve_within(2);
  CHECK(cold_stopped.status == core::Status::iteration_limit);
  CHECK(cold_stopped.iterations == 2);
  // The next solve has no budget unless given one, and ends at the optimum.
  const optim::LpSolution finished = warm.solve();
  REQUIRE(finished.status == core::Status::optimal);
  CHECK(finished.objective == Approx(warm_answer.objective).epsilon(1e-9).margin(1e-9));
}

TEST_CASE("a shared iteration budget holds several LPs' solves together; a spent one returns at once", "[optim][clp]") {
  core::Rng rng(38);
  const optim::LpProblem problem = random_lp(rng, 60, 40);
  const optim::LpSolution unlimited = optim::ClpLp(problem).solve();
  REQUIRE(unlimited.status == core::Status::optimal);
  const long needed = unlimited.iterations;
  REQUIRE(needed > 6);
  // Enough for one solve and 5 more: the first answers, the second stops after those 5.
  optim::IterationBudget budget{needed + 5};
  optim::ClpLp first(problem, optim::LpOptions{10'000'000, 0.0, &budget});
  optim::ClpLp second(problem, optim::LpOptions{10'000'000, 0.0, &budget});
  const optim::LpSolution answered = first.solve();
  REQUIRE(answered.status == core::Status::optimal);
  CHECK(answered.objective == Approx(unlimited.objective).epsilon(1e-9).margin(1e-9));
  CHECK(budget.remaining == 5);
  const optim::LpSolution held = second.solve();
  CHECK(held.status == core::Status::iteration_limit);
  CHECK(held.iterations == 5);
  CHECK_FALSE(held.fell_back_to_cold);
  CHECK(budget.spent());
  // Spent: no pivot, at once, for a solve held to a warm limit and for solve_within.
  const optim::LpSolution after = second.solve(2);
  CHECK(after.status == core::Status::iteration_limit);
  CHECK(after.iterations == 0);
  CHECK(first.solve_within(3).iterations == 0);
  // A warm start held to a warm limit goes on cold only within what is left.
  budget.remaining = 4;
  optim::ClpLp warm(problem, optim::LpOptions{10'000'000, 0.0, &budget});
  optim::ClpLp other(random_lp(rng, 60, 40));
  REQUIRE(other.solve().status == core::Status::optimal);
  warm.start_from(other.basis());
  const optim::LpSolution warm_held = warm.solve(2);
  CHECK(warm_held.status == core::Status::iteration_limit);
  CHECK(warm_held.iterations <= 4);
  CHECK(budget.spent());
}

TEST_CASE("a solve started from another LP's basis equals a cold solve, with a square basis", "[optim][clp]") {
  // As branch and bound passes a parent's basis to a child: other column bounds, some rows made free.
  core::Rng rng(29);
  const optim::LpProblem parent = random_lp(rng, 50, 30);
  optim::ClpLp parent_lp(parent);
  const optim::LpSolution parent_solution = parent_lp.solve();
  REQUIRE(parent_solution.status == core::Status::optimal);
  const std::vector<unsigned char> basis = parent_lp.basis();
  REQUIRE(basis.size() == 80);
  for (int trial = 0; trial < 10; ++trial) {
    optim::LpProblem child = parent;
    for (Eigen::Index j = 0; j < child.column_upper.size(); ++j) {
      child.column_upper[j] = rng.uniform(1.0, 10.0);
      if (rng.bernoulli(0.2)) child.column_lower[j] = child.column_upper[j];  // fixed: must leave the basis
    }
    for (Eigen::Index i = 0; i < child.row_lower.size(); ++i) {
      if (rng.bernoulli(0.3)) child.row_lower[i] = -kInf;  // free: its slack must be basic
    }
    optim::ClpLp warm(child);
    warm.start_from(basis);
    const std::vector<unsigned char> started = warm.basis();
    CHECK(basic_count(started) == 50);  // as many basic variables as rows
    const optim::LpSolution warm_solution = warm.solve();
    optim::ClpLp cold(child);
    const optim::LpSolution cold_solution = cold.solve();
    INFO("trial " << trial);
    CHECK(warm_solution.status == cold_solution.status);
    if (cold_solution.status == core::Status::optimal) {
      CHECK(warm_solution.objective == Approx(cold_solution.objective).epsilon(1e-9).margin(1e-9));
    }
  }
  optim::ClpLp other(random_lp(rng, 49, 30));
  CHECK_THROWS_AS(other.start_from(basis), std::logic_error);  // not a basis of this LP's size
}

TEST_CASE("infeasible and unbounded LPs are statuses, not numbers", "[optim][clp]") {
  optim::LpProblem lp;
  lp.matrix.resize(1, 1);
  lp.matrix.insert(0, 0) = 1.0;
  lp.matrix.makeCompressed();
  lp.column_lower = core::Vector::Zero(1);
  lp.column_upper = core::Vector::Constant(1, kInf);
  lp.row_lower = core::Vector::Constant(1, -kInf);
  lp.row_upper = core::Vector::Constant(1, -1.0);  // x <= -1 with x >= 0
  lp.cost = core::Vector::Ones(1);
  CHECK(optim::ClpLp(lp).solve().status == core::Status::infeasible);

  lp.row_upper = core::Vector::Constant(1, kInf);
  lp.cost = -core::Vector::Ones(1);  // min -x, x >= 0 unbounded above
  CHECK(optim::ClpLp(lp).solve().status == core::Status::unbounded);

  optim::LpOptions tight;
  tight.max_iterations = 1;
  core::Rng rng(5);
  const optim::LpSolution limited = optim::ClpLp(random_lp(rng, 50, 40), tight).solve();
  CHECK(limited.status == core::Status::iteration_limit);
}

TEST_CASE("a cost Clp cannot take is a numerical_error status, not an abort", "[optim][clp]") {
  // Clp asserts |c| < 1e25 and aborts the process (issue 9: --lambda 1e25, mu = 1e-30).
  core::Rng rng(5);
  optim::ClpLp lp(random_lp(rng, 10, 8));
  REQUIRE(lp.solve().status == core::Status::optimal);
  core::Vector cost = core::Vector::Ones(8);
  cost[3] = 1e30;
  lp.set_cost(cost);
  const optim::LpSolution refused = lp.solve();
  CHECK(refused.status == core::Status::numerical_error);
  CHECK_THAT(refused.message, Catch::Contains("LP cost 1e+30 of column 3 is out of the range Clp accepts"));
  cost[3] = std::numeric_limits<double>::quiet_NaN();
  lp.set_cost(cost);
  CHECK(lp.solve().status == core::Status::numerical_error);
  cost[3] = 1.0;  // a good cost afterwards solves again
  lp.set_cost(cost);
  CHECK(lp.solve().status == core::Status::optimal);
}
