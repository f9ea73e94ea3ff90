#include "optim/ridge_system.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

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

}  // namespace

RidgeGram::RidgeGram(const core::Dataset& data, RidgeRegime regime)
    : data_(data), woodbury_(regime == RidgeRegime::by_shape ? data.d() > data.n() : regime == RidgeRegime::examples) {
  const std::size_t size = woodbury_ ? data.n() : data.d();
  if (size > kMaxRidgeSystemSize) {
    throw core::InputError(fmt::format("data set {} (n = {}, d = {}): ADMM's {} system needs a dense {} x {} factor, "
                                       "above the limit {}",
                                       data.name(), data.n(), data.d(), woodbury_ ? "n x n (Woodbury)" : "d x d", size,
                                       size, kMaxRidgeSystemSize));
  }
  gram_ = gram_matrix(data, woodbury_);
}

double RidgeGram::factor_flops() const {
  const double size = static_cast<double>(gram_.rows());
  return size * size * size / 3.0;
}

RidgeSystem::RidgeSystem(const RidgeGram& gram, double rho) : gram_(gram), rho_(rho) {
  core::DenseMatrix shifted = gram.matrix();
  shifted.diagonal().array() += rho;
  factor_.compute(shifted);
  const auto pivots = factor_.matrixLLT().diagonal().array();
  factored_ = factor_.info() == Eigen::Success && pivots.allFinite() && (pivots > 0).all();
}

core::Vector RidgeSystem::solve(const core::Vector& q) const {
  if (!gram_.uses_woodbury()) return factor_.solve(q);
  const core::Dataset& data = gram_.data();
  return (q - data.transpose_times(factor_.solve(data.times(q)))) / rho_;
}

}  // namespace sparsesvm::optim
