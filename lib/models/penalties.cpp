#include "models/penalties.hpp"

#include <cmath>
#include <fmt/format.h>

#include "core/errors.hpp"

namespace sparsesvm::models {

std::string to_string(Regularizer regularizer) {
  switch (regularizer) {
    case Regularizer::none: return "none";
    case Regularizer::l1: return "l1";
    case Regularizer::l2_squared: return "l2";
    case Regularizer::linf: return "linf";
  }
  return "none";
}

namespace {

double positive_parameter(double a, const char* penalty) {
  if (!(a > 0.0) || !std::isfinite(a)) {
    throw core::InputError(fmt::format("{} penalty: a must be positive, found {}", penalty, a));
  }
  return a;
}

}  // namespace

ApproxL0Penalty::ApproxL0Penalty(double a) : a_(positive_parameter(a, "approx_l0")) {}

std::string ApproxL0Penalty::id() const { return fmt::format("approx_l0[a={}]", a_); }

double ApproxL0Penalty::value(const core::Vector& w) const {
  return (1.0 - (-a_ * w.array().abs()).exp()).sum();
}

// [DCA] eq. (21): v_j = sign(w_j) a (1 - exp(-a |w_j|)); h is differentiable, v_j = 0 at w_j = 0.
core::Vector ApproxL0Penalty::concave_subgradient(const core::Vector& w) const {
  return w.unaryExpr([this](double t) {
    const double magnitude = a_ * (1.0 - std::exp(-a_ * std::abs(t)));
    return t >= 0 ? magnitude : -magnitude;
  });
}

CappedL1Penalty::CappedL1Penalty(double a) : a_(positive_parameter(a, "capped_l1")) {}

std::string CappedL1Penalty::id() const { return fmt::format("capped_l1[a={}]", a_); }

double CappedL1Penalty::value(const core::Vector& w) const { return w.array().abs().min(a_).sum(); }

// [DCA] eq. (27): v_j = sign(w_j) where |w_j| >= a, else 0.
core::Vector CappedL1Penalty::concave_subgradient(const core::Vector& w) const {
  return w.unaryExpr([this](double t) { return std::abs(t) >= a_ ? (t > 0 ? 1.0 : -1.0) : 0.0; });
}

}  // namespace sparsesvm::models
