#pragma once
// The linear system of ADMM's w-update (shared/ADMM.md, "One sweep"):  (A'A + rho I_d) w = q  with
// A = diag(y) X. Since y_i^2 = 1, A'A = X'X and the labels drop out. Two parts:
//   RidgeGram    X'X (d x d) or X X' (n x n), whichever is factored: independent of rho, so one Gram
//                serves every lambda, penalty, label vector and rho of a training set.
//   RidgeSystem  the Cholesky factor of the Gram plus rho on the diagonal, and the solve:
//     n >= d  Cholesky of X'X + rho I_d;               w = solve(q)
//     d >  n  Cholesky of rho I_n + X X' (Woodbury):   (X'X + rho I)^{-1} q = (q - X' (rho I_n + X X')^{-1} X q) / rho
// Forming the Gram costs O(n d min(n, d)), a factor O(min(n, d)^3 / 3): a new rho costs only the
// latter. The Gram is formed from sparse X by a sparse product, then factored dense.
// The iterative regime forms nothing: conjugate gradients on X'X + rho I, applied as X'(X v) + rho v
// (O(nnz) a product), preconditioned by its diagonal and started from the caller's last w, so that late
// ADMM sweeps, whose w hardly moves, take a few products. By shape it is taken on sparse data whose dense
// factor would cost more than kIterativeBreakEven products with X, and on any data whose Gram and
// factor would not fit the memory budget (core/memory_budget.hpp) or exceed kMaxRidgeSystemSize.
#include <cstddef>

#include "core/dataset.hpp"

namespace sparsesvm::optim {

// 20000^2 doubles = 3.2 GB: the largest dense factor we build.
constexpr std::size_t kMaxRidgeSystemSize = 20000;
// Sparse data: conjugate gradients when a dense factor (m^3 / 3 flops) costs more than this many
// products with X and X' (2 nnz flops each): on 20000 x 50000 with 10^6 nonzeros the factor would take
// 2.7e12 flops and 9 GB, a product 4e6 flops and nothing.
constexpr double kIterativeBreakEven = 1e4;
// Conjugate gradients stop at this residual relative to ||q||, or after this many products.
constexpr double kIterativeRelativeResidual = 1e-10;
constexpr int kIterativeMaxProducts = 2000;

// Which system is solved: by shape (the smaller factor, or conjugate gradients as above), or forced
// (tests, the scaling config). Values 0-3 are ADMM's option `factorization`.
enum class RidgeRegime { by_shape, features, examples, iterative };

class RidgeGram {
 public:
  // Keeps a reference to `data`. A forced dense regime whose factor exceeds kMaxRidgeSystemSize or the
  // memory budget is a core::ResourceError before anything is allocated.
  RidgeGram(const core::Dataset& data, RidgeRegime regime = RidgeRegime::by_shape);
  const core::Dataset& data() const { return data_; }
  // Empty in the iterative regime.
  const core::DenseMatrix& matrix() const { return gram_; }
  // True for the n x n (Woodbury) regime.
  bool uses_woodbury() const { return regime_ == RidgeRegime::examples; }
  bool iterative() const { return regime_ == RidgeRegime::iterative; }
  // Floating-point operations of one Cholesky factor, m^3 / 3 for the m x m Gram; 0 when iterative.
  double factor_flops() const;
  // Floating-point operations of one solve with a factor (2 m^2 and, for Woodbury, two products with X);
  // for the iterative regime one product with X'X (4 nnz) per iteration, counted by the solve.
  double solve_flops() const;
  // ||x_j||^2 per column, the diagonal of X'X (iterative regime only): the preconditioner is
  // 1 / (||x_j||^2 + rho).
  const core::Vector& column_squared_norms() const { return column_squared_norms_; }

 private:
  const core::Dataset& data_;
  RidgeRegime regime_;
  core::DenseMatrix gram_;
  core::Vector column_squared_norms_;
};

class RidgeSystem {
 public:
  // Factors gram + rho I for rho > 0 (positive definite); factored() is false only when rounding (data
  // near overflow) broke the Cholesky. Keeps a reference to `gram`. The iterative regime factors nothing.
  RidgeSystem(const RidgeGram& gram, double rho);
  bool factored() const { return factored_; }
  double rho() const { return rho_; }
  bool uses_woodbury() const { return gram_.uses_woodbury(); }

  // (X'X + rho I)^{-1} q, q of size d; `guess` (size d, or empty) starts the iterative regime.
  core::Vector solve(const core::Vector& q, const core::Vector& guess = core::Vector()) const;
  // Products with X'X taken by the iterative regime's solves so far.
  long products() const { return products_; }

 private:
  core::Vector solve_iteratively(const core::Vector& q, const core::Vector& guess) const;

  const RidgeGram& gram_;
  double rho_;
  Eigen::LLT<core::DenseMatrix> factor_;
  bool factored_ = false;  // Eigen succeeded and every pivot is finite and positive (LLT passes NaN and inf)
  mutable long products_ = 0;
};

}  // namespace sparsesvm::optim
