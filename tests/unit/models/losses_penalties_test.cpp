#include <catch2/catch.hpp>

#include <cmath>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "models/losses/loss.hpp"
#include "models/penalties/penalty.hpp"

using namespace sparsesvm;
using namespace sparsesvm::models;

TEST_CASE("ramp loss follows DCA eq. (2) and its split (3)", "[loss]") {
  const auto ramp = make_loss("ramp", {{"mu", 0.5}});
  CHECK(ramp->value(-1.0) == Approx(1.5));   // below -mu^2 = -0.25: mu + 1
  CHECK(ramp->value(0.0) == Approx(1.0));    // 1 - t/mu
  CHECK(ramp->value(0.25) == Approx(0.5));
  CHECK(ramp->value(0.6) == 0.0);            // above mu
  CHECK(ramp->value(-0.25) == Approx(1.5));  // continuous at -mu^2
  CHECK(ramp->concave_slope(-0.25) == 0.0);  // kink: subgradient 0 ([DCA] eq. (19))
  CHECK(ramp->concave_slope(-0.3) == Approx(-2.0));
  CHECK_THROWS_WITH(make_loss("ramp", {{"mu", 0.0}}), Catch::Contains("mu must lie in [1e-06, 1]"));
  CHECK_THROWS_WITH(make_loss("ramp", {{"mu", 1.5}}), Catch::Contains("mu must lie in [1e-06, 1]"));
}

TEST_CASE("ramp with mu = 1 equals the hinge wherever t >= -1", "[loss]") {
  const auto ramp = make_loss("ramp", {{"mu", 1.0}});
  const auto hinge = make_loss("hinge");
  for (double t = -1.0; t <= 3.0; t += 0.125) CHECK(ramp->value(t) == Approx(hinge->value(t)));
  CHECK(ramp->value(-1.5) < hinge->value(-1.5));
}

TEST_CASE("psi_a: 2 below 0, a (1 - t) on [0, 1], 0 above 1 ([PSI] (3.6))", "[loss]") {
  const auto psi = make_loss("psi", {{"psi_a", 0.5}});
  CHECK(psi->value(-1e-5) == 2.0);
  CHECK(psi->value(-1e-9) == Approx(0.5));  // within the solvers' tolerance of the boundary
  CHECK(psi->value(0.0) == 0.5);
  CHECK(psi->value(0.5) == 0.25);
  CHECK(psi->value(1.0) == 0.0);
  CHECK(psi->value(7.0) == 0.0);
  CHECK_THROWS_WITH(make_loss("psi", {{"psi_a", 2.5}}), Catch::Contains("psi_a"));
  CHECK_THROWS_WITH(make_loss("psi", {{"a", 1.0}}), Catch::Contains("unknown parameter 'a'"));
}

TEST_CASE("contract: every loss is g - h with h convex and concave_slope a subgradient of h", "[loss][contract]") {
  // h(t) = g(t) - loss(t) with g = scale max(0, margin - t). For h convex with slope s(t),
  // h(u) >= h(t) + s(t)(u - t) for all t, u; a wrong sign or scale of the slope breaks it. Convex losses
  // have h = 0. Iterates the registry, so a new loss is checked by adding its row.
  for (const LossInfo& info : loss_registry()) {
    const auto loss = info.make(resolve_parameters(info.parameters, {}, info.id));
    INFO("loss " << info.id);
    const auto [low, high] = loss->support_region();
    CHECK(low < high);
    if (!loss->has_hinge_split() && !loss->is_convex()) {  // psi: flat outside its support region
      for (double t = -3.0; t <= 3.0; t += 0.0625) {
        if (t < low) CHECK(loss->value(t) == loss->value(low - 3.0));
        if (t > high) CHECK(loss->value(t) == loss->value(high + 3.0));
      }
      continue;
    }
    if (!loss->has_hinge_split()) {  // convex by declaration: check midpoint convexity instead
      for (double t = -3.0; t <= 3.0; t += 0.0625) {
        for (double u = -3.0; u <= 3.0; u += 0.25) CHECK(loss->value((t + u) / 2) <= (loss->value(t) + loss->value(u)) / 2 + 1e-12);
      }
      continue;
    }
    const auto h = [&](double t) {
      return loss->convex_scale() * std::max(0.0, loss->convex_margin() - t) - loss->value(t);
    };
    for (double t = -3.0; t <= 3.0; t += 0.0625) {
      for (double u = -3.0; u <= 3.0; u += 0.25) CHECK(h(u) >= h(t) + loss->concave_slope(t) * (u - t) - 1e-12);
      if (loss->is_convex()) CHECK(h(t) == Approx(0.0).margin(1e-12));
    }
  }
}

TEST_CASE("contract: every penalty is g - h with h convex and concave_subgradient a subgradient of h", "[penalty][contract]") {
  // h(w) = convex_weight * R(w) - Omega(w); the subgradient inequality h(w') >= h(w) + <v(w), w' - w>
  // on random pairs (including exact zeros and values at the caps) catches a wrong sign or formula in
  // a DC split. Iterates the registry, so a new penalty is checked by adding its row.
  core::Rng rng(3);
  for (const PenaltyInfo& info : penalty_registry()) {
    const auto penalty = info.make(resolve_parameters(info.parameters, {}, info.id));
    const auto h = [&](const core::Vector& w) {
      return penalty->convex_weight() * regularizer_value(penalty->convex_regularizer(), w) - penalty->value(w);
    };
    INFO("penalty " << info.id);
    for (int trial = 0; trial < 300; ++trial) {
      core::Vector w(5), u(5);
      for (Eigen::Index j = 0; j < 5; ++j) {
        w[j] = rng.uniform(-3.0, 3.0);
        u[j] = rng.uniform(-3.0, 3.0);
      }
      w[0] = 0.0;
      w[1] = 1.0;  // on the cap of capped_l1 (a = 1)
      const core::Vector v = penalty->concave_subgradient(w);
      CHECK(h(u) >= h(w) + v.dot(u - w) - 1e-9);
      CHECK(penalty->value(w) >= 0.0);
      if (penalty->is_convex()) CHECK(v.isZero());
      // SLA's tangent in |w| majorizes a penalty sum_j phi(|w_j|) with phi concave:
      // Omega(u) <= Omega(w) + sum_j phi'(|w_j|) (|u_j| - |w_j|).
      const core::Vector slope = penalty->abs_slope(w);
      if (slope.size() > 0) {
        CHECK(penalty->value(u) <= penalty->value(w) + slope.dot(u.cwiseAbs() - w.cwiseAbs()) + 1e-9);
        CHECK(slope.minCoeff() >= 0.0);
      }
    }
  }
}

TEST_CASE("penalties: hand-checked values and gradients of the DCA paper", "[penalty]") {
  const auto l0 = make_penalty("approx_l0", {{"a", 4.0}});
  const auto capped = make_penalty("capped_l1", {{"a", 1.0}});
  const core::Vector w = (core::Vector(3) << 0.0, -0.5, 2.0).finished();
  // approx_l0: sum 1 - exp(-4|w|) = 0 + (1 - e^-2) + (1 - e^-8)
  CHECK(l0->value(w) == Approx(2.0 - std::exp(-2.0) - std::exp(-8.0)));
  // [DCA] eq. (21): v_j = sign(w_j) a (1 - exp(-a|w_j|)), 0 at 0.
  const core::Vector v = l0->concave_subgradient(w);
  CHECK(v[0] == 0.0);
  CHECK(v[1] == Approx(-4.0 * (1.0 - std::exp(-2.0))));
  // capped_l1: min(1, |w|) summed = 0 + 0.5 + 1; subgradient ([DCA] eq. (27)) sign(w) beyond the cap.
  CHECK(capped->value(w) == Approx(1.5));
  CHECK(capped->concave_subgradient(w) == (core::Vector(3) << 0.0, 0.0, 1.0).finished());
  CHECK(make_penalty("linf")->value((core::Vector(3) << -3, 1, 2).finished()) == 3.0);
  CHECK_THROWS_WITH(make_penalty("approx_l0", {{"a", 0.0}}), Catch::Contains("a must lie in (0, 1000000]"));
}

TEST_CASE("registries are strict: an unknown id is an error listing the known ones", "[loss][penalty]") {
  CHECK_THROWS_WITH(make_penalty("scad2"), Catch::Contains("unknown penalty 'scad2' (did you mean 'scad'? known: none, l1, l2"));
  CHECK_THROWS_WITH(make_loss("hinj"), Catch::Contains("unknown loss 'hinj' (known: hinge, ramp, squared_hinge, psi)"));
  CHECK_THROWS_WITH(make_penalty("l1", {{"a", 1.0}}), Catch::Contains("penalty l1: unknown parameter 'a'"));
}

TEST_CASE("contract: a declared shape is the function: capped hinges and (capped) l1 norms", "[loss][penalty][contract]") {
  // The global MILP and RW read a loss's or penalty's shape instead of its id: a shape that disagrees with
  // value() would be solved as another objective. Iterates the registries; at least the hinge, the ramp,
  // l1 and capped_l1 declare one (the methods that use them need it).
  std::size_t losses = 0, penalties = 0;
  for (const LossInfo& info : loss_registry()) {
    Hyperparameters given;  // off-default values where a parameter exists, so that a formula mixing them up shows
    if (find_parameter(info.parameters, "mu")) given["mu"] = 0.5;
    const auto loss = info.make(resolve_parameters(info.parameters, given, info.id));
    const auto shape = loss->capped_hinge();
    if (!shape) continue;
    ++losses;
    INFO("loss " << info.id);
    for (double t = -5.0; t <= 5.0; t += 0.03125) {
      CHECK(loss->value(t) == Approx(std::min(shape->cap, shape->s * std::max(0.0, shape->m - t))).margin(1e-12));
    }
  }
  core::Rng rng(5);
  for (const PenaltyInfo& info : penalty_registry()) {
    Hyperparameters given;
    for (const auto& [name, value] : {std::pair("a", 0.7), std::pair("theta", 0.6), std::pair("lambda", 0.3)}) {
      const ParameterSpec* spec = find_parameter(info.parameters, name);
      if (spec && spec->check(value).empty()) given[name] = value;
    }
    const auto penalty = info.make(resolve_parameters(info.parameters, given, info.id));
    const auto shape = penalty->capped_abs();
    if (!shape) continue;
    ++penalties;
    INFO("penalty " << info.id);
    for (int trial = 0; trial < 200; ++trial) {
      core::Vector w(4);
      for (Eigen::Index j = 0; j < 4; ++j) w[j] = rng.uniform(-3.0, 3.0);
      CHECK(penalty->value(w) == Approx(shape->scale * w.array().abs().min(shape->cap).sum()).epsilon(1e-12));
    }
  }
  CHECK(losses >= 2);
  CHECK(penalties >= 2);
  CHECK(make_loss("hinge")->capped_hinge().has_value());
  CHECK(make_penalty("capped_l1")->capped_abs().has_value());
  CHECK(!make_penalty("approx_l0")->capped_abs().has_value());  // concave but not piecewise linear
  CHECK(!make_loss("psi")->capped_hinge().has_value());         // a jump at 0, not a cap
}
