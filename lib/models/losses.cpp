#include "models/losses.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "core/errors.hpp"

namespace sparsesvm::models {

double HingeLoss::value(double t) const { return std::max(0.0, 1.0 - t); }

RampLoss::RampLoss(double mu) : mu_(mu) {
  if (!(mu > 0.0 && mu <= 1.0)) throw core::InputError(fmt::format("ramp loss: mu must lie in (0, 1], found {}", mu));
}

std::string RampLoss::id() const { return fmt::format("ramp[mu={}]", mu_); }

// [DCA] eq. (2): mu + 1 below -mu^2, 1 - t/mu in between, 0 above mu.
double RampLoss::value(double t) const {
  if (t < -mu_ * mu_) return mu_ + 1.0;
  if (t > mu_) return 0.0;
  return 1.0 - t / mu_;
}

// h(t) = (1/mu) max(0, -mu^2 - t): slope -1/mu strictly below -mu^2, 0 at and above it ([DCA] eq. (19)).
double RampLoss::concave_slope(double t) const { return t < -mu_ * mu_ ? -1.0 / mu_ : 0.0; }

}  // namespace sparsesvm::models
