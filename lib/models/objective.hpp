#pragma once
// The objective of every method:  F(w, b) = sum_i c_i loss(y_i (w.x_i + b)) + rho * Omega(w)
// (shared/REPRODUCTION.md, "Methods"). The DCA paper uses c_i = 1 and rho = lambda; the FSV paper
// weights the loss by (1 - lambda), averaged per class for RLP and FSV.
#include <memory>

#include "core/dataset.hpp"
#include "models/losses/loss.hpp"
#include "models/penalties/penalty.hpp"

namespace sparsesvm::models {

struct Objective {
  std::shared_ptr<const Loss> loss;
  std::shared_ptr<const Penalty> penalty;
  core::Vector example_weights;  // c_i
  double penalty_weight = 0.0;   // rho

  bool is_convex() const { return loss->is_convex() && penalty->is_convex(); }
  // F at (w, b); `margins` are t_i = y_i (w.x_i + b).
  double value_at(const core::Vector& margins, const core::Vector& w) const;
  double value(const core::Dataset& data, const core::Vector& w, double b) const;
};

// t_i = y_i (w.x_i + b)
core::Vector margins(const core::Dataset& data, const core::Vector& w, double b);

}  // namespace sparsesvm::models
