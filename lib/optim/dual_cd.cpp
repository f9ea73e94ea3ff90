#include "optim/dual_cd.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "core/memory_budget.hpp"
#include "core/rng.hpp"

namespace sparsesvm::optim {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kMinimalTolerance = 1e-15;  // tightest PG tolerance tried before giving up on the gap
constexpr int kMaxBiasRounds = 1000;

// The training rows, and what one solve derives from the problem: liblinear's scaling (U_i, the diagonal
// D_ii of the L2-loss), the squared column scales v_j^2 and the bias feature s. Rows are read from
// `row_major` when it has them (dense data), else from `csr`. On rows shorter than kLaneRowLength both
// give the same numbers bit for bit on finite data: a dense row adds the products of its zeros too, each
// +-0, which leave every sum as it is (a sum starts at +0, and +0 + -0 is +0) and every u_j but for the
// sign of a zero. Longer dense rows sum their dot products in four lanes (dual_cd.hpp).
struct Rows {
  const core::SparseMatrix& csr;
  const core::RowMajorMatrix& row_major;
  const core::Vector& y;
  core::Vector upper;          // U_i, or +inf for the L2-loss (0 stays 0: the example has no weight)
  core::Vector diagonal;       // 1 / (2 U_i) for the L2-loss, else 0
  core::Vector scale_squared;  // v_j^2, empty = 1
  double s = 0.0;              // bias feature
  core::Vector shifted_margin; // m_i - y_i b_k (b_k: centre of the current bias round)
  core::Vector q;              // Q_ii = ||x'_i||^2 + s^2 + D_ii

  // Calls visit(j, x_ij) for row i in increasing j: every column of a dense row, the non-zeros of a CSR row.
  template <typename Visit>
  void for_each_entry(Eigen::Index i, Visit&& visit) const {
    if (row_major.rows() > 0) {
      const double* row = row_major.row(i).data();
      for (Eigen::Index j = 0; j < row_major.cols(); ++j) visit(j, row[j]);
    } else {
      for (core::SparseMatrix::InnerIterator it(csr, i); it; ++it) visit(it.col(), it.value());
    }
  }
  double dot(Eigen::Index i, const core::Vector& u) const {
    if (row_major.rows() > 0 && row_major.cols() >= kLaneRowLength) {
      return dot_in_four_lanes(row_major.row(i).data(), u.data(), row_major.cols());
    }
    double sum = 0.0;
    for_each_entry(i, [&](Eigen::Index j, double value) { sum += value * u[j]; });
    return sum;
  }
  // u += a v^2 x_i: keeps u = w' v (the weights on the original features) when w' += a x'_i.
  void add(Eigen::Index i, double a, core::Vector& u) const {
    if (scale_squared.size() == 0) {
      for_each_entry(i, [&](Eigen::Index j, double value) { u[j] += a * value; });
    } else {
      for_each_entry(i, [&](Eigen::Index j, double value) { u[j] += a * scale_squared[j] * value; });
    }
  }
  double scaled_squared_norm(Eigen::Index i) const {
    double sum = 0.0;
    for_each_entry(i, [&](Eigen::Index j, double value) {
      sum += value * value * (scale_squared.size() == 0 ? 1.0 : scale_squared[j]);
    });
    return sum;
  }
};

struct CdState {
  core::Vector alpha;
  core::Vector u;     // w' v: the weights on the original features
  double beta = 0.0;  // the bias weight of this round: b = b_k + s beta
};

// Epochs of dual CD with shrinking until max PG - min PG <= tolerance over all examples, or `budget`
// epochs (Hsieh et al. 2008, Algorithm 3). Returns the epochs run; counts the coordinate updates.
long run_epochs(const Rows& rows, double tolerance, long budget, bool shrinking, core::Rng& rng,
                CdState& state, long& updates) {
  const Eigen::Index n = rows.y.size();
  std::vector<Eigen::Index> active(static_cast<std::size_t>(n));
  std::iota(active.begin(), active.end(), Eigen::Index{0});
  std::size_t active_size = active.size();
  double old_max = kInfinity, old_min = -kInfinity;
  long epoch = 0;
  while (epoch < budget) {
    ++epoch;
    // A random order of the active examples (Fisher-Yates on the prefix).
    for (std::size_t k = active_size; k > 1; --k) std::swap(active[k - 1], active[rng.index_below(k)]);
    double new_max = -kInfinity, new_min = kInfinity;
    for (std::size_t k = 0; k < active_size;) {
      const Eigen::Index i = active[k];
      const double yi = rows.y[i];
      double& alpha = state.alpha[i];
      const double gradient = yi * (rows.dot(i, state.u) + rows.s * state.beta) - rows.shifted_margin[i] +
                              rows.diagonal[i] * alpha;
      double projected = gradient;
      if (alpha <= 0.0) {
        if (shrinking && gradient > old_max) {  // stays at 0: drop from this pass
          std::swap(active[k], active[--active_size]);
          continue;
        }
        projected = std::min(gradient, 0.0);
      } else if (alpha >= rows.upper[i]) {
        if (shrinking && gradient < old_min) {  // stays at U_i
          std::swap(active[k], active[--active_size]);
          continue;
        }
        projected = std::max(gradient, 0.0);
      }
      new_max = std::max(new_max, projected);
      new_min = std::min(new_min, projected);
      if (projected != 0.0 && rows.q[i] > 0.0) {
        const double next = std::clamp(alpha - gradient / rows.q[i], 0.0, rows.upper[i]);
        const double step = (next - alpha) * yi;
        alpha = next;
        rows.add(i, step, state.u);
        state.beta += rows.s * step;
        ++updates;
      }
      ++k;
    }
    if (active_size == 0) new_max = new_min = 0.0;
    if (new_max - new_min <= tolerance) {
      if (active_size == active.size()) break;
      active_size = active.size();  // check the shrunk examples once more before stopping
      old_max = kInfinity;
      old_min = -kInfinity;
      continue;
    }
    old_max = new_max > 0 ? new_max : kInfinity;
    old_min = new_min < 0 ? new_min : -kInfinity;
  }
  return epoch;
}

// The smaller of the two copies (8 bytes an entry against 12 a non-zero: row-major where at least about
// two thirds are non-zero), or the one asked for; row-major too where the CSR could not index the non-zeros.
DenseRowCopies copy_rows(const core::Dataset& data, DenseRowCopy layout) {
  if (data.is_sparse()) return {};
  const core::DenseMatrix& x = data.dense();
  using Index = core::SparseMatrix::StorageIndex;
  const auto nonzeros = (x.array() != 0.0).count();
  const double csr_bytes = static_cast<double>(sizeof(double) + sizeof(Index)) * static_cast<double>(nonzeros) +
                           static_cast<double>(sizeof(Index)) * static_cast<double>(x.rows() + 1);
  const double dense_bytes = core::feature_matrix_bytes(data);
  const bool csr_indexes = nonzeros <= std::numeric_limits<Index>::max();
  const bool row_major = layout == DenseRowCopy::row_major ||
                         (layout == DenseRowCopy::smaller && (dense_bytes <= csr_bytes || !csr_indexes));
  core::require_memory(row_major ? dense_bytes : csr_bytes,
                       fmt::format("dual CD's row copy of the {} x {} dense data", data.n(), data.d()),
                       "data stored sparse (a LIBSVM or NIPS 2003 file with `storage: sparse`) is read in place");
  DenseRowCopies copy;
  if (row_major) {
    copy.row_major = core::row_major_rows(x);
  } else {
    copy.csr = core::row_major_nonzeros(x);
  }
  return copy;
}

}  // namespace

namespace {

// A solve that stopped short of its gap keeps its model: solved_inaccurate with the certified gap.
L2SvmSolution unfinished(L2SvmSolution solution, const std::string& where, double wanted) {
  solution.status = core::Status::solved_inaccurate;
  solution.message = fmt::format("dual cd: {} left a relative duality gap of {:.3g} (wanted {:.3g})", where,
                                 solution.relative_gap, wanted);
  return solution;
}

}  // namespace

double dot_in_four_lanes(const double* x, const double* u, Eigen::Index length) {
  double lane[4] = {0.0, 0.0, 0.0, 0.0};
  Eigen::Index j = 0;
  for (; j + 4 <= length; j += 4) {
    lane[0] += x[j] * u[j];
    lane[1] += x[j + 1] * u[j + 1];
    lane[2] += x[j + 2] * u[j + 2];
    lane[3] += x[j + 3] * u[j + 3];
  }
  for (; j < length; ++j) lane[j % 4] += x[j] * u[j];
  return (lane[0] + lane[1]) + (lane[2] + lane[3]);
}

DualCdSolver::DualCdSolver(const core::Dataset& train, DenseRowCopy layout)
    : data_(train), copies_(copy_rows(train, layout)) {}

L2SvmSolution DualCdSolver::solve(const L2SvmProblem& p, const core::Vector& warm_alpha,
                                  const DualCdOptions& options) const {
  const core::SparseMatrix& csr = data_.is_sparse() ? data_.sparse() : copies_.csr;
  const core::Vector& y = data_.labels();
  const Eigen::Index n = y.size();
  const auto d = static_cast<Eigen::Index>(data_.d());
  check_problem(p, data_);
  const double half_over_lambda = 1.0 / (2.0 * p.lambda);
  const bool l2_loss = p.loss == SvmLoss::squared_hinge;
  const bool unpenalized = p.bias == BiasMode::unpenalized;

  Rows rows{csr, copies_.row_major, y, {}, core::Vector::Zero(n), {}, 0.0, p.margin, {}};
  rows.upper = p.upper * half_over_lambda;
  if (l2_loss) {
    for (Eigen::Index i = 0; i < n; ++i) {
      rows.diagonal[i] = rows.upper[i] > 0 ? 0.5 / rows.upper[i] : 0.0;
      rows.upper[i] = rows.upper[i] > 0 ? kInfinity : 0.0;
    }
  }
  if (p.feature_scale.size() > 0) rows.scale_squared = p.feature_scale.cwiseAbs2();
  rows.q.resize(n);
  double mean_norm = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    rows.q[i] = rows.scaled_squared_norm(i);
    mean_norm += rows.q[i] / static_cast<double>(n);
  }
  if (!std::isfinite(mean_norm)) {
    L2SvmSolution overflow;
    overflow.solver = "dual_cd";
    overflow.message = "dual cd: squared norms of the examples overflow (features beyond ~1e154); rescale the data";
    return overflow;
  }
  // The proximal rounds' bias feature s: a round moves b by about s^2 times the equality residual, which
  // is at most sum_i U_i. So s^2 is at least 1 / sum_i U_i (b can move by the margins' scale when C is
  // tiny), at least 1, and on the examples' scale (re-weighted columns can make the examples tiny).
  const double total_upper = std::isfinite(rows.upper.sum()) ? rows.upper.sum() : kInfinity;
  rows.s = unpenalized ? std::sqrt(std::max({mean_norm, 1.0, total_upper > 0 ? 1.0 / total_upper : 1.0})) : p.bias_feature;
  rows.q += rows.diagonal + core::Vector::Constant(n, rows.s * rows.s);

  const double kappa = p.tilt_b * half_over_lambda;
  if (unpenalized && !equality_reachable(y, rows.upper, -kappa)) {
    L2SvmSolution infeasible;
    infeasible.solver = "dual_cd";
    infeasible.status = core::Status::infeasible;
    infeasible.message = fmt::format("dual cd: sum y_i alpha_i = {} is out of reach with 0 <= alpha_i <= C_i", -kappa);
    return infeasible;
  }

  CdState state;
  // alpha in liblinear's scaling inside; in the problem's (0 <= alpha_i <= C_i) outside.
  state.alpha = warm_alpha.size() == n ? (warm_alpha * half_over_lambda).cwiseMax(0.0).cwiseMin(rows.upper).eval()
                                       : core::Vector::Zero(n);
  const core::Vector eta = p.tilt_w.size() == d ? (p.tilt_w * half_over_lambda).eval() : core::Vector::Zero(d);
  // u = v^2 X'(alpha y) + eta' and beta, recomputed from alpha after every round, free of accumulated rounding.
  const auto recompute = [&](CdState& s) {
    s.u = data_.transpose_times(s.alpha.cwiseProduct(y));
    if (rows.scale_squared.size() > 0) s.u = s.u.cwiseProduct(rows.scale_squared);
    s.u += eta;
    s.beta = rows.s * (kappa + y.dot(s.alpha));
  };

  core::Rng rng(options.seed);
  L2SvmSolution solution;
  solution.solver = "dual_cd";
  double centre = unpenalized ? options.bias_guess : 0.0;  // b_k
  double last_move = 0.0;
  double tolerance = options.tolerance;
  double last_gap = kInfinity;
  recompute(state);
  for (int round = 1;; ++round) {
    rows.shifted_margin = p.margin - y * centre;
    solution.epochs += run_epochs(rows, tolerance, options.max_epochs - solution.epochs, options.shrinking, rng, state,
                                  solution.coordinate_updates);
    recompute(state);
    const double b = unpenalized ? centre + rows.s * state.beta : rows.s * state.beta;

    // The duality gap of the problem asked for: with an unpenalized bias, at alpha moved onto sum y alpha = -kappa'.
    CdState dual_state = state;
    if (unpenalized) {
      move_onto_equality(dual_state.alpha, y, rows.upper, -kappa);
      if (dual_state.alpha != state.alpha) recompute(dual_state);  // else state's u and beta are its own
    }
    const core::Vector& dual_alpha = dual_state.alpha;
    double w_prime_squared = 0.0;
    for (Eigen::Index j = 0; j < d; ++j) {
      const double v2 = rows.scale_squared.size() > 0 ? rows.scale_squared[j] : 1.0;
      if (v2 > 0) w_prime_squared += dual_state.u[j] * dual_state.u[j] / v2;
    }
    double dual = p.margin.dot(dual_alpha) - 0.5 * w_prime_squared - 0.5 * rows.diagonal.dot(dual_alpha.cwiseAbs2());
    if (!unpenalized) dual -= 0.5 * dual_state.beta * dual_state.beta;
    solution.dual_objective = dual * 2.0 * p.lambda;
    solution.w = state.u;
    solution.b = b;
    solution.alpha = state.alpha * 2.0 * p.lambda;
    const PrimalValue primal = primal_value(p, data_, solution.w, solution.b);
    solution.primal_objective = primal.objective;
    const double gap = solution.primal_objective - solution.dual_objective;
    solution.relative_gap = std::max(gap, 0.0) / std::max(std::abs(solution.primal_objective), kTinyObjective);
    if (!std::isfinite(solution.primal_objective) || !std::isfinite(solution.dual_objective)) {
      solution.status = core::Status::numerical_error;
      solution.message = "dual cd: non-finite objective";
      return solution;
    }
    if (solution.relative_gap <= options.relative_gap ||
        gap <= kRoundingGap * primal.scale) {
      solution.status = core::Status::optimal;
      return solution;
    }
    if (solution.epochs >= options.max_epochs || round >= kMaxBiasRounds) {
      return unfinished(solution, fmt::format("{} epochs in {} rounds", solution.epochs, round), options.relative_gap);
    }
    // While b keeps moving one way, the tolerance stays (the bias, not CD, limits the gap). Otherwise a
    // round that no longer halves the gap means CD's accuracy limits it: tighten.
    const double move = b - centre;
    const bool travelling = unpenalized && move * last_move > 0;
    if (!travelling && (!unpenalized || gap > 0.5 * last_gap)) {
      if (tolerance / 10.0 < kMinimalTolerance) {
        return unfinished(solution, fmt::format("PG tolerance {:.3g}", tolerance), options.relative_gap);
      }
      tolerance /= 10.0;
    }
    last_gap = gap;
    last_move = move;
    if (unpenalized) centre = b;
  }
}

}  // namespace sparsesvm::optim
