#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/rng.hpp"
#include "data/generators/generator_registry.hpp"
#include "data/load.hpp"
#include "models/methods.hpp"
#include "models/penalties/penalty.hpp"
#include "models/algorithms/hinge_certificates.hpp"
#include "models/objective.hpp"
#include "optim/ridge_system.hpp"
#include "test_files.hpp"
#include "toy_problems.hpp"

using namespace sparsesvm;
using namespace sparsesvm::models;

namespace {

// (1/2)(x - u)^2 + c p(x), p evaluated through the penalty's value() on a 1-vector.
double prox_objective(const Penalty& penalty, double x, double u, double c) {
  static thread_local core::Vector point(1);
  point[0] = x;
  return 0.5 * (x - u) * (x - u) + c * penalty.value(point);
}

// The smallest prox_objective on a grid of 4001 points over [-|u| - 1, |u| + 1] (the minimizer lies in
// [-|u|, |u|] for a penalty nondecreasing in |x|), refined by a grid of 4001 points around every local
// minimum of the first grid (so that a second basin of nearly equal value is not missed).
double brute_force_minimum(const Penalty& penalty, double u, double c) {
  constexpr int kPoints = 4000;
  const double radius = std::abs(u) + 1.0;
  const double step = 2.0 * radius / kPoints;
  std::vector<double> coarse(kPoints + 1);
  for (int k = 0; k <= kPoints; ++k) coarse[k] = prox_objective(penalty, -radius + step * k, u, c);
  double best = std::min(prox_objective(penalty, 0.0, u, c), prox_objective(penalty, u, u, c));
  for (int k = 0; k <= kPoints; ++k) {
    const bool local_minimum = (k == 0 || coarse[k] <= coarse[k - 1]) && (k == kPoints || coarse[k] <= coarse[k + 1]);
    if (!local_minimum) continue;
    const double lo = -radius + step * (k - 1);
    for (int r = 0; r <= kPoints; ++r) best = std::min(best, prox_objective(penalty, lo + 2.0 * step * r / kPoints, u, c));
  }
  return best;
}

FitReport fit(const std::string& method, const core::Dataset& data, const Hyperparameters& h) {
  Workspace workspace(data);
  return fit_method(method, h, workspace);
}

Hyperparameters with(Hyperparameters h, const Hyperparameters& more) {
  for (const auto& [name, value] : more) h[name] = value;
  return h;
}

// The relative gap (G(x) - min G) / F(x) of the convex majorant of a penalty with a differentiable concave
// part (SCAD, MCP, LSP) at x, from its dual LP solved by Clp directly, every slope read from the penalty's
// value() by finite differences (not from its DC split): with phi(t) = rho p(t) on one weight, s0 =
// phi'(0+) and g_j = s0 sign(x_j) - phi'(x_j) (the tangent of the concave part),
//   G(v, b) = sum_i c_i max(0, 1 - y_i (v'x_i + b)) + sum_j (s0 |v_j| - g_j v_j) + constant,
//   min G - constant = max sum_i alpha_i  s.t.  0 <= alpha_i <= c_i, y'alpha = 0, |X_j'(alpha .* y) + g_j| <= s0.
double independent_majorant_gap(const Objective& objective, const core::Dataset& data, const core::LinearModel& x) {
  core::Vector one(1);
  const auto phi = [&](double t) {
    one[0] = t;
    return objective.penalty_weight * objective.penalty->value(one);
  };
  const auto slope = [&](double t) {
    const double h = 1e-6 * std::max(1.0, std::abs(t));
    return (phi(t + h) - phi(t - h)) / (2.0 * h);
  };
  const double s0 = (phi(1e-9) - phi(0.0)) / 1e-9;
  const auto n = static_cast<Eigen::Index>(data.n());
  const auto d = static_cast<Eigen::Index>(data.d());
  const core::Vector& y = data.labels();
  const core::DenseMatrix& features = data.dense();
  double linear_part = 0.0;  // G(x) - constant
  std::vector<double> row_lower = {0.0}, row_upper = {0.0};
  for (Eigen::Index j = 0; j < d; ++j) {
    const double xj = x.w()[j];
    const double g = xj == 0.0 ? 0.0 : s0 * (xj > 0.0 ? 1.0 : -1.0) - slope(xj);
    linear_part += s0 * std::abs(xj) - g * xj;
    row_lower.push_back(-s0 - g);
    row_upper.push_back(s0 - g);
  }
  std::vector<int> rows, columns;
  std::vector<double> values, lower(static_cast<std::size_t>(n), 0.0), upper, cost(static_cast<std::size_t>(n), -1.0);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double margin = y[i] * (features.row(i).dot(x.w()) + x.b());
    linear_part += objective.example_weights[i] * std::max(0.0, 1.0 - margin);
    upper.push_back(objective.example_weights[i]);
    rows.push_back(0);
    columns.push_back(static_cast<int>(i));
    values.push_back(y[i]);
    for (Eigen::Index j = 0; j < d; ++j) {
      rows.push_back(static_cast<int>(j + 1));
      columns.push_back(static_cast<int>(i));
      values.push_back(y[i] * features(i, j));
    }
  }
  const CoinPackedMatrix matrix(false, rows.data(), columns.data(), values.data(), static_cast<int>(values.size()));
  ClpSimplex model;
  model.setLogLevel(0);
  model.loadProblem(matrix, lower.data(), upper.data(), cost.data(), row_lower.data(), row_upper.data());
  model.dual();
  REQUIRE(model.status() == 0);
  const double value = objective.value(data, x.w(), x.b());
  return (linear_part + model.objectiveValue()) / value;
}

}  // namespace

TEST_CASE("every prox matches brute-force 1-D minimization, region boundaries included", "[penalty][prox]") {
  // shared/ADMM.md, "Proximal operators": x* = argmin (1/2)(x - u)^2 + c p(x). The prox must be at least
  // as good as every grid point (and the grid, refined, within 1e-9 of it). Inputs: random u over the
  // scale of the breakpoints, u on and next to the breakpoints lambda, theta lambda, lambda (1 + c),
  // theta, and steps c on both sides of the convexity conditions theta - 1 > c (SCAD), theta > c (MCP).
  core::Rng rng(11);
  int checked = 0;
  for (const std::string id : {"lsp", "scad", "mcp", "capped", "l1"}) {
    for (int trial = 0; trial < 250; ++trial) {
      const double lambda = std::exp(rng.uniform(std::log(1e-3), std::log(3.0)));
      const double theta = (id == "scad" ? 2.0 : 0.0) + std::exp(rng.uniform(std::log(0.05), std::log(8.0)));
      const double c = std::exp(rng.uniform(std::log(0.01), std::log(10.0)));
      const auto penalty = id == "l1" ? make_penalty(id) : make_penalty(id, {{"lambda", lambda}, {"theta", theta}});
      const double scale = (id == "l1" ? 1.0 : lambda) * (1.0 + c) * std::max(1.0, theta);
      std::vector<double> inputs = {rng.uniform(-3.0 * scale, 3.0 * scale), rng.uniform(-scale, scale)};
      for (const double point : {lambda, theta * lambda, lambda * (1.0 + c), theta, c * lambda, theta + c * lambda}) {
        for (const double nudge : {-1e-9, 0.0, 1e-9}) inputs.push_back((trial % 2 ? 1.0 : -1.0) * (point + nudge));
      }
      for (const double u : inputs) {
        const double x = penalty->prox(u, c);
        const double found = prox_objective(*penalty, x, u, c);
        const double brute = brute_force_minimum(*penalty, u, c);
        INFO(id << " lambda=" << lambda << " theta=" << theta << " c=" << c << " u=" << u << " prox=" << x);
        CHECK(found <= brute + 1e-12 * (1.0 + std::abs(brute)));
        CHECK(found >= brute - 1e-9 * (1.0 + std::abs(brute)));
        CHECK(x * u >= 0.0);  // the prox keeps the sign of u
        ++checked;
      }
    }
  }
  CHECK(checked == 5 * 250 * 20);
}

TEST_CASE("the public code's prox equals the exact one for LSP and capped-l1, not for SCAD and MCP", "[penalty][prox]") {
  // shared/ADMM.md, "Pitfall": the public code evaluates the unit-weight prox at strength lambda/rho1.
  double worst_scad = 0.0, worst_mcp = 0.0;
  for (const std::string id : {"lsp", "capped", "scad", "mcp"}) {
    const auto penalty = make_penalty(id, {{"lambda", 0.5}, {"theta", 3.7}});
    for (double u = -4.0; u <= 4.0; u += 0.01) {
      const double exact = penalty->prox(u, 1.0 / 1.5, ProxRule::exact);
      const double public_code = penalty->prox(u, 1.0 / 1.5, ProxRule::public_code);
      if (id == "lsp" || id == "capped") CHECK(public_code == Approx(exact).margin(1e-12));
      if (id == "scad") worst_scad = std::max(worst_scad, std::abs(public_code - exact));
      if (id == "mcp") worst_mcp = std::max(worst_mcp, std::abs(public_code - exact));
    }
  }
  CHECK(worst_scad > 0.01);
  CHECK(worst_mcp > 0.01);
}

TEST_CASE("the nonconvex penalties: values at their breakpoints, continuity, and the DC weight phi'(0)", "[penalty]") {
  const double lambda = 0.5, theta = 3.7;
  const auto value = [](const std::shared_ptr<const Penalty>& p, double x) {
    return p->value(core::Vector::Constant(1, x));
  };
  const auto scad = make_penalty("scad", {{"lambda", lambda}, {"theta", theta}});
  CHECK(value(scad, lambda) == Approx(lambda * lambda));
  CHECK(value(scad, theta * lambda) == Approx((theta + 1) * lambda * lambda / 2));
  CHECK(value(scad, 100.0) == Approx((theta + 1) * lambda * lambda / 2));
  CHECK(value(scad, lambda + 1e-9) == Approx(lambda * lambda).epsilon(1e-8));
  CHECK(scad->convex_weight() == lambda);
  const auto mcp = make_penalty("mcp", {{"lambda", lambda}, {"theta", theta}});
  CHECK(value(mcp, theta * lambda) == Approx(theta * lambda * lambda / 2));
  CHECK(value(mcp, -1.0) == Approx(lambda - 1.0 / (2 * theta)));
  const auto lsp = make_penalty("lsp", {{"lambda", lambda}, {"theta", 2.0}});
  CHECK(value(lsp, 2.0) == Approx(lambda * std::log(2.0)));
  CHECK(lsp->convex_weight() == Approx(lambda / 2.0));
  const auto capped = make_penalty("capped", {{"lambda", lambda}, {"theta", 2.0}});
  CHECK(value(capped, 5.0) == Approx(lambda * 2.0));
  CHECK(value(capped, -1.0) == Approx(lambda));
}

TEST_CASE("the Gram is formed once; each rho factors it; every regime solves (X'X + rho I) w = q", "[admm]") {
  for (const auto& [n, d] : {std::pair<std::size_t, std::size_t>{30, 8}, {8, 30}}) {
    const core::Dataset dense = testing::random_problem(n, d, 5);
    core::SparseMatrix x = dense.dense().sparseView();
    const core::Dataset sparse("sparse", x, dense.labels(), {}, {});
    core::Rng rng(2);
    core::Vector q(static_cast<Eigen::Index>(d));
    for (Eigen::Index j = 0; j < q.size(); ++j) q[j] = rng.normal(0.0, 1.0);
    for (const core::Dataset* data : {&dense, &sparse}) {
      for (const auto regime : {optim::RidgeRegime::features, optim::RidgeRegime::examples, optim::RidgeRegime::by_shape,
                                optim::RidgeRegime::iterative}) {
        const optim::RidgeGram gram(*data, regime);
        for (const double rho : {0.3, 7.0}) {  // a second rho reuses the Gram
          const core::DenseMatrix system =
              dense.dense().transpose() * dense.dense() + rho * core::DenseMatrix::Identity(q.size(), q.size());
          const core::Vector expected = system.fullPivLu().solve(q);
          const optim::RidgeSystem ridge(gram, rho);
          REQUIRE(ridge.factored());
          CHECK((ridge.solve(q) - expected).norm() <= 1e-9 * expected.norm());
          // Conjugate gradients from a guess (a later ADMM sweep's last w) reach the same answer.
          CHECK((ridge.solve(q, core::Vector::Ones(q.size())) - expected).norm() <= 1e-9 * expected.norm());
        }
      }
    }
    CHECK(optim::RidgeGram(dense).uses_woodbury() == (d > n));
  }
}

namespace {

// `base` with column j multiplied by 10^(j - 2) and shifted by 100 j: raw, badly scaled data.
core::Dataset badly_scaled(const core::Dataset& base) {
  core::DenseMatrix x = base.dense();
  for (Eigen::Index j = 0; j < x.cols(); ++j) {
    const double column = static_cast<double>(j);
    x.col(j) = (x.col(j).array() * std::pow(10.0, column - 2.0) + 100.0 * column).matrix();
  }
  return core::Dataset("badly_scaled", x, base.labels(), {}, {});
}

core::Dataset standardized(const core::Dataset& base) {
  core::DenseMatrix x = base.dense();
  for (Eigen::Index j = 0; j < x.cols(); ++j) {
    const double mean = x.col(j).mean();
    const double sd = std::sqrt((x.col(j).array() - mean).square().mean());
    x.col(j) = ((x.col(j).array() - mean) / sd).matrix();
  }
  return core::Dataset("standardized", x, base.labels(), {}, {});
}

core::Dataset duplicated(const core::Dataset& base) {
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < base.n(); ++i) rows.insert(rows.end(), {i, i});
  return base.subset(rows);
}

}  // namespace

TEST_CASE("ADMM-L1 reaches the LP optimum within 1e-6 relative on raw, standardized and duplicated data", "[admm]") {
  // F = (1/n) sum hinge + lambda ||w||_1 is convex: ADMM's answer must reach OneNormSVM-mean's LP optimum.
  // With gap_tolerance 1e-7 the certificate bounds the distance; the LP's value checks it independently.
  const core::Dataset base = testing::random_problem(80, 10, 21, 3);
  const core::Dataset raw = badly_scaled(base);
  for (const core::Dataset& data : {base, raw, standardized(raw), duplicated(raw)}) {
    for (const double lambda : {0.002, 0.015625, 0.1}) {
      const FitReport lp = fit("OneNormSVM-mean", data, {{"lambda", lambda}});
      const FitReport admm = fit("ADMM-L1", data, {{"lambda", lambda}, {"gap_tolerance", 1e-7}});
      INFO(data.name() << " (n = " << data.n() << "), lambda " << lambda << ": LP " << lp.brief() << "; ADMM " << admm.brief());
      REQUIRE(lp.status == core::Status::optimal);
      REQUIRE(admm.status == core::Status::optimal);
      CHECK(std::abs(admm.objective - lp.objective) <= 1e-6 * lp.objective);
      CHECK(admm.iterations <= 3000);  // measured at most 2950 at this tolerance
    }
  }
}

TEST_CASE("ADMM's iterations do not depend on the data's units; duplicated rows give the same answer", "[admm]") {
  // Scaling every feature by s, lambda by s (l1) or LSP's theta by 1/s leaves F unchanged (w -> w / s):
  // with equilibration the sweeps are the same ones, so are the iteration count and F. s is a power of 2,
  // so that the scaled sweeps are the same up to the last bit (the nonconvex iteration amplifies rounding).
  const core::Dataset base = badly_scaled(testing::random_problem(80, 10, 22, 3));
  const FitReport l1 = fit("ADMM-L1", base, {{"lambda", 0.01}});
  const FitReport lsp = fit("ADMM-LSP", base, {{"lambda", 0.03}, {"theta", 1.0}});
  REQUIRE(l1.status == core::Status::optimal);
  REQUIRE(lsp.status == core::Status::converged);
  for (const double s : {1.0 / 1024, 1024.0}) {
    const core::Dataset scaled("scaled", base.dense() * s, base.labels(), {}, {});
    const FitReport other_l1 = fit("ADMM-L1", scaled, {{"lambda", 0.01 * s}});
    const FitReport other_lsp = fit("ADMM-LSP", scaled, {{"lambda", 0.03}, {"theta", 1.0 / s}});
    INFO("features x " << s << ": l1 " << other_l1.brief() << " (unscaled " << l1.brief() << "); LSP "
                       << other_lsp.brief() << " (unscaled " << lsp.brief() << ")");
    CHECK(other_l1.iterations == l1.iterations);
    CHECK(other_l1.objective == Approx(l1.objective).epsilon(1e-6));
    CHECK(other_lsp.iterations == lsp.iterations);
    CHECK(other_lsp.objective == Approx(lsp.objective).epsilon(1e-6));
  }
  // The mean hinge of duplicated rows is the same function, and with rho2 per example the same sweeps.
  const FitReport twice = fit("ADMM-L1", duplicated(base), {{"lambda", 0.01}});
  const FitReport once = fit("ADMM-L1", base, {{"lambda", 0.01}});
  INFO("duplicated " << twice.brief() << "; once " << once.brief());
  CHECK(twice.objective == Approx(once.objective).epsilon(1e-6));
  CHECK((twice.model.w() - once.model.w()).norm() <= 1e-5 * once.model.w().norm());
}

TEST_CASE("ADMM with d >> n (d = 5000, n = 200) uses the n x n factor, agrees with the d x d one and the LP", "[admm]") {
  // Gene-expression shape: 10 informative features of 5000.
  const core::Dataset data = data::generate("dca_gaussians:n=200,noise_dims=4990,seed=1");
  const double lambda = 0.01;
  const FitReport lp = fit("OneNormSVM-mean", data, {{"lambda", lambda}});
  REQUIRE(lp.status == core::Status::optimal);
  const FitReport by_shape = fit("ADMM-L1", data, {{"lambda", lambda}});
  INFO("LP " << lp.brief() << "; ADMM " << by_shape.brief());
  REQUIRE(by_shape.status == core::Status::optimal);
  CHECK(by_shape.statistics.at("woodbury") == 1.0);
  CHECK(std::abs(by_shape.objective - lp.objective) <= 1e-4 * lp.objective);
  // 300 sweeps with either factor, rho fixed: the same iterates up to rounding.
  const Hyperparameters short_run = {{"lambda", lambda}, {"max_iterations", 300}, {"adapt_rho", 0}};
  const FitReport examples = fit("ADMM-L1", data, short_run);
  const FitReport features = fit("ADMM-L1", data, with(short_run, {{"factorization", 1}}));
  CHECK(features.statistics.at("woodbury") == 0.0);
  CHECK(examples.statistics.at("woodbury") == 1.0);
  CHECK((features.model.w() - examples.model.w()).norm() <= 1e-8 * (1.0 + examples.model.w().norm()));
  CHECK(features.objective == Approx(examples.objective).epsilon(1e-10));
}

TEST_CASE("ADMM on each nonconvex penalty converges to a stationary point near DCA's", "[admm]") {
  // Both from zero (DCA's first step is the 1-norm SVM with weight phi'(0)). Nonconvex: neither is a
  // global optimum, so the check is a margin.
  const core::Dataset data = testing::random_problem(120, 12, 31, 3);
  for (const std::string penalty : {"LSP", "SCAD", "MCP", "Capped"}) {
    const Hyperparameters h = {{"lambda", 0.03}};
    const FitReport admm = fit("ADMM-" + penalty, data, with(h, {{"max_iterations", 50000}}));
    const FitReport dca = fit("DCA-" + penalty, data, h);
    INFO(penalty << ": ADMM " << admm.brief() << "; DCA " << dca.brief());
    REQUIRE(admm.status == core::Status::converged);
    REQUIRE(dca.has_solution());
    CHECK(admm.statistics.at("stationarity") <= 1e-3);
    CHECK(admm.objective <= dca.objective * (1.0 + 1e-3));
  }
}

TEST_CASE("the majorant gap: zero at an optimum and at DCA's fixed point, a bound on the distance elsewhere",
          "[admm][certificate]") {
  // Independent references: the LP optimum of the l1 objective, and DCA's answer for capped-l1 (its last
  // step's LP, which is the majorant's minimum when DCA has converged).
  const core::Dataset data = testing::random_problem(60, 6, 41, 3);
  const core::Vector ones = core::Vector::Ones(static_cast<Eigen::Index>(data.d()));
  const core::Vector zero_guess = core::Vector::Zero(static_cast<Eigen::Index>(data.n()));
  const auto objective_of = [&](const std::string& name, const Hyperparameters& h) {
    const MethodInfo& method = find_method(name);
    return make_objective(method, resolve_hyperparameters(method, h), data);
  };
  const auto gap_at = [&](const Objective& objective, const core::LinearModel& model) {
    const double value = objective.value(data, model.w(), model.b());
    return relative_majorant_gap(objective, data, model, ones, value,
                                 hinge_multipliers(objective, data, model, ones, zero_guess, 1e-7));
  };
  const Objective l1 = objective_of("ADMM-L1", {{"lambda", 0.02}});
  const FitReport lp = fit("OneNormSVM-mean", data, {{"lambda", 0.02}});
  REQUIRE(lp.status == core::Status::optimal);
  CHECK(std::abs(gap_at(l1, lp.model)) <= 1e-6);
  // Moving the LP's optimum along its largest weight: the gap bounds the true distance, and is not small.
  core::Vector w = lp.model.w();
  Eigen::Index largest = 0;
  w.cwiseAbs().maxCoeff(&largest);
  w[largest] *= 1.2;
  const core::LinearModel moved(w, lp.model.b());
  const double moved_value = l1.value(data, w, lp.model.b());
  CHECK(gap_at(l1, moved) >= (moved_value - lp.objective) / moved_value);
  CHECK(gap_at(l1, moved) >= 1e-3);
  // SCAD (h differentiable) at DCA's converged point: one more DCA step gains nothing, so the gap is 0.
  // (Where h has a kink, capped-l1 at |w_j| = theta, the penalty's one-sided choice of grad h can differ
  // from the one DCA's last step used, and the gap then overstates.)
  const Objective scad = objective_of("ADMM-SCAD", {{"lambda", 0.05}});
  const FitReport dca = fit("DCA-SCAD", data, {{"lambda", 0.05}, {"objective_tolerance", 1e-12}});
  REQUIRE(dca.has_solution());
  CHECK(std::abs(dca.objective - scad.value(data, dca.model.w(), dca.model.b())) <= 1e-9);
  CHECK(std::abs(gap_at(scad, dca.model)) <= 1e-6);
  // Polishing a point near the vertex returns the vertex: the LP's optimum, up to rounding.
  core::Vector near = lp.model.w();
  for (Eigen::Index j = 0; j < near.size(); ++j) near[j] *= 1.0 + 1e-4 * static_cast<double>(j % 3);
  const core::LinearModel polished_point = polished(data, core::LinearModel(near, lp.model.b() + 1e-4), 1e-2);
  CHECK(l1.value(data, polished_point.w(), polished_point.b()) == Approx(lp.objective).epsilon(1e-9));
}

TEST_CASE("the exact check's majorant gap equals an independent dual LP's; a point short of it is finished by DCA",
          "[admm][certificate]") {
  const core::Dataset data = testing::random_problem(60, 6, 41, 3);
  for (const std::string penalty : {"SCAD", "MCP", "LSP"}) {
    const MethodInfo& method = find_method("ADMM-" + penalty);
    // Sweep 21: not a polishing sweep (every 10th), so the check is what stops.
    const Hyperparameters h = {{"lambda", 0.05}, {"l1_start", 0}, {"min_iterations", 21}, {"exact_check", 21}};
    const Objective objective = make_objective(method, resolve_hyperparameters(method, h), data);
    // Tolerance 1 (the gap of a nonnegative F never exceeds it): the check at sweep 21 accepts the point
    // and reports its exact gap.
    const FitReport checked = fit("ADMM-" + penalty, data, with(h, {{"stationarity_tolerance", 1.0}}));
    INFO(penalty << ": " << checked.brief() << ", " << checked.stop_reason);
    REQUIRE(checked.status == core::Status::converged);
    CHECK(checked.iterations == 21);
    const double independent = independent_majorant_gap(objective, data, checked.model);
    CHECK(independent > 1e-3);  // 21 sweeps from zero are not stationary: the check has something to find
    CHECK(checked.certificate == Approx(independent).margin(1e-7));
    // At the default tolerance the same point fails the check: DCA finishes from the check's LP, and F falls.
    const FitReport finished = fit("ADMM-" + penalty, data, h);
    INFO(finished.brief() << ", " << finished.stop_reason);
    CHECK(finished.status == core::Status::converged);
    CHECK(finished.statistics.at("dca_steps") >= 2.0);
    CHECK(finished.objective < checked.objective);
    CHECK(finished.certificate <= 1e-3);
    CHECK(independent_majorant_gap(objective, data, finished.model) <= finished.certificate + 1e-7);
  }
}

TEST_CASE("from the convex start, ADMM reaches DCA's point on golub; a point above its start is flagged", "[admm]") {
  // Found by review: from zero, ADMM-SCAD at lambda 1e-4 stopped after 10 sweeps 177x above DCA's F with
  // 2,500 of 3,051 weights nonzero, a flat stationary point. The start at the 1-norm SVM (SCAD's phi'(0)
  // = lambda: OneNormSVM-mean at the same lambda) avoids it.
  const core::Dataset golub = data::load_dataset({testing::repo_file("datasets/golub.csv"), "auto", {}});
  const FitReport dca = fit("DCA-SCAD", golub, {{"lambda", 1e-4}});
  const FitReport from_zero = fit("ADMM-SCAD", golub, {{"lambda", 1e-4}, {"l1_start", 0}, {"exact_check", 0}});
  const FitReport continued = fit("ADMM-SCAD", golub, {{"lambda", 1e-4}});
  INFO("DCA " << dca.brief() << "; from zero " << from_zero.brief() << "; from the l1 start " << continued.brief());
  REQUIRE(dca.has_solution());
  CHECK(from_zero.objective > 10.0 * dca.objective);
  CHECK(continued.status == core::Status::converged);
  CHECK(continued.objective <= 1.01 * dca.objective);
  CHECK(continued.statistics.at("l1_start_excess") <= 1e-3);
  CHECK(continued.message.find("poor") == std::string::npos);
  // The published rho (1.5 and 10, fixed) from the same start wanders above it at lambda 2^-6: the row
  // says so, and the column is F against the 1-norm SVM's model scored on SCAD's F.
  const FitReport wandered = fit("ADMM-SCAD-published", golub, {{"l1_start", 1}});
  const FitReport l1 = fit("OneNormSVM-mean", golub, {});
  const MethodInfo& scad = find_method("ADMM-SCAD");
  const Objective objective = make_objective(scad, resolve_hyperparameters(scad, {}), golub);
  const double start_value = objective.value(golub, l1.model.w(), l1.model.b());
  INFO("published from the l1 start: " << wandered.brief() << ": " << wandered.message);
  CHECK(wandered.objective > 1.01 * start_value);
  CHECK(wandered.statistics.at("l1_start_excess") == Approx(wandered.objective / start_value - 1.0).epsilon(1e-6));
  CHECK(wandered.message.find("above F at the convex (l1) start") != std::string::npos);
}

TEST_CASE("an inexact convex start is refused: ADMM starts from zero and never ends above F(0)", "[admm]") {
  // Found by review: sonar with one column times 1e20 made the start's LP inexact, and ADMM started there
  // and ended at F = 8.2e12 with no warning (F at w = 0 is at most 2).
  const core::Dataset sonar = data::load_dataset({testing::repo_file("datasets/sonar.csv"), "auto", {}});
  core::DenseMatrix x = sonar.dense();
  x.col(0) *= 1e20;
  const core::Dataset scaled("scaled", x, sonar.labels(), {}, {});
  const FitReport admm = fit("ADMM-SCAD", scaled, {});
  INFO(admm.brief() << ": " << admm.message);
  REQUIRE(admm.has_solution());
  CHECK(admm.objective <= 1.0);
  CHECK(admm.message.find("the convex start's LP ended") != std::string::npos);
  CHECK(admm.message.find("started from zero") != std::string::npos);
  CHECK(admm.status != core::Status::converged);  // no LP here certifies anything
}

TEST_CASE("a poor stationary point of a nonconvex objective is not called optimal (golub, SCAD at 1e-4)", "[admm]") {
  // Found by review: 20 sweeps said `optimal` with F = 1.04e-4 and 2513 of 3051 weights nonzero, DCA 3.3e-7
  // with 14. Every weight beyond theta lambda sits where SCAD is flat and every margin is above 1: a
  // genuine local minimum. The status says what the certificate proves: a stationary point.
  const core::Dataset golub = data::load_dataset({testing::repo_file("datasets/golub.csv"), "auto", {}});
  const FitReport admm = fit("ADMM-SCAD", golub, {{"lambda", 1e-4}});
  INFO(admm.brief());
  CHECK(admm.status != core::Status::optimal);
  if (admm.status == core::Status::converged) CHECK(admm.statistics.at("stationarity") <= 1e-3);
}

TEST_CASE("ADMM records why it stopped, its residual traces, and refuses what it cannot solve", "[admm]") {
  const core::Dataset data = data::generate("dca_gaussians:n=60,noise_dims=6,seed=3");
  const FitReport limited = fit("ADMM-SCAD", data, {{"max_iterations", 5}});
  CHECK(limited.status == core::Status::feasible);
  CHECK(limited.stop_reason == "iteration limit");
  CHECK(limited.traces.at("trace_iterations").back() == 5);
  // ADMM's own stop (no exact check): its residuals and its bound on the majorant gap.
  const FitReport done = fit("ADMM-SCAD", data, {{"lambda", 0.05}, {"exact_check", 0}, {"l1_start", 0}});
  CHECK(done.status == core::Status::converged);
  CHECK(done.stop_reason.find("majorant gap below tolerance") != std::string::npos);
  const auto& iterations = done.traces.at("trace_iterations");
  CHECK(iterations.back() == done.iterations);
  CHECK(done.traces.at("primal_residual_trace").size() == iterations.size());
  CHECK(done.objective_trace.size() == iterations.size());
  CHECK(done.objective == done.objective_trace.back());
  // The classifier is (z, b): z is exactly sparse.
  CHECK(done.model.w().cwiseAbs().minCoeff() == 0.0);
  const FitReport published = fit("ADMM-SCAD-published", data, {{"lambda", 0.05}});
  CHECK(published.statistics.at("final_rho2") == 10.0);  // not divided by n, not adapted
  CHECK(published.statistics.at("factorizations") == 0.0);
}

TEST_CASE("one Gram per training set serves every lambda and penalty; each starting rho1/rho2 one factor", "[admm]") {
  const core::Dataset data = data::generate("dca_gaussians:n=60,noise_dims=6,seed=3");
  Workspace workspace(data);
  const FitReport first = fit_method("ADMM-SCAD", {{"lambda", 0.05}}, workspace);
  const FitReport other_lambda = fit_method("ADMM-SCAD", {{"lambda", 0.02}}, workspace);
  const FitReport other_penalty = fit_method("ADMM-MCP", {{"lambda", 0.05}}, workspace);
  const FitReport other_rho = fit_method("ADMM-MCP", {{"lambda", 0.05}, {"rho1", 3}}, workspace);
  CHECK(first.statistics.at("factor_s") > 0.0);
  CHECK(other_lambda.statistics.at("factor_s") == 0.0);
  CHECK(other_penalty.statistics.at("factor_s") == 0.0);
  CHECK(other_rho.statistics.at("factor_s") > 0.0);
  // Sharing the factor changes nothing: the same fit in a fresh workspace gives the same model.
  const FitReport fresh = fit("ADMM-SCAD", data, {{"lambda", 0.02}});
  CHECK(fresh.model.w() == other_lambda.model.w());
  CHECK(fresh.model.b() == other_lambda.model.b());
}

TEST_CASE("ADMM says optimal only when it is: overflow, a drifting bias and bad scaling", "[admm]") {
  // Found by review: an infinite dual residual passed the relative test; the bias row was missing from
  // the dual residual (features all zero: b drifts while both residuals were 0); a column scaled by 1e8
  // stopped 20% above the optimum. The l1 stop needs the certified gap.
  const core::Dataset base = testing::random_problem(60, 4, 12, 2);
  const auto with_column_scaled = [&](double factor) {
    core::DenseMatrix x = base.dense();
    x.col(0) *= factor;
    return core::Dataset("scaled", x, base.labels(), {}, {});
  };
  // A column scaled by 1e160: without equilibration the factor overflows (with it ADMM runs, but neither
  // the LP solver nor the certificate can be trusted at that scale).
  const FitReport overflow = fit("ADMM-L1", with_column_scaled(1e160), {{"equilibrate", 0}});
  INFO("overflow in the factor: " << overflow.brief());
  CHECK(overflow.status == core::Status::numerical_error);
  CHECK(overflow.stop_reason == "factorization failed");
  // On the data as given: centered (equilibrated) rows of n < d data make X X' singular, and whether its
  // Cholesky at rho1/rho2 = 1e-19 passes then depends on rounding (it failed on this machine, so the fit
  // never reached the sweeps this case is about).
  const FitReport diverged = fit("ADMM-L1", data::generate("dca_gaussians:n=50,noise_dims=3000"),
                                 {{"rho1", 1e-12}, {"rho2", 1e7}, {"rho2_per_n", 0}, {"adapt_rho", 0}, {"max_iterations", 500},
                                  {"equilibrate", 0}});
  INFO("overflow in the sweeps: " << diverged.brief());
  CHECK(diverged.status == core::Status::numerical_error);
  CHECK(diverged.stop_reason == "iterates not finite");

  core::Vector unbalanced = base.labels();
  for (Eigen::Index i = 0; i < 20; ++i) unbalanced[i] = 1.0;  // 40 positives, 20 negatives
  const core::Dataset zeros("zeros", core::DenseMatrix::Zero(60, 3), unbalanced, {}, {});
  const FitReport lp_zeros = fit("OneNormSVM-mean", zeros, {});
  REQUIRE(lp_zeros.objective == Approx(2.0 * 20 / 60));  // w = 0, b = 1: the negatives pay 2 each
  for (const std::string method : {"ADMM-L1", "ADMM-SCAD"}) {
    const FitReport drift = fit(method, zeros, {});
    INFO("zeros, " << method << ": " << drift.brief());
    REQUIRE(drift.has_solution());
    CHECK(drift.status != core::Status::feasible);
    CHECK(drift.objective <= lp_zeros.objective * (1 + 1e-4));
  }

  // sonar with a column equal to the label: the residual rule alone stopped 2.4% above the optimum.
  const core::Dataset sonar = data::load_dataset({testing::repo_file("datasets/sonar.csv"), "auto", {}});
  core::DenseMatrix separable_x(sonar.dense().rows(), sonar.dense().cols() + 1);
  separable_x << sonar.dense(), sonar.labels();
  const core::Dataset separable("separable", separable_x, sonar.labels(), {}, {});
  // Found by review: a column offset by 1.7e9 (a timestamp) made b about 1e10 on the original features, and
  // rounding in y'alpha then moved the certified gap by 1e-2: `optimal` 5.5e-4 above the optimum, with a
  // negative gap. The offset cannot change the optimum (b absorbs it); certificates are now computed on
  // the centered features.
  const core::Dataset ionosphere = data::load_dataset({testing::repo_file("datasets/ionosphere.csv"), "auto", {}});
  core::DenseMatrix offset_x = ionosphere.dense();
  offset_x.col(0).array() += 1.7e9;
  const core::Dataset offset("offset", offset_x, ionosphere.labels(), {}, {});
  for (const double lambda : {0.002, 0.015625}) {
    const FitReport lp = fit("OneNormSVM-mean", ionosphere, {{"lambda", lambda}});
    const FitReport admm = fit("ADMM-L1", offset, {{"lambda", lambda}});
    INFO("column offset by 1.7e9, lambda " << lambda << ": LP (no offset) " << lp.brief() << "; ADMM " << admm.brief());
    REQUIRE(admm.has_solution());
    CHECK(admm.statistics.at("relative_gap") >= -1e-9);
    if (admm.status == core::Status::optimal) CHECK(admm.objective <= lp.objective * (1 + 1e-4));
  }
  for (const core::Dataset& data : {with_column_scaled(1.0), with_column_scaled(1e4), with_column_scaled(1e8), separable}) {
    const double factor = data.name() == "separable" ? 0.0 : data.dense().col(0).norm() / base.dense().col(0).norm();
    const FitReport lp = fit("OneNormSVM-mean", data, {});
    const FitReport admm = fit("ADMM-L1", data, {{"max_iterations", 3000}});
    INFO(data.name() << ", column x " << factor << ": LP " << lp.brief() << "; ADMM " << admm.brief());
    REQUIRE(admm.has_solution());
    const double true_gap = (admm.objective - lp.objective) / admm.objective;
    // The certificate bounds the true gap from above, whatever the status.
    CHECK(true_gap <= admm.statistics.at("relative_gap") + 1e-9);
    if (admm.status == core::Status::optimal) CHECK(true_gap <= 1e-4 + 1e-9);
  }
}

TEST_CASE("a lambda path: each fit starts from the next larger lambda's, whatever order or other fits came first",
          "[admm][path]") {
  const core::Dataset golub = data::load_dataset({testing::repo_file("datasets/golub.csv"), "auto", {}});
  const std::vector<double> path = {1.0, 0.25, 0.0625, 0.015625, 0.00390625, 0.0009765625};
  for (const std::string method : {"ADMM-L1", "ADMM-SCAD", "ADMM-MCP"}) {
    // Descending, as a path is walked, in a workspace of its own.
    Workspace descending(golub);
    std::vector<FitReport> walked;
    for (const double lambda : path) walked.push_back(fit_method(method, {{"lambda", lambda}}, descending, path));
    // The smallest lambda first, after other methods' fits (they share the LP cache): the fit walks the
    // path above it itself, and every point equals the descending walk's.
    Workspace shared(golub);
    fit_method("DCA-SCAD", {{"lambda", 0.01}}, shared);
    fit_method("OneNormSVM-mean", {{"lambda", 0.3}}, shared);
    const FitReport first = fit_method(method, {{"lambda", path.back()}}, shared, path);
    CHECK(first.statistics.at("path_fits") == static_cast<double>(path.size() - 1));
    for (std::size_t k = 0; k < path.size(); ++k) {
      const FitReport again = fit_method(method, {{"lambda", path[k]}}, shared, path);
      INFO(method << " at lambda " << path[k] << ": walked " << walked[k].brief() << "; smallest first " << again.brief());
      CHECK(again.model.w() == walked[k].model.w());
      CHECK(again.model.b() == walked[k].model.b());
      // Made by the walk from the smallest lambda: each point made the k above it first; walked in order, none.
      CHECK(again.statistics.at("path_fits") == static_cast<double>(k));
      CHECK(walked[k].statistics.at("path_fits") == 0.0);
      // The start is the nearest larger lambda's fit (or, nonconvex, the convex start where that ended lower).
      const double warm = walked[k].statistics.at("warm_lambda");
      if (k == 0) {
        CHECK(std::isnan(warm));
      } else if (method == "ADMM-L1") {
        CHECK(warm == path[k - 1]);
      } else {
        CHECK((std::isnan(warm) || warm == path[k - 1]));
      }
    }
    // Off the path, the same lambda in the same workspace is a cold fit: the path is part of a fit's key.
    const FitReport alone = fit_method(method, {{"lambda", path[2]}}, shared);
    const FitReport cold = fit(method, golub, {{"lambda", path[2]}});
    CHECK(std::isnan(alone.statistics.at("warm_lambda")));
    CHECK(alone.model.w() == cold.model.w());
  }
}

TEST_CASE("an ADMM fit's LPs are its own: fits made before it in the workspace do not move it", "[admm][path]") {
  // A review's case: standardized golub, MCP at lambda 0.25. On the workspace's shared LP caches, warm from
  // the path's earlier fits, the convex start's LP gave another vertex of a degenerate optimum and the fit
  // ended at F 0.1875, twice the F of the same fit alone (0.09375).
  const core::Dataset golub = standardized(data::load_dataset({testing::repo_file("datasets/golub.csv"), "auto", {}}));
  const std::vector<double> path = {1.0, 0.5, 0.25};
  const FitReport alone = fit("ADMM-MCP", golub, {{"lambda", 0.25}});
  Workspace busy(golub);
  for (const double lambda : path) fit_method("DCA-MCP", {{"lambda", lambda}}, busy);
  const FitReport after_others = fit_method("ADMM-MCP", {{"lambda", 0.25}}, busy);
  Workspace walk(golub);
  const FitReport on_path = fit_method("ADMM-MCP", {{"lambda", 0.25}}, walk, path);
  INFO("alone " << alone.brief() << "; after other fits " << after_others.brief() << "; on the path " << on_path.brief());
  CHECK(after_others.model.w() == alone.model.w());
  CHECK(after_others.model.b() == alone.model.b());
  CHECK(on_path.objective <= alone.objective);
}

TEST_CASE("on a lambda path ADMM-L1 stays optimal in far fewer sweeps; a nonconvex fit never ends above its cold fit",
          "[admm][path]") {
  // golub at decreasing lambda (measured: from cold 41,510 sweeps in all, 3 fits at the 10^4 limit; on the
  // path 8,140, every fit optimal). Nonconvex: the path's point and the convex start both run, the lower F
  // is kept, so the path is never worse than a cold fit (measured up to 4.6x lower on golub).
  const core::Dataset golub = data::load_dataset({testing::repo_file("datasets/golub.csv"), "auto", {}});
  const std::vector<double> path = {1.0, 0.25, 0.0625, 0.015625, 0.00390625, 0.0009765625, 0.000244140625};
  Workspace on_path(golub);
  fit_method("OneNormSVM-mean", {{"lambda", 0.01}}, on_path);  // other fits first change nothing
  double path_sweeps = 0.0, cold_sweeps = 0.0;
  for (const double lambda : path) {
    const FitReport lp = fit("OneNormSVM-mean", golub, {{"lambda", lambda}});
    const FitReport warm = fit_method("ADMM-L1", {{"lambda", lambda}}, on_path, path);
    const FitReport cold = fit("ADMM-L1", golub, {{"lambda", lambda}});
    INFO("lambda " << lambda << ": LP " << lp.brief() << "; path " << warm.brief() << "; cold " << cold.brief());
    REQUIRE(lp.status == core::Status::optimal);
    CHECK(warm.status == core::Status::optimal);
    CHECK(std::abs(warm.objective - lp.objective) <= 1e-6 * lp.objective);
    path_sweeps += static_cast<double>(warm.iterations);
    cold_sweeps += static_cast<double>(cold.iterations);
  }
  CHECK(path_sweeps * 3.0 < cold_sweeps);
  // On standardized wdbc the path's point alone ended 25% above the cold fit (SCAD at 2^-6).
  const core::Dataset wdbc = standardized(data::load_dataset({testing::repo_file("datasets/wdbc.csv"), "auto", {}}));
  for (const auto& [data, method] : {std::pair{&golub, "ADMM-SCAD"}, {&golub, "ADMM-MCP"}, {&golub, "ADMM-LSP"},
                                     {&golub, "ADMM-Capped"}, {&wdbc, "ADMM-SCAD"}, {&wdbc, "ADMM-MCP"}}) {
    Workspace workspace(*data);
    for (const double lambda : path) {
      const FitReport warm = fit_method(method, {{"lambda", lambda}}, workspace, path);
      const FitReport cold = fit(method, *data, {{"lambda", lambda}});
      INFO(data->name() << ", " << method << " at lambda " << lambda << ": path " << warm.brief() << "; cold "
                        << cold.brief());
      CHECK(warm.status == core::Status::converged);
      CHECK(warm.objective <= cold.objective);
      if (lambda == path[0]) {
        CHECK(std::isnan(warm.statistics.at("warm_lambda")));  // the top of the path starts cold
      } else {
        CHECK(warm.statistics.at("other_start_sweeps") >= 1.0);  // both starts ran
      }
    }
  }
}
