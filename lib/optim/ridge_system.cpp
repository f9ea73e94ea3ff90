#include "optim/ridge_system.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace sparsesvm::optim {
namespace {

// X'X (d x d) or X X' (n x n) as a dense matrix, plus rho on the diagonal.
core::DenseMatrix shifted_gram(const core::Dataset& data, bool outer, double rho) {
  core::DenseMatrix gram;
  if (data.is_sparse()) {
    const core::SparseMatrix& x = data.sparse();
    gram = outer ? core::DenseMatrix(x * x.transpose()) : core::DenseMatrix(x.transpose() * x);
  } else {
    const core::DenseMatrix& x = data.dense();
    const Eigen::Index size = outer ? x.rows() : x.cols();
    gram = core::DenseMatrix::Zero(size, size);
    if (outer) {
      gram.selfadjointView<Eigen::Lower>().rankUpdate(x);
    } else {
      gram.selfadjointView<Eigen::Lower>().rankUpdate(x.transpose());
    }
    gram.triangularView<Eigen::StrictlyUpper>() = gram.transpose();
  }
  gram.diagonal().array() += rho;
  return gram;
}

}  // namespace

RidgeSystem::RidgeSystem(const core::Dataset& data, double rho, RidgeRegime regime)
    : data_(data),
      rho_(rho),
      woodbury_(regime == RidgeRegime::by_shape ? data.d() > data.n() : regime == RidgeRegime::examples) {
  const std::size_t size = woodbury_ ? data.n() : data.d();
  if (size > kMaxRidgeSystemSize) {
    throw core::InputError(fmt::format("data set {} (n = {}, d = {}): ADMM's {} system needs a dense {} x {} factor, "
                                       "above the limit {}",
                                       data.name(), data.n(), data.d(), woodbury_ ? "n x n (Woodbury)" : "d x d", size,
                                       size, kMaxRidgeSystemSize));
  }
  factor_.compute(shifted_gram(data, woodbury_, rho));
  const auto pivots = factor_.matrixLLT().diagonal().array();
  factored_ = factor_.info() == Eigen::Success && pivots.allFinite() && (pivots > 0).all();
}

core::Vector RidgeSystem::solve(const core::Vector& q) const {
  if (!woodbury_) return factor_.solve(q);
  return (q - data_.transpose_times(factor_.solve(data_.times(q)))) / rho_;
}

}  // namespace sparsesvm::optim
