#pragma once
// The linear system of ADMM's w-update (shared/ADMM.md, "One sweep"):  (A'A + rho I_d) w = q  with
// A = diag(y) X. Since y_i^2 = 1, A'A = X'X and the labels drop out: the factor depends on X and rho only,
// so one factor serves every lambda, penalty and label vector of a training set.
//   n >= d  Cholesky of the d x d matrix X'X + rho I_d;            w = solve(q)
//   d >  n  Cholesky of the n x n matrix rho I_n + X X' (Woodbury):
//           (X'X + rho I)^{-1} q = (q - X' (rho I_n + X X')^{-1} X q) / rho
// The Gram matrix is formed from sparse X by a sparse product, then factored dense (min(n, d) <=
// kMaxRidgeSystemSize, else an InputError before anything is allocated).
#include <cstddef>

#include "core/dataset.hpp"

namespace sparsesvm::optim {

// 20000^2 doubles = 3.2 GB: the largest dense factor we build.
constexpr std::size_t kMaxRidgeSystemSize = 20000;

// Which matrix is factored: by shape (the smaller), or forced (tests, the scaling config).
// Values 0, 1, 2 are ADMM's option `factorization`.
enum class RidgeRegime { by_shape, features, examples };

class RidgeSystem {
 public:
  // Factors the system for `data` (dense or CSR) and rho > 0. InputError when min(n, d) exceeds the
  // limit. X'X + rho I is positive definite for rho > 0; factored() is false only when rounding (data
  // near overflow) broke the Cholesky.
  RidgeSystem(const core::Dataset& data, double rho, RidgeRegime regime = RidgeRegime::by_shape);
  bool factored() const { return factored_; }

  // (X'X + rho I)^{-1} q, q of size d.
  core::Vector solve(const core::Vector& q) const;
  // True for the n x n (Woodbury) regime.
  bool uses_woodbury() const { return woodbury_; }

 private:
  const core::Dataset& data_;
  double rho_;
  bool woodbury_;
  Eigen::LLT<core::DenseMatrix> factor_;
  bool factored_ = false;  // Eigen succeeded and every pivot is finite and positive (LLT passes NaN and inf)
};

}  // namespace sparsesvm::optim
