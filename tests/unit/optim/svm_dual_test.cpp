#include <catch2/catch.hpp>


#include "../models/toy_problems.hpp"
#include "core/rng.hpp"
#include "optim/clp_qp.hpp"
#include "optim/svm_dual.hpp"

using namespace sparsesvm;

namespace {

optim::SvmDualProblem random_problem_data(core::Rng& rng, std::size_t n, std::size_t d) {
  optim::SvmDualProblem p;
  p.lambda = rng.uniform(0.2, 2.0);
  p.upper = core::Vector::Constant(static_cast<Eigen::Index>(n), 1.0);
  p.margin = core::Vector::Constant(static_cast<Eigen::Index>(n), 1.0);
  p.tilt_w = core::Vector::Zero(static_cast<Eigen::Index>(d));
  for (Eigen::Index i = 0; i < p.upper.size(); ++i) {
    p.upper[i] = rng.uniform(0.5, 2.0);
    p.margin[i] = rng.uniform(0.3, 1.0);
  }
  for (Eigen::Index j = 0; j < p.tilt_w.size(); ++j) p.tilt_w[j] = rng.uniform(-0.5, 0.5);
  p.tilt_b = rng.uniform(-0.4, 0.4);
  return p;
}

}  // namespace

TEST_CASE("SMO closes the duality gap and matches Clp's QP on random problems", "[optim][smo]") {
  core::Rng rng(31);
  for (int trial = 0; trial < 8; ++trial) {
    const core::Dataset data = testing::random_problem(30, 4, 100 + static_cast<std::uint64_t>(trial));
    const optim::SvmDualProblem problem = random_problem_data(rng, data.n(), data.d());
    const optim::SvmDualSolver solver(data);
    const optim::SvmDualSolution solution = solver.solve(problem, core::Vector(), {1e-8, 10'000'000});
    REQUIRE(solution.status == core::Status::optimal);
    // Weak duality: dual <= primal always; a near-zero gap certifies both are optimal.
    CHECK(solution.dual_objective <= solution.primal_objective + 1e-9);
    CHECK(solution.primal_objective - solution.dual_objective < 1e-6 * (1.0 + std::abs(solution.primal_objective)));
    // Dual feasibility: box and equality sum y alpha = -kappa.
    CHECK((solution.alpha.array() >= -1e-12).all());
    CHECK(((solution.alpha - problem.upper).array() <= 1e-12).all());
    CHECK(data.labels().dot(solution.alpha) == Approx(-problem.tilt_b).margin(1e-9));
    // A second algorithm on the same objective: Clp's primal QP simplex.
    const optim::ClpQpSolution reference = optim::solve_svm_primal_with_clp(data, problem);
    REQUIRE(reference.status == core::Status::optimal);
    CHECK(solution.primal_objective == Approx(reference.objective).epsilon(1e-6));
    CHECK((solution.w - reference.w).norm() < 1e-3);
  }
}

TEST_CASE("SMO warm starts reach the same optimum in fewer updates", "[optim][smo]") {
  const core::Dataset data = testing::random_problem(80, 5, 7);
  const optim::SvmDualSolver solver(data);
  optim::SvmDualProblem problem;
  problem.lambda = 1.0;
  problem.upper = core::Vector::Ones(80);
  problem.margin = core::Vector::Ones(80);
  const optim::SvmDualSolution first = solver.solve(problem, core::Vector());
  problem.lambda = 0.8;
  const optim::SvmDualSolution cold = solver.solve(problem, core::Vector());
  const optim::SvmDualSolution warm = solver.solve(problem, first.alpha);
  CHECK(warm.primal_objective == Approx(cold.primal_objective).epsilon(1e-6));
  CHECK(warm.iterations < cold.iterations);
}

TEST_CASE("an unreachable equality constraint is reported infeasible", "[optim][smo]") {
  const core::Dataset data = testing::two_points();
  optim::SvmDualProblem problem;
  problem.upper = core::Vector::Ones(2);
  problem.margin = core::Vector::Ones(2);
  problem.tilt_b = -5.0;  // needs sum y alpha = 5, at most 1 with one positive example and C = 1
  CHECK(optim::SvmDualSolver(data).solve(problem, core::Vector()).status == core::Status::infeasible);
}

TEST_CASE("SMO on data whose inner products overflow reports numerical_error, not w = 0 optimal", "[optim][smo]") {
  core::DenseMatrix x(2, 1);
  x << 1e160, -1e160;
  const core::Dataset data("overflow", x, (core::Vector(2) << 1, -1).finished(), {}, {});
  optim::SvmDualProblem problem;
  problem.upper = core::Vector::Ones(2);
  problem.margin = core::Vector::Ones(2);
  const optim::SvmDualSolution solution = optim::SvmDualSolver(data).solve(problem, core::Vector());
  CHECK(solution.status == core::Status::numerical_error);
  CHECK_THAT(solution.message, Catch::Contains("overflow"));
}
