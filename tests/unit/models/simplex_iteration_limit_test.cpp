// A convex step's simplex iteration limit (ConvexStep::simplex_iteration_limit, the direct solve's
// `simplex_iteration_limit`): on every route the step's simplex iterations stay within it, the model kept is a
// point no better than the optimum of the full LP solved without a limit, and the lower bound reported (from
// duals made feasible, models::l1_lower_bound) is never above that optimum. l1_lower_bound itself: exact at
// the LP's optimal duals, below the optimum for any other alpha.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "data/generators/generator_registry.hpp"
#include "models/convex_step.hpp"
#include "models/lp_crossover.hpp"
#include "models/methods.hpp"
#include "optim/clp_lp.hpp"
#include "toy_problems.hpp"

using namespace sparsesvm;
using namespace sparsesvm::models;

namespace {

// random_problem's features times 10^3 and 10^-2 in turn: a badly scaled set (raw UCI columns such as
// wdbc's areas), where balancing the classes' duals moves X'(alpha y) far.
core::Dataset badly_scaled(std::size_t n, std::size_t d, std::uint64_t seed) {
  const core::Dataset base = testing::random_problem(n, d, seed, 3);
  core::DenseMatrix x(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < d; ++j) x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = base.value(i, j) * (j % 2 == 0 ? 1e3 : 1e-2) + (j % 2 == 0 ? 500.0 : 0.0);
  }
  return core::Dataset("badly_scaled", x, base.labels(), {}, {});
}

struct Instance {
  std::string name;
  core::Dataset data;
  double lambda;
};

std::vector<Instance> instances() {
  std::vector<Instance> list;
  list.push_back({"dense 40 x 300 (d >> n)", testing::random_problem(40, 300, 7, 3), 0.05});
  list.push_back({"dense 300 x 8", testing::random_problem(300, 8, 8, 3), 0.5});
  list.push_back({"text-shaped CSR 400 x 3000", data::generate("text_shaped:n=400,d=3000,nnz_per_row=20,informative=30,seed=5"), 0.1});
  list.push_back({"badly scaled 200 x 10", badly_scaled(200, 10, 9), 0.1});
  return list;
}

// The step's LP (models::build_lp) with the step's costs and margins, solved by Clp from the slack basis.
optim::LpSolution solve_step_lp(const core::Dataset& data, const StepLpCosts& costs) {
  optim::LpProblem lp = build_lp(data, false);
  lp.cost << costs.plus, costs.minus, costs.bias, costs.slack;
  lp.row_lower.head(static_cast<Eigen::Index>(data.n())) = costs.margin;
  optim::ClpLp clp(lp);
  return clp.solve();
}

}  // namespace

TEST_CASE("l1_lower_bound: exact at the LP's optimal duals, below the optimum for any alpha", "[models][iteration_limit]") {
  for (const Instance& instance : instances()) {
    INFO(instance.name);
    const core::Dataset& data = instance.data;
    const auto n = static_cast<Eigen::Index>(data.n());
    const StepLpCosts costs = step_lp_costs(testing::one_norm_step(data, instance.lambda), static_cast<Eigen::Index>(data.d()));
    const optim::LpSolution optimum = solve_step_lp(data, costs);
    REQUIRE(optimum.status == core::Status::optimal);
    const double scale = std::max(1.0, std::abs(optimum.objective));
    CHECK(l1_lower_bound(data, costs, optimum.row_duals.head(n)) == Approx(optimum.objective).epsilon(1e-7).margin(1e-9 * scale));
    core::Rng rng(17);
    for (int draw = 0; draw < 20; ++draw) {
      core::Vector alpha(n);  // unbalanced, some outside [0, C]
      for (Eigen::Index i = 0; i < n; ++i) alpha[i] = rng.uniform(-0.2, 1.3) * (data.labels()[i] > 0 ? 1.0 : 0.6);
      if (draw % 2 == 1) alpha = optimum.row_duals.head(n) + 0.05 * alpha;  // near the optimum's duals
      const double bound = l1_lower_bound(data, costs, alpha);
      CHECK(std::isfinite(bound));
      CHECK(bound <= optimum.objective + 1e-9 * scale);
    }
    StepLpCosts tilted = costs;  // a cost on b: alpha = 0 is not feasible, no bound is made
    tilted.bias = 0.1;
    CHECK(std::isinf(l1_lower_bound(data, tilted, optimum.row_duals.head(n))));
  }
}

TEST_CASE("l1_lower_bound balances the classes' duals first: empty positive rows would bound above the optimum",
          "[models][iteration_limit]") {
  // 30 positives with empty rows, 10 negatives: alpha = C on the positives leaves X'(alpha y) = 0, so no
  // feature constraint refuses it, but sum_i alpha_i y_i = 30, and 30 is above F(0, b = 1) = 20 >= F*.
  const core::Dataset base = testing::random_problem(40, 5, 21, 2);
  core::DenseMatrix x = core::DenseMatrix::Zero(40, 5);
  core::Vector y(40);
  for (Eigen::Index i = 0; i < 40; ++i) {
    y[i] = i < 30 ? 1.0 : -1.0;
    if (i >= 30) {
      for (Eigen::Index j = 0; j < 5; ++j) x(i, j) = base.value(static_cast<std::size_t>(i), static_cast<std::size_t>(j));
    }
  }
  const core::Dataset data("empty_positives", x, y, {}, {});
  const StepLpCosts costs = step_lp_costs(testing::one_norm_step(data, 0.5), 5);
  const optim::LpSolution optimum = solve_step_lp(data, costs);
  REQUIRE(optimum.status == core::Status::optimal);
  const core::Vector alpha = (y.array() > 0).cast<double>().matrix();
  CHECK(l1_lower_bound(data, costs, alpha) <= optimum.objective + 1e-9);
}

TEST_CASE("a step stopped by its simplex iteration limit keeps a point and a lower bound that hold, on every route",
          "[models][iteration_limit]") {
  std::map<int, int> stops_by_route;  // lp_form's value: steps the limit stopped
  for (const Instance& instance : instances()) {
    const core::Dataset& data = instance.data;
    ConvexStep step = testing::one_norm_step(data, instance.lambda);
    step.lp_form = LpForm::full;
    const StepResult reference = StepSolver(data).solve(step);
    REQUIRE(reference.status == core::Status::optimal);
    const double optimum = step.value(data, reference.w, reference.b);
    for (const LpForm form : {LpForm::full, LpForm::generation, LpForm::crossover, LpForm::by_shape}) {
      StepSolverOptions options;
      if (form == LpForm::by_shape) options.hand_over_iterations = 1;  // generation, or its hand-over
      for (const long limit : {1L, 5L, 30L}) {
        INFO(instance.name << ", lp_form " << static_cast<int>(form) << ", limit " << limit);
        step.lp_form = form;
        step.simplex_iteration_limit = limit;
        StepSolver solver(data, options);
        const StepResult stopped = solver.solve(step);
        CHECK(stopped.simplex_iterations <= limit);
        if (stopped.status == core::Status::optimal) {  // the limit did not bind
          CHECK(step.value(data, stopped.w, stopped.b) == Approx(optimum).epsilon(1e-9).margin(1e-12));
          continue;
        }
        REQUIRE(stopped.status == core::Status::feasible);
        ++stops_by_route[static_cast<int>(form)];
        CHECK(stopped.stopped_at_simplex_limit);
        CHECK_THAT(stopped.message, Catch::Contains("stopped at its simplex iteration limit"));
        REQUIRE(stopped.w.size() == static_cast<Eigen::Index>(data.d()));
        const double value = step.value(data, stopped.w, stopped.b);
        CHECK(value >= optimum - 1e-9 * std::abs(optimum));
        REQUIRE(std::isfinite(stopped.certificate.relative_gap));
        CHECK(stopped.certificate.relative_gap >= 0.0);
        const double lower_bound = value - stopped.certificate.relative_gap * std::abs(value);
        CHECK(lower_bound <= optimum + 1e-9 * std::abs(optimum));
        // The same step again on a fresh solver: the same point, to the bit.
        const StepResult again = StepSolver(data, options).solve(step);
        CHECK(again.b == stopped.b);
        CHECK((again.w - stopped.w).lpNorm<Eigen::Infinity>() == 0.0);
        // The limit is the step's: the next step, without one, answers on the same solver.
        ConvexStep unlimited = step;
        unlimited.simplex_iteration_limit = 0;
        const StepResult answered = solver.solve(unlimited);
        REQUIRE(answered.status == core::Status::optimal);
        CHECK(step.value(data, answered.w, answered.b) == Approx(optimum).epsilon(1e-9).margin(1e-12));
      }
    }
  }
  for (const LpForm form : {LpForm::full, LpForm::generation, LpForm::crossover, LpForm::by_shape}) {
    INFO("lp_form " << static_cast<int>(form));
    CHECK(stops_by_route[static_cast<int>(form)] >= 4);  // each route was stopped, on most instances
  }
}

TEST_CASE("a DC fit held to simplex_iteration_limit: its steps stay within it and it stops uncertified, the same each time",
          "[models][iteration_limit][dca]") {
  const core::Dataset data = data::generate("text_shaped:n=400,d=3000,nnz_per_row=20,informative=30,seed=5");
  for (const std::string method : {"ZeroNormSVM", "RLSVM0"}) {
    Workspace free(data);
    const FitReport unlimited = fit_method(method, {{"lambda", 0.1}}, free);
    REQUIRE(unlimited.status == core::Status::converged);
    // Unlimited: OneNormSVM's start takes 1037 simplex iterations, the steps about 400 more. With a limit,
    // the start stops at it and its first-order point leaves the steps about 130 iterations of work.
    int stopped_in_steps = 0;
    for (const double limit : {5.0, 50.0, 110.0, 130.0, 400.0}) {
      INFO(method << ", limit " << limit);
      const Hyperparameters h = {{"lambda", 0.1}, {"simplex_iteration_limit", limit}};
      Workspace workspace(data);
      // The start (OneNormSVM) takes the same limit for its own fit, made first here to count it apart.
      const FitReport start = fit_method("OneNormSVM", h, workspace);
      REQUIRE(core::has_solution(start.status));
      const FitReport limited = fit_method(method, h, workspace);
      REQUIRE(core::has_solution(limited.status));
      CHECK(limited.statistics.at("simplex_iterations") - start.statistics.at("simplex_iterations") <= limit);
      if (limited.stop_reason == kSimplexLimitStop) {
        ++stopped_in_steps;
        CHECK(limited.status == core::Status::feasible);
        CHECK(std::isnan(limited.certificate));
        CHECK_THAT(limited.message, Catch::Contains("simplex iteration limit"));
      }
      Workspace again_workspace(data);
      const FitReport again = fit_method(method, h, again_workspace);
      CHECK(again.objective == limited.objective);
      CHECK(again.model.w() == limited.model.w());
    }
    CHECK(stopped_in_steps >= 3);
  }
}
