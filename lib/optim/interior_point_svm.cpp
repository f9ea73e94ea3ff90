#include "optim/interior_point_svm.hpp"

#include "core/memory_budget.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <vector>

namespace sparsesvm::optim {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kToBoundary = 0.995;     // fraction of the step to the boundary taken
constexpr int kStallIterations = 8;       // iterations without a better certificate before stopping
constexpr double kTypicalIterations = 30;  // for the work estimate

// The problem restricted to the examples with C_i > 0 and the columns with v_j != 0, with the bias
// column s appended when the bias is regularized: A = [X'_kept, s 1] (without labels), Z = diag(y) A.
struct Reduced {
  std::vector<Eigen::Index> examples;
  std::vector<Eigen::Index> columns;
  bool bias_column = false;
  bool equality = false;          // unpenalized bias: y'alpha = target
  double target = 0.0;
  core::Vector y, upper, margin;  // of the kept examples; upper = +inf for the squared hinge
  core::Vector curvature;         // 1/(2 C_i) for the squared hinge, else 0
  core::Vector eta;               // eta restricted to the columns, then kappa s for the bias column
  bool features_regime = false;   // factor d x d (Woodbury) rather than n x n
  core::DenseMatrix a_dense;      // A, dense (features regime, or dense data)
  core::SparseMatrix a_sparse;    // A, CSR (sparse data in the examples regime)

  Eigen::Index n() const { return static_cast<Eigen::Index>(examples.size()); }
  Eigen::Index d() const { return static_cast<Eigen::Index>(columns.size()) + (bias_column ? 1 : 0); }
  bool dense() const { return a_dense.size() > 0 || a_sparse.size() == 0; }
  // Z' a = A' (y o a) and Z w = y o (A w).
  core::Vector z_transpose_times(const core::Vector& a) const {
    const core::Vector ya = y.cwiseProduct(a);
    return dense() ? (a_dense.transpose() * ya).eval() : (a_sparse.transpose() * ya).eval();
  }
  core::Vector z_times(const core::Vector& w) const {
    return y.cwiseProduct(dense() ? (a_dense * w).eval() : (a_sparse * w).eval());
  }
};

std::size_t kept_columns(const L2SvmProblem& p, const core::Dataset& data) {
  if (p.feature_scale.size() == 0) return data.d();
  return static_cast<std::size_t>((p.feature_scale.array() != 0.0).count());
}

// n and d of the reduced problem without building it.
std::pair<double, double> reduced_shape(const L2SvmProblem& p, const core::Dataset& data) {
  const double n = static_cast<double>((p.upper.array() > 0.0).count());
  const bool bias_column = p.bias == BiasMode::regularized && p.bias_feature > 0;
  return {n, static_cast<double>(kept_columns(p, data)) + (bias_column ? 1.0 : 0.0)};
}

// A's rows: example i's kept features times v_j, then s.
void build_matrix(Reduced& r, const L2SvmProblem& p, const core::Dataset& data) {
  const Eigen::Index d = r.d();
  const Eigen::Index kept = static_cast<Eigen::Index>(r.columns.size());
  const auto scale = [&](Eigen::Index j) { return p.feature_scale.size() > 0 ? p.feature_scale[j] : 1.0; };
  if (!data.is_sparse()) {
    r.a_dense.resize(r.n(), d);
    for (Eigen::Index c = 0; c < kept; ++c) {
      const Eigen::Index j = r.columns[static_cast<std::size_t>(c)];
      for (Eigen::Index k = 0; k < r.n(); ++k) r.a_dense(k, c) = data.dense()(r.examples[static_cast<std::size_t>(k)], j) * scale(j);
    }
    if (r.bias_column) r.a_dense.col(kept).setConstant(p.bias_feature);
    return;
  }
  std::vector<Eigen::Index> position(data.d(), -1);
  for (Eigen::Index c = 0; c < kept; ++c) position[static_cast<std::size_t>(r.columns[static_cast<std::size_t>(c)])] = c;
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index k = 0; k < r.n(); ++k) {
    for (core::SparseMatrix::InnerIterator it(data.sparse(), r.examples[static_cast<std::size_t>(k)]); it; ++it) {
      const Eigen::Index c = position[static_cast<std::size_t>(it.col())];
      if (c >= 0) entries.emplace_back(k, c, it.value() * scale(it.col()));
    }
    if (r.bias_column) entries.emplace_back(k, kept, p.bias_feature);
  }
  r.a_sparse.resize(r.n(), d);
  r.a_sparse.setFromTriplets(entries.begin(), entries.end());
  if (r.features_regime) {
    r.a_dense = core::DenseMatrix(r.a_sparse);
    r.a_sparse = core::SparseMatrix();
  }
}

Reduced reduce(const L2SvmProblem& p, const core::Dataset& data) {
  Reduced r;
  const core::Vector& y = data.labels();
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    if (p.upper[i] > 0) r.examples.push_back(i);
  }
  for (Eigen::Index j = 0; j < static_cast<Eigen::Index>(data.d()); ++j) {
    if (p.feature_scale.size() == 0 || p.feature_scale[j] != 0.0) r.columns.push_back(j);
  }
  r.bias_column = p.bias == BiasMode::regularized && p.bias_feature > 0;
  r.equality = p.bias == BiasMode::unpenalized;
  r.target = -p.tilt_b;
  const Eigen::Index n = r.n();
  r.y.resize(n);
  r.upper.resize(n);
  r.margin.resize(n);
  r.curvature = core::Vector::Zero(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const Eigen::Index i = r.examples[static_cast<std::size_t>(k)];
    r.y[k] = y[i];
    r.margin[k] = p.margin[i];
    r.upper[k] = p.loss == SvmLoss::hinge ? p.upper[i] : kInfinity;
    if (p.loss == SvmLoss::squared_hinge) r.curvature[k] = 0.5 / p.upper[i];
  }
  r.eta = core::Vector::Zero(r.d());
  if (p.tilt_w.size() > 0) {
    for (std::size_t c = 0; c < r.columns.size(); ++c) r.eta[static_cast<Eigen::Index>(c)] = p.tilt_w[r.columns[c]];
  }
  if (r.bias_column) r.eta[r.d() - 1] = p.tilt_b * p.bias_feature;  // -kappa b = -(kappa s) beta
  r.features_regime = r.d() < n;
  build_matrix(r, p, data);
  return r;
}

// Cholesky of a symmetric positive (semi)definite matrix after scaling it to a unit diagonal. A Gram
// matrix of duplicated rows is singular; a tiny ridge on the unit diagonal then lets Cholesky through.
class EquilibratedCholesky {
 public:
  bool compute(core::DenseMatrix system) {
    scale_ = system.diagonal().cwiseMax(std::numeric_limits<double>::min()).cwiseSqrt().cwiseInverse();
    system = scale_.asDiagonal() * system * scale_.asDiagonal();
    for (double ridge = 0.0; ridge <= 1e-4; ridge = ridge == 0.0 ? 1e-13 : ridge * 100.0) {
      core::DenseMatrix shifted = system;
      shifted.diagonal().array() += ridge;
      cholesky_.compute(shifted);
      if (cholesky_.info() == Eigen::Success) return true;
    }
    return false;
  }
  core::Vector solve(const core::Vector& rhs) const { return scale_.cwiseProduct(cholesky_.solve(scale_.cwiseProduct(rhs))); }

 private:
  core::Vector scale_;
  Eigen::LLT<core::DenseMatrix> cholesky_;
};

// The primal-dual iterate of the QP over (w, b, xi): the weights w (the reduced columns), the bias b
// (unpenalized only), the dual alpha, the margin slacks t_i = y_i (a_i.w + b) + xi_i - m_i >= 0 (alpha's
// complement) and the hinge slacks xi (the complement of C - alpha; zero for the squared hinge, whose
// xi = alpha / (2 C) is eliminated). Keeping w apart from alpha matters: on features of size 1e6, w is
// tiny and w(alpha) = (eta + Z'alpha) / (2 lambda) is all rounding.
struct Iterate {
  core::Vector w, alpha, t, xi;
  double b = 0.0;
};

// The residuals of the optimality conditions:
//   r_w = 2 lambda w - eta - Z'alpha                      (stationarity in w)
//   r_t = Z w + y b + curvature o alpha + xi - m - t      (the margin constraints)
//   e   = y'alpha - target                               (stationarity in b)
struct Residuals {
  core::Vector w, t;
  double equality = 0.0;
};

struct Direction {
  core::Vector w, alpha, t, xi;
  double b = 0.0;
};

class InteriorPoint {
 public:
  InteriorPoint(const Reduced& r, const L2SvmProblem& p, const core::Dataset& data, const InteriorPointOptions& options)
      : r_(r), p_(p), data_(data), options_(options) {
    has_upper_ = r.upper.array().isFinite().cast<double>();
    complementarity_count_ = static_cast<double>(r.n()) + has_upper_.sum();
    if (!r.features_regime) {
      gram_ = r.dense() ? (r.a_dense * r.a_dense.transpose()).eval() : core::DenseMatrix(r.a_sparse * r.a_sparse.transpose());
      gram_ = r.y.asDiagonal() * gram_ * r.y.asDiagonal();  // Z Z' = Y A A' Y
    }
  }

  // Steps until the certificate closes, its gap stops shrinking for kStallIterations, or the iterations
  // run out; the best certified iterate.
  L2SvmSolution run() {
    Iterate it = start();
    L2SvmSolution best;
    double best_gap = kInfinity;
    int since_better = 0;
    int iteration = 0;
    std::string failure;
    while (true) {
      L2SvmSolution candidate = certify(it);
      // Suboptimality P - P* is at most P - D: the best iterate has the smallest absolute gap.
      const double gap = candidate.primal_objective - candidate.dual_objective;
      const bool better = core::has_solution(candidate.status) && gap < best_gap;
      if (better) {
        best_gap = gap;
        best = std::move(candidate);
      }
      since_better = better ? 0 : since_better + 1;
      if (best.status == core::Status::optimal || since_better >= kStallIterations ||
          iteration >= options_.max_iterations) {
        break;
      }
      ++iteration;
      if (!step(it)) {
        failure = "the Newton system could not be factored";
        break;
      }
    }
    best.interior_iterations = iteration;
    if (!core::has_solution(best.status)) {
      best.solver = "interior_point";
      best.status = core::Status::numerical_error;
      best.message = fmt::format("interior point: no iterate with a finite certificate in {} iterations{} (lambda or "
                                 "the data's scale near the limits of double precision)",
                                 iteration, failure.empty() ? "" : "; " + failure);
      return best;
    }
    if (best.status != core::Status::solved_inaccurate) return best;
    best.message = fmt::format("interior point: stopped after {} iterations at a relative duality gap of {:.3g} "
                               "(wanted {:.3g}){}", iteration, best.relative_gap, options_.relative_gap,
                               failure.empty() ? "" : "; " + failure);
    return best;
  }

 private:
  // C_i - alpha_i where alpha_i has an upper bound, else 0.
  core::Vector upper_slack(const core::Vector& alpha) const {
    core::Vector slack = core::Vector::Zero(alpha.size());
    for (Eigen::Index k = 0; k < alpha.size(); ++k) {
      if (has_upper_[k] > 0) slack[k] = r_.upper[k] - alpha[k];
    }
    return slack;
  }

  // Z w + y b + curvature o alpha - m: what t - xi must equal.
  core::Vector margin_excess(const Iterate& it) const {
    return r_.z_times(it.w) + it.b * r_.y + r_.curvature.cwiseProduct(it.alpha) - r_.margin;
  }

  Residuals residuals(const Iterate& it) const {
    Residuals res;
    res.w = 2.0 * p_.lambda * it.w - r_.eta - r_.z_transpose_times(it.alpha);
    res.t = margin_excess(it) + it.xi - it.t;
    res.equality = r_.equality ? r_.y.dot(it.alpha) - r_.target : 0.0;
    return res;
  }

  // alpha in the middle of its box (C_i for the squared hinge), w = w(alpha), b = 0, and the slacks
  // t = max(g, 0) + delta, xi = max(-g, 0) + delta for g = margin_excess, so that r_w = r_t = 0 (hinge),
  // with delta a thousandth of g's size.
  Iterate start() const {
    Iterate it;
    const Eigen::Index n = r_.n();
    it.alpha.resize(n);
    for (Eigen::Index k = 0; k < n; ++k) it.alpha[k] = std::isfinite(r_.upper[k]) ? 0.5 * r_.upper[k] : 1.0 / (2.0 * r_.curvature[k]);
    it.w = (r_.eta + r_.z_transpose_times(it.alpha)) / (2.0 * p_.lambda);
    const core::Vector g = margin_excess(it);
    const double floor = std::max(1e-3 * g.cwiseAbs().maxCoeff(), 1e-8 * std::max(1.0, r_.margin.cwiseAbs().maxCoeff()));
    it.t = g.cwiseMax(0.0).array() + floor;
    it.xi = ((-g).cwiseMax(0.0).array() + floor).matrix().cwiseProduct(has_upper_);
    return it;
  }

  double mu(const Iterate& it) const {
    return (it.alpha.dot(it.t) + upper_slack(it.alpha).dot(it.xi)) / complementarity_count_;
  }

  // Theta = t / alpha + xi / (C - alpha) + curvature: the diagonal left when t and xi are eliminated.
  core::Vector theta(const Iterate& it) const {
    const core::Vector slack = upper_slack(it.alpha);
    core::Vector th = it.t.cwiseQuotient(it.alpha) + r_.curvature;
    for (Eigen::Index k = 0; k < th.size(); ++k) {
      if (has_upper_[k] > 0) th[k] += it.xi[k] / slack[k];
    }
    return th;
  }

  // Factors the reduced Newton system for this Theta:
  //   features regime  M = diag(rho) + A~' Theta^{-1} A~ with A~ = [A, 1 for an unpenalized b], rho = 2 lambda
  //                    on w and 0 on b (the labels cancel: y_i^2 = 1): (d + 1) x (d + 1);
  //   examples regime  K = Theta + Z Z' / (2 lambda), n x n (w eliminated), and K^{-1} y for the equality.
  bool factor(const core::Vector& th) {
    theta_ = th;
    if (!r_.features_regime) {
      core::DenseMatrix k = gram_ / (2.0 * p_.lambda);
      k.diagonal() += th;
      if (!factor_.compute(std::move(k))) return false;
      if (r_.equality) solved_y_ = factor_.solve(r_.y);
      return true;
    }
    const Eigen::Index d = r_.d();
    const Eigen::Index size = d + (r_.equality ? 1 : 0);
    core::DenseMatrix a_tilde(r_.n(), size);
    a_tilde.leftCols(d) = r_.a_dense;
    if (r_.equality) a_tilde.col(d).setOnes();
    const core::DenseMatrix scaled = th.cwiseInverse().cwiseSqrt().asDiagonal() * a_tilde;
    core::DenseMatrix m = core::DenseMatrix::Zero(size, size);
    m.selfadjointView<Eigen::Lower>().rankUpdate(scaled.transpose());
    m.triangularView<Eigen::StrictlyUpper>() = m.transpose();
    m.diagonal().head(d).array() += 2.0 * p_.lambda;
    return factor_.compute(std::move(m));
  }

  // The Newton direction for the complementarity targets comp_t = target - alpha o t and
  // comp_xi = target - (C - alpha) o xi. With d_t = (comp_t - t o d_alpha) / alpha and
  // d_xi = (comp_xi + xi o d_alpha) / (C - alpha) eliminated, the margin rows read
  //   Theta d_alpha + Z d_w + y d_b = g,   g = -r_t + comp_t / alpha - comp_xi / (C - alpha),
  // with 2 lambda d_w - Z'd_alpha = -r_w and y'd_alpha = -e.
  Direction direction(const Iterate& it, const Residuals& res, const core::Vector& comp_t, const core::Vector& comp_xi) const {
    const core::Vector slack = upper_slack(it.alpha);
    core::Vector g = -res.t + comp_t.cwiseQuotient(it.alpha);
    for (Eigen::Index k = 0; k < g.size(); ++k) {
      if (has_upper_[k] > 0) g[k] -= comp_xi[k] / slack[k];
    }
    Direction dir;
    if (r_.features_regime) {
      // M [d_w; d_b] = A~'(Theta^{-1} o y o g) + [-r_w; e], then d_alpha = Theta^{-1} (g - y o (A d_w + d_b)).
      const core::Vector weighted = r_.y.cwiseProduct(g).cwiseQuotient(theta_);
      const Eigen::Index d = r_.d();
      core::Vector rhs(d + (r_.equality ? 1 : 0));
      rhs.head(d) = r_.a_dense.transpose() * weighted - res.w;
      if (r_.equality) rhs[d] = weighted.sum() + res.equality;
      const core::Vector solution = factor_.solve(rhs);
      dir.w = solution.head(d);
      dir.b = r_.equality ? solution[d] : 0.0;
      dir.alpha = (g - r_.z_times(dir.w) - dir.b * r_.y).cwiseQuotient(theta_);
    } else {
      // K d_alpha + y d_b = g + Z r_w / (2 lambda), y'd_alpha = -e; then d_w = (Z'd_alpha - r_w) / (2 lambda).
      const core::Vector p = factor_.solve(g + r_.z_times(res.w) / (2.0 * p_.lambda));
      dir.alpha = p;
      if (r_.equality) {
        dir.b = (r_.y.dot(p) + res.equality) / r_.y.dot(solved_y_);
        dir.alpha -= dir.b * solved_y_;
      }
      dir.w = (r_.z_transpose_times(dir.alpha) - res.w) / (2.0 * p_.lambda);
    }
    dir.t = (comp_t - it.t.cwiseProduct(dir.alpha)).cwiseQuotient(it.alpha);
    dir.xi = core::Vector::Zero(g.size());
    for (Eigen::Index k = 0; k < g.size(); ++k) {
      if (has_upper_[k] > 0) dir.xi[k] = (comp_xi[k] + it.xi[k] * dir.alpha[k]) / slack[k];
    }
    return dir;
  }

  // The largest step <= 1 keeping alpha, C - alpha, t and xi nonnegative.
  double step_to_boundary(const Iterate& it, const Direction& dir) const {
    const core::Vector slack = upper_slack(it.alpha);
    double longest = 1.0;
    const auto limit = [&longest](double value, double change) {
      if (change < 0) longest = std::min(longest, -value / change);
    };
    for (Eigen::Index k = 0; k < it.alpha.size(); ++k) {
      limit(it.alpha[k], dir.alpha[k]);
      limit(it.t[k], dir.t[k]);
      if (has_upper_[k] > 0) {
        limit(slack[k], -dir.alpha[k]);
        limit(it.xi[k], dir.xi[k]);
      }
    }
    return longest;
  }

  static void move(Iterate& it, const Direction& dir, double length) {
    it.w += length * dir.w;
    it.b += length * dir.b;
    it.alpha += length * dir.alpha;
    it.t += length * dir.t;
    it.xi += length * dir.xi;
  }

  // One predictor-corrector step (Mehrotra): the affine direction, the centring sigma = (mu_aff / mu)^3,
  // then the corrected direction with the second-order terms d_alpha_aff o d_t_aff and
  // d_(C - alpha)_aff o d_xi_aff.
  bool step(Iterate& it) {
    if (!factor(theta(it))) return false;
    const Residuals res = residuals(it);
    const core::Vector slack = upper_slack(it.alpha);
    const double current_mu = mu(it);

    const core::Vector comp_t = -it.alpha.cwiseProduct(it.t);
    const core::Vector comp_xi = -slack.cwiseProduct(it.xi);
    const Direction affine = direction(it, res, comp_t, comp_xi);
    Iterate trial = it;
    move(trial, affine, step_to_boundary(it, affine));
    const double sigma = std::pow(mu(trial) / current_mu, 3.0);

    const core::Vector target = core::Vector::Constant(it.alpha.size(), sigma * current_mu);
    const core::Vector corrected_t = comp_t + target - affine.alpha.cwiseProduct(affine.t);
    const core::Vector corrected_xi = (comp_xi + target + affine.alpha.cwiseProduct(affine.xi)).cwiseProduct(has_upper_);
    const Direction dir = direction(it, res, corrected_t, corrected_xi);
    move(it, dir, std::min(1.0, kToBoundary * step_to_boundary(it, dir)));
    return it.alpha.allFinite() && it.w.allFinite() && std::isfinite(it.b);
  }

  // The certified solution at an iterate: P at (w, b); D at alpha clipped into the box and moved onto
  // the equality.
  L2SvmSolution certify(const Iterate& it) const {
    core::Vector alpha = it.alpha.cwiseMax(0.0).cwiseMin(r_.upper);
    if (r_.equality) move_onto_equality(alpha, r_.y, r_.upper, r_.target);
    L2SvmSolution s;
    s.solver = "interior_point";
    s.w = core::Vector::Zero(static_cast<Eigen::Index>(data_.d()));
    for (std::size_t c = 0; c < r_.columns.size(); ++c) {
      const Eigen::Index j = r_.columns[c];
      s.w[j] = it.w[static_cast<Eigen::Index>(c)] * (p_.feature_scale.size() > 0 ? p_.feature_scale[j] : 1.0);
    }
    s.b = r_.equality ? it.b : r_.bias_column ? p_.bias_feature * it.w[r_.d() - 1] : 0.0;
    s.alpha = core::Vector::Zero(static_cast<Eigen::Index>(data_.n()));
    for (std::size_t k = 0; k < r_.examples.size(); ++k) s.alpha[r_.examples[k]] = alpha[static_cast<Eigen::Index>(k)];
    s.dual_objective = r_.margin.dot(alpha) - (r_.eta + r_.z_transpose_times(alpha)).squaredNorm() / (4.0 * p_.lambda) -
                       0.5 * r_.curvature.dot(alpha.cwiseAbs2());
    const PrimalValue primal = primal_value(p_, data_, s.w, s.b);
    s.primal_objective = primal.objective;
    if (!std::isfinite(s.primal_objective) || !std::isfinite(s.dual_objective)) {
      s.status = core::Status::numerical_error;
      s.message = "interior point: non-finite objective";
      return s;
    }
    const double gap = std::max(s.primal_objective - s.dual_objective, 0.0);
    s.relative_gap = gap / std::max(std::abs(s.primal_objective), kTinyObjective);
    const bool closed = s.relative_gap <= options_.relative_gap || gap <= kRoundingGap * primal.scale;
    s.status = closed ? core::Status::optimal : core::Status::solved_inaccurate;
    return s;
  }

  const Reduced& r_;
  const L2SvmProblem& p_;
  const core::Dataset& data_;
  InteriorPointOptions options_;
  core::Vector has_upper_;  // 1 where alpha_i has an upper bound, else 0
  double complementarity_count_;
  core::DenseMatrix gram_;  // examples regime: Z Z'
  core::Vector theta_;
  EquilibratedCholesky factor_;
  core::Vector solved_y_;   // examples regime: K^{-1} y
};

}  // namespace

bool InteriorPointSvm::affordable(const L2SvmProblem& problem) const {
  const auto [n, d] = reduced_shape(problem, data_);
  if (std::min(n, d) > kInteriorPointMaxSystem || !core::fits_in_memory_budget(estimated_bytes(problem))) return false;
  return d >= n || n * d <= kInteriorPointMaxEntries;
}

double InteriorPointSvm::estimated_work(const L2SvmProblem& problem) const {
  const auto [n, d] = reduced_shape(problem, data_);
  if (d < n) return kTypicalIterations * (n * d * d + d * d * d / 3.0);
  const double row_nonzeros = data_.is_sparse() ? static_cast<double>(data_.sparse().nonZeros()) / std::max(1.0, n) : d;
  return n * n * row_nonzeros + kTypicalIterations * n * n * n / 3.0;
}

double InteriorPointSvm::estimated_bytes(const L2SvmProblem& problem) const {
  const auto [n, d] = reduced_shape(problem, data_);
  // Features regime: the dense A, its scaled copies and the d x d normal matrix with its factor; examples
  // regime: the n x n Gram, K, its shifted copy and the factor.
  const double dense_copy = data_.is_sparse() ? 0.0 : 8.0 * n * d;  // A, dense, for dense data
  return d < n ? 8.0 * (3.0 * n * d + 3.0 * d * d) : 8.0 * 4.0 * n * n + dense_copy;
}

L2SvmSolution InteriorPointSvm::solve(const L2SvmProblem& problem, const InteriorPointOptions& options) const {
  check_problem(problem, data_);
  const auto [n, d] = reduced_shape(problem, data_);
  core::require_memory(estimated_bytes(problem),
                       fmt::format("data set {}: the interior point's dense {} x {} system", data_.name(),
                                   std::min(n, d), std::min(n, d)),
                       "qp_solver: dual_cd (or by_shape) needs no dense system");
  const Reduced reduced = reduce(problem, data_);
  L2SvmSolution failed;
  failed.solver = "interior_point";
  if (reduced.equality && !equality_reachable(reduced.y, reduced.upper, reduced.target)) {
    failed.status = core::Status::infeasible;
    failed.message = fmt::format("interior point: sum y_i alpha_i = {} is out of reach with 0 <= alpha_i <= C_i", reduced.target);
    return failed;
  }
  // The equality needs examples of both classes with room on both sides of the target.
  const bool interior = !reduced.equality || ((reduced.y.array() > 0).any() && (reduced.y.array() < 0).any());
  if (reduced.n() == 0 || !interior) {
    failed.message = "interior point: the dual box has no interior (no weighted examples, or one class only)";
    return failed;
  }
  return InteriorPoint(reduced, problem, data_, options).run();
}

}  // namespace sparsesvm::optim
