#include <catch2/catch.hpp>

#include <cmath>

#include "data/load.hpp"
#include "data/transforms.hpp"
#include "models/methods.hpp"
#include "toy_problems.hpp"

using namespace sparsesvm;
using namespace sparsesvm::models;

namespace {

// (F - F*) / F*, F* the LP optimum of ||w||_1 + C sum hinge with b free.
double relative_gap(const FitReport& walk, const FitReport& optimum) {
  return (walk.objective - optimum.objective) / optimum.objective;
}

}  // namespace

TEST_CASE("RW(N) approaches the LP optimum of ||w||_1 + C sum hinge, decreasing F at every iteration", "[rw]") {
  // [RW] Theorems 2-3: each iteration lowers the 1-norm objective; the fixed point is its minimum.
  // Measured gaps on this set after 1 / 10 / 100 iterations: C = 0.1: 0.24 / 3.9e-4 / 3e-8;
  // C = 1: 0.011 / 1.6e-3 / 3.4e-7; C = 10: 0.056 / 1.4e-3 / 1.3e-7.
  const core::Dataset data = testing::random_problem(60, 10, 4, 3);
  for (const double c : {0.1, 1.0, 10.0}) {
    INFO("C = " << c);
    Workspace workspace(data);
    const FitReport optimum = fit_method("OneNormSVM-C", {{"C", c}}, workspace);
    REQUIRE(optimum.status == core::Status::optimal);
    const FitReport walk = fit_method("RW", {{"C", c}, {"rw_iterations", 100}, {"bias_feature", 0}}, workspace);
    // A truncated walk proves only its inner SVMs: feasible, with their largest gap as the certificate.
    REQUIRE(walk.status == core::Status::feasible);
    CHECK(walk.certificate_kind == std::string(kInnerSvmGap));
    CHECK(walk.certificate <= 1e-6);
    REQUIRE(walk.objective_trace.size() == 100);
    for (std::size_t t = 1; t < walk.objective_trace.size(); ++t) {
      CHECK(walk.objective_trace[t] <= walk.objective_trace[t - 1] * (1 + 1e-6));
    }
    const double first = (walk.objective_trace.front() - optimum.objective) / optimum.objective;
    CHECK(first > 0.0);
    CHECK(relative_gap(walk, optimum) >= -1e-6);  // never below the optimum
    CHECK(relative_gap(walk, optimum) < 1e-5);
    CHECK(relative_gap(walk, optimum) < 0.05 * first);
  }
}

TEST_CASE("RW does not approach the optimum of (1/2)||w||_1 + C sum hinge", "[rw]") {
  // The other convention: its optimum is F*_(1/2)(C) = F*(2C) / 2. RW's fixed point is the optimum of
  // ||w||_1 + C sum hinge, which stays measurably above it.
  const core::Dataset data = testing::random_problem(60, 10, 4, 3);
  Workspace workspace(data);
  const double c = 1.0;
  const FitReport walk = fit_method("RW", {{"C", c}, {"rw_iterations", 100}, {"bias_feature", 0}}, workspace);
  const FitReport doubled = fit_method("OneNormSVM-C", {{"C", 2 * c}}, workspace);
  const double half_optimum = doubled.objective / 2.0;
  const double half_value = walk.objective - 0.5 * walk.model.w().lpNorm<1>();  // (1/2)||w||_1 + C sum hinge
  CHECK((half_value - half_optimum) / half_optimum > 0.01);
}

TEST_CASE("RW(1) is the 2-norm SVM, and one walk serves every N", "[rw]") {
  const core::Dataset data = testing::random_problem(50, 6, 8);
  const double c = 2.0;
  Workspace workspace(data);
  const FitReport rw5 = fit_method("RW", {{"C", c}, {"rw_iterations", 5}, {"bias_feature", 0}}, workspace);
  const FitReport rw2 = fit_method("RW", {{"C", c}, {"rw_iterations", 2}, {"bias_feature", 0}}, workspace);
  CHECK(rw2.objective == rw5.objective_trace[1]);  // the walk's second iterate, not a new walk
  CHECK(rw2.seconds <= rw5.seconds);
  const FitReport rw1 = fit_method("RW", {{"C", c}, {"rw_iterations", 1}, {"bias_feature", 0}}, workspace);
  // (1/2)||w||^2 + C sum hinge = C (lambda ||w||^2 + sum hinge) with lambda = 1/(2C), solved by the
  // interior point (RW's inner SVMs by dual CD here).
  const FitReport svm = fit_method("SVM", {{"lambda", 1.0 / (2 * c)}, {"qp_solver", 1}}, workspace);
  CHECK((rw1.model.w() - svm.model.w()).norm() < 1e-3 * svm.model.w().norm());
  CHECK(rw1.model.b() == Approx(svm.model.b()).margin(1e-3));
}

TEST_CASE("RW on CSR data equals RW on dense data; L2-loss walks too", "[rw]") {
  const core::Dataset dense = testing::random_problem(40, 300, 2, 5);
  const core::SparseMatrix x = dense.dense().sparseView();
  const core::Dataset sparse("sparse", x, dense.labels(), {}, {});
  for (const std::string method : {"RW", "RW-L2"}) {
    INFO(method);
    Workspace on_dense(dense), on_sparse(sparse);
    const Hyperparameters h{{"C", 0.5}, {"rw_iterations", 4}};
    const FitReport a = fit_method(method, h, on_dense);
    const FitReport b = fit_method(method, h, on_sparse);
    REQUIRE(a.has_solution());
    REQUIRE(b.has_solution());
    CHECK(a.objective == Approx(b.objective).epsilon(1e-5));
    // Re-weighting makes the model sparser than the 2-norm SVM's.
    const FitReport first = fit_method(method, {{"C", 0.5}, {"rw_iterations", 1}}, on_dense);
    const auto nonzeros = [](const core::Vector& w) { return (w.array().abs() > 1e-6 * w.cwiseAbs().maxCoeff()).count(); };
    CHECK(nonzeros(a.model.w()) < nonzeros(first.model.w()));
  }
}

TEST_CASE("RW's walk is the same whichever solver runs the inner SVMs (dual CD or the interior point)", "[rw]") {
  const core::Dataset data = testing::random_problem(50, 8, 13, 3);
  for (const double c : {0.1, 10.0}) {
    for (const double s : {0.0, 1.0}) {
      INFO("C = " << c << ", bias_feature " << s);
      Workspace workspace(data);
      const Hyperparameters h{{"C", c}, {"rw_iterations", 5}, {"bias_feature", s}};
      Hyperparameters by_cd = h, by_interior_point = h;
      by_cd["qp_solver"] = 2;
      by_interior_point["qp_solver"] = 1;
      const FitReport cd = fit_method("RW", by_cd, workspace);
      const FitReport ip = fit_method("RW", by_interior_point, workspace);
      REQUIRE(cd.status == core::Status::feasible);
      REQUIRE(ip.status == core::Status::feasible);
      CHECK(cd.text_statistics.at("qp_solver") == "dual_cd");
      CHECK(ip.text_statistics.at("qp_solver") == "interior_point");
      for (std::size_t t = 0; t < 5; ++t) CHECK(cd.objective_trace[t] == Approx(ip.objective_trace[t]).epsilon(1e-4));
    }
  }
}

TEST_CASE("OneNormSVM-C is exact at tiny C: the same LP as OneNormSVM at lambda = 1/C", "[rw]") {
  // ||w||_1 + C sum hinge = C (lambda ||w||_1 + sum hinge) with lambda = 1/C. At C = 1e-9 every hinge
  // cost is below Clp's absolute tolerance; unscaled, Clp ended 'optimal' 2.45x above the optimum.
  // Sonar, standardized: unbalanced classes (111 / 97), so the optimum at tiny C is w = 0, b = 1.
  core::Dataset data = data::load_dataset({std::string(SPARSESVM_TEST_DATA_DIR) + "/../../datasets/sonar.csv", "auto", {}});
  std::vector<std::unique_ptr<data::Transform>> standardize;
  standardize.push_back(data::make_transform("standardize"));
  data::fit_and_apply(standardize, data, {});
  for (const double c : {1e-9, 1e-7, 1e-3}) {
    INFO("C = " << c);
    Workspace workspace(data);
    const FitReport by_c = fit_method("OneNormSVM-C", {{"C", c}}, workspace);
    const FitReport by_lambda = fit_method("OneNormSVM", {{"lambda", 1.0 / c}}, workspace);
    REQUIRE(by_c.status == core::Status::optimal);
    REQUIRE(by_lambda.status == core::Status::optimal);
    CHECK(by_c.objective == Approx(c * by_lambda.objective).epsilon(1e-6));
  }
}
