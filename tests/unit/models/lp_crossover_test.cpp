// The crossover start (models/lp_crossover.hpp) against the full LP solved from the slack basis: the
// first-order point's objective near the optimum, the basis guessed from an exact optimum optimal as it
// stands, and lp_form crossover equal to the full LP on dense, sparse, tilted and d >> n instances,
// along a lambda path and into the hard-margin regime, where the last answer resumes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <string>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "data/generators/generator_registry.hpp"
#include "data/load.hpp"
#include "models/convex_step.hpp"
#include "models/lp_crossover.hpp"
#include "models/objective.hpp"
#include "optim/clp_lp.hpp"
#include "test_files.hpp"
#include "toy_problems.hpp"

using namespace sparsesvm;
using namespace sparsesvm::models;

namespace {

// A DCA-like step: a tilt on w and b, margins other than 1, unequal hinge weights (p_j + q_j >= 0 kept).
ConvexStep tilted_step(const core::Dataset& data, double lambda) {
  ConvexStep step = testing::one_norm_step(data, lambda);
  const auto n = static_cast<Eigen::Index>(data.n());
  const auto d = static_cast<Eigen::Index>(data.d());
  step.tilt_w = core::Vector::LinSpaced(d, -0.5 * lambda, 0.5 * lambda);
  step.tilt_b = 0.1 * lambda;  // small: on separable data a large one makes the step unbounded
  step.margin = core::Vector::LinSpaced(n, 0.5, 1.5);
  step.hinge_weight = core::Vector::LinSpaced(n, 0.5, 2.0);
  return step;
}

StepLpCosts costs_of(const ConvexStep& step, const core::Dataset& data) {
  return step_lp_costs(step, static_cast<Eigen::Index>(data.d()));
}

StepResult solve_as(const core::Dataset& data, ConvexStep step, LpForm form) {
  StepSolver solver(data);
  step.lp_form = form;
  return solver.solve(step);
}

FirstOrderOptions to_gap(double relative_gap) {
  FirstOrderOptions options;
  options.relative_gap = relative_gap;
  return options;
}

// Issue 37's uniform sparse draw in small (bench/uniform_sparse_draw.py: 2000 x 20000): values uniform on
// [0, 1) in a `density` share of the cells, labels the sign of a Gaussian weighting of the first
// `informative` features, so most rows, holding none of them, carry tie-broken noise. Separable, with an
// optimum that keeps about as many features as examples on the margin: a degenerate square basis.
core::Dataset uniform_sparse_draw(Eigen::Index n, Eigen::Index d, double density, Eigen::Index informative,
                                  std::uint64_t seed) {
  core::Rng rng(seed);
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) {
      if (rng.bernoulli(density)) entries.emplace_back(i, j, rng.uniform());
    }
  }
  core::SparseMatrix x(n, d);
  x.setFromTriplets(entries.begin(), entries.end());
  core::Vector direction(d);
  for (Eigen::Index j = 0; j < d; ++j) direction[j] = j < informative ? rng.normal() : 0.0;
  core::Vector labels(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double score = x.row(i).dot(direction.transpose()) + 1e-9 * rng.normal();
    labels[i] = score > 0 ? 1.0 : -1.0;
  }
  return core::Dataset("uniform_sparse_draw", x, labels, {}, {});
}

std::vector<std::pair<std::string, core::Dataset>> instances() {
  std::vector<std::pair<std::string, core::Dataset>> list;
  list.emplace_back("dense 40 x 300 (d >> n)", testing::random_problem(40, 300, 7, 3));
  list.emplace_back("dense 300 x 8", testing::random_problem(300, 8, 8, 3));
  list.emplace_back("text-shaped CSR 400 x 3000",
                    data::generate("text_shaped:n=400,d=3000,nnz_per_row=20,informative=30,seed=5"));
  return list;
}

// heart_scale's 13 features times `scale`, padded with zero columns to `columns` (270 x columns, dense).
core::Dataset scaled_heart(double scale, Eigen::Index columns = 13) {
  const core::Dataset heart = data::load_dataset({testing::repo_file("datasets/heart_scale.libsvm"), "libsvm", {}});
  core::DenseMatrix x = core::DenseMatrix::Zero(270, columns);
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    for (Eigen::Index j = 0; j < 13; ++j) x(i, j) = scale * heart.value(static_cast<std::size_t>(i), static_cast<std::size_t>(j));
  }
  return core::Dataset("heart_scaled", x, heart.labels(), {}, {});
}

}  // namespace

TEST_CASE("the first-order point's objective approaches the LP's optimum as its gap closes", "[models][crossover]") {
  for (const auto& [name, data] : instances()) {
    for (const double lambda : {0.05, 0.5}) {
      for (const bool tilted : {false, true}) {
        const ConvexStep step = tilted ? tilted_step(data, lambda) : testing::one_norm_step(data, lambda);
        const StepResult exact = solve_as(data, step, LpForm::full);
        INFO(name << ", lambda " << lambda << (tilted ? ", tilted" : "") << ": " << exact.message);
        REQUIRE(exact.status == core::Status::optimal);
        const double optimum = step.value(data, exact.w, exact.b);
        const StepLpCosts costs = costs_of(step, data);
        const FirstOrderPoint loose = first_order_point(data, costs, {}, to_gap(1e-2));
        const FirstOrderPoint tight = first_order_point(data, costs, {}, to_gap(1e-4));
        INFO(name << ", lambda " << lambda << (tilted ? ", tilted" : "") << ": optimum " << optimum << ", first-order "
                  << step.value(data, tight.w, tight.b) << " after " << tight.iterations << " iterations, gap "
                  << tight.relative_gap);
        // The stop meets the target at the point returned (a PDHG step's image, its gap measured there).
        CHECK(loose.relative_gap <= 1e-2);
        CHECK(tight.relative_gap <= 1e-4);
        CHECK(tight.iterations > loose.iterations);
        const double scale = std::max(1.0, std::abs(optimum));
        CHECK(step.value(data, tight.w, tight.b) >= optimum - 1e-9 * scale);  // the LP's optimum is the least value
        CHECK(step.value(data, tight.w, tight.b) <= optimum + 1e-3 * scale);
        // The same start gives the same point.
        const FirstOrderPoint again = first_order_point(data, costs, {}, to_gap(1e-4));
        CHECK(again.iterations == tight.iterations);
        CHECK(again.w == tight.w);
      }
    }
  }
}

TEST_CASE("the basis guessed from an exact optimum is optimal as it stands", "[models][crossover]") {
  // Nondegenerate optima: the examples on their margins are exactly as many as the nonzero weights plus
  // one, so the guess is the optimal basis and dual simplex has (next to) nothing to do.
  for (const auto& [name, data] : instances()) {
    for (const double lambda : {0.05, 0.5}) {
      const ConvexStep step = testing::one_norm_step(data, lambda);
      const StepResult exact = solve_as(data, step, LpForm::full);
      REQUIRE(exact.status == core::Status::optimal);
      const StepLpCosts costs = costs_of(step, data);
      optim::LpProblem lp = build_lp(data, false);
      lp.cost << costs.plus, costs.minus, costs.bias, costs.slack;
      optim::ClpLp clp(lp);
      clp.start_from(crossover_basis(data, costs, exact.w, exact.b));
      const optim::LpSolution solution = clp.solve();
      INFO(name << ", lambda " << lambda << ": " << solution.iterations << " iterations (cold " << exact.simplex_iterations << "), "
                << (exact.w.array() != 0).count() << " nonzero weights");
      REQUIRE(solution.status == core::Status::optimal);
      CHECK(solution.iterations <= 1);  // 0, but for one degenerate pivot on 300 x 8 at lambda 0.05 (cold: 115)
      CHECK(solution.objective == Approx(step.value(data, exact.w, exact.b)).epsilon(1e-9));
    }
  }
}

TEST_CASE("lp_form crossover equals the full LP, certified, on every instance and along a path", "[models][crossover]") {
  for (const auto& [name, data] : instances()) {
    StepSolver path(data);
    for (const double lambda : {4.0, 0.5, 0.05, 0.3}) {
      for (const bool tilted : {false, true}) {
        ConvexStep step = tilted ? tilted_step(data, lambda) : testing::one_norm_step(data, lambda);
        const StepResult full = solve_as(data, step, LpForm::full);
        REQUIRE(full.status == core::Status::optimal);
        step.lp_form = LpForm::crossover;
        const StepResult crossover = path.solve(step);
        const StepResult cold = solve_as(data, step, LpForm::crossover);
        INFO(name << ", lambda " << lambda << (tilted ? ", tilted" : ""));
        for (const StepResult* result : {&crossover, &cold}) {
          REQUIRE(result->status == core::Status::optimal);
          CHECK_FALSE(result->generated);
          CHECK(result->certificate.within(1e-7));
          CHECK(step.value(data, result->w, result->b) ==
                Approx(step.value(data, full.w, full.b)).epsilon(1e-9).margin(1e-12));
        }
        CHECK(cold.first_order_iterations > 0);
      }
    }
  }
}

TEST_CASE("by shape, generation past its budget hands the step to crossover; later steps are generated again",
          "[models][crossover][generation]") {
  // 60 x 2600 dense (156,000 values, d >= 4n): generated by shape, and small enough for the full LP.
  const core::Dataset data = testing::random_problem(60, 2600, 11, 3);
  REQUIRE(generation_by_shape(data.n(), data.d(), data.stored_values()));
  StepSolverOptions options;
  options.hand_over_iterations = 1;       // every pass that has pivoted without an answer hands over
  options.hand_over_warm_iterations = 0;  // and the crossover's basis is followed to the end
  StepSolver solver(data, options);
  const ConvexStep first = testing::one_norm_step(data, 0.05);
  const StepResult handed = solver.solve(first);
  const StepResult full = solve_as(data, first, LpForm::full);
  REQUIRE(handed.status == core::Status::optimal);
  REQUIRE(full.status == core::Status::optimal);
  CHECK_FALSE(handed.generated);
  CHECK(handed.generation_rounds >= 1);
  CHECK(handed.first_order_iterations > 0);
  CHECK_FALSE(handed.fell_back_to_cold);
  CHECK(handed.message.find("handed over") != std::string::npos);
  CHECK(handed.certificate.within(1e-7));
  CHECK(first.value(data, handed.w, handed.b) ==
        Approx(first.value(data, full.w, full.b)).epsilon(1e-9).margin(1e-12));
  // The same step again (RLSVM1's second DCA step on separable data) resumes that answer.
  const StepResult again = solver.solve(first);
  REQUIRE(again.status == core::Status::optimal);
  CHECK_FALSE(again.generated);
  CHECK(again.first_order_iterations == 0);
  CHECK(again.simplex_iterations == 0);
  CHECK((again.w - handed.w).lpNorm<Eigen::Infinity>() < 1e-12);
  // With the crossover's answer held, DCA-like steps along a path, where it is not optimal, are generated
  // again, warm.
  for (const double lambda : {0.05, 0.3, 0.02}) {
    const ConvexStep later = tilted_step(data, lambda);
    const StepResult generated = solver.solve(later);
    const StepResult reference = solve_as(data, later, LpForm::full);
    INFO("lambda " << lambda);
    REQUIRE(generated.status == core::Status::optimal);
    REQUIRE(reference.status == core::Status::optimal);
    CHECK(generated.generated);
    CHECK(later.value(data, generated.w, generated.b) ==
          Approx(later.value(data, reference.w, reference.b)).epsilon(1e-9).margin(1e-12));
  }
  // With the crossover's dual simplex held to one iteration, the slack basis answers the handed-over step.
  options.hand_over_warm_iterations = 1;
  StepSolver held(data, options);
  const StepResult cold = held.solve(first);
  REQUIRE(cold.status == core::Status::optimal);
  CHECK_FALSE(cold.generated);
  CHECK(cold.fell_back_to_cold);
  CHECK(cold.message.find("slack basis") != std::string::npos);
  CHECK(cold.certificate.within(1e-7));
  CHECK(first.value(data, cold.w, cold.b) == Approx(first.value(data, full.w, full.b)).epsilon(1e-9).margin(1e-12));
  // A first round's budget of one pivot hands over under a pass's budget of 10^6.
  options.hand_over_warm_iterations = 0;
  options.hand_over_iterations = 1'000'000;
  options.hand_over_first_round_iterations = 1;
  const StepResult first_round = StepSolver(data, options).solve(first);
  REQUIRE(first_round.status == core::Status::optimal);
  CHECK_FALSE(first_round.generated);
  CHECK(first_round.generation_rounds == 1);
  CHECK_THAT(first_round.message, Catch::Contains("after 1 simplex iterations in 1 rounds (the first round's budget)"));
  CHECK(first.value(data, first_round.w, first_round.b) ==
        Approx(first.value(data, full.w, full.b)).epsilon(1e-9).margin(1e-12));
  options.hand_over_first_round_iterations = -1;
  // No hand-over with a budget of 0, nor when generation is asked for by name.
  options.hand_over_iterations = 0;
  StepSolver never(data, options);
  CHECK(never.solve(first).generated);
  options.hand_over_iterations = 1;
  StepSolver named(data, options);
  ConvexStep by_name = first;
  by_name.lp_form = LpForm::generation;
  CHECK(named.solve(by_name).generated);
}

TEST_CASE("a handed-over step that is not certified says so and keeps its route", "[models][crossover][generation]") {
  // heart_scale's 13 features scaled by 1e6, padded with zero columns to 270 x 1080 (d >= 4n, 291,600
  // values: generated by shape), at lambda 1e-3: Clp's answer misses the certificate's reduced-cost
  // tolerance (by 2e-6 of the feature cost, as the full LP's does). The message must say so and which
  // route gave the answer.
  const core::Dataset data = scaled_heart(1e6, 1080);
  REQUIRE(generation_by_shape(data.n(), data.d(), data.stored_values()));
  StepSolverOptions options;
  options.hand_over_iterations = 1;
  StepSolver solver(data, options);
  const StepResult handed = solver.solve(testing::one_norm_step(data, 1e-3));
  INFO(handed.message);
  REQUIRE(handed.status == core::Status::solved_inaccurate);
  CHECK_FALSE(handed.generated);
  CHECK_THAT(handed.message, Catch::StartsWith("LP not certified: reduced-cost violation") &&
                                 Catch::Contains("handed over to the crossover"));
}

TEST_CASE("an answer refused below the rounding of the data's scale says so, no other", "[models][certificate]") {
  // heart_scale times 1e6 at lambda 1e-3: every route's features miss the certificate by 2e-6 of the
  // feature cost, 2e-9 absolute, where g_j = sum_i alpha_i y_i x_ij sums terms of up to 1e6 (270 of them):
  // rounding is bounded by about 6e-8. The status stays solved_inaccurate; the message says so and what helps.
  const std::string note = "at this data's scale the miss may be rounding alone";
  const core::Dataset big = scaled_heart(1e6);
  for (const LpForm form : {LpForm::full, LpForm::generation, LpForm::crossover}) {
    ConvexStep step = testing::one_norm_step(big, 1e-3);
    step.lp_form = form;
    const StepResult result = StepSolver(big).solve(step);
    INFO(result.message);
    CHECK(result.status == core::Status::solved_inaccurate);
    CHECK_THAT(result.message, Catch::Contains("reduced-cost violation") && Catch::Contains(note));
  }
  // The rule, on two examples (y = +1, -1, alpha = 1 each) where g_j = x_1j - x_2j = lambda + 2e-7 for
  // each feature j: its reduced cost lambda - g_j misses by 2e-7, 2e-4 of lambda = 1e-3. Terms near 1e9
  // round g_j by up to 4.4e-7 (machine epsilon times 2e9): rounding explains the miss. Terms near 1 round
  // it by 4.4e-16: it does not, and one such feature beside a rounded one is enough to withhold the note.
  const double miss = 2e-7;
  const auto two_examples = [&](std::vector<double> scales) {
    core::DenseMatrix x(2, static_cast<Eigen::Index>(scales.size()));
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      x(0, j) = scales[static_cast<std::size_t>(j)];
      x(1, j) = scales[static_cast<std::size_t>(j)] - (1e-3 + miss);
    }
    return core::Dataset("two", x, core::Vector::LinSpaced(2, 1.0, -1.0), {}, {});
  };
  const auto note_on = [&](const core::Dataset& data, LpCertificate certificate) {
    const StepLpCosts costs = step_lp_costs(testing::one_norm_step(data, 1e-3), static_cast<Eigen::Index>(data.d()));
    StepLpPoint point;
    point.alpha = core::Vector::Ones(2);
    return rounding_limit_note(data, costs, point, certificate, 1e-6);
  };
  LpCertificate refused;  // what certify reports for such a point: only the features' reduced costs miss
  refused.feature_dual_infeasibility = miss;
  refused.reduced_cost_violation = miss / 1e-3;
  CHECK_THAT(note_on(two_examples({1e9}), refused), Catch::Contains(note));
  CHECK_THAT(note_on(two_examples({1e9, 1e9}), refused), Catch::Contains(note));
  CHECK(note_on(two_examples({1.0}), refused).empty());
  CHECK(note_on(two_examples({1e9, 1.0}), refused).empty());
  LpCertificate rows_violated = refused;
  rows_violated.constraint_violation = 1e-5;
  CHECK(note_on(two_examples({1e9}), rows_violated).empty());
  LpCertificate slacks_refused = refused;
  slacks_refused.slack_reduced_cost_violation = 1e-5;
  CHECK(note_on(two_examples({1e9}), slacks_refused).empty());
  CHECK(note_on(two_examples({1e9}), LpCertificate{}).empty());  // certified: nothing to explain
}

TEST_CASE("a handed-over step's message names the route that answered", "[models][crossover][generation]") {
  const std::string generation = "generation handed over to the crossover after 10000 simplex iterations";
  StepResult guessed;  // the crossover's guessed basis answered
  CHECK(hand_over_message(generation, 2000, guessed, false) == generation + "; the crossover's guessed basis answered");
  StepResult at_limit;  // the guess stopped at its limit, then the slack basis
  at_limit.fell_back_to_cold = true;
  at_limit.warm_limit_reached = true;
  const std::string limit_message = hand_over_message(generation, 2000, at_limit, false);
  CHECK_THAT(limit_message, Catch::Contains("no answer in 2000 dual simplex iterations") &&
                                Catch::Contains("solved from the slack basis"));
  StepResult uncertified;  // the guess's answer failed the certificate (or Clp's warm solve failed): cold
  uncertified.fell_back_to_cold = true;
  uncertified.message = "the full LP's own note";
  const std::string cold_message = hand_over_message(generation, 2000, uncertified, false);
  CHECK_THAT(cold_message, Catch::StartsWith(generation + "; the crossover's guessed basis gave no certified answer, "
                                                           "so the full LP was solved from the slack basis") &&
                               Catch::EndsWith("(the full LP's own note)"));
  CHECK_THAT(cold_message, !Catch::Contains("2000"));
  StepResult stopped;  // no answer from the full LP: the fit's simplex_iteration_limit, or Clp's per solve
  stopped.status = core::Status::iteration_limit;
  CHECK(hand_over_message(generation, 2000, stopped, true) ==
        generation + "; the full LP had no answer within the simplex iteration limit");
  CHECK(hand_over_message(generation, 2000, stopped, false) ==
        generation + "; the full LP had no answer within Clp's iteration limit of a solve");
}

TEST_CASE("in the hard-margin regime the last answer resumes without a first-order start", "[models][crossover]") {
  // 40 x 300: separable. Once lambda is small enough that every example meets its margin (xi = 0), the
  // same (w, b) is optimal for every smaller lambda (larger C): the warm basis is resumed, not recomputed.
  const core::Dataset data = testing::random_problem(40, 300, 7, 3);
  StepSolver path(data);
  ConvexStep step = testing::one_norm_step(data, 1e-3);
  step.lp_form = LpForm::crossover;
  const StepResult first = path.solve(step);
  REQUIRE(first.status == core::Status::optimal);
  REQUIRE((margins(data, first.w, first.b).array() >= 1.0 - 1e-9).all());
  CHECK(first.first_order_iterations > 0);
  step.regularizer_weight = 1e-4;
  const StepResult second = path.solve(step);
  REQUIRE(second.status == core::Status::optimal);
  CHECK(second.first_order_iterations == 0);
  CHECK(second.certificate.within(1e-7));
  CHECK((second.w - first.w).lpNorm<Eigen::Infinity>() < 1e-9);
  // A lambda large enough to leave the regime (some example short of its margin) needs the start again.
  step.regularizer_weight = 100.0;
  const StepResult third = path.solve(step);
  REQUIRE(third.status == core::Status::optimal);
  REQUIRE((margins(data, third.w, third.b).array() < 1.0 - 1e-6).any());
  CHECK(third.first_order_iterations > 0);
}

TEST_CASE("lp_form crossover refuses what the first-order method cannot run", "[models][crossover]") {
  const core::Dataset data = testing::random_problem(30, 5, 3, 2);
  ConvexStep step = testing::one_norm_step(data, 0.5);
  step.lp_form = LpForm::crossover;
  step.regularizer = Regularizer::linf;
  StepSolver solver(data);
  CHECK_THROWS_AS(solver.solve(step), core::InputError);
  CHECK_THROWS_WITH(solver.solve(step), Catch::Contains("lp_form crossover") && Catch::Contains("l_inf"));
  StepLpCosts costs = costs_of(testing::one_norm_step(data, 0.5), data);
  CHECK(first_order_unsupported(costs, false).empty());
  costs.plus[2] = -1.0;  // p_2 + q_2 < 0: the step is unbounded below, not a convex LP piece
  CHECK_FALSE(first_order_unsupported(costs, false).empty());
}

TEST_CASE("the guessed basis is square, keeping the largest weights when few examples are outside the margin",
          "[models][crossover]") {
  const core::Dataset data = testing::random_problem(40, 300, 7, 3);
  const ConvexStep step = testing::one_norm_step(data, 1e-3);
  const StepResult exact = solve_as(data, step, LpForm::full);
  REQUIRE(exact.status == core::Status::optimal);
  const auto basic_count = [](const std::vector<unsigned char>& basis) {
    return std::count(basis.begin(), basis.end(), static_cast<unsigned char>(optim::BasisStatus::basic));
  };
  const StepLpCosts costs = costs_of(step, data);
  CHECK(basic_count(crossover_basis(data, costs, exact.w, exact.b)) == 40);
  // Every one of the 300 weights nonzero (an average of iterates), at most 40 examples to pair with: the
  // basis keeps the largest weights, still 40 basic variables, the optimum's weights among them.
  core::Vector smeared = exact.w;
  for (Eigen::Index j = 0; j < smeared.size(); ++j) smeared[j] += exact.w[j] == 0.0 ? 1e-9 * (j % 2 == 0 ? 1 : -1) : 0.0;
  const std::vector<unsigned char> basis = crossover_basis(data, costs, smeared, exact.b);
  CHECK(basic_count(basis) == 40);
  for (Eigen::Index j = 0; j < exact.w.size(); ++j) {
    if (exact.w[j] == 0.0) continue;
    INFO("weight " << j);
    CHECK(basis[static_cast<std::size_t>(exact.w[j] > 0 ? j : 300 + j)] == static_cast<unsigned char>(optim::BasisStatus::basic));
  }
}

TEST_CASE("with warm starts off, each crossover solve starts from zero", "[models][crossover]") {
  const core::Dataset data = testing::random_problem(60, 100, 9, 3);
  StepSolverOptions options;
  options.warm_start = false;
  StepSolver solver(data, options);
  ConvexStep step = testing::one_norm_step(data, 0.2);
  step.lp_form = LpForm::crossover;
  const StepResult first = solver.solve(step);
  const StepResult second = solver.solve(step);
  REQUIRE(first.status == core::Status::optimal);
  REQUIRE(second.status == core::Status::optimal);
  CHECK(first.first_order_iterations > 0);
  CHECK(second.first_order_iterations == first.first_order_iterations);
  // Warm, the same step again is resumed.
  StepSolver warm(data);
  CHECK(warm.solve(step).first_order_iterations > 0);
  CHECK(warm.solve(step).first_order_iterations == 0);
}

TEST_CASE("offered points: taking the first stops where a fixed gap does; refusing all halves the gap to the smallest",
          "[models][crossover]") {
  for (const auto& [name, data] : instances()) {
    const StepLpCosts costs = costs_of(testing::one_norm_step(data, 0.5), data);
    const FirstOrderPoint fixed = first_order_point(data, costs, {}, to_gap(1e-3));
    FirstOrderOptions take_first = to_gap(1e-3);
    take_first.accept = [](const FirstOrderPoint&) { return true; };
    const FirstOrderPoint taken = first_order_point(data, costs, {}, take_first);
    INFO(name << ": " << fixed.iterations << " iterations to 1e-3");
    CHECK(taken.iterations == fixed.iterations);
    CHECK(taken.w == fixed.w);
    CHECK(taken.b == fixed.b);
    CHECK(taken.alpha == fixed.alpha);
    CHECK(taken.relative_gap == fixed.relative_gap);

    FirstOrderOptions refuse_all = to_gap(1e-3);
    refuse_all.smallest_gap = 1e-5;
    std::vector<FirstOrderPoint> offered;
    refuse_all.accept = [&](const FirstOrderPoint& point) {
      offered.push_back(point);
      return false;
    };
    const FirstOrderPoint last = first_order_point(data, costs, {}, refuse_all);
    // Offered at 1e-3 / 2^k for k = 0..6 (down to 1.6e-5); the target 7.8e-6 <= 1e-5 ends it unoffered.
    REQUIRE(offered.size() == 7);
    for (std::size_t k = 1; k < offered.size(); ++k) CHECK(offered[k].iterations > offered[k - 1].iterations);
    CHECK(offered.front().iterations == fixed.iterations);
    CHECK(last.iterations > offered.back().iterations);
    CHECK(last.relative_gap <= 7.9e-6);  // the last target, 1e-3 / 2^7
  }
}

TEST_CASE("first_order_point: no iteration returns the start; out of iterations, no worse than any point offered",
          "[models][crossover]") {
  for (const auto& [name, data] : instances()) {
    INFO(name);
    const StepLpCosts costs = costs_of(testing::one_norm_step(data, 0.5), data);
    const FirstOrderPoint start = first_order_point(data, costs, {}, to_gap(1e-1));
    for (const long none : {0L, -1L}) {
      FirstOrderOptions options = to_gap(1e-6);
      options.max_iterations = none;
      const FirstOrderPoint same = first_order_point(data, costs, start, options);
      CHECK(same.iterations == 0);
      CHECK(same.w == start.w);
      CHECK(same.b == start.b);
      CHECK(same.alpha == start.alpha);
      CHECK(same.relative_gap == start.relative_gap);  // the start's own gap, measured the same way
    }
    // The gap is not monotone along the iterations: cut short anywhere (at a check, or between checks,
    // where the last point's gap is measured anew), the point returned is no worse than any point offered
    // before (a check is offered when its gap meets the target, 1 and halved at each offer).
    for (long cut = 64; cut <= 64 * 60; cut += cut % 64 == 0 ? 17 : 47) {
      FirstOrderOptions options = to_gap(1.0);
      options.max_iterations = cut;
      options.smallest_gap = 0.0;
      double least = std::numeric_limits<double>::infinity();
      options.accept = [&](const FirstOrderPoint& point) {
        least = std::min(least, point.relative_gap);
        return false;
      };
      const FirstOrderPoint point = first_order_point(data, costs, {}, options);
      INFO("cut at " << cut << " iterations: gap " << point.relative_gap << ", least offered " << least);
      CHECK(point.relative_gap <= least);
    }
  }
}

TEST_CASE("the crossover's first-order point goes on until its basis settles: dual simplex far nearer the optimum",
          "[models][crossover]") {
  // On this draw the basis guessed at a fixed gap of 1e-3 is 578 dual simplex pivots from the optimum
  // (the slack basis: 998); at the gap where the guess settles, 43.
  const core::Dataset data = uniform_sparse_draw(300, 3000, 0.01, 20, 3);
  const ConvexStep step = testing::one_norm_step(data, 1.0);
  const StepLpCosts costs = costs_of(step, data);
  const StepResult full = solve_as(data, step, LpForm::full);
  REQUIRE(full.status == core::Status::optimal);
  const auto dual_simplex_from = [&](const std::vector<unsigned char>& basis) {
    optim::LpProblem lp = build_lp(data, false);
    lp.cost << costs.plus, costs.minus, costs.bias, costs.slack;
    optim::ClpLp clp(lp);
    clp.start_from(basis);
    return clp.solve();
  };
  const FirstOrderPoint fixed = first_order_point(data, costs, {}, to_gap(1e-3));
  const CrossoverStart settled = crossover_start(data, costs, {});
  CHECK(settled.basis == crossover_basis(data, costs, settled.point.w, settled.point.b));
  CHECK(settled.checks >= 3);  // 2e-3 (nothing to compare with), 1e-3, then on
  CHECK(settled.point.relative_gap < 5e-4);
  const optim::LpSolution from_fixed = dual_simplex_from(crossover_basis(data, costs, fixed.w, fixed.b));
  const optim::LpSolution from_settled = dual_simplex_from(settled.basis);
  INFO("pivots: cold " << full.simplex_iterations << ", from the 1e-3 guess " << from_fixed.iterations << ", from the settled guess "
                       << from_settled.iterations << " (" << settled.checks << " checks, gap " << settled.point.relative_gap << ")");
  REQUIRE(from_fixed.status == core::Status::optimal);
  REQUIRE(from_settled.status == core::Status::optimal);
  CHECK(4 * from_settled.iterations < from_fixed.iterations);
  CHECK(from_settled.objective == Approx(from_fixed.objective).epsilon(1e-9));
  CHECK(from_settled.objective / full.lp_cost_scale == Approx(step.value(data, full.w, full.b)).epsilon(1e-9));
}

TEST_CASE("crossover_start: a warm start within warm_gap stands; every way of stopping returns the point's basis",
          "[models][crossover]") {
  const core::Dataset data = uniform_sparse_draw(300, 3000, 0.01, 20, 3);
  const StepLpCosts costs = costs_of(testing::one_norm_step(data, 1.0), data);
  const auto check_basis = [&](const CrossoverStart& answer) {
    CHECK(answer.basis == crossover_basis(data, costs, answer.point.w, answer.point.b));
  };
  SECTION("a start already within warm_gap: no iteration, no check") {
    const FirstOrderPoint near = first_order_point(data, costs, {}, to_gap(1e-5));
    const CrossoverStart answer = crossover_start(data, costs, near);
    CHECK(answer.point.iterations == 0);
    CHECK(answer.checks == 0);
    CHECK(answer.point.relative_gap <= 1e-3);
    check_basis(answer);
  }
  SECTION("a start outside it is iterated from") {
    const FirstOrderPoint far = first_order_point(data, costs, {}, to_gap(2e-2));
    REQUIRE(far.relative_gap > 1e-3);
    const CrossoverStart answer = crossover_start(data, costs, far);
    CHECK(answer.point.iterations > 0);
    CHECK(answer.checks >= 2);
    check_basis(answer);
  }
  SECTION("out of iterations before settling") {
    // One iteration short of where the default rule settles: past its earlier checks (settling needs two).
    const CrossoverStart settled = crossover_start(data, costs, {});
    REQUIRE(settled.checks >= 2);
    // It stopped at an accepted check: neither out of iterations nor unoffered at last_gap.
    REQUIRE(settled.point.iterations < CrossoverRule{}.max_iterations);
    REQUIRE(settled.point.relative_gap > CrossoverRule{}.last_gap);
    CrossoverRule rule;
    rule.max_iterations = settled.point.iterations - 1;
    const CrossoverStart answer = crossover_start(data, costs, {}, rule);
    CHECK(answer.point.iterations == rule.max_iterations);
    CHECK(answer.checks == settled.checks - 1);
    check_basis(answer);
  }
  SECTION("never settled: stops, unoffered, once the halvings reach last_gap") {
    CrossoverRule rule;
    rule.last_gap = 5e-4;
    rule.settled_share = data.n() + 1;  // fewer than 0 statuses moved: never
    const CrossoverStart answer = crossover_start(data, costs, {}, rule);
    CHECK(answer.checks == 2);  // offered at 2e-3 and 1e-3; at 5e-4 returned
    CHECK(answer.point.iterations < rule.max_iterations);
    check_basis(answer);
  }
}
