#pragma once
// Penalties Omega(w), each with its DC split  Omega = g - h, where the convex part g is one of the
// regularizers a convex step can solve (l1 -> LP, l2^2 -> QP, l_inf -> LP, none -> LP):
//
//   none        0                                            (RLP)
//   l1          ||w||_1                                      g = l1
//   l2          ||w||_2^2                                    g = l2^2
//   linf        ||w||_inf                                    g = l_inf   ([FSV] (12))
//   approx_l0   sum 1 - exp(-a |w_j|)                        g = a ||w||_1, h = sum a|w_j| - 1 + exp(-a|w_j|)
//               [DCA] eq. (4)-(5); gradient of h eq. (21); [FSV] eq. (7) with a = alpha
//   capped_l1   sum min(a, |w_j|)                            g = ||w||_1, h = sum max(0, |w_j| - a)
//               [DCA] eq. (6)-(7); subgradient of h eq. (27)
#include <string>

#include "core/dataset.hpp"

namespace sparsesvm::models {

enum class Regularizer { none, l1, l2_squared, linf };

std::string to_string(Regularizer regularizer);

class Penalty {
 public:
  virtual ~Penalty() = default;
  virtual std::string id() const = 0;
  virtual double value(const core::Vector& w) const = 0;
  virtual Regularizer convex_regularizer() const = 0;
  // g = convex_weight() * regularizer(w)
  virtual double convex_weight() const { return 1.0; }
  // A subgradient of h at w (zero for convex penalties).
  virtual core::Vector concave_subgradient(const core::Vector& w) const { return core::Vector::Zero(w.size()); }
  virtual bool is_convex() const { return true; }
};

class NoPenalty : public Penalty {
 public:
  std::string id() const override { return "none"; }
  double value(const core::Vector&) const override { return 0.0; }
  Regularizer convex_regularizer() const override { return Regularizer::none; }
};

class L1Penalty : public Penalty {
 public:
  std::string id() const override { return "l1"; }
  double value(const core::Vector& w) const override { return w.lpNorm<1>(); }
  Regularizer convex_regularizer() const override { return Regularizer::l1; }
};

class L2SquaredPenalty : public Penalty {
 public:
  std::string id() const override { return "l2"; }
  double value(const core::Vector& w) const override { return w.squaredNorm(); }
  Regularizer convex_regularizer() const override { return Regularizer::l2_squared; }
};

class LInfPenalty : public Penalty {
 public:
  std::string id() const override { return "linf"; }
  double value(const core::Vector& w) const override { return w.size() ? w.lpNorm<Eigen::Infinity>() : 0.0; }
  Regularizer convex_regularizer() const override { return Regularizer::linf; }
};

class ApproxL0Penalty : public Penalty {
 public:
  explicit ApproxL0Penalty(double a);  // InputError unless a > 0
  std::string id() const override;
  double value(const core::Vector& w) const override;
  Regularizer convex_regularizer() const override { return Regularizer::l1; }
  double convex_weight() const override { return a_; }
  core::Vector concave_subgradient(const core::Vector& w) const override;
  bool is_convex() const override { return false; }

 private:
  double a_;
};

class CappedL1Penalty : public Penalty {
 public:
  explicit CappedL1Penalty(double a);  // InputError unless a > 0
  std::string id() const override;
  double value(const core::Vector& w) const override;
  Regularizer convex_regularizer() const override { return Regularizer::l1; }
  core::Vector concave_subgradient(const core::Vector& w) const override;
  bool is_convex() const override { return false; }

 private:
  double a_;
};

}  // namespace sparsesvm::models
