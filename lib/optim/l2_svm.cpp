#include "optim/l2_svm.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace sparsesvm::optim {
namespace {

// The regularizer ||w'||^2 (+ beta^2) and the loss sum, each a nonnegative term of P.
struct PrimalParts {
  double regularizer = 0.0;
  double loss = 0.0;
  double tilt = 0.0;  // eta.w + kappa b
};

PrimalParts primal_parts(const L2SvmProblem& p, const core::Dataset& data, const core::Vector& w, double b) {
  PrimalParts parts;
  for (Eigen::Index j = 0; j < w.size(); ++j) {
    const double v = p.feature_scale.size() > 0 ? p.feature_scale[j] : 1.0;
    if (v > 0) parts.regularizer += (w[j] / v) * (w[j] / v);
  }
  if (p.bias == BiasMode::regularized && p.bias_feature > 0) parts.regularizer += (b / p.bias_feature) * (b / p.bias_feature);
  const core::Vector& y = data.labels();
  const core::Vector f = (data.times(w).array() + b).matrix();
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    const double r = std::max(0.0, p.margin[i] - y[i] * f[i]);
    parts.loss += p.upper[i] * (p.loss == SvmLoss::hinge ? r : r * r);
  }
  parts.tilt = p.tilt_b * b + (p.tilt_w.size() > 0 ? p.tilt_w.dot(w) : 0.0);
  return parts;
}

int rank(const L2SvmSolution& s) { return s.status == core::Status::optimal ? 2 : core::has_solution(s.status) ? 1 : 0; }

}  // namespace

void check_problem(const L2SvmProblem& p, const core::Dataset& data) {
  const auto n = static_cast<Eigen::Index>(data.n());
  const auto d = static_cast<Eigen::Index>(data.d());
  if (!(p.lambda > 0) || p.upper.size() != n || p.margin.size() != n || (p.tilt_w.size() != 0 && p.tilt_w.size() != d) ||
      (p.feature_scale.size() != 0 && (p.feature_scale.size() != d || p.tilt_w.size() != 0)) ||
      !(p.bias_feature >= 0) || (p.upper.array() < 0).any()) {
    throw std::invalid_argument("L2SvmProblem: lambda > 0, C_i >= 0, s >= 0, vectors sized n (and d), no tilt with a scale");
  }
}

double primal_objective(const L2SvmProblem& p, const core::Dataset& data, const core::Vector& w, double b) {
  return primal_value(p, data, w, b).objective;
}

PrimalValue primal_value(const L2SvmProblem& p, const core::Dataset& data, const core::Vector& w, double b) {
  const double tilt_size = std::abs(p.tilt_b * b) + (p.tilt_w.size() > 0 ? std::abs(p.tilt_w.dot(w)) : 0.0);
  const PrimalParts parts = primal_parts(p, data, w, b);
  return {p.lambda * parts.regularizer + parts.loss - parts.tilt, p.lambda * parts.regularizer + parts.loss + tilt_size};
}

bool equality_reachable(const core::Vector& y, const core::Vector& upper, double target) {
  double reach_up = 0.0, reach_down = 0.0;
  for (Eigen::Index i = 0; i < y.size(); ++i) (y[i] > 0 ? reach_up : reach_down) += upper[i];
  // Sums of bounds carry rounding (97 x 0.05 sums to 4.849999999999991): a target on the boundary is
  // reachable, within the tolerance move_onto_equality accepts.
  const double slack = 1e-12 * (reach_up + reach_down + std::abs(target));
  return target <= reach_up + slack && target >= -reach_down - slack;
}

bool move_onto_equality(core::Vector& alpha, const core::Vector& y, const core::Vector& upper, double target) {
  double residual = target - y.dot(alpha);
  for (Eigen::Index i = 0; i < alpha.size() && std::abs(residual) > 1e-12; ++i) {
    // Raising alpha_i moves the sum by +y_i per unit; lowering it by -y_i.
    const bool raise = (residual > 0) == (y[i] > 0);
    const double room = raise ? upper[i] - alpha[i] : alpha[i];
    const double step = std::min(room, std::abs(residual));
    alpha[i] += raise ? step : -step;
    residual -= (raise ? 1.0 : -1.0) * y[i] * step;
  }
  return std::abs(residual) <= 1e-9 * (1.0 + std::abs(target));
}

L2SvmSolution better_of(L2SvmSolution first, L2SvmSolution second) {
  const bool second_wins = rank(second) > rank(first) || (rank(second) == rank(first) && second.relative_gap < first.relative_gap);
  L2SvmSolution kept = second_wins ? second : first;
  kept.message = fmt::format("{}: {}{}; {}: {}{}", first.solver, core::to_string(first.status),
                             first.message.empty() ? "" : " (" + first.message + ")", second.solver,
                             core::to_string(second.status), second.message.empty() ? "" : " (" + second.message + ")");
  if (kept.status == core::Status::optimal) kept.message.clear();
  kept.solver = first.solver + ">" + second.solver;
  kept.epochs = first.epochs + second.epochs;
  kept.coordinate_updates = first.coordinate_updates + second.coordinate_updates;
  kept.interior_iterations = first.interior_iterations + second.interior_iterations;
  return kept;
}

}  // namespace sparsesvm::optim
