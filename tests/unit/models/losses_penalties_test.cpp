#include <catch2/catch.hpp>

#include <cmath>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "models/losses.hpp"
#include "models/penalties.hpp"

using namespace sparsesvm;
using namespace sparsesvm::models;

namespace {

// g(t) - h(t) with g = scale max(0, margin - t) and h recovered by integrating its slope from far right,
// where h = 0: h(t) = -integral_t^inf h'(s) ds, done by a fine Riemann sum on [t, 10].
double loss_from_split(const Loss& loss, double t) {
  const double g = loss.convex_scale() * std::max(0.0, loss.convex_margin() - t);
  double h = 0.0;
  const int steps = 200000;
  const double width = (10.0 - t) / steps;
  for (int k = 0; k < steps; ++k) h -= loss.concave_slope(t + (k + 0.5) * width) * width;
  return g - h;
}

}  // namespace

TEST_CASE("ramp loss follows DCA eq. (2) and its split (3)", "[loss]") {
  const RampLoss ramp(0.5);
  CHECK(ramp.value(-1.0) == Approx(1.5));   // below -mu^2 = -0.25: mu + 1
  CHECK(ramp.value(0.0) == Approx(1.0));    // 1 - t/mu
  CHECK(ramp.value(0.25) == Approx(0.5));
  CHECK(ramp.value(0.6) == 0.0);            // above mu
  CHECK(ramp.value(-0.25) == Approx(1.5));  // continuous at -mu^2
  CHECK(ramp.concave_slope(-0.25) == 0.0);  // kink: subgradient 0 ([DCA] eq. (19))
  CHECK(ramp.concave_slope(-0.3) == Approx(-2.0));
  for (double t : {-2.0, -0.7, -0.1, 0.2, 0.45, 1.3}) CHECK(loss_from_split(ramp, t) == Approx(ramp.value(t)).margin(1e-4));
  CHECK_THROWS_AS(RampLoss(0.0), core::InputError);
  CHECK_THROWS_AS(RampLoss(1.5), core::InputError);
}

TEST_CASE("ramp with mu = 1 equals the hinge wherever t >= -1", "[loss]") {
  const RampLoss ramp(1.0);
  const HingeLoss hinge;
  for (double t = -1.0; t <= 3.0; t += 0.125) CHECK(ramp.value(t) == Approx(hinge.value(t)));
  CHECK(ramp.value(-1.5) < hinge.value(-1.5));
}

TEST_CASE("penalties: g - h equals the value and subgradients match finite differences", "[penalty]") {
  core::Rng rng(3);
  const ApproxL0Penalty l0(4.0);
  const CappedL1Penalty capped(1.0);
  core::Vector w(6);
  for (Eigen::Index j = 0; j < w.size(); ++j) w[j] = rng.uniform(-2.0, 2.0);
  w[0] = 0.0;
  // approx_l0: g = a|w|, h = a|w| - 1 + exp(-a|w|)   ([DCA] eq. (5))
  const double g0 = 4.0 * w.lpNorm<1>();
  const double h0 = (4.0 * w.array().abs() - 1.0 + (-4.0 * w.array().abs()).exp()).sum();
  CHECK(g0 - h0 == Approx(l0.value(w)));
  // capped_l1: g = |w|, h = max(0, |w| - a)   ([DCA] eq. (7))
  const double g1 = w.lpNorm<1>();
  const double h1 = (w.array().abs() - 1.0).max(0.0).sum();
  CHECK(g1 - h1 == Approx(capped.value(w)));

  // The gradient of h for approx_l0 ([DCA] eq. (21)) against central differences of h_j.
  const core::Vector v = l0.concave_subgradient(w);
  const double step = 1e-6;
  for (Eigen::Index j = 1; j < w.size(); ++j) {
    const auto h = [](double t) { return 4.0 * std::abs(t) - 1.0 + std::exp(-4.0 * std::abs(t)); };
    CHECK(v[j] == Approx((h(w[j] + step) - h(w[j] - step)) / (2 * step)).margin(1e-6));
  }
  CHECK(v[0] == 0.0);
  // capped_l1 subgradient ([DCA] eq. (27)): sign(w) beyond the cap, 0 inside.
  const core::Vector u = capped.concave_subgradient((core::Vector(3) << -1.5, 0.3, 2.0).finished());
  CHECK(u == (core::Vector(3) << -1.0, 0.0, 1.0).finished());
  CHECK(LInfPenalty().value((core::Vector(3) << -3, 1, 2).finished()) == 3.0);
  CHECK_THROWS_AS(ApproxL0Penalty(0.0), core::InputError);
}
