#include "optim/svm_dual.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>


namespace sparsesvm::optim {
namespace {

constexpr double kTau = 1e-12;  // floor on the curvature of a pair (LIBSVM's TAU)
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kMinimalTolerance = 1e-15;  // tightest violation tolerance SMO tries before giving up on the gap
constexpr double kTinyObjective = 1e-300;    // floor of |P| in the relative gap
// A gap below this fraction of the objective's largest terms is rounding: P and D cannot be told apart in
// double precision (with a tilt, P can be near 0 while its terms are not).
constexpr double kRoundingGap = 1e-13;

}  // namespace

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

SvmDualSolver::SvmDualSolver(const core::Dataset& train) : data_(train) {
  if (data_.is_sparse()) {
    gram_ = core::DenseMatrix(data_.sparse() * data_.sparse().transpose());
  } else {
    gram_.noalias() = data_.dense() * data_.dense().transpose();
  }
}

SvmDualSolver::PrimalTerms SvmDualSolver::primal_terms(const SvmDualProblem& problem, const core::Vector& w,
                                                       double b) const {
  const core::Vector f = (data_.times(w).array() + b).matrix();
  const core::Vector& y = data_.labels();
  const double tilt = problem.tilt_b * b + (problem.tilt_w.size() > 0 ? problem.tilt_w.dot(w) : 0.0);
  double hinge = 0.0;
  for (Eigen::Index i = 0; i < y.size(); ++i) hinge += problem.upper[i] * std::max(0.0, problem.margin[i] - y[i] * f[i]);
  const double regularizer = problem.lambda * w.squaredNorm();
  return {regularizer + hinge - tilt, regularizer + hinge + std::abs(problem.tilt_b * b) +
                                          (problem.tilt_w.size() > 0 ? std::abs(problem.tilt_w.dot(w)) : 0.0)};
}

double SvmDualSolver::primal_objective(const SvmDualProblem& problem, const core::Vector& w, double b) const {
  return primal_terms(problem, w, b).value;
}

SvmDualSolution SvmDualSolver::solve(const SvmDualProblem& problem, const core::Vector& warm_alpha,
                                     const SvmDualOptions& options) const {
  const core::Vector& y = data_.labels();
  const Eigen::Index n = y.size();
  const auto d = static_cast<Eigen::Index>(data_.d());
  if (!(problem.lambda > 0) || problem.upper.size() != n || problem.margin.size() != n ||
      (problem.tilt_w.size() != 0 && problem.tilt_w.size() != d)) {
    throw std::invalid_argument("SvmDualSolver: lambda must be positive and the vectors sized n (and d)");
  }
  const double scale = 1.0 / (2.0 * problem.lambda);
  const core::Vector tilt = problem.tilt_w.size() == d ? problem.tilt_w : core::Vector::Zero(d);
  if (!gram_.allFinite()) {  // |x| beyond ~1e154: inner products overflow, and SMO would return w = 0
    SvmDualSolution overflow;
    overflow.status = core::Status::numerical_error;
    overflow.message = "svm dual: inner products of the examples overflow (features beyond ~1e154); rescale the data";
    return overflow;
  }

  core::Vector alpha = warm_alpha.size() == n ? warm_alpha : core::Vector::Zero(n);
  alpha = alpha.cwiseMax(0.0).cwiseMin(problem.upper);
  if (!move_onto_equality(alpha, y, problem.upper, -problem.tilt_b)) {
    SvmDualSolution infeasible;
    infeasible.status = core::Status::infeasible;
    infeasible.message = fmt::format("svm dual: sum y_i alpha_i = {} is out of reach with 0 <= alpha_i <= C_i",
                                     -problem.tilt_b);
    return infeasible;
  }

  // G_t = y_t <x_t, w> - m_t with w = (eta + X'(alpha .* y)) / (2 lambda).
  const core::Vector tilt_margins = data_.times(tilt);
  long iterations = 0;
  for (double tolerance = options.tolerance;; tolerance /= 10.0) {
    // Recomputed from alpha at every tightening, free of the rounding the updates accumulate.
    core::Vector gradient = (y.array() * ((gram_ * alpha.cwiseProduct(y) + tilt_margins).array() * scale) -
                             problem.margin.array()).matrix();
    iterations += run_smo(problem, tolerance, options.max_iterations - iterations, alpha, gradient);
    SvmDualSolution solution = finish(problem, tilt, alpha);
    solution.iterations = iterations;
    if (!std::isfinite(solution.primal_objective) || !std::isfinite(solution.dual_objective)) {
      solution.status = core::Status::numerical_error;
      solution.message = "svm dual: non-finite objective";
      return solution;
    }
    if (solution.relative_gap <= options.relative_gap ||
        solution.primal_objective - solution.dual_objective <= kRoundingGap * solution.objective_scale) {
      solution.status = core::Status::optimal;
      return solution;
    }
    if (iterations >= options.max_iterations) {
      solution.status = core::Status::iteration_limit;
      solution.message = fmt::format("svm dual: {} pair updates left a relative duality gap of {:.3g} (wanted {:.3g})",
                                     iterations, solution.relative_gap, options.relative_gap);
      return solution;
    }
    if (tolerance / 10.0 < kMinimalTolerance) {
      solution.status = core::Status::solved_inaccurate;
      solution.message = fmt::format("svm dual: relative duality gap {:.3g} above {:.3g} at violation tolerance {:.3g}",
                                     solution.relative_gap, options.relative_gap, tolerance);
      return solution;
    }
  }
}

long SvmDualSolver::run_smo(const SvmDualProblem& problem, double tolerance, long budget, core::Vector& alpha,
                            core::Vector& gradient) const {
  const core::Vector& y = data_.labels();
  const Eigen::Index n = y.size();
  const double scale = 1.0 / (2.0 * problem.lambda);
  const auto at_upper = [&](Eigen::Index t) { return alpha[t] >= problem.upper[t]; };
  const auto at_lower = [&](Eigen::Index t) { return alpha[t] <= 0.0; };

  long iteration = 0;
  for (; iteration < budget; ++iteration) {
    // Working set, first index: the most violating example of I_up.
    double g_max = -kInfinity;
    Eigen::Index i = -1;
    for (Eigen::Index t = 0; t < n; ++t) {
      const bool in_up = y[t] > 0 ? !at_upper(t) : !at_lower(t);
      if (in_up && -y[t] * gradient[t] >= g_max) {
        g_max = -y[t] * gradient[t];
        i = t;
      }
    }
    // Second index: the largest second-order decrease over I_low.
    double g_max2 = -kInfinity;
    double best_decrease = kInfinity;
    Eigen::Index j = -1;
    for (Eigen::Index t = 0; t < n && i >= 0; ++t) {
      const bool in_low = y[t] > 0 ? !at_lower(t) : !at_upper(t);
      if (!in_low) continue;
      g_max2 = std::max(g_max2, y[t] * gradient[t]);
      const double gradient_gap = g_max + y[t] * gradient[t];
      if (gradient_gap <= 0) continue;
      const double curvature = std::max((gram_(i, i) + gram_(t, t) - 2.0 * gram_(i, t)) * scale, kTau);
      const double decrease = -gradient_gap * gradient_gap / curvature;
      if (decrease <= best_decrease) {
        best_decrease = decrease;
        j = t;
      }
    }
    if (i < 0 || j < 0 || g_max + g_max2 < tolerance) break;

    // Update the pair along the equality constraint, clipped to the box (LIBSVM's two-variable step).
    const double old_i = alpha[i];
    const double old_j = alpha[j];
    const double c_i = problem.upper[i];
    const double c_j = problem.upper[j];
    const double q_ij = y[i] * y[j] * gram_(i, j) * scale;
    const double q_ii = gram_(i, i) * scale;
    const double q_jj = gram_(j, j) * scale;
    if (y[i] != y[j]) {
      const double curvature = std::max(q_ii + q_jj + 2.0 * q_ij, kTau);
      const double delta = (-gradient[i] - gradient[j]) / curvature;
      const double diff = alpha[i] - alpha[j];
      alpha[i] += delta;
      alpha[j] += delta;
      if (diff > 0) {
        if (alpha[j] < 0) { alpha[j] = 0; alpha[i] = diff; }
      } else {
        if (alpha[i] < 0) { alpha[i] = 0; alpha[j] = -diff; }
      }
      if (diff > c_i - c_j) {
        if (alpha[i] > c_i) { alpha[i] = c_i; alpha[j] = c_i - diff; }
      } else {
        if (alpha[j] > c_j) { alpha[j] = c_j; alpha[i] = c_j + diff; }
      }
    } else {
      const double curvature = std::max(q_ii + q_jj - 2.0 * q_ij, kTau);
      const double delta = (gradient[i] - gradient[j]) / curvature;
      const double sum = alpha[i] + alpha[j];
      alpha[i] -= delta;
      alpha[j] += delta;
      if (sum > c_i) {
        if (alpha[i] > c_i) { alpha[i] = c_i; alpha[j] = sum - c_i; }
      } else {
        if (alpha[j] < 0) { alpha[j] = 0; alpha[i] = sum; }
      }
      if (sum > c_j) {
        if (alpha[j] > c_j) { alpha[j] = c_j; alpha[i] = sum - c_j; }
      } else {
        if (alpha[i] < 0) { alpha[i] = 0; alpha[j] = sum; }
      }
    }
    // G_t += Q_ti dalpha_i + Q_tj dalpha_j, with Q_ts = y_t y_s K_ts / (2 lambda).
    const double step_i = (alpha[i] - old_i) * y[i] * scale;
    const double step_j = (alpha[j] - old_j) * y[j] * scale;
    gradient.array() += y.array() * (gram_.col(i).array() * step_i + gram_.col(j).array() * step_j);
  }

  return iteration;
}

SvmDualSolution SvmDualSolver::finish(const SvmDualProblem& problem, const core::Vector& tilt,
                                      const core::Vector& alpha) const {
  const core::Vector& y = data_.labels();
  const Eigen::Index n = y.size();
  const double scale = 1.0 / (2.0 * problem.lambda);
  const auto at_upper = [&](Eigen::Index t) { return alpha[t] >= problem.upper[t]; };
  const auto at_lower = [&](Eigen::Index t) { return alpha[t] <= 0.0; };
  SvmDualSolution solution;
  solution.alpha = alpha;
  solution.w = (tilt + data_.transpose_times(alpha.cwiseProduct(y))) * scale;
  const core::Vector gradient = (y.array() * data_.times(solution.w).array() - problem.margin.array()).matrix();

  // Bias: -y G averaged over free examples, else the middle of the interval the bounded ones allow.
  double upper_bound = kInfinity, lower_bound = -kInfinity, free_sum = 0.0;
  int free_count = 0;
  for (Eigen::Index t = 0; t < n; ++t) {
    if (problem.upper[t] <= 0) continue;
    const double y_gradient = y[t] * gradient[t];
    if (at_upper(t)) {
      if (y[t] < 0) upper_bound = std::min(upper_bound, y_gradient); else lower_bound = std::max(lower_bound, y_gradient);
    } else if (at_lower(t)) {
      if (y[t] > 0) upper_bound = std::min(upper_bound, y_gradient); else lower_bound = std::max(lower_bound, y_gradient);
    } else {
      ++free_count;
      free_sum += y_gradient;
    }
  }
  double rho = free_count > 0 ? free_sum / free_count : 0.5 * (upper_bound + lower_bound);
  if (!std::isfinite(rho)) rho = std::isfinite(upper_bound) ? upper_bound : (std::isfinite(lower_bound) ? lower_bound : 0.0);
  solution.b = -rho;
  const PrimalTerms terms = primal_terms(problem, solution.w, solution.b);
  solution.primal_objective = terms.value;
  solution.objective_scale = terms.size;
  solution.dual_objective = problem.margin.dot(alpha) - problem.lambda * solution.w.squaredNorm();
  const double gap = solution.primal_objective - solution.dual_objective;
  solution.relative_gap = std::max(gap, 0.0) / std::max(std::abs(solution.primal_objective), kTinyObjective);
  return solution;
}

}  // namespace sparsesvm::optim
