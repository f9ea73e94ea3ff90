#pragma once
// Losses of the margin t = y (w.x + b), each with its DC split  loss(t) = g(t) - h(t)  where the
// convex part is always a scaled, shifted hinge  g(t) = scale * max(0, margin - t):
//
//   hinge      max(0, 1 - t)                                   g = hinge, h = 0
//   ramp (mu)  (1/mu) max(0, mu - t) - (1/mu) max(0, -mu^2 - t)   [DCA] eq. (2)-(3), mu in (0, 1]
//
// concave_slope(t) is h'(t), with 0 at the kink t = -mu^2 ([DCA] eq. (19)).
#include <memory>
#include <string>

namespace sparsesvm::models {

class Loss {
 public:
  virtual ~Loss() = default;
  virtual std::string id() const = 0;  // "hinge", "ramp[mu=0.5]"
  virtual double value(double t) const = 0;
  virtual double convex_scale() const = 0;
  virtual double convex_margin() const = 0;
  virtual double concave_slope(double t) const = 0;
  virtual bool is_convex() const = 0;
};

class HingeLoss : public Loss {
 public:
  std::string id() const override { return "hinge"; }
  double value(double t) const override;
  double convex_scale() const override { return 1.0; }
  double convex_margin() const override { return 1.0; }
  double concave_slope(double) const override { return 0.0; }
  bool is_convex() const override { return true; }
};

class RampLoss : public Loss {
 public:
  explicit RampLoss(double mu);  // InputError unless 0 < mu <= 1
  std::string id() const override;
  double value(double t) const override;
  double convex_scale() const override { return 1.0 / mu_; }
  double convex_margin() const override { return mu_; }
  double concave_slope(double t) const override;
  bool is_convex() const override { return false; }
  double mu() const { return mu_; }

 private:
  double mu_;
};

}  // namespace sparsesvm::models
