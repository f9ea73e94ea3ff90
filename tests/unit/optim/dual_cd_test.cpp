#include <catch2/catch.hpp>

#include <cmath>

#include "../models/toy_problems.hpp"
#include "core/rng.hpp"
#include "optim/clp_qp.hpp"
#include "optim/dual_cd.hpp"
#include "optim/svm_dual.hpp"

using namespace sparsesvm;

namespace {

// A DCA-step-like problem: per-example bounds and margins, a tilt on w and b.
optim::DualCdProblem random_step_problem(core::Rng& rng, std::size_t n, std::size_t d, bool with_tilt) {
  optim::DualCdProblem p;
  p.lambda = rng.uniform(0.05, 2.0);
  p.upper = core::Vector(static_cast<Eigen::Index>(n));
  p.margin = core::Vector(static_cast<Eigen::Index>(n));
  for (Eigen::Index i = 0; i < p.upper.size(); ++i) {
    p.upper[i] = rng.uniform(0.5, 2.0);
    p.margin[i] = rng.uniform(0.3, 1.0);
  }
  if (with_tilt) {
    p.tilt_w = core::Vector(static_cast<Eigen::Index>(d));
    for (Eigen::Index j = 0; j < p.tilt_w.size(); ++j) p.tilt_w[j] = rng.uniform(-0.5, 0.5);
    p.tilt_b = rng.uniform(-0.4, 0.4);
  }
  return p;
}

core::Dataset with_constant_column(const core::Dataset& data, double s) {
  core::DenseMatrix x(data.dense().rows(), data.dense().cols() + 1);
  x << data.dense(), core::DenseMatrix::Constant(x.rows(), 1, s);
  return core::Dataset("augmented", x, data.labels(), {}, {});
}

core::Dataset as_sparse(const core::Dataset& data) {
  core::SparseMatrix x = data.dense().sparseView();
  return core::Dataset("sparse", x, data.labels(), {}, {});
}

// Weak duality and a certified gap.
void check_certificate(const optim::DualCdSolution& solution, double relative_gap) {
  REQUIRE(solution.status == core::Status::optimal);
  CHECK(solution.dual_objective <= solution.primal_objective + 1e-9 * (1.0 + std::abs(solution.primal_objective)));
  CHECK(solution.primal_objective - solution.dual_objective <= relative_gap * std::abs(solution.primal_objective) + 1e-12);
}

}  // namespace

TEST_CASE("dual CD with an unpenalized bias matches Clp's QP on DCA-step problems", "[optim][dual_cd]") {
  core::Rng rng(7);
  for (int trial = 0; trial < 8; ++trial) {
    const core::Dataset data = testing::random_problem(40, 5, 300 + static_cast<std::uint64_t>(trial));
    const optim::DualCdProblem problem = random_step_problem(rng, data.n(), data.d(), trial % 2 == 0);
    const optim::DualCdSolution solution = optim::DualCdSolver(data).solve(problem, core::Vector());
    check_certificate(solution, 1e-6);
    // Dual feasibility of the returned alpha: inside the box.
    CHECK((solution.alpha.array() >= 0).all());
    CHECK(((solution.alpha - problem.upper).array() <= 1e-12).all());
    const optim::ClpQpSolution reference = optim::solve_svm_primal_with_clp(data, problem);
    REQUIRE(reference.status == core::Status::optimal);
    CHECK(solution.primal_objective == Approx(reference.objective).epsilon(1e-5));
    CHECK((solution.w - reference.w).norm() < 1e-2 * (1.0 + reference.w.norm()));
  }
}

TEST_CASE("dual CD with a regularized bias solves the SVM on data with a constant column (liblinear -B)", "[optim][dual_cd]") {
  core::Rng rng(11);
  for (const double s : {1.0, 3.0}) {
    const core::Dataset data = testing::random_problem(50, 4, 17);
    optim::DualCdProblem problem = random_step_problem(rng, data.n(), data.d(), false);
    problem.bias = optim::BiasMode::regularized;
    problem.bias_feature = s;
    optim::DualCdOptions options;
    options.bias_guess = 2.5;  // a guess for an unpenalized bias: a regularized one must ignore it
    const optim::DualCdSolution solution = optim::DualCdSolver(data).solve(problem, core::Vector(), options);
    check_certificate(solution, 1e-6);
    // The same problem as a QP with the bias as an ordinary, penalized weight of the column s and no b.
    const optim::ClpQpSolution reference =
        optim::solve_svm_primal_with_clp(with_constant_column(data, s), problem, /*with_bias=*/false);
    REQUIRE(reference.status == core::Status::optimal);
    CHECK(solution.primal_objective == Approx(reference.objective).epsilon(1e-5));
    CHECK(solution.b == Approx(s * reference.w[4]).margin(1e-3));
  }
}

TEST_CASE("dual CD gives the same solution on dense and on CSR data, and warm starts save epochs", "[optim][dual_cd]") {
  core::Rng rng(3);
  const core::Dataset dense = testing::random_problem(120, 8, 5);
  const core::Dataset sparse = as_sparse(dense);
  const optim::DualCdProblem problem = random_step_problem(rng, dense.n(), dense.d(), true);
  const optim::DualCdSolution a = optim::DualCdSolver(dense).solve(problem, core::Vector());
  const optim::DualCdSolution b = optim::DualCdSolver(sparse).solve(problem, core::Vector());
  check_certificate(a, 1e-6);
  check_certificate(b, 1e-6);
  CHECK(a.primal_objective == Approx(b.primal_objective).epsilon(1e-6));
  const optim::DualCdSolution warm = optim::DualCdSolver(dense).solve(problem, a.alpha);
  check_certificate(warm, 1e-6);
  CHECK(warm.epochs < a.epochs);
}

TEST_CASE("dual CD on re-weighted columns equals dual CD on the scaled data", "[optim][dual_cd]") {
  const core::Dataset data = testing::random_problem(60, 6, 21);
  core::Vector v(6);
  v << 1.5, 0.2, 0.0, 1.0, 0.7, 2.0;
  core::DenseMatrix scaled = data.dense() * v.asDiagonal();
  const core::Dataset scaled_data("scaled", scaled, data.labels(), {}, {});
  for (const optim::SvmLoss loss : {optim::SvmLoss::hinge, optim::SvmLoss::squared_hinge}) {
    optim::DualCdProblem problem;
    problem.lambda = 0.5;  // (1/2)||w'||^2 + C sum loss, C = 1
    problem.upper = core::Vector::Ones(60);
    problem.margin = core::Vector::Ones(60);
    problem.loss = loss;
    problem.bias = optim::BiasMode::regularized;
    optim::DualCdProblem weighted = problem;
    weighted.feature_scale = v;
    const optim::DualCdSolution on_scaled = optim::DualCdSolver(scaled_data).solve(problem, core::Vector());
    const optim::DualCdSolution reweighted = optim::DualCdSolver(data).solve(weighted, core::Vector());
    check_certificate(on_scaled, 1e-6);
    check_certificate(reweighted, 1e-6);
    // w on the original features is w' v: the weights on the scaled data times v.
    CHECK((reweighted.w - on_scaled.w.cwiseProduct(v)).norm() < 1e-3 * (1.0 + on_scaled.w.norm()));
    CHECK(reweighted.w[2] == 0.0);
    CHECK(reweighted.primal_objective == Approx(on_scaled.primal_objective).epsilon(1e-6));
  }
}

TEST_CASE("dual CD with the squared hinge satisfies the primal optimality conditions", "[optim][dual_cd]") {
  // The L2-loss primal is differentiable: 2 lambda w = 2 sum_i C_i r_i y_i x_i and sum_i C_i r_i y_i = 0
  // (unpenalized b), r_i = max(0, m_i - y_i f(x_i)).
  const core::Dataset data = testing::random_problem(80, 5, 9);
  optim::DualCdProblem problem;
  problem.lambda = 0.3;
  problem.upper = core::Vector::Constant(80, 0.7);
  problem.margin = core::Vector::Ones(80);
  problem.loss = optim::SvmLoss::squared_hinge;
  optim::DualCdOptions options;
  options.relative_gap = 1e-10;
  const optim::DualCdSolution solution = optim::DualCdSolver(data).solve(problem, core::Vector(), options);
  check_certificate(solution, 1e-10);
  const core::Vector f = (data.times(solution.w).array() + solution.b).matrix();
  core::Vector weighted_residual(80);
  for (Eigen::Index i = 0; i < 80; ++i) {
    weighted_residual[i] = problem.upper[i] * std::max(0.0, 1.0 - data.labels()[i] * f[i]) * data.labels()[i];
  }
  CHECK((2 * problem.lambda * solution.w - 2 * data.transpose_times(weighted_residual)).norm() < 1e-4);
  CHECK(std::abs(weighted_residual.sum()) < 1e-4);
}

TEST_CASE("dual CD agrees with SMO on d >> n separable data", "[optim][dual_cd]") {
  const core::Dataset data = testing::random_problem(40, 2000, 12, 5);
  optim::SvmDualProblem base{1e-3, core::Vector::Ones(40), core::Vector::Ones(40), core::Vector(), 0.0};
  optim::DualCdProblem problem;
  static_cast<optim::SvmDualProblem&>(problem) = base;
  const optim::DualCdSolution cd = optim::DualCdSolver(data).solve(problem, core::Vector());
  const optim::SvmDualSolution smo = optim::SvmDualSolver(data).solve(base, core::Vector());
  check_certificate(cd, 1e-6);
  REQUIRE(smo.status == core::Status::optimal);
  CHECK(cd.primal_objective == Approx(smo.primal_objective).epsilon(2e-6));
}

TEST_CASE("dual CD reports an unreachable equality constraint as infeasible", "[optim][dual_cd]") {
  const core::Dataset data = testing::two_points();
  optim::DualCdProblem problem;
  problem.upper = core::Vector::Ones(2);
  problem.margin = core::Vector::Ones(2);
  problem.tilt_b = 5.0;  // needs sum y alpha = -2.5 with alpha in [0, 0.5]
  CHECK(optim::DualCdSolver(data).solve(problem, core::Vector()).status == core::Status::infeasible);
}
