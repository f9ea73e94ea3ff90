// The screened primal step of the first-order start (models/screened_prox.hpp) against the prox taken
// from the whole product X' Y alpha, computed here entry by entry from the dense matrix, on sparse and
// dense data, along duals that move a little (columns screened) and at times a lot (a new reference).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/rng.hpp"
#include "models/screened_prox.hpp"

using namespace sparsesvm;
using namespace sparsesvm::models;

namespace {

constexpr Eigen::Index kExamples = 80;
constexpr Eigen::Index kFeatures = 400;

core::DenseMatrix sparse_values(core::Rng& rng) {
  core::DenseMatrix x = core::DenseMatrix::Zero(kExamples, kFeatures);
  for (Eigen::Index i = 0; i < kExamples; ++i) {
    for (Eigen::Index j = 0; j < kFeatures; ++j) {
      if (rng.bernoulli(0.05)) x(i, j) = rng.uniform(-1.0, 1.0);
    }
  }
  return x;
}

core::Vector random_vector(core::Rng& rng, Eigen::Index size, double low, double high) {
  core::Vector v(size);
  for (Eigen::Index k = 0; k < size; ++k) v[k] = rng.uniform(low, high);
  return v;
}

// prox_{tau h}(w + tau X' Y alpha), the product summed over every entry of x.
core::Vector unscreened_step(const core::DenseMatrix& x, const core::Vector& y, const StepLpCosts& costs,
                             const core::Vector& w, const core::Vector& alpha, const core::Vector& tau) {
  core::Vector next(w.size());
  for (Eigen::Index j = 0; j < w.size(); ++j) {
    double g = 0.0;
    for (Eigen::Index i = 0; i < x.rows(); ++i) g += x(i, j) * y[i] * alpha[i];
    next[j] = shifted_soft_threshold(w[j] + tau[j] * g, tau[j], costs.plus[j], costs.minus[j]);
  }
  return next;
}

// A sparse-valued X, labels and feature costs p_j, q_j drawn from [lowest_cost, 1).
struct ScreenedProblem {
  core::DenseMatrix x;
  core::Vector y;
  StepLpCosts costs;
};

ScreenedProblem random_screened_problem(core::Rng& rng, double lowest_cost) {
  ScreenedProblem problem;
  problem.x = sparse_values(rng);
  problem.y.resize(kExamples);
  for (Eigen::Index i = 0; i < kExamples; ++i) problem.y[i] = rng.bernoulli(0.5) ? 1.0 : -1.0;
  problem.costs.plus = random_vector(rng, kFeatures, lowest_cost, 1.0);
  problem.costs.minus = random_vector(rng, kFeatures, lowest_cost, 1.0);
  return problem;
}

core::Dataset as_data(const ScreenedProblem& problem, bool sparse) {
  if (sparse) return core::Dataset("screened", core::SparseMatrix(problem.x.sparseView()), problem.y, {}, {});
  return core::Dataset("screened", problem.x, problem.y, {}, {});
}

}  // namespace

TEST_CASE("the screened prox step equals the step from the whole product, reading a fraction of X",
          "[models][crossover]") {
  core::Rng rng(2026);
  const ScreenedProblem problem = random_screened_problem(rng, 0.2);
  const auto& [x, y, costs] = problem;
  core::Vector w = core::Vector::Zero(kFeatures);
  for (Eigen::Index j = 0; j < kFeatures; j += 7) w[j] = rng.normal();  // most weights exactly 0, as the prox leaves them
  const core::Vector tau = random_vector(rng, kFeatures, 0.1, 1.0);
  const auto nonzeros = static_cast<Eigen::Index>((x.array() != 0.0).count());

  for (const bool sparse : {true, false}) {
    INFO((sparse ? "sparse" : "dense") << " data");
    const core::Dataset data = as_data(problem, sparse);
    const ColumnProducts columns(data);
    CHECK((columns.times(w) - x * w).cwiseAbs().maxCoeff() <= 1e-12);
    ScreenedProx screened(data, costs, columns);
    core::Rng walk(5);
    core::Vector alpha;
    Eigen::Index fewest_read = std::numeric_limits<Eigen::Index>::max();
    int outside = 0;  // steps whose exact answer has a weight leaving 0
    for (int step = 0; step < 60; ++step) {
      if (step % 20 == 0) {
        alpha = random_vector(walk, kExamples, 0.0, 1.0);  // a jump: the next step takes a new reference
      } else {
        alpha = (alpha + random_vector(walk, kExamples, -0.002, 0.002)).cwiseMax(0.0);
      }
      const core::Vector expected = unscreened_step(x, y, costs, w, alpha, tau);
      const core::Vector got = screened.step(w, alpha, tau);
      INFO("step " << step);
      CHECK((got - expected).cwiseAbs().maxCoeff() <= 1e-12);
      for (Eigen::Index j = 0; j < kFeatures; ++j) outside += w[j] == 0.0 && expected[j] != 0.0 ? 1 : 0;
      fewest_read = std::min(fewest_read, screened.last_read());
    }
    // Screening happened (steps read under half of X), and weights did leave 0 on the way.
    const Eigen::Index size = sparse ? nonzeros : kExamples * kFeatures;
    CHECK(fewest_read < size / 2);
    CHECK(outside > 0);
  }
}

TEST_CASE("the screened prox step reads every column a move can take out of its interval, where the bounds are tight",
          "[models][crossover]") {
  // A move of the duals along Y x_j (Cauchy-Schwarz tight) or along Y sign(x_j) (Hoelder tight) changes
  // g_j by exactly the bound; sized to 1.05 times g_j's distance to the nearer end of [-q_j, p_j], it takes
  // w_j out of 0, which a bound smaller by more than 5% would miss.
  core::Rng rng(31);
  const ScreenedProblem problem = random_screened_problem(rng, 0.5);
  const auto& [x, y, costs] = problem;
  const core::Vector w = core::Vector::Zero(kFeatures);
  const core::Vector tau = core::Vector::Constant(kFeatures, 0.5);
  const core::Vector reference_alpha = random_vector(rng, kExamples, 0.0, 0.05);
  const core::Vector reference_g = x.transpose() * reference_alpha.cwiseProduct(y);
  for (const bool sparse : {true, false}) {
    const core::Dataset data = as_data(problem, sparse);
    const ColumnProducts columns(data);
    int moved_out = 0;
    for (const bool cauchy_schwarz : {true, false}) {
      for (Eigen::Index j = 0; j < kFeatures; j += 13) {
        const core::Vector direction =
            cauchy_schwarz ? core::Vector(x.col(j)) : core::Vector(x.col(j).array().sign().matrix());
        const double change = direction.dot(x.col(j));  // g_j's change per unit of the move along Y direction
        const double up = costs.plus[j] - reference_g[j], down = reference_g[j] + costs.minus[j];
        if (change == 0.0 || up <= 0.0 || down <= 0.0) continue;
        const double size = 1.05 * std::min(up, down) / change * (up < down ? 1.0 : -1.0);
        const core::Vector alpha = reference_alpha + size * direction.cwiseProduct(y);
        ScreenedProx screened(data, costs, columns);
        screened.step(w, reference_alpha, tau);  // the reference
        const core::Vector expected = unscreened_step(x, y, costs, w, alpha, tau);
        INFO((sparse ? "sparse" : "dense") << ", " << (cauchy_schwarz ? "Cauchy-Schwarz" : "Hoelder") << ", feature " << j);
        CHECK(expected[j] != 0.0);
        CHECK((screened.step(w, alpha, tau) - expected).cwiseAbs().maxCoeff() <= 1e-12);
        ++moved_out;
      }
    }
    CHECK(moved_out >= 40);
  }
}
