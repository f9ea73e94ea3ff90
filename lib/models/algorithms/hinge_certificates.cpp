#include "models/algorithms/hinge_certificates.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/QR>

#include "optim/l2_svm.hpp"

namespace sparsesvm::models {
namespace {

constexpr double kTiny = 1e-300;
constexpr double kRoundingSlack = 1e-12;

std::vector<Eigen::Index> nonzeros(const core::Vector& w) {
  std::vector<Eigen::Index> support;
  for (Eigen::Index j = 0; j < w.size(); ++j) {
    if (w[j] != 0.0) support.push_back(j);
  }
  return support;
}

std::vector<Eigen::Index> on_band(const core::Vector& t, double band) {
  std::vector<Eigen::Index> rows;
  for (Eigen::Index i = 0; i < t.size(); ++i) {
    if (std::abs(t[i] - 1.0) <= band) rows.push_back(i);
  }
  return rows;
}

// rho (cw s_j - h'_j) for the nonzero w_j (s_j = sign w_j), where the loss side must equal it.
core::Vector penalty_gradient(const Objective& objective, const core::Vector& w) {
  const double l1_weight = objective.penalty_weight * objective.penalty->convex_weight();
  core::Vector gradient = -objective.penalty_weight * objective.penalty->concave_subgradient(w);
  for (Eigen::Index j = 0; j < w.size(); ++j) gradient[j] += w[j] != 0.0 ? std::copysign(l1_weight, w[j]) : 0.0;
  return gradient;
}

// The minimum-norm least-squares solution of matrix x = rhs.
core::Vector least_squares(const core::DenseMatrix& matrix, const core::Vector& rhs) {
  if (matrix.size() == 0) return core::Vector::Zero(matrix.cols());
  return Eigen::CompleteOrthogonalDecomposition<core::DenseMatrix>(matrix).solve(rhs);
}

}  // namespace

core::Vector hinge_multipliers(const Objective& objective, const core::Dataset& data, const core::LinearModel& model,
                               const core::Vector& scale, const core::Vector& guess, double band) {
  const core::Vector& y = data.labels();
  const core::Vector& c = objective.example_weights;
  const core::Vector t = margins(data, model.w(), model.b());
  core::Vector alpha(t.size());
  for (Eigen::Index i = 0; i < t.size(); ++i) {
    alpha[i] = std::abs(t[i] - 1.0) <= band ? std::clamp(guess[i], 0.0, c[i]) : (t[i] < 1.0 ? c[i] : 0.0);
  }
  const std::vector<Eigen::Index> free = on_band(t, band);
  if (free.empty()) return alpha;
  // Equations: X_S'(alpha .* y) = penalty gradient on S, and y'alpha = 0; unknowns: the change of alpha on
  // the band. Residual of the current alpha first, then the least-norm change that removes it.
  const std::vector<Eigen::Index> support = nonzeros(model.w());
  const core::Vector loss_side = data.transpose_times(y.cwiseProduct(alpha));
  const core::Vector gradient = scale.cwiseProduct(penalty_gradient(objective, scale.cwiseProduct(model.w())));
  const auto equations = static_cast<Eigen::Index>(support.size() + 1);
  core::DenseMatrix matrix(equations, static_cast<Eigen::Index>(free.size()));
  core::Vector rhs(equations);
  for (std::size_t k = 0; k < support.size(); ++k) {
    const Eigen::Index j = support[k];
    rhs[static_cast<Eigen::Index>(k)] = gradient[j] - loss_side[j];
    for (std::size_t m = 0; m < free.size(); ++m) {
      matrix(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(m)) =
          y[free[m]] * data.value(static_cast<std::size_t>(free[m]), static_cast<std::size_t>(j));
    }
  }
  rhs[equations - 1] = -y.dot(alpha);
  for (std::size_t m = 0; m < free.size(); ++m) matrix(equations - 1, static_cast<Eigen::Index>(m)) = y[free[m]];
  const core::Vector change = least_squares(matrix, rhs);
  for (std::size_t m = 0; m < free.size(); ++m) {
    const Eigen::Index i = free[m];
    alpha[i] = std::clamp(alpha[i] + change[static_cast<Eigen::Index>(m)], 0.0, c[i]);
  }
  return alpha;
}

double relative_majorant_gap(const Objective& objective, const core::Dataset& data, const core::LinearModel& model,
                             const core::Vector& scale, double value, core::Vector alpha) {
  const core::Vector& y = data.labels();
  alpha = alpha.cwiseMax(0.0).cwiseMin(objective.example_weights);
  if (!optim::move_onto_equality(alpha, y, objective.example_weights, 0.0)) return std::nan("");
  const core::Vector w = scale.cwiseProduct(model.w());
  const double rho = objective.penalty_weight;
  const double cw = objective.penalty->convex_weight();
  const core::Vector tangent = rho * objective.penalty->concave_subgradient(w);  // rho grad h(w)
  const core::Vector correlation = data.transpose_times(y.cwiseProduct(alpha));
  // The largest t in [0, 1] with |t correlation_j + scale_j tangent_j| <= scale_j rho cw for every j; a
  // constraint met up to rounding (kRoundingSlack of its bound) counts as met: where the penalty is flat
  // (h' = cw) the bound is tight, and a correlation of 1e-17 would otherwise force t = 0.
  double t = 1.0;
  for (Eigen::Index j = 0; j < correlation.size(); ++j) {
    const double bound = scale[j] * rho * cw, shift = scale[j] * tangent[j];
    if (std::abs(correlation[j] + shift) <= bound * (1.0 + kRoundingSlack)) continue;
    if (correlation[j] > 0.0) t = std::min(t, (bound - shift) / correlation[j]);
    if (correlation[j] < 0.0) t = std::min(t, (bound + shift) / -correlation[j]);
  }
  t = std::max(t, 0.0);
  const double h = rho * cw * w.lpNorm<1>() - rho * objective.penalty->value(w);  // rho h(w): rho Omega = rho (cw |w|_1 - h)
  const double lower = t * alpha.sum() + tangent.dot(w) - h;
  return (value - lower) / std::max(std::abs(value), kTiny);
}

core::LinearModel polished(const core::Dataset& data, const core::LinearModel& model, double band) {
  const core::Vector& y = data.labels();
  const core::Vector t = margins(data, model.w(), model.b());
  const std::vector<Eigen::Index> rows = on_band(t, band);
  if (rows.empty()) return model;
  const std::vector<Eigen::Index> support = nonzeros(model.w());
  // Unknowns: the change of (w_S, b); equations y_i (x_iS' w_S + b) = 1 on the band.
  const auto unknowns = static_cast<Eigen::Index>(support.size() + 1);
  core::DenseMatrix matrix(static_cast<Eigen::Index>(rows.size()), unknowns);
  core::Vector rhs(matrix.rows());
  for (std::size_t m = 0; m < rows.size(); ++m) {
    const Eigen::Index i = rows[m];
    for (std::size_t k = 0; k < support.size(); ++k) {
      matrix(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(k)) =
          y[i] * data.value(static_cast<std::size_t>(i), static_cast<std::size_t>(support[k]));
    }
    matrix(static_cast<Eigen::Index>(m), unknowns - 1) = y[i];
    rhs[static_cast<Eigen::Index>(m)] = 1.0 - t[i];
  }
  const core::Vector change = least_squares(matrix, rhs);
  core::Vector w = model.w();
  for (std::size_t k = 0; k < support.size(); ++k) w[support[k]] += change[static_cast<Eigen::Index>(k)];
  return {std::move(w), model.b() + change[unknowns - 1]};
}

}  // namespace sparsesvm::models
