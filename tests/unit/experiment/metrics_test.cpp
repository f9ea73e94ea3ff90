#include <catch2/catch.hpp>

#include "experiment/metrics.hpp"
#include "models/losses/loss.hpp"

using namespace sparsesvm;

TEST_CASE("metrics follow REPRODUCTION.md on a hand-made model", "[metrics]") {
  // Four training points on a line with w = (1, 0, 1e-7), b = 0: margins y x1 = 2, 0.5, -0.5, 1.005.
  core::DenseMatrix x(4, 3);
  x << 2, 7, 0, 0.5, 7, 0, 0.5, 7, 0, -1.005, 7, 0;
  const core::Vector y = (core::Vector(4) << 1, 1, -1, -1).finished();
  core::Dataset train("t", x, y, {}, {});
  train.set_informative_features({true, true, false});
  const core::LinearModel model((core::Vector(3) << 1, 0, 1e-7).finished(), 0.0);
  // Hinge SV rule y f < 1 + 1e-2: margins 0.5, -0.5, 1.005 qualify; 2 does not.
  const experiment::ModelMetrics hinge = experiment::model_metrics(model, train, train, models::make_loss("hinge")->support_region());
  CHECK(hinge.n_features == 1);  // |1e-7| is below the 1e-6 threshold
  CHECK(hinge.frac_features == Approx(1.0 / 3));
  CHECK(*hinge.fp_features == 0);
  CHECK(*hinge.fn_features == 1);
  CHECK(hinge.n_sv == 3);
  CHECK(hinge.frac_params == Approx(1.0 * 3 / (3 * 4)));
  CHECK(hinge.train_accuracy == Approx(0.75));  // the third point (-1, x1 = 0.5) is misclassified
  // Ramp SV rule with mu = 0.5: y f in [-0.26, 0.51]: margins 0.5 and -0.5? only 0.5 qualifies.
  const experiment::ModelMetrics ramp = experiment::model_metrics(model, train, train, models::make_loss("ramp", {{"mu", 0.5}})->support_region());
  CHECK(ramp.n_sv == 1);
}
