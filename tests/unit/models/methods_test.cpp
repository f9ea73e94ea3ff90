#include <catch2/catch.hpp>

#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>
#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "data/generators/generator_registry.hpp"
#include "models/methods.hpp"
#include "toy_problems.hpp"

using namespace sparsesvm;
using namespace sparsesvm::models;

namespace {

FitReport fit(const std::string& method, const core::Dataset& data, Hyperparameters h = {}) {
  StepSolver solver(data);
  return fit_method(method, h, solver);
}

}  // namespace

TEST_CASE("two points: 1-norm and 2-norm SVM solutions in closed form", "[methods]") {
  // x = +-1 with labels +-1: margins t = w + b and w - b. For the 1-norm SVM with lambda < 2 the
  // optimum is w = 1, b = 0, F = lambda (shrinking w below 1 costs 2 per unit of hinge, saves lambda).
  // For the 2-norm SVM, F(w) = 2 (1 - w) + lambda w^2 on w <= 1: w = 1/lambda when lambda >= 1,
  // F = 2 - 1/lambda; w = 1, F = lambda when lambda < 1. The second feature (0.5 for both points) is
  // absorbed by b and must get weight 0 from the sparse methods.
  const core::Dataset data = testing::two_points();
  const FitReport l1 = fit("OneNormSVM", data, {{"lambda", 0.5}});
  REQUIRE(l1.status == core::Status::optimal);
  CHECK(l1.model.w()[0] == Approx(1.0));
  CHECK(l1.model.w()[1] == Approx(0.0).margin(1e-9));
  CHECK(l1.objective == Approx(0.5));

  const FitReport l2 = fit("SVM", data, {{"lambda", 2.0}});
  REQUIRE(l2.status == core::Status::optimal);
  CHECK(l2.model.w()[0] == Approx(0.5).margin(1e-4));
  CHECK(l2.objective == Approx(1.5).margin(1e-6));
  const FitReport l2_small = fit("SVM", data, {{"lambda", 0.5}});
  CHECK(l2_small.model.w()[0] == Approx(1.0).margin(1e-4));
  CHECK(l2_small.objective == Approx(0.5).margin(1e-6));

  const FitReport heavy = fit("OneNormSVM", data, {{"lambda", 3.0}});  // lambda > 2: w = 0, F = 2
  CHECK(heavy.model.count_nonzeros() == 0);
  CHECK(heavy.objective == Approx(2.0));
}

TEST_CASE("SVM-inf spreads weight evenly where SVM-1 cannot (FSV (12) vs (13))", "[methods]") {
  // Points (1, 1) +1 and (-1, -1) -1. With ||w||_inf = nu the best w is (nu, nu), margins 2 nu; for
  // lambda < 8/9, (1 - lambda) 2 max(0, 1 - 2 nu) + (lambda / 2) nu is minimized at nu = 1/2, so
  // w = (0.5, 0.5), b = 0 and F = lambda / 4.
  core::DenseMatrix x(2, 2);
  x << 1, 1, -1, -1;
  const core::Dataset data("diagonal", x, (core::Vector(2) << 1, -1).finished(), {}, {});
  const FitReport linf = fit("SVM-inf", data, {{"lambda", 0.5}});
  REQUIRE(linf.status == core::Status::optimal);
  CHECK(linf.model.w()[0] == Approx(0.5));
  CHECK(linf.model.w()[1] == Approx(0.5));
  CHECK(linf.model.b() == Approx(0.0).margin(1e-9));
  CHECK(linf.objective == Approx(0.125));
  // SVM-1 needs w1 + w2 >= 1 as well, but pays ||w||_1 >= 1 for it: F = lambda / 2, twice as much.
  CHECK(fit("SVM-1", data, {{"lambda", 0.5}}).objective == Approx(0.25));
}

TEST_CASE("convex methods: no random perturbation lowers the objective", "[methods]") {
  const core::Dataset data = testing::random_problem(40, 5, 11);
  core::Rng rng(2);
  for (const std::string name : {"SVM", "OneNormSVM", "RLP", "SVM-inf", "SVM-1", "SVM-2"}) {
    const MethodInfo& method = find_method(name);
    const Hyperparameters h = resolve_hyperparameters(method, {});
    const Objective objective = make_objective(method, h, data);
    const FitReport report = fit(name, data);
    REQUIRE(report.status == core::Status::optimal);
    INFO("method " << name);
    for (int trial = 0; trial < 200; ++trial) {
      core::Vector w = report.model.w();
      for (Eigen::Index j = 0; j < w.size(); ++j) w[j] += rng.normal(0.0, 0.05);
      const double b = report.model.b() + rng.normal(0.0, 0.05);
      CHECK(objective.value(data, w, b) >= report.objective - 1e-6 * (1 + std::abs(report.objective)));
    }
  }
}

TEST_CASE("DCA never increases F, ends in finitely many steps, no worse than its start", "[methods][dca]") {
  for (std::uint64_t seed : {1, 2, 3}) {
    const core::Dataset data = data::generate(fmt::format("dca_gaussians:noise_dims=20,flip_count=10,seed={}", seed));
    for (const std::string name : {"ZeroNormSVM", "CapOneNormSVM", "RLSVM2", "RLSVM1", "RLSVM0", "RLSVMC1", "FSV"}) {
      for (double lambda : {0.1, 0.5}) {
        const FitReport report = fit(name, data, {{"lambda", lambda}});
        INFO(name << " lambda=" << lambda << " seed=" << seed << ": " << report.brief());
        REQUIRE(core::has_solution(report.status));
        CHECK(report.iterations < 200);
        for (std::size_t k = 1; k < report.objective_trace.size(); ++k) {
          CHECK(report.objective_trace[k] <= report.objective_trace[k - 1] + 1e-9);
        }
        CHECK(report.objective == report.objective_trace.back());
        CHECK(report.objective <= report.objective_trace.front());
      }
    }
  }
}

TEST_CASE("RLSVM1 with mu = 1 equals OneNormSVM when no point lies beyond -mu^2", "[methods][dca]") {
  // When every margin of the starting OneNormSVM solution is >= -1, the ramp's concave part has zero
  // slope, the DCA step is the OneNormSVM LP itself, and DCA stops at once.
  const core::Dataset data = data::generate("dca_gaussians:n=60,seed=4");  // nearly separable
  const FitReport one_norm = fit("OneNormSVM", data, {{"lambda", 0.5}});
  const core::Vector t = margins(data, one_norm.model.w(), one_norm.model.b());
  REQUIRE(t.minCoeff() >= -1.0);
  const FitReport ramp = fit("RLSVM1", data, {{"lambda", 0.5}, {"mu", 1.0}});
  CHECK((ramp.model.w() - one_norm.model.w()).lpNorm<1>() < 1e-7);
  CHECK(ramp.objective == Approx(one_norm.objective));
}

TEST_CASE("CapOneNormSVM with a cap above every weight equals OneNormSVM", "[methods][dca]") {
  // With |w_j| < a for all j, h = sum max(0, |w_j| - a) has zero subgradient: DCA stops at its start.
  const core::Dataset data = testing::random_problem(50, 6, 9);
  const FitReport one_norm = fit("OneNormSVM", data, {{"lambda", 1.0}});
  const double cap = one_norm.model.w().lpNorm<Eigen::Infinity>() + 1.0;
  const FitReport capped = fit("CapOneNormSVM", data, {{"lambda", 1.0}, {"a", cap}});
  CHECK((capped.model.w() - one_norm.model.w()).lpNorm<1>() < 1e-7);
}

namespace {

// [FSV] Algorithm 2.1 written out directly: LP (9) over (w, gamma, y, z, v) with the plane x'w = gamma,
// from v^0 = 0, stopping by (10). Returns (w, b = -gamma, iterations).
struct SlaResult {
  core::Vector w;
  double b;
  int iterations;
};

SlaResult direct_sla(const core::Dataset& data, double lambda, double alpha) {
  const int n = static_cast<int>(data.n());
  const int d = static_cast<int>(data.d());
  const double m = static_cast<double>(data.count_positive());
  const double k = static_cast<double>(data.count_negative());
  // Columns: w (d, free), gamma (free), slack s_i (n: y for A, z for B), v (d).
  const int columns = d + 1 + n + d;
  const int v0 = d + 1 + n;
  CoinPackedMatrix matrix(false, 0, 0);
  matrix.setDimensions(0, columns);
  std::vector<double> row_lower;
  for (int i = 0; i < n; ++i) {
    // A_i: y_i + A_i w - gamma >= 1;   B_l: z_l - B_l w + gamma >= 1.
    const double sign = data.labels()[i];
    std::vector<int> index;
    std::vector<double> value;
    for (int j = 0; j < d; ++j) {
      index.push_back(j);
      value.push_back(sign * data.dense()(i, j));
    }
    index.push_back(d);
    value.push_back(-sign);
    index.push_back(d + 1 + i);
    value.push_back(1.0);
    matrix.appendRow(static_cast<int>(index.size()), index.data(), value.data());
    row_lower.push_back(1.0);
  }
  for (int j = 0; j < d; ++j) {  // v - w >= 0 and v + w >= 0
    const int index_minus[] = {j, v0 + j};
    const double value_minus[] = {-1.0, 1.0};
    matrix.appendRow(2, index_minus, value_minus);
    const double value_plus[] = {1.0, 1.0};
    matrix.appendRow(2, index_minus, value_plus);
    row_lower.push_back(0.0);
    row_lower.push_back(0.0);
  }
  std::vector<double> column_lower(columns, 0.0), column_upper(columns, COIN_DBL_MAX), cost(columns, 0.0);
  for (int j = 0; j <= d; ++j) column_lower[j] = -COIN_DBL_MAX;
  for (int i = 0; i < n; ++i) cost[d + 1 + i] = (1 - lambda) / (data.labels()[i] > 0 ? m : k);
  std::vector<double> row_upper(row_lower.size(), COIN_DBL_MAX);
  ClpSimplex model;
  model.setLogLevel(0);
  model.loadProblem(matrix, column_lower.data(), column_upper.data(), cost.data(), row_lower.data(), row_upper.data());

  core::Vector v = core::Vector::Zero(d);
  core::Vector slacks = core::Vector::Zero(n);
  bool first = true;
  for (int iteration = 1;; ++iteration) {
    for (int j = 0; j < d; ++j) model.setObjectiveCoefficient(v0 + j, lambda * alpha * std::exp(-alpha * v[j]));
    model.allSlackBasis(true);
    model.dual();
    REQUIRE(model.status() == 0);
    const double* x = model.primalColumnSolution();
    const core::Vector new_v = Eigen::Map<const core::Vector>(x + v0, d);
    const core::Vector new_slacks = Eigen::Map<const core::Vector>(x + d + 1, n);
    // Stop rule (10): the linearized objective did not change.
    double change = 0.0;
    for (int i = 0; i < n; ++i) change += cost[d + 1 + i] * (new_slacks[i] - slacks[i]);
    for (int j = 0; j < d; ++j) change += lambda * alpha * std::exp(-alpha * v[j]) * (new_v[j] - v[j]);
    v = new_v;
    slacks = new_slacks;
    if ((!first && std::abs(change) < 1e-9) || iteration == 100) {
      return {Eigen::Map<const core::Vector>(x, d), -x[d], iteration};
    }
    first = false;
  }
}

}  // namespace

TEST_CASE("FSV through the shared DCA equals a direct SLA ([FSV] Algorithm 2.1)", "[methods][dca]") {
  for (std::uint64_t seed : {5, 6}) {
    const core::Dataset data = testing::random_problem(60, 8, seed, 3);
    for (double lambda : {0.05, 0.2}) {
      const SlaResult sla = direct_sla(data, lambda, 5.0);
      const FitReport fsv = fit("FSV", data, {{"lambda", lambda}, {"a", 5.0}});
      const Objective objective = make_objective(find_method("FSV"), {{"lambda", lambda}, {"a", 5.0}}, data);
      INFO("seed " << seed << " lambda " << lambda << ": " << fsv.brief());
      CHECK(fsv.objective == Approx(objective.value(data, sla.w, sla.b)).epsilon(1e-6));
      CHECK((fsv.model.w() - sla.w).lpNorm<1>() < 1e-5);
      CHECK(fsv.model.b() == Approx(sla.b).margin(1e-6));
    }
  }
}

TEST_CASE("every registered method fits a 20 x 5 set and reports a status", "[methods]") {
  const core::Dataset data = testing::random_problem(20, 5, 1);
  for (const MethodInfo& method : method_registry()) {
    const FitReport report = fit(method.name, data);
    INFO(method.name << ": " << report.brief());
    CHECK(core::has_solution(report.status));
    CHECK(report.model.w().size() == 5);
    CHECK(std::isfinite(report.objective));
    CHECK(report.inner_solves >= 1);
  }
}

TEST_CASE("bad hyperparameters and unknown methods are input errors", "[methods]") {
  const core::Dataset data = testing::random_problem(20, 3, 1);
  StepSolver solver(data);
  CHECK_THROWS_WITH(fit_method("RLSVM9", {}, solver), Catch::Contains("unknown method 'RLSVM9'"));
  CHECK_THROWS_WITH(fit_method("OneNormSVM", {{"mu", 0.5}}, solver),
                    Catch::Contains("method OneNormSVM: unknown hyperparameter 'mu' (known: lambda)"));
  CHECK_THROWS_WITH(fit_method("FSV", {{"lambda", 1.0}}, solver), Catch::Contains("lambda must lie in (0, 1)"));
  CHECK_THROWS_WITH(fit_method("RLSVM1", {{"mu", 0.0}}, solver), Catch::Contains("mu must lie in (0, 1]"));
  core::Vector y = core::Vector::Ones(3);
  const core::Dataset one_class("one", core::DenseMatrix::Ones(3, 2), y, {}, {});
  CHECK_THROWS_WITH(StepSolver(one_class), Catch::Contains("only class +1"));
}
