// psi-learning by MIP (algorithms/psi_mip.cpp) against brute force: on tiny data every assignment of the
// examples to psi's three regions is a convex program (an LP for ||w||_1, a QP for (1/2)||w||^2) whose
// optimum Clp finds directly; the smallest over all 3^n assignments is the global optimum of [PSI] (3.6).
#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <atomic>
#include <fmt/format.h>
#include <limits>
#include <regex>
#include <tuple>
#include <thread>
#include <vector>

#include "core/dataset.hpp"
#include "core/rng.hpp"
#include "data/generators/generator_registry.hpp"
#include "models/algorithms/algorithm.hpp"
#include "models/algorithms/mip_support.hpp"
#include "models/algorithms/psi_box.hpp"
#include "models/methods.hpp"
#include "models/objective.hpp"
#include "models/workspace.hpp"
#include "toy_problems.hpp"

using namespace sparsesvm;

namespace {

constexpr double kCbc = 1.0;  // search: cbc (the MIP over examples)
constexpr double kBox = 2.0;  // search: box (over (w, b))
constexpr double kAuto = 0.0;  // search: auto (the box search first at up to 4 features)

// n points in the plane, labels by the sign of x1 with `flips` of them flipped.
core::Dataset tiny_data(std::size_t n, std::uint64_t seed, std::size_t flips) {
  core::Rng rng(seed);
  core::DenseMatrix x(static_cast<Eigen::Index>(n), 2);
  core::Vector y(static_cast<Eigen::Index>(n));
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    x(i, 0) = rng.uniform(-1.0, 1.0);
    x(i, 1) = rng.uniform(-1.0, 1.0);
    y[i] = x(i, 0) >= 0.0 ? 1.0 : -1.0;
  }
  y[0] = 1.0;
  y[1] = -1.0;  // both classes, whatever the draw
  for (std::size_t k = 2; k < 2 + flips && k < n; ++k) y[static_cast<Eigen::Index>(k)] *= -1.0;
  return core::Dataset("tiny", x, y, {"x1", "x2"}, {});
}

// min over (w, b) of rho Omega(w) + sum_i C psi_i with example i held in region[i] (0, 1, 2 for psi's
// regions 1, 2, 3), for every region assignment of one data set: one Clp model is built per brute force,
// and each assignment changes only its row bounds and costs (a fresh model per assignment cost 4 ms
// of page faults under AddressSanitizer, 157,000 times over).
class AssignmentProgram {
 public:
  AssignmentProgram(const core::Dataset& data, bool l2)
      : n_(static_cast<int>(data.n())), weights_(l2 ? static_cast<int>(data.d()) : 2 * static_cast<int>(data.d())),
        l2_(l2) {
    // Columns: l1: w+ (d), w- (d), b; l2: w (d), b. Row i is t_i = y_i (x_i.w + b).
    const int d = static_cast<int>(data.d());
    const int columns = weights_ + 1;
    std::vector<int> starts{0}, rows;
    std::vector<double> values;
    for (int col = 0; col < columns; ++col) {
      for (int i = 0; i < n_; ++i) {
        const double y = data.labels()[i];
        const double v = col == weights_ ? y
                                         : (col < d ? 1.0 : -1.0) * y *
                                               data.value(static_cast<std::size_t>(i), static_cast<std::size_t>(col % d));
        if (v == 0.0) continue;
        rows.push_back(i);
        values.push_back(v);
      }
      starts.push_back(static_cast<int>(rows.size()));
    }
    const CoinPackedMatrix matrix(true, n_, columns, static_cast<CoinBigIndex>(values.size()), values.data(),
                                  rows.data(), starts.data(), nullptr);
    std::vector<double> column_lower(columns, l2 ? -COIN_DBL_MAX : 0.0), column_upper(columns, COIN_DBL_MAX);
    column_lower[weights_] = -COIN_DBL_MAX;
    base_cost_.assign(columns, l2 ? 0.0 : 1.0);  // ||w||_1 with rho = 1
    base_cost_[weights_] = 0.0;
    const std::vector<double> row_lower(n_, -COIN_DBL_MAX), row_upper(n_, COIN_DBL_MAX);
    model_.setLogLevel(0);
    model_.loadProblem(matrix, column_lower.data(), column_upper.data(), base_cost_.data(), row_lower.data(),
                       row_upper.data());
    if (l2) {  // (1/2)||w||^2: Clp's 1/2 x'Qx with Q = I on w
      std::vector<CoinBigIndex> q_start(columns + 1, weights_);
      std::vector<int> q_column(weights_);
      const std::vector<double> q_value(weights_, 1.0);
      for (int j = 0; j < weights_; ++j) q_start[j] = q_column[j] = j;
      model_.loadQuadraticObjective(columns, q_start.data(), q_column.data(), q_value.data());
    }
    model_.setPersistenceFlag(1);  // keep Clp's work arrays from one assignment to the next
    entries_ = matrix;
  }

  // The optimum with example i held in region[i]; +infinity when that assignment is infeasible.
  double optimum(const std::vector<int>& region, double C, double a) {
    double constant = 0.0;
    for (int i = 0; i < n_; ++i) {
      if (region[i] == 0) {  // t_i <= 0: psi = 2
        model_.setRowBounds(i, -COIN_DBL_MAX, 0.0);
        constant += 2.0 * C;
      } else if (region[i] == 1) {  // 0 <= t_i <= 1: psi = a (1 - t_i), linear cost -a C t_i
        model_.setRowBounds(i, 0.0, 1.0);
        constant += a * C;
      } else {  // t_i >= 1: psi = 0
        model_.setRowBounds(i, 1.0, COIN_DBL_MAX);
      }
    }
    // The region-2 cost -a C t_i = -a C y_i (x_i.w + b) goes on the columns.
    for (int col = 0; col <= weights_; ++col) {
      double cost = base_cost_[col];
      const CoinBigIndex first = entries_.getVectorStarts()[col];
      for (CoinBigIndex k = first; k < first + entries_.getVectorLengths()[col]; ++k) {
        if (region[entries_.getIndices()[k]] == 1) cost -= a * C * entries_.getElements()[k];
      }
      model_.setObjectiveCoefficient(col, cost);
    }
    model_.allSlackBasis(true);  // start from the slack basis (a convex program: its optimum does not depend on it)
    if (l2_) {
      model_.primal();
    } else {
      model_.dual();
    }
    if (model_.status() != 0) return std::numeric_limits<double>::infinity();  // infeasible region assignment
    return model_.objectiveValue() + constant;
  }

 private:
  int n_;
  int weights_;
  bool l2_;
  std::vector<double> base_cost_;
  CoinPackedMatrix entries_;
  ClpSimplex model_;
};

double brute_force(const core::Dataset& data, double C, double a, bool l2) {
  AssignmentProgram program(data, l2);
  std::vector<int> region(data.n(), 0);
  double best = std::numeric_limits<double>::infinity();
  for (;;) {
    best = std::min(best, program.optimum(region, C, a));
    std::size_t k = 0;
    while (k < region.size() && region[k] == 2) region[k++] = 0;
    if (k == region.size()) break;
    ++region[k];
  }
  return best;
}

}  // namespace

TEST_CASE("PSI-1 and PSI-2 reach the brute-force optimum over all 3^n region assignments", "[psi][mip][box]") {
  // n = 7 (2187 convex programs each), flipped labels, C from loose to tight, two values of psi_a; by
  // Cbc's MIP and by psi_box.hpp's branch and bound over (w, b), which share no formulation with the
  // brute force or each other (the box search has no binaries and no big-M).
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const core::Dataset data = tiny_data(7, seed, seed % 3);
    for (const double C : {0.3, 3.0, 100.0}) {
      for (const double a : {0.5, 1.5}) {
        for (const bool l2 : {false, true}) {
          const double expected = brute_force(data, C, a, l2);
          for (const double search : {kCbc, kBox}) {
            INFO((search == kBox ? "box" : "cbc") << " seed " << seed << " C " << C << " psi_a " << a
                                                  << (l2 ? " PSI-2" : " PSI-1"));
            models::Workspace workspace(data);
            const models::FitReport fit =
                models::fit_method(l2 ? "PSI-2" : "PSI-1", {{"C", C}, {"psi_a", a}, {"search", search}}, workspace);
            REQUIRE(fit.status == core::Status::optimal);
            CHECK(fit.objective == Approx(expected).epsilon(1e-6));
            CHECK(fit.statistics.at("mip_relative_gap") <= 1e-6);
            CHECK(fit.statistics.at("mip_best_bound") <= expected * (1 + 1e-6) + 1e-9);
            if (search == kBox) CHECK(fit.stop_reason == "box search closed");
          }
        }
      }
    }
  }
}

TEST_CASE("restricted psi fixes the start's confident examples and never beats the unrestricted optimum", "[psi][mip]") {
  const core::Dataset data = tiny_data(8, 11, 1);
  for (const bool l2 : {false, true}) {
    models::Workspace workspace(data);
    const models::FitReport full = models::fit_method(l2 ? "PSI-2" : "PSI-1", {{"C", 5.0}}, workspace);
    const models::FitReport restricted = models::fit_method(l2 ? "PSI-2r" : "PSI-1r", {{"C", 5.0}}, workspace);
    REQUIRE(full.status == core::Status::optimal);
    // Closed, but for the restricted problem: feasible, with the restricted gap as its certificate.
    REQUIRE(restricted.status == core::Status::feasible);
    CHECK(restricted.statistics.at("mip_closed") == 1.0);
    CHECK(restricted.certificate_kind == std::string(models::kRestrictedMipGap));
    CHECK(restricted.objective >= full.objective * (1 - 1e-9));
    CHECK(restricted.statistics.at("mip_fixed_examples") > 0);
    // The fixed examples stay in region 3 at the restricted answer.
    const models::FitReport svm = models::fit_method(l2 ? "SVM-C" : "OneNormSVM-C", {{"C", 5.0}}, workspace);
    const core::Vector start = models::margins(data, svm.model.w(), svm.model.b());
    const core::Vector answer = models::margins(data, restricted.model.w(), restricted.model.b());
    for (Eigen::Index i = 0; i < start.size(); ++i) {
      if (start[i] > 1.1) CHECK(answer[i] >= 1.0 - 1e-6);
    }
  }
}

TEST_CASE("the data-derived big-M holds where the optimum misclassifies a far outlier", "[psi][mip]") {
  // On a line: positives at 0.1, 0.2, 0.3, negatives at their mirror images and one negative 40 units out on
  // the positive side. Classifying it right costs three positives; the optimum pays 2 for it with a
  // margin near -40 w (w about 10 at C = 100). A bound L_i too small (t_i >= -L_i) cuts that optimum off;
  // L_i without the weight bound W (the spread alone, 40.3) would.
  core::DenseMatrix x(7, 1);
  x << 0.1, 0.2, 0.3, -0.1, -0.2, -0.3, 40.0;
  core::Vector y(7);
  y << 1, 1, 1, -1, -1, -1, -1;
  const core::Dataset data("outlier", x, y, {"x1"}, {});
  for (const bool l2 : {false, true}) {
    for (const double C : {10.0, 100.0}) {
      INFO((l2 ? "PSI-2" : "PSI-1") << " C " << C);
      models::Workspace workspace(data);
      const models::FitReport fit = models::fit_method(l2 ? "PSI-2" : "PSI-1", {{"C", C}, {"search", kCbc}}, workspace);
      REQUIRE(fit.status == core::Status::optimal);
      CHECK(fit.objective == Approx(brute_force(data, C, 0.5, l2)).epsilon(1e-6));
    }
  }
}

TEST_CASE("the data-derived big-M never cuts the optimum that M = 1000 finds", "[psi][mip]") {
  const core::Dataset data = tiny_data(7, 5, 2);
  for (const bool l2 : {false, true}) {
    models::Workspace workspace(data);
    const auto derived = models::fit_method(l2 ? "PSI-2" : "PSI-1", {{"C", 10.0}}, workspace);
    const auto paper = models::fit_method(l2 ? "PSI-2" : "PSI-1", {{"C", 10.0}, {"big_m", 1000.0}}, workspace);
    CHECK(derived.objective == Approx(paper.objective).epsilon(1e-6));
    CHECK(derived.statistics.at("mip_big_m") < 1000.0);
  }
}

TEST_CASE("the big-M tightened from the incumbent proves 8 features at n = 100 within the default work limit",
          "[psi][mip]") {
  // psi_quadratic case 3, n = 100, seed 1, PSI-1 at C = 1: with the big-M derived from the data alone (median
  // L_i 66) Cbc's tree ended its 2e5 simplex iterations at F = 22.08, gap 0.30. Tightened (median L_i about
  // 5), it proves F = 16.6991361. The value is HiGHS's (scipy 1.10's milp, on this MILP written out, gap
  // 7e-6): an independent solver. Planted: the tightening skipped, the fit stays feasible at 22.08.
  const core::Dataset data = data::generate("psi_quadratic:n=100,case=3,seed=1");
  models::Workspace workspace(data);
  const models::FitReport fit = models::fit_method("PSI-1", {{"C", 1.0}, {"search", kCbc}}, workspace);
  REQUIRE(fit.status == core::Status::optimal);
  CHECK(fit.objective == Approx(16.6991361).epsilon(1e-8));
  CHECK(fit.statistics.at("mip_big_m") < 30.0);  // the largest L_i: 91 derived from the data
}

TEST_CASE("half the work limit for the tightening and a rounding at each node prove a seed a quarter left open",
          "[psi][mip]") {
  // psi_quadratic case 3, n = 100, seed 3, PSI-1 at C = 1: with a quarter of the 2e5 simplex iterations for
  // the tightening and no rounding Cbc's tree stopped at F = 33.32, gap 0.40 (the rounding alone: 22.35, gap
  // 0.08). With half, the rounds reach an incumbent whose big-Ms let the tree, its nodes' LP points
  // rounded, prove F = 20.9627: HiGHS's value (scipy 1.10's milp on this MILP written out, gap 1e-4).
  const core::Dataset data = data::generate("psi_quadratic:n=100,case=3,seed=3");
  models::Workspace workspace(data);
  const models::FitReport fit = models::fit_method("PSI-1", {{"C", 1.0}, {"search", kCbc}}, workspace);
  REQUIRE(fit.status == core::Status::optimal);
  CHECK(fit.objective == Approx(20.9627).epsilon(1e-5));
}

TEST_CASE("a point handed to Cbc costs its F: margins a solver leaves just below 0 stay on psi's boundary",
          "[psi][mip]") {
  // psi_quadratic case 4, n = 100, seed 3, PSI-2 at C = 1. Points reach Cbc as MIP points: the start, each
  // outer-approximation round's best, each node's rounding. Picked with a strict t_i >= 0, the examples a
  // solver leaves at t = -1e-9 paid psi's 2 instead of a (without the work limit a round's answer of
  // F = 17.55 reached the next round costing 22.05). At the default limit this fit runs one MILP, so the
  // start and the nodes' roundings are what the tolerance reaches: it ends at F = 19.90 (23.43 with the
  // strict rule), the optimum being 17.5522 (proven by the same fit without the limit, in 66 s).
  // Planted (strict t_i >= 0): fails at 23.43.
  const core::Dataset data = data::generate("psi_quadratic:n=100,case=4,seed=3");
  models::Workspace workspace(data);
  const models::FitReport fit = models::fit_method("PSI-2", {{"C", 1.0}, {"search", kCbc}}, workspace);
  REQUIRE(core::has_solution(fit.status));
  CHECK(fit.objective >= 17.5522 * (1.0 - 1e-4));
  CHECK(fit.objective < 17.5522 * 1.2);
}

TEST_CASE("PSI-2 tightens its big-M again from a lower F before a round whose last tree outweighed the tightening",
          "[psi][mip]") {
  // psi_quadratic case 4 (14 features), n = 50, seed 3, PSI-2 at C = 1, relative_gap 1e-6, 130,000 simplex
  // iterations. The big-M is first tightened from the polished start's F = 14.32; the first MILP's tree
  // (more simplex iterations than that tightening) ends at F = 9.698, and the big-M tightened again from
  // there lets the later rounds prove F = 9.65258 in about 106,000 iterations. Tightened once (as before
  // this rule), the fit ended this limit at 9.65278, gap 4.7e-4 (`feasible`), and needed 163,230 iterations
  // to prove 9.65262 at relative_gap 1e-4. No solver outside ours proves this MIQP (HiGHS takes no
  // quadratic MIP; the box search leaves a gap of 0.82 after 300 s): the value is the same fit's on both
  // paths. Planted (never tightened again): `feasible` at 9.65278. mip_big_m stays the first MILP's largest
  // L_i, 33.6, at which Cbc's word is judged for every round (the second MILP's is 19.4).
  const core::Dataset data = data::generate("psi_quadratic:n=50,case=4,seed=3");
  models::Workspace workspace(data);
  const models::FitReport fit = models::fit_method(
      "PSI-2", {{"C", 1.0}, {"search", kCbc}, {"lp_iteration_limit", 130000.0}}, workspace);
  REQUIRE(fit.status == core::Status::optimal);
  CHECK(fit.objective == Approx(9.65258).epsilon(1e-5));
  CHECK(fit.statistics.at("mip_best_bound") <= fit.objective);
  CHECK(fit.statistics.at("mip_lp_iterations") <= 130000.0);
  CHECK(fit.statistics.at("mip_big_m") == Approx(33.588).epsilon(1e-4));
}

TEST_CASE("a given big_m is the paper's formulation: kept, not tightened", "[psi][mip]") {
  const core::Dataset data = data::generate("psi_quadratic:n=40,case=3,seed=2");
  models::Workspace workspace(data);
  const models::FitReport fit = models::fit_method("PSI-1", {{"C", 1.0}, {"big_m", 1000.0}}, workspace);
  CHECK(fit.statistics.at("mip_big_m") == 1000.0);
}

TEST_CASE("a tuned start under a metric the tune part cannot define is an input error, not a silent default",
          "[psi][mip][scoring]") {
  const core::Dataset train = tiny_data(8, 21, 1);
  const core::Dataset mixed = tiny_data(40, 22, 4);
  std::vector<std::size_t> negatives;
  for (std::size_t i = 0; i < mixed.n(); ++i) {
    if (mixed.labels()[static_cast<Eigen::Index>(i)] < 0) negatives.push_back(i);
  }
  const core::Dataset one_class = mixed.subset(negatives);
  const models::SelectionRules by_auc{models::SelectionRule::best, models::TieRule::most_regularized,
                                      models::Metric::roc_auc};
  models::Workspace workspace(train);
  workspace.set_tuning(one_class, {{"C", {0.1, 10.0}}}, by_auc);
  CHECK_THROWS_WITH(models::fit_method("PSI-2r", {{"C", 3.0}}, workspace),
                    Catch::Contains("roc_auc is undefined") && Catch::Contains("of which 0 are of class +1"));
  models::Workspace defined(train);  // both classes on the tune part: the start is tuned by ROC AUC
  defined.set_tuning(mixed, {{"C", {0.1, 10.0}}}, by_auc);
  CHECK(models::fit_method("PSI-2r", {{"C", 3.0}}, defined).has_solution());
}

TEST_CASE("restricted psi starts from the SVM that is best on the tuning part ([PSI] 3.2)", "[psi][mip]") {
  const core::Dataset train = tiny_data(8, 21, 1);
  const core::Dataset tune = tiny_data(40, 22, 4);
  const std::vector<double> grid = {0.001, 0.1, 10.0, 1000.0};
  for (const bool l2 : {false, true}) {
    const std::string svm = l2 ? "SVM-C" : "OneNormSVM-C";
    // The tuning accuracies, each SVM fitted on its own: the best is the start, ties to the smallest C (most
    // regularized) or the largest (least), whatever the grid's order.
    double best_c = 0.0, best_accuracy = -1.0, least_regularized_best_c = 0.0;
    for (const double c : grid) {  // ascending
      models::Workspace alone(train);
      const double accuracy = models::fit_method(svm, {{"C", c}}, alone).model.accuracy(tune);
      if (accuracy > best_accuracy) {
        best_accuracy = accuracy;
        best_c = c;
      }
      if (accuracy >= best_accuracy) least_regularized_best_c = c;
    }
    const std::vector<double> reversed(grid.rbegin(), grid.rend());
    models::Workspace workspace(train);
    workspace.set_tuning(tune, {{"C", reversed}}, models::SelectionRules{});
    const models::FitReport restricted = models::fit_method(l2 ? "PSI-2r" : "PSI-1r", {{"C", 3.0}}, workspace);
    REQUIRE(restricted.has_solution());
    CHECK(restricted.statistics.at("start_C") == best_c);
    models::Workspace least(train);
    least.set_tuning(tune, {{"C", grid}}, {models::SelectionRule::best, models::TieRule::least_regularized});
    CHECK(models::fit_method(l2 ? "PSI-2r" : "PSI-1r", {{"C", 3.0}}, least).statistics.at("start_C") ==
          least_regularized_best_c);
    // The examples fixed to region 3 are those the tuned SVM puts beyond 1.1.
    const models::FitReport start = models::fit_method(svm, {{"C", best_c}}, workspace);
    const core::Vector t = models::margins(train, start.model.w(), start.model.b());
    CHECK(restricted.statistics.at("mip_fixed_examples") == static_cast<double>((t.array() > 1.1).count()));
    // Without a tuning part the start is the SVM of the method's own C; the unrestricted methods never tune it.
    models::Workspace plain(train);
    CHECK(models::fit_method(l2 ? "PSI-2r" : "PSI-1r", {{"C", 3.0}}, plain).statistics.at("start_C") == 3.0);
    CHECK(models::fit_method(l2 ? "PSI-2" : "PSI-1", {{"C", 3.0}}, workspace).statistics.at("start_C") == 3.0);
  }
}

TEST_CASE("a MIP's time limit is wall-clock seconds, also with fits in parallel threads", "[psi][mip]") {
  // PSI-1 with M = 1000 on 60 points with flipped labels does not close in 1 s. Cbc's default clock is the
  // process's CPU time: two threads used to stop each other at half the limit.
  const core::Dataset data = tiny_data(60, 31, 9);
  std::vector<models::FitReport> fits(2);
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < fits.size(); ++k) {
    threads.emplace_back([&, k] {
      models::Workspace workspace(data);
      fits[k] = models::fit_method("PSI-1", {{"C", 10.0}, {"big_m", 1000.0}, {"time_limit", 1.0}, {"lp_iteration_limit", 0.0}},
                                   workspace);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const models::FitReport& fit : fits) {
    REQUIRE(fit.status == core::Status::feasible);
    CHECK(fit.statistics.at("mip_seconds") >= 0.95);
    CHECK(fit.statistics.at("mip_seconds") < 5.0);
  }
}

TEST_CASE("a MIP stopped by a work limit gives the same row with the machine loaded and unloaded", "[psi][mip]") {
  // The hard instance above, stopped after 3000 simplex iterations or 40 nodes (about 0.1 s each). With the
  // machine loaded by two spinning threads and a parallel fit, the rows must not move: the limits count
  // work, not seconds. The 60 s wall clock is far away (a work limit ignored would stop there instead,
  // at rows that differ).
  // Then without big_m, where search: auto runs the box search over (w, b) first on three quarters of the
  // limit (150 of 200, which its iterations reach after about 3900 of their own at n = 60), and Cbc on the
  // rest.
  const core::Dataset data = tiny_data(60, 31, 9);
  for (const auto& [limit, value, reason, big_m] : {std::tuple("lp_iteration_limit", 3000.0, "iteration limit", 1000.0),
                                                    std::tuple("node_limit", 40.0, "node limit", 1000.0),
                                                    std::tuple("lp_iteration_limit", 200.0, "iteration limit", 0.0)}) {
    models::Hyperparameters options{{"C", 10.0}, {"big_m", big_m}, {"time_limit", 60.0}, {"lp_iteration_limit", 0.0}};
    options[limit] = value;
    const auto fit = [&] {
      models::Workspace workspace(data);
      return models::fit_method("PSI-2", options, workspace);
    };
    const models::FitReport quiet = fit();
    std::atomic<bool> stop = false;
    std::vector<std::thread> load;
    for (int k = 0; k < 2; ++k) {
      load.emplace_back([&] {
        volatile double sink = 0.0;
        while (!stop) sink = sink + 1.0;
      });
    }
    models::FitReport busy, beside;
    std::thread parallel([&] { beside = fit(); });
    busy = fit();
    parallel.join();
    stop = true;
    for (std::thread& thread : load) thread.join();
    INFO(limit << " big_m " << big_m);
    REQUIRE(quiet.status == core::Status::feasible);
    CHECK(quiet.stop_reason == reason);
    for (const models::FitReport* other : {&busy, &beside}) {
      CHECK(other->status == quiet.status);
      CHECK(other->stop_reason == quiet.stop_reason);
      CHECK(other->objective == quiet.objective);
      CHECK(other->statistics.at("mip_best_bound") == quiet.statistics.at("mip_best_bound"));
      CHECK(other->statistics.at("mip_nodes") == quiet.statistics.at("mip_nodes"));
      CHECK(other->statistics.at("mip_lp_iterations") == quiet.statistics.at("mip_lp_iterations"));
      CHECK(other->model.w() == quiet.model.w());
    }
  }
}

TEST_CASE("a MIP stopped at a limit quotes the row's own gap, not its last MILP's", "[psi][mip]") {
  // PSI-2's MILPs model (1/2)||w||^2 by tangents: the last MILP's gap (0.978 here) is not F's (0.975).
  // `fit -m PSI-2` on german printed the MILP's 4.93e-16 beside a certificate of 0.0408.
  const core::Dataset data = data::generate("psi_quadratic:n=60,seed=1,case=3");
  models::Workspace workspace(data);
  const models::FitReport fit = models::fit_method("PSI-2", {{"C", 10.0}, {"lp_iteration_limit", 2000.0}}, workspace);
  REQUIRE(fit.status == core::Status::feasible);
  CHECK(fit.stop_reason == models::kIterationLimitStop);
  const std::regex quoted_gap("([-+0-9.e]+|inf) above the bound");
  int quoted = 0;
  for (auto match = std::sregex_iterator(fit.message.begin(), fit.message.end(), quoted_gap);
       match != std::sregex_iterator(); ++match, ++quoted) {
    CHECK((*match)[1].str() == fmt::format("{:.3g}", fit.certificate));
  }
  CHECK(quoted == 1);
}

TEST_CASE("a MIP Cbc calls infeasible keeps the start, unproven, instead of ending without a model", "[psi][mip]") {
  // Separable data with features times 1e20: the start is feasible in every MILP, yet Cbc has answered
  // "infeasible" here (a reviewer's case); whatever Cbc says, the fit keeps a model and never claims more.
  core::Dataset small = tiny_data(20, 5, 0);
  const core::Dataset data("scaled", core::DenseMatrix(small.dense() * 1e20), small.labels(), {"x1", "x2"}, {});
  for (const char* method : {"PSI-1", "PSI-2"}) {
    models::Workspace workspace(data);
    const models::FitReport fit = models::fit_method(method, {{"C", 1.0}, {"time_limit", 5.0}}, workspace);
    INFO(method << ": " << core::to_string(fit.status) << " " << fit.message);
    CHECK(fit.has_solution());
    CHECK(fit.status != core::Status::infeasible);
  }
}

namespace {

// PSI-1 on `data` through its algorithm, started from `start_report` (as methods.cpp would).
models::FitReport psi_from_start(const core::Dataset& data, const models::FitReport& start_report,
                                 const models::Hyperparameters& given) {
  const models::MethodInfo& method = models::find_method("PSI-1");
  const models::Hyperparameters h = models::resolve_hyperparameters(method, given);
  const models::Algorithm& algorithm = models::find_algorithm(method.algorithm);
  models::Hyperparameters options;
  for (const auto& spec : algorithm.options()) options[spec.name] = h.at(spec.name);
  models::Workspace workspace(data);
  return algorithm.fit(models::make_objective(method, h, data), workspace, {start_report.model, &start_report}, options);
}

}  // namespace

TEST_CASE("a MIP whose start failed says so in its status unless it proves an optimum", "[psi][mip]") {
  models::FitReport failed;
  failed.status = core::Status::numerical_error;
  SECTION("unproven: the start's status, exit 3 for `fit`") {
    const models::FitReport fit =
        psi_from_start(tiny_data(60, 31, 9), failed, {{"C", 10.0}, {"big_m", 1000.0}, {"time_limit", 0.5}});
    CHECK(fit.status == core::Status::numerical_error);
    CHECK_THAT(fit.message, Catch::Contains("start failed"));
  }
  SECTION("proven: a certificate needs no start") {
    const models::FitReport fit = psi_from_start(tiny_data(7, 1, 1), failed, {{"C", 3.0}});
    CHECK(fit.status == core::Status::optimal);
    CHECK(fit.objective == Approx(brute_force(tiny_data(7, 1, 1), 3.0, 0.5, false)).epsilon(1e-6));
  }
}

TEST_CASE("a MIP's time limit counts the start's seconds", "[psi][mip]") {
  const core::Dataset data = tiny_data(60, 31, 9);
  models::Workspace workspace(data);
  models::FitReport start = models::fit_method("OneNormSVM-C", {{"C", 10.0}}, workspace);
  start.seconds = 2.7;  // as if the start had taken 2.7 of the 3 s, leaving the MIP 0.3 s
  const models::FitReport fit = psi_from_start(data, start, {{"C", 10.0}, {"big_m", 1000.0}, {"time_limit", 3.0}});
  REQUIRE(fit.status == core::Status::feasible);
  // Without the start counted this MIP runs its whole 3 s (measured); 1.5 s leaves room for the clock's
  // overrun under sanitizers and load (0.53 s for a 0.3 s share was seen).
  CHECK(fit.statistics.at("mip_seconds") < 1.5);
  CHECK(fit.seconds == Approx(2.7 + fit.statistics.at("mip_seconds")));
}

TEST_CASE("the big-M's tightening stops at the time limit, and the row reports no MILP", "[psi][mip]") {
  // psi_quadratic case 3, n = 400: one round of the tightening (an LP per example) takes seconds; at a
  // 0.5 s limit the fit stops inside it, time-limited, without calling Cbc (planted: the clock checked
  // only between rounds, the first round ran on: 4.3 s).
  const core::Dataset data = data::generate("psi_quadratic:n=400,case=3,seed=1");
  models::Workspace workspace(data);
  const models::FitReport fit =
      models::fit_method("PSI-1", {{"C", 1.0}, {"search", kCbc}, {"time_limit", 0.5}}, workspace);
  REQUIRE(fit.status == core::Status::feasible);
  CHECK(fit.stop_reason == "time limit");
  CHECK(fit.statistics.at("mip_seconds") < 2.0);  // room for sanitizers and load
  CHECK(fit.statistics.at("mip_nodes") == 0.0);
  CHECK(fit.statistics.at("mip_big_m") == 0.0);  // no MILP solved: none reported
}

TEST_CASE("a MIP row's inner_iterations is its start's plus every simplex iteration of its search", "[psi][mip]") {
  const core::Dataset data = tiny_data(40, 23, 6);
  models::Workspace workspace(data);
  models::FitReport start = models::fit_method("OneNormSVM-C", {{"C", 10.0}}, workspace);
  start.inner_iterations = 1000;  // marked, so that the sum shows the start's share
  start.inner_solves = 3;
  for (const double search : {kCbc, kBox, kAuto}) {
    const models::FitReport fit = psi_from_start(data, start, {{"C", 10.0}, {"search", search}});
    INFO("search " << search << ": inner_iterations " << fit.inner_iterations << ", mip_lp_iterations "
                   << fit.statistics.at("mip_lp_iterations") << ", inner_solves " << fit.inner_solves);
    const double searched = static_cast<double>(fit.inner_iterations - start.inner_iterations);
    CHECK(searched > 0.0);
    CHECK(fit.inner_solves > start.inner_solves);
    // lp_iteration_limit's count weighs the box search's iterations (psi_box.hpp); Cbc's count once.
    const double weight = search == kCbc ? 1.0 : models::box_iteration_weight(data.n());
    if (search != kAuto) CHECK(fit.statistics.at("mip_lp_iterations") == Approx(weight * searched).margin(1.0));
  }
}

TEST_CASE("a restriction below margin 1 is refused: the start would break its own region-3 rows", "[psi][mip]") {
  // A reviewer's case: restrict_margin 0.3 fixed examples at t in (0.3, 1) to t >= 1, kept the start
  // (which violates that) and called it optimal, below the MILP's bound.
  const core::Dataset data = tiny_data(14, 1, 1);
  models::Workspace workspace(data);
  CHECK_THROWS_WITH(models::fit_method("PSI-1r", {{"C", 1.0}, {"restrict_margin", 0.3}}, workspace),
                    Catch::Contains("restrict_margin must be 0 (no restriction) or at least 1"));
  CHECK(models::fit_method("PSI-1r", {{"C", 1.0}, {"restrict_margin", 1.0}}, workspace).statistics.at("mip_closed") == 1.0);
}

TEST_CASE("a given big_m below the data's bound makes the MIP a restricted one: feasible, never optimal", "[psi][mip]") {
  // A reviewer's case: big_m 1e-6 closed the gap of a MILP whose feasible set the small M had cut, and
  // the row said optimal at a worse F than the derived M's optimum.
  const core::Dataset data = tiny_data(7, 5, 2);
  models::Workspace workspace(data);
  const auto derived = models::fit_method("PSI-1", {{"C", 10.0}}, workspace);
  const auto cut = models::fit_method("PSI-1", {{"C", 10.0}, {"big_m", 1e-6}}, workspace);
  const auto generous = models::fit_method("PSI-1", {{"C", 10.0}, {"big_m", 1000.0}}, workspace);
  REQUIRE(derived.status == core::Status::optimal);
  CHECK(cut.status == core::Status::feasible);
  CHECK(cut.certificate_kind == std::string(models::kRestrictedMipGap));
  CHECK_THAT(cut.message, Catch::Contains("big_m = 1e-06, below the bound"));
  CHECK(cut.objective >= derived.objective * (1 - 1e-9));
  CHECK(generous.status == core::Status::optimal);  // above the bound: nothing cut
}

TEST_CASE("restricted psi by the box search equals Cbc's restricted MIP", "[psi][box]") {
  // Restricted: the same optimum as Cbc's MIP with the same examples fixed to region 3.
  const core::Dataset data = tiny_data(8, 11, 1);
  for (const char* method : {"PSI-1r", "PSI-2r"}) {
    models::Workspace workspace(data);
    const models::FitReport cbc = models::fit_method(method, {{"C", 5.0}, {"search", kCbc}}, workspace);
    const models::FitReport box = models::fit_method(method, {{"C", 5.0}, {"search", kBox}}, workspace);
    INFO(method);
    CHECK(box.statistics.at("mip_closed") == 1.0);
    CHECK(box.status == core::Status::feasible);  // closed for the restricted problem only
    CHECK(box.objective == Approx(cbc.objective).epsilon(1e-6));
  }
}

TEST_CASE("psi's envelope on an interval lies below psi and touches it at the interval's ends and corners", "[psi][box]") {
  // Against a brute-force lower hull: at each t, the lowest chord between two samples of psi on either side.
  core::Rng rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    const double a = rng.uniform(0.2, 2.0);
    double lower = rng.uniform(-4.0, 3.0), upper = rng.uniform(-4.0, 3.0);
    if (lower > upper) std::swap(lower, upper);
    const std::vector<models::Line> lines = models::psi_envelope(lower, upper, a);
    const auto envelope = [&](double t) {
      double value = -std::numeric_limits<double>::infinity();
      for (const models::Line& line : lines) value = std::max(value, line.slope * t + line.intercept);
      return value;
    };
    std::vector<double> samples;
    for (int k = 0; k <= 400; ++k) samples.push_back(lower + (upper - lower) * k / 400.0);
    for (const double corner : {0.0, 1.0}) {
      if (corner > lower && corner < upper) samples.push_back(corner);
    }
    std::sort(samples.begin(), samples.end());
    INFO("[" << lower << ", " << upper << "] a " << a);
    for (const double t : samples) {
      CHECK(envelope(t) <= models::psi(t, a) + 1e-9);
      double hull = models::psi(t, a);
      for (const double left : samples) {
        if (left >= t) break;
        for (const double right : samples) {
          if (right <= t) continue;
          const double weight = (t - left) / (right - left);
          hull = std::min(hull, (1 - weight) * models::psi(left, a) + weight * models::psi(right, a));
        }
      }
      CHECK(envelope(t) >= hull - 1e-9);
    }
    CHECK(envelope(lower) == Approx(models::psi(lower, a)).margin(1e-12));
    CHECK(envelope(upper) == Approx(models::psi(upper, a)).margin(1e-12));
  }
}

TEST_CASE("polishing a point never raises F, and its F is the objective's", "[psi][box]") {
  // PSI-2's polishing LP only models ||w||^2 by tangents, so its answer can be worse than its start: it must
  // be refused. Points: the SVM's fit and random ones.
  const core::Dataset data = data::generate("psi_quadratic:n=60,case=3,seed=4");
  core::Rng rng(9);
  for (const bool l2 : {false, true}) {
    const double C = 2.0;
    const models::MethodInfo& method = models::find_method(l2 ? "PSI-2" : "PSI-1");
    const models::Objective objective =
        models::make_objective(method, models::resolve_hyperparameters(method, {{"C", C}}), data);
    const models::PsiShape shape = models::psi_shape(data, objective.example_weights,
                                                     objective.penalty_weight * objective.penalty->convex_weight(),
                                                     objective.loss->value(0.0), l2, std::vector<bool>(data.n(), false));
    const auto d = static_cast<Eigen::Index>(data.d());
    const models::Box box{core::Vector::Constant(d + 1, -50.0), core::Vector::Constant(d + 1, 50.0)};
    int improved = 0;
    for (int trial = 0; trial < 20; ++trial) {
      core::Vector w(d);
      for (Eigen::Index j = 0; j < d; ++j) w[j] = rng.uniform(-2.0, 2.0);
      const double b = rng.uniform(-2.0, 2.0);
      const double value = models::psi_objective(shape, w, b);
      CHECK(value == Approx(objective.value(data, w, b)).epsilon(1e-12));
      long iterations = 0;
      const models::PsiPoint polished = models::polish(shape, box, {w, b, value}, iterations);
      INFO((l2 ? "PSI-2" : "PSI-1") << " trial " << trial);
      CHECK(polished.value <= value);
      CHECK(polished.value == Approx(objective.value(data, polished.w, polished.b)).epsilon(1e-12));
      improved += polished.value < value;
      // At a polished point the LP's tangent model is all that could move it: an answer a rounding above
      // must be refused too (PSI-2).
      const models::PsiPoint again = models::polish(shape, box, polished, iterations);
      CHECK(again.value <= polished.value);
    }
    INFO((l2 ? "PSI-2" : "PSI-1"));
    CHECK(improved >= 10);  // it does something
  }
}

TEST_CASE("the box search refuses many features and a big_m, naming the option that works", "[psi][box]") {
  const core::Dataset wide = data::generate("dca_gaussians:n=30,noise_dims=15,seed=1");
  models::Workspace workspace(wide);
  CHECK_THROWS_WITH(models::fit_method("PSI-1", {{"C", 1.0}, {"search", 2.0}}, workspace),
                    Catch::Contains("at most 20 features; found 25 (use search: cbc)"));
  const core::Dataset data = tiny_data(7, 1, 1);
  models::Workspace small(data);
  CHECK_THROWS_WITH(models::fit_method("PSI-1", {{"C", 1.0}, {"search", 2.0}, {"big_m", 1000.0}}, small),
                    Catch::Contains("search: box has none"));
}

TEST_CASE("search: auto is Cbc's search, row for row, beyond 4 features", "[psi][box]") {
  // The references' psi rows on data with more features must not move with the box search's arrival.
  const core::Dataset data = data::generate("psi_quadratic:n=40,case=3,seed=2");
  for (const char* method : {"PSI-1", "PSI-2"}) {
    models::Workspace workspace(data);
    const models::FitReport cbc = models::fit_method(method, {{"C", 1.0}, {"search", 1.0}}, workspace);
    const models::FitReport automatic = models::fit_method(method, {{"C", 1.0}}, workspace);
    INFO(method);
    CHECK(automatic.objective == cbc.objective);
    CHECK(automatic.status == cbc.status);
    CHECK(automatic.statistics.at("mip_nodes") == cbc.statistics.at("mip_nodes"));
    CHECK(automatic.statistics.at("mip_lp_iterations") == cbc.statistics.at("mip_lp_iterations"));
    CHECK(automatic.model.w() == cbc.model.w());
  }
}

TEST_CASE("search: auto is optimal where the box's bound and Cbc's answer meet, at the optimum each proves alone",
          "[psi][box]") {
  // psi_quadratic case 1, n = 60, C = 1: the box search alone closes in 531 nodes. On a node limit of 700,
  // auto's box phase gets 525 and stops short. Cbc, its big-M tightened from the box's point, would close
  // at its root on the rest; 2000 simplex iterations in all stop its tree short of its own proof (its
  // tightening takes a quarter of what the box left), but its answer meets the box's bound: optimal by the two
  // together (with that promotion planted away the row stays feasible). The claim is checked against both
  // searches run to their own proofs.
  const core::Dataset data = data::generate("psi_quadratic:n=60,seed=6");
  models::Workspace workspace(data);
  const models::FitReport automatic =
      models::fit_method("PSI-1", {{"C", 1.0}, {"node_limit", 700.0}, {"lp_iteration_limit", 2000.0}}, workspace);
  const models::FitReport box_phase =
      models::fit_method("PSI-1", {{"C", 1.0}, {"search", kBox}, {"node_limit", 525.0}}, workspace);
  const models::FitReport box = models::fit_method("PSI-1", {{"C", 1.0}, {"search", kBox}}, workspace);
  const models::FitReport cbc = models::fit_method("PSI-1", {{"C", 1.0}, {"search", kCbc}}, workspace);
  REQUIRE(box_phase.status == core::Status::feasible);
  REQUIRE(box.status == core::Status::optimal);
  REQUIRE(cbc.status == core::Status::optimal);
  CHECK(automatic.status == core::Status::optimal);
  CHECK(automatic.stop_reason == "box and Cbc bounds met");
  CHECK(automatic.objective == Approx(box.objective).epsilon(1e-9));
  CHECK(automatic.objective == Approx(cbc.objective).epsilon(1e-9));
}

TEST_CASE("search: auto proves with the box search where Cbc's tree stalls", "[psi][box]") {
  // psi_quadratic case 1 (2 features), n = 100, C = 0.03: Cbc's tree ends its 2e5 simplex iterations at a
  // point near F = 2.58, gap 0.64; the box search proves F = 1.5 in about 10^4 of its iterations (500 units
  // of work at its weight of 1/20). A work limit of 40000
  // separates them (planting search: cbc as auto's only search fails here).
  const core::Dataset data = data::generate("psi_quadratic:n=100,case=1,seed=3");
  models::Workspace workspace(data);
  const models::FitReport fit = models::fit_method("PSI-1", {{"C", 0.03}, {"lp_iteration_limit", 40000.0}}, workspace);
  CHECK(fit.status == core::Status::optimal);
  CHECK(fit.objective == Approx(1.5).epsilon(1e-9));
  CHECK(fit.stop_reason == "box search closed");
}

TEST_CASE("the box search and Cbc's tree prove the same optimum at n = 30", "[psi][box]") {
  // Two searches that share no formulation (the box search cuts its boxes by the reduced costs of its
  // LPs; Cbc branches on the examples' binaries) on psi_quadratic's cases 1-2, where both close. Planting
  // a cut on the wrong side of a reduced cost fails here.
  for (const int data_case : {1, 2}) {
    for (const int seed : {1, 2, 3, 4}) {
      const core::Dataset data =
          data::generate("psi_quadratic:n=30,case=" + std::to_string(data_case) + ",seed=" + std::to_string(seed));
      models::Workspace workspace(data);
      for (const char* method : {"PSI-1", "PSI-2"}) {
        for (const double C : {0.3, 3.0}) {
          INFO(method << " case " << data_case << " seed " << seed << " C " << C);
          const models::FitReport box = models::fit_method(method, {{"C", C}, {"search", kBox}}, workspace);
          const models::FitReport cbc = models::fit_method(method, {{"C", C}, {"search", kCbc}}, workspace);
          REQUIRE(box.status == core::Status::optimal);
          REQUIRE(cbc.status == core::Status::optimal);
          CHECK(box.objective == Approx(cbc.objective).epsilon(1e-6));
        }
      }
    }
  }
}

TEST_CASE("the box search's iterations count sqrt(n/100)/20 each against the iteration limit", "[psi][box]") {
  // Its LPs are small (box_iteration_weight): this fit (n = 100) takes it about 4000 simplex iterations,
  // so a limit of 1000 lets it close (about 200 counted) where counting them whole stops it (planting a
  // weight of 1 fails here).
  CHECK(models::box_iteration_weight(100) == Approx(0.05));
  CHECK(models::box_iteration_weight(400) == Approx(0.1));
  const core::Dataset data = data::generate("psi_quadratic:n=100,case=1,seed=3");
  models::Workspace workspace(data);
  const models::FitReport fit =
      models::fit_method("PSI-1", {{"C", 0.03}, {"search", kBox}, {"lp_iteration_limit", 1000.0}}, workspace);
  CHECK(fit.status == core::Status::optimal);
  CHECK(fit.statistics.at("mip_lp_iterations") > 100.0);
  CHECK(fit.statistics.at("mip_lp_iterations") < 1000.0);
}

TEST_CASE("a share of a MIP's budget divides its work limits, not its clock", "[psi][mip]") {
  // search: auto's box phase runs on a share (three quarters of each work limit). The wall clock is the
  // whole fit's safety net: a share keeps it whole (a share of the clock stopped the box at three quarters
  // of time_limit, and the row's message named the full limit), and a share that the clock stopped has
  // stopped the fit, time-limited, not gone on to Cbc to end "iteration limit" as if its row were the same
  // on any machine (a bench run under load did).
  const models::Hyperparameters options{{"time_limit", 1000.0}, {"node_limit", 0.0}, {"lp_iteration_limit", 1000.0}};
  models::MipBudget budget(options, 0.0);
  models::MipBudget share = budget.share(1e-12);
  CHECK(share.time_limit() == budget.time_limit());
  CHECK(share.iteration_limit() == 1);
  CHECK_FALSE(share.exhausted());
  // A start that took longer than time_limit: the share has no time left, nor has the fit.
  models::MipBudget late(options, 1001.0);
  models::MipBudget late_share = late.share(0.75);
  REQUIRE(late_share.exhausted());
  REQUIRE(late_share.stopped_by() == optim::MipLimit::time);
  late.absorb(late_share);
  CHECK(late.exhausted());
  CHECK(late.stopped_by() == optim::MipLimit::time);
}

TEST_CASE("a psi fit whose clock runs out before Cbc's MILP stops without calling Cbc", "[psi][box]") {
  // A clock of 1e-9 s has run out in auto's box phase, or (search: cbc) in the start's fit: the row is
  // time-limited, says so with the limit it met, and reports no formulation of Cbc's (mip_big_m 0, no
  // cuts), which never ran.
  const core::Dataset data = data::generate("psi_quadratic:n=60,case=1,seed=4");
  for (const double search : {kAuto, kCbc}) {
    INFO("search " << search);
    models::Workspace workspace(data);
    const models::FitReport fit =
        models::fit_method("PSI-2", {{"C", 10.0}, {"search", search}, {"time_limit", 1e-9}}, workspace);
    CHECK(fit.status == core::Status::feasible);
    CHECK(fit.stop_reason == models::kTimeLimitStop);
    CHECK(fit.statistics.at("mip_big_m") == 0.0);
    CHECK(std::isnan(fit.statistics.at("mip_cuts")));
    CHECK_THAT(fit.message, Catch::Contains("time limit (1e-09 s"));
  }
}

TEST_CASE("the box search proves on features far from 0 as on centred ones", "[psi][box]") {
  // A reviewer's case: features offset by 100 made the box of b as wide as 100 W, and the search stopped at
  // its iteration limit where Cbc proved the optimum. Shifting every feature moves b only, so the optimum
  // is the same; the search runs on centred features (b' = b + w.c).
  const core::Dataset data = data::generate("psi_quadratic:n=60,case=1,seed=4");
  core::DenseMatrix shifted(static_cast<Eigen::Index>(data.n()), static_cast<Eigen::Index>(data.d()));
  for (Eigen::Index i = 0; i < shifted.rows(); ++i) {
    for (Eigen::Index j = 0; j < shifted.cols(); ++j) {
      shifted(i, j) = data.value(static_cast<std::size_t>(i), static_cast<std::size_t>(j)) + 100.0;
    }
  }
  const core::Dataset far("far", shifted, data.labels(), {"x1", "x2"}, {});
  for (const char* method : {"PSI-1", "PSI-2"}) {
    models::Workspace near_workspace(data), far_workspace(far);
    const models::FitReport near = models::fit_method(method, {{"C", 10.0}, {"search", kBox}}, near_workspace);
    const models::FitReport offset = models::fit_method(method, {{"C", 10.0}, {"search", kBox}}, far_workspace);
    INFO(method);
    REQUIRE(near.status == core::Status::optimal);
    CHECK(offset.status == core::Status::optimal);
    CHECK(offset.objective == Approx(near.objective).epsilon(1e-6));
  }
}

namespace {

// psi_quadratic (n = 30, case 1, seed 1) with its first feature multiplied by `scale`.
core::Dataset one_feature_scaled(double scale) {
  const core::Dataset data = data::generate("psi_quadratic:n=30,case=1,seed=1");
  core::Vector factors = core::Vector::Ones(static_cast<Eigen::Index>(data.d()));
  factors[0] = scale;
  return testing::scaled_features(data, factors);
}

}  // namespace

TEST_CASE("Cbc's bound is claimed only at a big-M its tolerances resolve", "[psi][mip]") {
  // A reviewer's case: a feature scaled by 1e4 makes psi's big-M about 2e8 at C = 500, and Cbc's "best
  // possible" was 5000 where the box search (no big-M) proves F = 2007.6: a bound above the minimum.
  // Passing Cbc's bound through unchecked fails here. At scale 1 (big-M 2e4) the bound is claimed and
  // meets the box's optimum.
  for (const double scale : {1.0, 1e4}) {
    const core::Dataset data = one_feature_scaled(scale);
    models::Workspace workspace(data);
    const models::FitReport box = models::fit_method("PSI-1", {{"C", 500.0}, {"search", kBox}}, workspace);
    const models::FitReport cbc = models::fit_method("PSI-1", {{"C", 500.0}, {"search", kCbc}}, workspace);
    INFO("scale " << scale << ": big-M " << cbc.statistics.at("mip_big_m") << ", bound "
                  << cbc.statistics.at("mip_best_bound") << ", box optimum " << box.objective);
    REQUIRE(box.status == core::Status::optimal);
    CHECK(cbc.statistics.at("mip_best_bound") <= box.objective * (1 + 1e-6));
    if (scale == 1.0) {
      CHECK(cbc.status == core::Status::optimal);
      CHECK(cbc.statistics.at("mip_best_bound") == Approx(box.objective).epsilon(1e-6));
    } else {
      REQUIRE(cbc.statistics.at("mip_big_m") > models::kLargestTrustedMipScale);
      CHECK(cbc.status != core::Status::optimal);
      CHECK_THAT(cbc.message, Catch::Contains("no bound of Cbc's is claimed"));
      CHECK_THAT(cbc.message, !Catch::Contains("above Cbc's bound"));  // no gap to a bound not claimed
    }
  }
}

TEST_CASE("Cbc's word is trusted by the weights' bound too, whether big_m is derived or given", "[psi][mip]") {
  // psi_quadratic (n = 30, case 2) with every feature x 1e-7 and C x 1e7 is the unscaled problem with
  // w' = 1e7 w and F' = 1e7 F: a big-M near 60 but weights up to about 1e8, where Cbc's tolerances (as
  // RLSVM1-global showed on such data) no longer certify. A given big_m leaves the weight columns
  // unbounded; the bound every optimum obeys (rho ||w||_1 <= F) still decides (a reviewer's finding:
  // with big_m = 1000 the row said optimal).
  const core::Dataset data = data::generate("psi_quadratic:n=30,case=2,seed=1");
  const core::Dataset scaled = testing::scaled_features(data, core::Vector::Constant(static_cast<Eigen::Index>(data.d()), 1e-7));
  models::Workspace workspace(scaled);
  for (const double big_m : {0.0, 1000.0}) {
    const models::FitReport fit = models::fit_method("PSI-1", {{"C", 1e7}, {"search", kCbc}, {"big_m", big_m}}, workspace);
    INFO("big_m " << big_m << ": " << core::to_string(fit.status) << ", " << fit.message);
    REQUIRE(fit.statistics.at("mip_big_m") <= models::kLargestTrustedMipScale);
    CHECK(fit.status != core::Status::optimal);
    CHECK(std::isinf(fit.statistics.at("mip_best_bound")));
    CHECK(fit.stop_reason == std::string(models::kUntrustedScaleStop));
  }
}

TEST_CASE("search: auto hands what the box search leaves open to Cbc, from its point, bounds combined", "[psi][box]") {
  // psi_quadratic case 2 (4 features), n = 100, C = 100: the box search proves it on 15000 units of work
  // (its iterations weighted 1/20), Cbc alone on about 66000 iterations. On a limit of 4000, auto's box
  // phase gets 3000 (the box alone on 3000 is the same search) and Cbc the last 1000: Cbc's nodes add to
  // the box's, its answer is no worse than the box's and its row's bound no lower (planting auto as the
  // box alone fails the nodes; dropping the box's bound from the combination fails the bound).
  const core::Dataset data = data::generate("psi_quadratic:n=100,case=2,seed=5");
  models::Workspace workspace(data);
  const models::FitReport box =
      models::fit_method("PSI-1", {{"C", 100.0}, {"search", kBox}, {"lp_iteration_limit", 3000.0}}, workspace);
  const models::FitReport automatic = models::fit_method("PSI-1", {{"C", 100.0}, {"lp_iteration_limit", 4000.0}}, workspace);
  REQUIRE(box.status == core::Status::feasible);
  CHECK(box.stop_reason == "iteration limit");
  CHECK(automatic.stop_reason == "iteration limit");
  CHECK(automatic.statistics.at("mip_nodes") > box.statistics.at("mip_nodes"));
  CHECK(automatic.objective <= box.objective * (1 + 1e-12));
  CHECK(automatic.statistics.at("mip_best_bound") >= box.statistics.at("mip_best_bound"));
  CHECK(automatic.statistics.at("mip_lp_iterations") >= 4000.0);
}
