#include "optim/ridge_system.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/memory_budget.hpp"

namespace sparsesvm::optim {
namespace {

// X'X (d x d) or X X' (n x n) as a dense matrix.
core::DenseMatrix gram_matrix(const core::Dataset& data, bool outer) {
  if (data.is_sparse()) {
    const core::SparseMatrix& x = data.sparse();
    return outer ? core::DenseMatrix(x * x.transpose()) : core::DenseMatrix(x.transpose() * x);
  }
  const core::DenseMatrix& x = data.dense();
  const Eigen::Index size = outer ? x.rows() : x.cols();
  core::DenseMatrix gram = core::DenseMatrix::Zero(size, size);
  if (outer) {
    gram.selfadjointView<Eigen::Lower>().rankUpdate(x);
  } else {
    gram.selfadjointView<Eigen::Lower>().rankUpdate(x.transpose());
  }
  gram.triangularView<Eigen::StrictlyUpper>() = gram.transpose();
  return gram;
}

// The Gram, the shifted copy a factor starts from and the factor: three m x m dense matrices.
double dense_system_bytes(std::size_t size) {
  return 3.0 * 8.0 * static_cast<double>(size) * static_cast<double>(size);
}

RidgeRegime regime_by_shape(const core::Dataset& data) {
  const RidgeRegime smaller = data.d() > data.n() ? RidgeRegime::examples : RidgeRegime::features;
  const std::size_t size = std::min(data.n(), data.d());
  const double factor_flops = static_cast<double>(size) * static_cast<double>(size) * static_cast<double>(size) / 3.0;
  const bool factor_too_slow = data.is_sparse() && factor_flops > kIterativeBreakEven * 2.0 * data.stored_values();
  const bool too_large = size > kMaxRidgeSystemSize || !core::fits_in_memory_budget(dense_system_bytes(size));
  return factor_too_slow || too_large ? RidgeRegime::iterative : smaller;
}

core::Vector squared_column_norms(const core::Dataset& data) {
  if (!data.is_sparse()) return data.dense().colwise().squaredNorm().transpose();
  core::Vector norms = core::Vector::Zero(static_cast<Eigen::Index>(data.d()));
  const core::SparseMatrix& x = data.sparse();
  for (Eigen::Index i = 0; i < x.outerSize(); ++i) {
    for (core::SparseMatrix::InnerIterator it(x, i); it; ++it) norms[it.col()] += it.value() * it.value();
  }
  return norms;
}

}  // namespace

RidgeGram::RidgeGram(const core::Dataset& data, RidgeRegime regime)
    : data_(data), regime_(regime == RidgeRegime::by_shape ? regime_by_shape(data) : regime) {
  if (regime_ == RidgeRegime::iterative) {
    column_squared_norms_ = squared_column_norms(data);
    return;
  }
  const std::size_t size = uses_woodbury() ? data.n() : data.d();
  const std::string what = fmt::format("data set {} (n = {}, d = {}): ADMM's {} system, a dense {} x {} factor,",
                                       data.name(), data.n(), data.d(), uses_woodbury() ? "n x n (Woodbury)" : "d x d",
                                       size, size);
  if (size > kMaxRidgeSystemSize) {
    throw core::ResourceError(fmt::format("{} is above the limit {}; factorization: conjugate_gradient (or smaller) "
                                          "needs no factor", what, kMaxRidgeSystemSize));
  }
  core::require_memory(dense_system_bytes(size), what, "factorization: conjugate_gradient (or smaller) needs no factor");
  gram_ = gram_matrix(data, uses_woodbury());
}

double RidgeGram::factor_flops() const {
  const double size = static_cast<double>(gram_.rows());
  return size * size * size / 3.0;
}

double RidgeGram::solve_flops() const {
  if (iterative()) return 4.0 * data_.stored_values();
  const double size = static_cast<double>(gram_.rows());
  return 2.0 * size * size + (uses_woodbury() ? 4.0 * data_.stored_values() : 0.0);
}

RidgeSystem::RidgeSystem(const RidgeGram& gram, double rho) : gram_(gram), rho_(rho) {
  if (gram.iterative()) {
    factored_ = rho > 0.0 && std::isfinite(rho) && gram.column_squared_norms().allFinite();
    return;
  }
  core::DenseMatrix shifted = gram.matrix();
  shifted.diagonal().array() += rho;
  factor_.compute(shifted);
  const auto pivots = factor_.matrixLLT().diagonal().array();
  factored_ = factor_.info() == Eigen::Success && pivots.allFinite() && (pivots > 0).all();
}

core::Vector RidgeSystem::solve(const core::Vector& q, const core::Vector& guess) const {
  if (gram_.iterative()) return solve_iteratively(q, guess);
  if (!gram_.uses_woodbury()) return factor_.solve(q);
  const core::Dataset& data = gram_.data();
  return (q - data.transpose_times(factor_.solve(data.times(q)))) / rho_;
}

// Preconditioned conjugate gradients (Nocedal and Wright, Algorithm 5.3) on (X'X + rho I) w = q with the
// preconditioner diag(||x_j||^2 + rho)^{-1}.
core::Vector RidgeSystem::solve_iteratively(const core::Vector& q, const core::Vector& guess) const {
  const core::Dataset& data = gram_.data();
  const auto apply = [&](const core::Vector& v) {
    ++products_;
    return (data.transpose_times(data.times(v)) + rho_ * v).eval();
  };
  const core::Vector inverse_diagonal = (gram_.column_squared_norms().array() + rho_).inverse().matrix();
  core::Vector w = guess.size() == q.size() ? guess : core::Vector::Zero(q.size());
  core::Vector residual = q - apply(w);
  const double target = kIterativeRelativeResidual * q.norm();
  core::Vector preconditioned = inverse_diagonal.cwiseProduct(residual);
  core::Vector direction = preconditioned;
  double residual_dot = residual.dot(preconditioned);
  for (int k = 0; k < kIterativeMaxProducts && residual.norm() > target; ++k) {
    const core::Vector product = apply(direction);
    const double curvature = direction.dot(product);
    if (!(curvature > 0.0)) break;  // rounding at the solution (or non-finite data): keep w
    const double step = residual_dot / curvature;
    w += step * direction;
    residual -= step * product;
    preconditioned = inverse_diagonal.cwiseProduct(residual);
    const double next_dot = residual.dot(preconditioned);
    direction = preconditioned + (next_dot / residual_dot) * direction;
    residual_dot = next_dot;
  }
  return w;
}

}  // namespace sparsesvm::optim
