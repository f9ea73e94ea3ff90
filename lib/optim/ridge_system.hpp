#pragma once
// The linear system of ADMM's w-update (shared/ADMM.md, "One sweep"):  (A'A + rho I_d) w = q  with
// A = diag(y) X. Since y_i^2 = 1, A'A = X'X and the labels drop out. Two parts:
//   RidgeGram    X'X (d x d) or X X' (n x n), whichever is factored: independent of rho, so one Gram
//                serves every lambda, penalty, label vector and rho of a training set.
//   RidgeSystem  the Cholesky factor of the Gram plus rho on the diagonal, and the solve:
//     n >= d  Cholesky of X'X + rho I_d;               w = solve(q)
//     d >  n  Cholesky of rho I_n + X X' (Woodbury):   (X'X + rho I)^{-1} q = (q - X' (rho I_n + X X')^{-1} X q) / rho
// Forming the Gram costs O(n d min(n, d)), a factor O(min(n, d)^3 / 3): a new rho costs only the
// latter. The Gram is formed from sparse X by a sparse product, then factored dense (min(n, d) <=
// kMaxRidgeSystemSize, else an InputError before anything is allocated).
#include <cstddef>

#include "core/dataset.hpp"

namespace sparsesvm::optim {

// 20000^2 doubles = 3.2 GB: the largest dense factor we build.
constexpr std::size_t kMaxRidgeSystemSize = 20000;

// Which matrix is factored: by shape (the smaller), or forced (tests, the scaling config).
// Values 0, 1, 2 are ADMM's option `factorization`.
enum class RidgeRegime { by_shape, features, examples };

class RidgeGram {
 public:
  // Keeps a reference to `data`. InputError when the Gram's size exceeds the limit.
  RidgeGram(const core::Dataset& data, RidgeRegime regime = RidgeRegime::by_shape);
  const core::Dataset& data() const { return data_; }
  const core::DenseMatrix& matrix() const { return gram_; }
  // True for the n x n (Woodbury) regime.
  bool uses_woodbury() const { return woodbury_; }
  // Floating-point operations of one Cholesky factor, m^3 / 3 for the m x m Gram.
  double factor_flops() const;

 private:
  const core::Dataset& data_;
  bool woodbury_;
  core::DenseMatrix gram_;
};

class RidgeSystem {
 public:
  // Factors gram + rho I for rho > 0 (positive definite); factored() is false only when rounding (data
  // near overflow) broke the Cholesky. Keeps a reference to `gram`.
  RidgeSystem(const RidgeGram& gram, double rho);
  bool factored() const { return factored_; }
  double rho() const { return rho_; }
  bool uses_woodbury() const { return gram_.uses_woodbury(); }

  // (X'X + rho I)^{-1} q, q of size d.
  core::Vector solve(const core::Vector& q) const;

 private:
  const RidgeGram& gram_;
  double rho_;
  Eigen::LLT<core::DenseMatrix> factor_;
  bool factored_ = false;  // Eigen succeeded and every pivot is finite and positive (LLT passes NaN and inf)
};

}  // namespace sparsesvm::optim
