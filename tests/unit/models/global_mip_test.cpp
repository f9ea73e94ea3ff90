// The `global` algorithm (algorithms/global_mip.cpp) against brute force. The ramp loss is
// min(1 + mu, (1/mu) max(0, mu - t)) and capped-l1 is sum_j min(a, |w_j|): fixing which side of every
// minimum applies (an example capped or not, a weight capped or not) leaves a convex LP in (w, b) with no
// box at all, which Clp solves directly. The smallest over all 2^(n + d) choices is the global minimum of
// F over all of R^d x R.
#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "data/generators/generator_registry.hpp"
#include "models/algorithms/mip_support.hpp"
#include "models/methods.hpp"
#include "models/objective.hpp"
#include "models/workspace.hpp"
#include "toy_problems.hpp"

using namespace sparsesvm;

namespace {

struct Shape {
  bool ramp = false;     // mu-ramp with mu (else hinge)
  double mu = 1.0;
  bool capped = false;   // capped-l1 with cap a (else l1)
  double a = 1.0;
  double lambda = 1.0;
};

// min over (w, b) of F with example i capped iff capped_example[i] and weight j capped iff capped_weight[j].
double choice_optimum(const core::Dataset& data, const Shape& shape, const std::vector<bool>& capped_example,
                      const std::vector<bool>& capped_weight) {
  const int n = static_cast<int>(data.n());
  const int d = static_cast<int>(data.d());
  const double s = shape.ramp ? 1.0 / shape.mu : 1.0;
  const double m = shape.ramp ? shape.mu : 1.0;
  // Columns: w+ (d), w- (d), b, xi (n). Row i (uncapped examples): xi_i + s y_i (x_i.(w+ - w-) + b) >= s m.
  const int columns = 2 * d + 1 + n;
  std::vector<double> lower(columns, 0.0), upper(columns, COIN_DBL_MAX), cost(columns, 0.0);
  lower[2 * d] = -COIN_DBL_MAX;
  double constant = 0.0;
  for (int j = 0; j < d; ++j) {
    if (capped_weight[j]) {
      constant += shape.lambda * shape.a;
    } else {
      cost[j] = cost[d + j] = shape.lambda;
    }
  }
  std::vector<int> row_index, column_index;
  std::vector<double> values, row_lower;
  int rows = 0;
  for (int i = 0; i < n; ++i) {
    if (capped_example[i]) {
      constant += 1.0 + shape.mu;
      continue;
    }
    const double sy = s * data.labels()[i];
    for (int j = 0; j < d; ++j) {
      const double x = data.value(static_cast<std::size_t>(i), static_cast<std::size_t>(j));
      for (const int side : {0, 1}) {
        row_index.push_back(rows);
        column_index.push_back(side * d + j);
        values.push_back(side == 0 ? sy * x : -sy * x);
      }
    }
    row_index.push_back(rows);
    column_index.push_back(2 * d);
    values.push_back(sy);
    row_index.push_back(rows);
    column_index.push_back(2 * d + 1 + i);
    values.push_back(1.0);
    cost[2 * d + 1 + i] = 1.0;
    row_lower.push_back(s * m);
    ++rows;
  }
  if (rows == 0) return constant;  // every example capped: w = 0 is optimal for the rest
  const CoinPackedMatrix matrix(false, row_index.data(), column_index.data(), values.data(),
                                static_cast<CoinBigIndex>(values.size()));
  std::vector<double> row_upper(rows, COIN_DBL_MAX);
  ClpSimplex model;
  model.setLogLevel(0);
  model.loadProblem(matrix, lower.data(), upper.data(), cost.data(), row_lower.data(), row_upper.data());
  model.dual();
  REQUIRE(model.status() == 0);
  return model.objectiveValue() + constant;
}

double brute_force(const core::Dataset& data, const Shape& shape) {
  const std::size_t n = data.n();
  const std::size_t d = data.d();
  const std::size_t example_choices = shape.ramp ? std::size_t{1} << n : 1;
  const std::size_t weight_choices = shape.capped ? std::size_t{1} << d : 1;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t e = 0; e < example_choices; ++e) {
    std::vector<bool> capped_example(n);
    for (std::size_t i = 0; i < n; ++i) capped_example[i] = ((e >> i) & 1U) != 0;
    for (std::size_t v = 0; v < weight_choices; ++v) {
      std::vector<bool> capped_weight(d);
      for (std::size_t j = 0; j < d; ++j) capped_weight[j] = ((v >> j) & 1U) != 0;
      best = std::min(best, choice_optimum(data, shape, capped_example, capped_weight));
    }
  }
  return best;
}

}  // namespace

TEST_CASE("global reaches the brute-force minimum over all 2^(n+d) choices of capped terms", "[global][mip]") {
  struct Case {
    const char* method;
    Shape shape;
  };
  const std::vector<Case> cases = {
      {"RLSVM1-global", {true, 1.0, false, 1.0, 0.0}},
      {"RLSVM1-global", {true, 0.5, false, 1.0, 0.0}},
      {"RLSVMC1-global", {true, 1.0, true, 1.0, 0.0}},
      {"CapOneNormSVM-global", {false, 1.0, true, 1.0, 0.0}},
      {"CapOneNormSVM-global", {false, 1.0, true, 0.3, 0.0}},
  };
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    // n = 9 examples in d = 3 dimensions, one of them informative: overlapping classes, some outliers.
    const core::Dataset data = testing::random_problem(9, 3, seed, 1);
    for (Case c : cases) {
      for (const double lambda : {0.05, 0.5, 2.0}) {
        c.shape.lambda = lambda;
        INFO(c.method << " seed " << seed << " lambda " << lambda << " mu " << c.shape.mu << " a " << c.shape.a);
        const double expected = brute_force(data, c.shape);
        models::Hyperparameters given{{"lambda", lambda}};
        if (c.shape.ramp) given["mu"] = c.shape.mu;
        // Capped-l1 bounds no weight: the box must hold the brute force's optimum (seed 3 at lambda 0.05 needs
        // |w_2| = 41.7, the derived box's face).
        if (c.shape.capped) {
          given["a"] = c.shape.a;
          given["weight_bound"] = 1e4;
        }
        models::Workspace workspace(data);
        const models::FitReport fit = models::fit_method(c.method, given, workspace);
        INFO(fit.message << " W " << fit.statistics.at("mip_weight_bound") << " w " << fit.model.w().transpose() << " F " << fit.objective << " brute " << expected);
        // Closed gaps; over capped-l1's search box (which the objective does not imply) only feasible.
        REQUIRE(fit.status == (c.shape.capped ? core::Status::feasible : core::Status::optimal));
        CHECK(fit.certificate_kind == std::string(c.shape.capped ? models::kRestrictedMipGap : models::kMipGap));
        CHECK(fit.statistics.at("mip_closed") == 1.0);
        CHECK(fit.objective == Approx(expected).epsilon(1e-6).margin(1e-9));
        CHECK(fit.statistics.at("mip_best_bound") <= expected + 1e-6 * std::max(1.0, expected));
        CHECK(fit.statistics.at("mip_relative_gap") <= 1e-6);
        // The MIP never does worse than its start, the method's DCA answer.
        CHECK(fit.objective <= fit.objective_trace.front() + 1e-12);
      }
    }
  }
}

TEST_CASE("global certifies capped-l1 over its box and says when the box binds", "[global][mip]") {
  // Separable in x1 with a tiny margin: zero loss needs |w_1| >= 1 / 0.01 = 100. Over |w_1| <= W < 100 the
  // best is w_1 = 0 (F = 2, both hinges 1) or w_1 = W (F = 2 (1 - 0.01 W) + lambda a once W > a = 1).
  core::DenseMatrix x(2, 1);
  x << 0.01, -0.01;
  const core::Dataset data("narrow", x, (core::Vector(2) << 1.0, -1.0).finished(), {}, {});
  models::Workspace workspace(data);
  const auto fit = [&](double weight_bound) {
    return models::fit_method("CapOneNormSVM-global", {{"lambda", 0.1}, {"weight_bound", weight_bound}}, workspace);
  };
  // Every answer is optimal over its box only (status feasible, mip_closed 1): the derived box's answer
  // below is 19 times the true minimum, which is why a closed gap over a box is no certificate.
  const models::FitReport small = fit(2.0);  // 2 (1 - 0.02) + 0.1 = 2.06 > 2: w = 0 inside the box
  REQUIRE(small.status == core::Status::feasible);
  CHECK(small.statistics.at("mip_closed") == 1.0);
  CHECK(small.objective == Approx(2.0));
  CHECK(small.statistics.at("mip_box_binding") == 0.0);
  // The derived box, 10 max(a, |w_start|) = 10 (DCA stays at w = 0 here): 2 (1 - 0.1) + 0.1 = 1.9 on the face.
  const models::FitReport derived = fit(0.0);
  REQUIRE(derived.status == core::Status::feasible);
  CHECK(derived.statistics.at("mip_weight_bound") == Approx(10.0));
  CHECK(derived.objective == Approx(1.9));
  CHECK(derived.statistics.at("mip_box_binding") == 1.0);
  // Brute force (no box): w = 100 (capped: lambda a = 0.1) and b = 0 make both hinges zero.
  const double expected = brute_force(data, {false, 1.0, true, 1.0, 0.1});
  CHECK(expected == Approx(0.1));
  const models::FitReport wide = fit(200.0);
  REQUIRE(wide.status == core::Status::feasible);
  CHECK(wide.statistics.at("mip_closed") == 1.0);
  CHECK(wide.objective == Approx(expected).epsilon(1e-6));
  CHECK(wide.statistics.at("mip_box_binding") == 0.0);
}

TEST_CASE("global does not certify an optimum when its big-M is beyond Cbc's tolerances", "[global][mip]") {
  // Unscaled features near 1e5 make M about 4e7: Cbc answered `optimal` at F = 2.2 here, twice the true
  // minimum 1.1 (w = 3.59e-6, b = 0.39; found by a reviewer's enumeration of the arrangement's vertices).
  core::DenseMatrix x(4, 1);
  x << -81001.82, 53978.996, 63793.386, -136747.634;
  const core::Dataset data("unscaled", x, (core::Vector(4) << 1.0, -1.0, 1.0, -1.0).finished(), {}, {});
  models::Workspace workspace(data);
  const models::FitReport fit = models::fit_method("RLSVM1-global", {{"lambda", 0.160953785838346}, {"mu", 0.1}}, workspace);
  CHECK(fit.statistics.at("mip_big_m") > 1e6);
  CHECK(fit.status != core::Status::optimal);
  // The reviewer's point is far better than the MILP's answer, so an `optimal` here would have been wrong.
  const models::MethodInfo& method = models::find_method("RLSVM1-global");
  const models::Objective objective = models::make_objective(
      method, models::resolve_hyperparameters(method, {{"lambda", 0.160953785838346}, {"mu", 0.1}}), data);
  CHECK(objective.value(data, (core::Vector(1) << 3.59e-6).finished(), 0.3906) < fit.objective - 0.5);
}

TEST_CASE("global does not certify an optimum when its weights' bound is beyond Cbc's tolerances", "[global][mip]") {
  // A reviewer's case: every feature x 1e-7 and lambda x 1e-7 is the same problem (w' = 1e7 w), with a small
  // big-M (128) but weights bounded by about 2e8. Cbc answered `optimal` with F and bound 0.15% above the
  // unscaled problem's proven minimum. Trusting Cbc by its big-M alone fails here.
  const core::Dataset data = data::generate("psi_quadratic:n=30,case=2,seed=1");
  const core::Dataset scaled = testing::scaled_features(data, core::Vector::Constant(static_cast<Eigen::Index>(data.d()), 1e-7));
  models::Workspace workspace(data), scaled_workspace(scaled);
  const models::FitReport fit = models::fit_method("RLSVM1-global", {{"lambda", 0.5}}, workspace);
  const models::FitReport scaled_fit = models::fit_method("RLSVM1-global", {{"lambda", 0.5e-7}}, scaled_workspace);
  REQUIRE(fit.status == core::Status::optimal);
  INFO("unscaled minimum " << fit.objective << ", scaled answer " << scaled_fit.objective << " ("
                           << core::to_string(scaled_fit.status) << "), its bound " << scaled_fit.statistics.at("mip_best_bound"));
  CHECK(scaled_fit.statistics.at("mip_best_bound") <= fit.objective * (1 + 1e-6));
  if (scaled_fit.status == core::Status::optimal) CHECK(scaled_fit.objective == Approx(fit.objective).epsilon(1e-6));
}

TEST_CASE("an untrusted MILP scale's note names which of the big-M and the weight bound is above the limit",
          "[global][mip]") {
  // The note said "big-M (1.07e+07) or weight bound (6.22e+04) is above 1e+06" where only the big-M was.
  const double limit = models::kLargestTrustedMipScale;
  const auto note = [](double big_m, double weight_bound) { return models::MipScale{big_m, weight_bound}.untrusted_note(); };
  CHECK(note(limit, limit).empty());
  CHECK(note(limit, std::numeric_limits<double>::infinity()).empty());  // weights unbounded: only the big-M counts
  CHECK_THAT(note(1.07e7, 6.22e4),
             Catch::StartsWith("the MILP's big-M (1.07e+07) is above 1e+06: ") && !Catch::Contains("weight bound ("));
  CHECK_THAT(note(128, 2e8),
             Catch::StartsWith("the MILP's weight bound (2e+08) is above 1e+06: ") && !Catch::Contains("big-M ("));
  CHECK_THAT(note(2e7, 3e7), Catch::StartsWith("the MILP's big-M (2e+07) and weight bound (3e+07) are above 1e+06: "));
}

TEST_CASE("global stops at its wall-clock limit even inside the root LP, and proves nothing there", "[global][mip]") {
  // 6000 columns: the root LP alone ran 49 s past a 2 s limit, and once stopped, Cbc called the MIP
  // infeasible. The fit keeps its DCA start with status feasible.
  const core::Dataset data = testing::random_problem(60, 6000, 4, 2);
  models::Workspace workspace(data);
  const models::FitReport fit =
      models::fit_method("RLSVMC1-global", {{"lambda", 0.01}, {"time_limit", 1.0}}, workspace);
  CHECK(fit.status == core::Status::feasible);
  CHECK(fit.statistics.at("mip_seconds") < 10.0);
  CHECK(fit.objective <= fit.objective_trace.front());
}

TEST_CASE("global's limits cover its DCA start: a start that used the time limit leaves no search", "[global][mip]") {
  // `fit -m RLSVMC1-global --time_limit 5` took 7.2 s on german: the limit started after the DCA start.
  // Here the DCA start alone takes longer than the 0.02 s limit (checked below), and the MILP would have
  // run for 0.02 s had the limit started after it: the start's point must stand, stopped by the wall
  // clock, with no MILP solved.
  const core::Dataset data = testing::random_problem(3000, 40, 4, 3);
  models::Workspace workspace(data);
  const double limit = 0.02;
  const models::FitReport fit = models::fit_method("RLSVMC1-global", {{"lambda", 0.1}, {"time_limit", limit}}, workspace);
  REQUIRE(fit.seconds > limit);  // the start's seconds are in fit.seconds, and no search ran
  CHECK(fit.status == core::Status::feasible);
  CHECK(fit.stop_reason == models::kTimeLimitStop);
  CHECK(fit.iterations == 0);  // no MILP (inner_solves counts the start's solves)
  CHECK(fit.statistics.at("mip_nodes") == 0.0);
  CHECK(fit.statistics.at("mip_lp_iterations") == 0.0);
  CHECK_THAT(fit.message, Catch::Contains("depends on the machine"));
}
