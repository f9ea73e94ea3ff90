// ADMM for the hinge loss with a separable penalty that has a proximal operator (shared/ADMM.md; [ADMM]
// section 3). Splitting (3): min sum_i c_i xi_i + rho P(z)  s.t.  w = z,  A w + b y + xi - s - 1 = 0,
// xi, s >= 0, with A = diag(y) X. One sweep of the scaled augmented Lagrangian (5), all variables from 0:
//   q  = (rho1/rho2)(z - u) + A'(1 + s - xi - v - b y);   w = (A'A + (rho1/rho2) I)^{-1} q
//   b  = y'(1 + s - xi - v - A w) / n
//   z  = prox of (rho/rho1) P at w + u, coordinate by coordinate
//   (xi, s) = argmin over xi, s >= 0 of c'xi + (rho2/2)||A w + b y + xi - s - 1 + v||^2, in closed form:
//        with r = 1 - A w - b y - v:  xi = (r - c/rho2)_+,  s = (xi - r)_+   (the paper's mean hinge: c_i = 1/n)
//   u += w - z;   v += A w + b y + xi - s - 1
// Beyond the paper (docs/methods.md, "ADMM"; each can be turned off, which gives the published algorithm):
//   equilibrate  the iterations run on the features centered (dense data) and divided by their spread;
//                the answer is mapped back (Equilibrated below), so the data's units do not matter.
//   relaxation   over-relaxation (Boyd et al. 2011, 3.4.3): the z-, (xi, s)- and dual steps see
//                alpha (w, Aw + by) + (1 - alpha)(z, 1 - xi + s) in place of (w, Aw + by).
//   adapt_rho    residual balancing of rho1 and rho2 (Boyd et al. 2011, 3.4.1), see Sweeps::balance.
//   rho2_per_n   rho2 / n in place of rho2: the mean hinge weighs each example 1/n.
//   polishing    every kPolishEvery sweeps, the vertex the iterate points to (hinge_certificates.hpp),
//                taken when its certificate holds.
//   l1_start     nonconvex penalties start from the convex problem's solution (continuation, as ncvreg
//                and picasso start from the lasso): F's convex majorant at zero, the weighted 1-norm SVM
//                that DCA solves first, with (w, z), (xi, s) and the duals set from it (Sweeps::start_at).
//   exact_check  a nonconvex fit not certified by then (its residuals met, or exact_check sweeps done)
//                solves its convex majorant exactly (one weighted-l1 LP, DCA's step at the point):
//                `converged` when that gap holds; otherwise the LP's solution, which lowers F, is taken and
//                DCA finishes (dc_iterations.hpp). ADMM's own bound (below) is valid but can be loose, and
//                on nonconvex penalties the residuals can take 10^4 sweeps or more to meet theirs.
// The Gram matrix of the w-system is formed once per training set and kept in the workspace with the
// factor at the starting rho1/rho2 (optim/ridge_system.hpp); a new rho1/rho2 costs a new Cholesky factor.
// Stopping, after min_iterations: the residuals of Boyd et al. 2011, 3.3.1 (on the equilibrated problem)
//   primal  ||(w - z, A w + b y + xi - s - 1)|| <= sqrt(d + n) abs + rel max(||(w, A w + b y)||, ||(z, xi - s - 1)||)
//   dual    ||(rho1 (z - z_prev), rho2 A'(dxi - ds), rho2 y'(dxi - ds))|| <= sqrt(d + 1) abs + rel max(rho1 ||u||, rho2 ||A'v||, rho2 |y'v|)
// and a certificate of the original objective at the returned (w, b): the relative gap of the convex
// majorant, for l1 the duality gap, for the nonconvex penalties what one DCA step could gain (below).
// The classifier is (z, b): z is the sparse copy, its nonzeros the selected features.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>
#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/memory_budget.hpp"
#include "core/progress.hpp"
#include "models/algorithms/algorithm.hpp"
#include "models/algorithms/dc_iterations.hpp"
#include "models/algorithms/hinge_certificates.hpp"
#include "models/convex_step.hpp"
#include "models/workspace_state.hpp"
#include "optim/ridge_system.hpp"

namespace sparsesvm::models {
namespace {

double square(double x) { return x * x; }

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Iterations at which traces are recorded: 1..10, then 10 per decade (20, 30, ..., 100, 200, ...).
bool recorded(int k) {
  if (k <= 10) return true;
  int stride = 1;
  while (stride * 10 <= k) stride *= 10;
  return k % stride == 0;
}

struct AdmmOptions {
  double rho1, rho2, relaxation, abs_tolerance, rel_tolerance, gap_tolerance, stationarity_tolerance;
  int min_iterations, max_iterations;
  int exact_check;  // 0: none
  bool adapt_rho, equilibrate, l1_start;
  ProxRule prox_rule;
  optim::RidgeRegime regime;
};

AdmmOptions read_options(const Hyperparameters& options, std::size_t n) {
  const double scale = options.at("rho2_per_n") == 1.0 ? 1.0 / static_cast<double>(n) : 1.0;
  return {.rho1 = options.at("rho1"),
          .rho2 = scale * options.at("rho2"),
          .relaxation = options.at("relaxation"),
          .abs_tolerance = options.at("abs_tolerance"),
          .rel_tolerance = options.at("rel_tolerance"),
          .gap_tolerance = options.at("gap_tolerance"),
          .stationarity_tolerance = options.at("stationarity_tolerance"),
          .min_iterations = static_cast<int>(options.at("min_iterations")),
          .max_iterations = static_cast<int>(options.at("max_iterations")),
          .exact_check = static_cast<int>(options.at("exact_check")),
          .adapt_rho = options.at("adapt_rho") == 1.0,
          .equilibrate = options.at("equilibrate") == 1.0,
          .l1_start = options.at("l1_start") == 1.0,
          .prox_rule = options.at("prox_public_code") == 1.0 ? ProxRule::public_code : ProxRule::exact,
          .regime = static_cast<optim::RidgeRegime>(static_cast<int>(options.at("factorization")))};
}

// The spread of a column: its standard deviation about `center`, computed on values divided by their
// largest deviation so that squares of values near 1e160 do not overflow. 0 for a constant column.
template <typename Column>
double spread(const Column& column, double center, Eigen::Index n) {
  const double largest = (column.array() - center).abs().maxCoeff();
  if (!(largest > 0.0) || !std::isfinite(largest)) return 0.0;
  return largest * std::sqrt(((column.array() - center) / largest).square().sum() / static_cast<double>(n));
}

// The problem the sweeps run on. With equilibration each feature j is centered by mean_j (dense data;
// sparse data keeps its zeros, mean 0) and multiplied by scale_j = 1 / its spread (1 for a constant
// column): X~ = (X - 1 mean') diag(scale). With w = diag(scale) w~ and b = b~ - mean'w the margins, and so
// the hinge terms, are unchanged; the penalty p(w_j) = p(scale_j w~_j) is handled in the prox.
// Without equilibration, X~ = X (no copy). Kept in the workspace with the Gram of X~.
struct Equilibrated : WorkspaceState {
  Equilibrated(const core::Dataset& original, bool on, optim::RidgeRegime regime)
      : scale(core::Vector::Ones(static_cast<Eigen::Index>(original.d()))),
        mean(core::Vector::Zero(static_cast<Eigen::Index>(original.d()))) {
    if (on) copy.emplace(equilibrated_copy(original));
    gram = std::make_unique<optim::RidgeGram>(copy ? *copy : original, regime);
  }
  const core::Dataset& data() const { return gram->data(); }

  std::optional<core::Dataset> copy;
  core::Vector scale, mean;
  std::unique_ptr<const optim::RidgeGram> gram;

 private:
  core::Dataset equilibrated_copy(const core::Dataset& original) {
    const auto n = static_cast<Eigen::Index>(original.n());
    // The copy is as large as the data. Checked on its own, like the Gram and factor that follow
    // (memory_budget.hpp).
    core::require_memory(core::feature_matrix_bytes(original), fmt::format("ADMM's equilibrated copy of the {} x {} data", n, original.d()),
                         "equilibrate: 0 runs on the data as given, without a copy");
    if (original.is_sparse()) {
      const core::SparseMatrix& x = original.sparse();
      const core::Vector spreads = root_mean_squares(x, n);
      for (Eigen::Index j = 0; j < scale.size(); ++j) scale[j] = unit_scale(spreads[j]);
      core::SparseMatrix scaled = x;  // an exact-size copy (a product with a diagonal grows a temporary), then x_ij scale_j
      for (Eigen::Index outer = 0; outer < scaled.outerSize(); ++outer) {
        for (core::SparseMatrix::InnerIterator it(scaled, outer); it; ++it) it.valueRef() *= scale[it.col()];
      }
      return {original.name(), std::move(scaled), original.labels(), original.feature_names(), original.provenance()};
    }
    const core::DenseMatrix& x = original.dense();
    for (Eigen::Index j = 0; j < scale.size(); ++j) {
      mean[j] = x.col(j).mean();
      scale[j] = unit_scale(spread(x.col(j), mean[j], n));
    }
    core::DenseMatrix scaled = (x.rowwise() - mean.transpose()) * scale.asDiagonal();
    return {original.name(), std::move(scaled), original.labels(), original.feature_names(), original.provenance()};
  }

  // 1 / spread, or 1 for a constant column (and where the inverse would not be finite).
  static double unit_scale(double spread_of_column) {
    return spread_of_column > 0.0 && std::isfinite(1.0 / spread_of_column) ? 1.0 / spread_of_column : 1.0;
  }

  // Per column of sparse X, sqrt(sum_i x_ij^2 / n) (the implicit zeros count), with each column divided
  // by its largest magnitude first so that no square overflows.
  static core::Vector root_mean_squares(const core::SparseMatrix& x, Eigen::Index n) {
    core::Vector largest = core::Vector::Zero(x.cols());
    for (Eigen::Index i = 0; i < x.outerSize(); ++i) {
      for (core::SparseMatrix::InnerIterator it(x, i); it; ++it) {
        largest[it.col()] = std::max(largest[it.col()], std::abs(it.value()));
      }
    }
    core::Vector sum = core::Vector::Zero(x.cols());
    for (Eigen::Index i = 0; i < x.outerSize(); ++i) {
      for (core::SparseMatrix::InnerIterator it(x, i); it; ++it) sum[it.col()] += square(it.value() / largest[it.col()]);
    }
    core::Vector result(x.cols());
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      result[j] = largest[j] > 0.0 && std::isfinite(largest[j]) ? largest[j] * std::sqrt(sum[j] / static_cast<double>(n)) : 0.0;
    }
    return result;
  }
};

// The workspace's factor at the starting rho1/rho2, shared by every fit that starts there.
struct StartingFactor : WorkspaceState {
  StartingFactor(const optim::RidgeGram& gram, double rho) : system(gram, rho) {}
  optim::RidgeSystem system;
};

// The residuals of one constraint (w = z, or the margin constraint) and the sizes they are relative to.
struct ConstraintResiduals {
  double primal = 0.0, primal_scale = 0.0, dual = 0.0, dual_scale = 0.0;
  // (primal / primal_scale) / (dual / dual_scale): above 1 rho should grow, below 1 shrink.
  double imbalance() const {
    const double relative_primal = primal / std::max(primal_scale, 1e-300);
    const double relative_dual = dual / std::max(dual_scale, 1e-300);
    return relative_primal / std::max(relative_dual, 1e-300);
  }
};

// Residual balancing: the factor by which a rho moves, 1 while its imbalance is within
// [1 / kBalanceBand, kBalanceBand], else sqrt(imbalance) capped at kMaxRhoStep either way (Wohlberg 2017).
constexpr double kBalanceBand = 5.0;
constexpr double kMaxRhoStep = 10.0;
// rho stays within this factor of its start: unbounded, balancing drove rho2 down 600-fold on an 80 x 10
// set and ADMM stalled 1e-3 above the LP optimum for 10^4 sweeps; bounded by 10 the median over
// the UCI cases fell from 1.5e3 to 4e2 sweeps (docs/methods.md, "ADMM").
constexpr double kRhoRange = 10.0;
double rho_step(double imbalance) {
  if (!std::isfinite(imbalance) || (imbalance <= kBalanceBand && imbalance >= 1.0 / kBalanceBand)) return 1.0;
  return std::clamp(std::sqrt(imbalance), 1.0 / kMaxRhoStep, kMaxRhoStep);
}

// Margins within this of 1 are on the hinge's kink at a warm start (an LP vertex puts them there exactly,
// up to the simplex's rounding).
constexpr double kStartBand = 1e-7;

// The ADMM iterates on the equilibrated problem and one sweep over them.
class Sweeps {
 public:
  // `rho1`, `rho2`: the starting values (the options', or where a path's previous fit ended), with
  // `starting_factor` the w-system's factor at their ratio.
  Sweeps(const Objective& objective, const core::Dataset& original, const Equilibrated& problem,
         const optim::RidgeSystem& starting_factor, const AdmmOptions& o, double rho1, double rho2)
      : objective_(objective), original_(original), problem_(problem), data_(problem.data()),
        starting_factor_(starting_factor), o_(o), rho1_(rho1), rho2_(rho2), y_(data_.labels()),
        w_(core::Vector::Zero(static_cast<Eigen::Index>(data_.d()))), z_(w_), u_(w_),
        xi_(core::Vector::Zero(static_cast<Eigen::Index>(data_.n()))), s_(xi_), v_(xi_) {
    flops_per_sweep_ = 4.0 * data_.stored_values() + problem.gram->solve_flops();
  }

  // Warm start at `start` (on the original features): w = z = w~, b = b~, the slacks that make the margin
  // constraint hold, and the duals of a fixed point: the hinge multipliers alpha that best satisfy the
  // KKT conditions there (hinge_certificates.hpp), v = -alpha / rho2 and, from the w-step's
  // stationarity rho1 u + rho2 A'v = 0, u = A'alpha / rho1.
  void start_at(const core::LinearModel& start) {
    w_ = start.w().cwiseQuotient(problem_.scale);
    z_ = w_;
    b_ = start.b() + problem_.mean.dot(start.w());
    const core::Vector fit = y_.cwiseProduct(data_.times(w_)) + b_ * y_;
    xi_ = (1.0 - fit.array()).max(0.0).matrix();
    s_ = (fit.array() - 1.0).max(0.0).matrix();
    const core::Vector guess = 0.5 * objective_.example_weights;
    const core::Vector alpha =
        hinge_multipliers(objective_, data_, iterate(), problem_.scale, guess, kStartBand);
    v_ = -alpha / rho2_;
    u_ = a_transpose_times(alpha) / rho1_;
  }

  // One sweep; fills the residuals and whether they meet the tolerances.
  void sweep() {
    const double n = static_cast<double>(data_.n());
    const double relax = o_.relaxation;
    const core::Vector q = (rho1_ / rho2_) * (z_ - u_) + a_transpose_times(1.0 + (s_ - xi_ - v_ - b_ * y_).array());
    const long products_before = factor().products();
    w_ = factor().solve(q, w_);
    cg_products_ += factor().products() - products_before;
    const core::Vector aw = y_.cwiseProduct(data_.times(w_));
    b_ = y_.dot((1.0 + (s_ - xi_ - v_ - aw).array()).matrix()) / n;
    const core::Vector fit = aw + b_ * y_;  // A w + b y
    const core::Vector w_relaxed = relax * w_ + (1.0 - relax) * z_;
    const core::Vector fit_relaxed = relax * fit + (1.0 - relax) * (1.0 - (xi_ - s_).array()).matrix();
    const core::Vector z_previous = z_;
    for (Eigen::Index j = 0; j < z_.size(); ++j) z_[j] = prox(j, w_relaxed[j] + u_[j]);
    const core::Vector slack_previous = xi_ - s_;
    const core::Vector target = (1.0 - (fit_relaxed + v_).array()).matrix();  // r = 1 - (A w + b y) - v
    xi_ = (target.array() - objective_.example_weights.array() / rho2_).max(0.0);
    s_ = (xi_ - target).cwiseMax(0.0);
    u_ += w_relaxed - z_;
    v_ += ((fit_relaxed + xi_ - s_).array() - 1.0).matrix();
    const core::Vector slack_change = xi_ - s_ - slack_previous;
    measure(fit, z_previous, slack_change);
    sweeps_ += 1;
  }

  // Residual balancing (Boyd et al. 2011, 3.4.1), each rho from its own constraint's residuals relative
  // to their sizes; the scaled duals u, v are divided by the same factor so that the multipliers
  // rho1 u, rho2 v stay. A change of rho1/rho2 needs a new factor: it is taken while all factors so far
  // cost fewer flops than the sweeps so far; otherwise rho1 and rho2 move together (same ratio, same
  // factor) when they agree on the direction. Each rho stays within kRhoRange of its start. False when a
  // new factor failed.
  bool balance() {
    double step1 = rho_step(w_residuals_.imbalance());
    double step2 = rho_step(margin_residuals_.imbalance());
    step1 = std::clamp(step1, o_.rho1 / kRhoRange / rho1_, o_.rho1 * kRhoRange / rho1_);
    step2 = std::clamp(step2, o_.rho2 / kRhoRange / rho2_, o_.rho2 * kRhoRange / rho2_);
    if (step1 == 1.0 && step2 == 1.0) return true;
    const double new_factor_flops = problem_.gram->factor_flops();
    if (step1 != step2 && factor_flops_ + new_factor_flops > flops_per_sweep_ * sweeps_) {
      if ((step1 - 1.0) * (step2 - 1.0) <= 0.0) return true;
      step1 = step2 = std::sqrt(step1 * step2);
    }
    rho1_ *= step1;
    u_ /= step1;
    rho2_ *= step2;
    v_ /= step2;
    if (step1 == step2) return true;
    own_factor_ = std::make_unique<optim::RidgeSystem>(*problem_.gram, rho1_ / rho2_);
    factor_flops_ += new_factor_flops;
    factorizations_ += 1;
    return own_factor_->factored();
  }

  double primal_residual() const { return std::hypot(w_residuals_.primal, margin_residuals_.primal); }
  double dual_residual() const { return std::hypot(w_residuals_.dual, margin_residuals_.dual); }
  // The residual tests of Boyd et al. 2011, 3.3.1, on the equilibrated problem.
  bool residuals_converged() const {
    const double d = static_cast<double>(data_.d()), n = static_cast<double>(data_.n());
    const double primal_scale = std::hypot(w_residuals_.primal_scale, margin_residuals_.primal_scale);
    const double dual_scale = std::hypot(w_residuals_.dual_scale, margin_residuals_.dual_scale);
    return finite() && primal_residual() <= std::sqrt(d + n) * o_.abs_tolerance + o_.rel_tolerance * primal_scale &&
           dual_residual() <= std::sqrt(d + 1) * o_.abs_tolerance + o_.rel_tolerance * dual_scale;
  }
  // False when an iterate, a residual or a residual's scale overflowed.
  bool finite() const {
    return std::isfinite(primal_residual() + dual_residual() + w_residuals_.primal_scale + margin_residuals_.primal_scale +
                         w_residuals_.dual_scale + margin_residuals_.dual_scale + b_) &&
           z_.allFinite();
  }
  double objective_value() const {
    const core::LinearModel answer = model();
    return objective_.value(original_, answer.w(), answer.b());
  }
  // (z, b) on the original features.
  core::LinearModel model() const { return to_original(iterate()); }
  // (z, b) on the equilibrated features, and polished there (hinge_certificates.hpp), where distances mean
  // the same in every feature.
  core::LinearModel iterate() const { return {z_, b_}; }
  core::LinearModel polished_iterate(double band) const { return polished(data_, iterate(), band); }
  const core::Dataset& equilibrated_data() const { return data_; }
  // A model on the equilibrated features mapped back: w = scale .* w~, b = b~ - mean'w.
  core::LinearModel to_original(const core::LinearModel& equilibrated) const {
    core::Vector w = problem_.scale.cwiseProduct(equilibrated.w());
    const double b = equilibrated.b() - problem_.mean.dot(w);
    return {std::move(w), b};
  }
  // The multipliers of the margin constraint, alpha = -rho2 v, clipped to the hinge's box [0, c_i].
  core::Vector multipliers() const { return (-rho2_ * v_).cwiseMax(0.0).cwiseMin(objective_.example_weights); }
  // The equilibration's per-feature multipliers (ones without it).
  const core::Vector& feature_scale() const { return problem_.scale; }
  double rho1() const { return rho1_; }
  double rho2() const { return rho2_; }
  int factorizations() const { return factorizations_; }
  long cg_products() const { return cg_products_; }

 private:
  const optim::RidgeSystem& factor() const { return own_factor_ ? *own_factor_ : starting_factor_; }
  // A' r = X~' (y .* r)
  core::Vector a_transpose_times(const core::Vector& r) const { return data_.transpose_times(y_.cwiseProduct(r)); }
  // z_j = argmin (rho1/2)(x - point)^2 + rho p(scale_j x): with t = scale_j x this is the prox of step
  // rho scale_j^2 / rho1 at scale_j point, divided by scale_j.
  double prox(Eigen::Index j, double point) const {
    const double scale = problem_.scale[j];
    const double step = objective_.penalty_weight * scale * scale / rho1_;
    return objective_.penalty->prox(scale * point, step, o_.prox_rule) / scale;
  }

  void measure(const core::Vector& fit, const core::Vector& z_previous, const core::Vector& slack_change) {
    w_residuals_.primal = (w_ - z_).norm();
    w_residuals_.primal_scale = std::max(w_.norm(), z_.norm());
    w_residuals_.dual = rho1_ * (z_ - z_previous).norm();
    w_residuals_.dual_scale = rho1_ * u_.norm();
    margin_residuals_.primal = ((fit + xi_ - s_).array() - 1.0).matrix().norm();
    margin_residuals_.primal_scale = std::max(fit.norm(), ((xi_ - s_).array() - 1.0).matrix().norm());
    // Dual residual of the (w, b) block's margin part: its w-row rho2 A'(dxi - ds) and its b-row
    // rho2 y'(dxi - ds), which alone sees a bias that still moves when A'(dxi - ds) = 0.
    margin_residuals_.dual = rho2_ * std::hypot(a_transpose_times(slack_change).norm(), y_.dot(slack_change));
    margin_residuals_.dual_scale = rho2_ * std::hypot(a_transpose_times(v_).norm(), y_.dot(v_));
  }

  const Objective& objective_;
  const core::Dataset& original_;
  const Equilibrated& problem_;
  const core::Dataset& data_;  // the equilibrated features
  const optim::RidgeSystem& starting_factor_;
  std::unique_ptr<optim::RidgeSystem> own_factor_;  // after rho1/rho2 changed
  AdmmOptions o_;
  double rho1_, rho2_;
  const core::Vector& y_;
  core::Vector w_, z_, u_, xi_, s_, v_;
  double b_ = 0.0;
  ConstraintResiduals w_residuals_, margin_residuals_;
  double flops_per_sweep_ = 0.0, factor_flops_ = 0.0;
  int sweeps_ = 0, factorizations_ = 0;
  long cg_products_ = 0;  // products with X'X taken by conjugate gradients (the iterative regime)
};

// The traces at sweep k, reached `seconds` after the fit began.
void record_trace(const Sweeps& sweeps, int k, double seconds, FitReport& report) {
  report.traces["trace_iterations"].push_back(k);
  report.traces["primal_residual_trace"].push_back(k == 0 ? std::nan("") : sweeps.primal_residual());
  report.traces["dual_residual_trace"].push_back(k == 0 ? std::nan("") : sweeps.dual_residual());
  report.trace_objective(sweeps.objective_value(), seconds);
}

// A candidate answer, its objective and its certificate (hinge_certificates.hpp), computed on the
// equilibrated problem (centered: see there why) from the point there: the relative gap of the convex
// majorant, for the l1 penalty the duality gap (within [-kRoundingGap, gap_tolerance] to hold), for the
// others the bound on what one DCA step could gain (within [-kRoundingGap, stationarity_tolerance]). A
// gap below -kRoundingGap contradicts weak duality: rounding, never a certificate. Of the multipliers
// fitted at the point (from ADMM's alpha = -rho2 v) and ADMM's own, the better bound counts. `model` is
// the answer on the original features.
constexpr double kRoundingGap = 1e-9;
struct Candidate {
  core::LinearModel model;
  double objective, certificate;
  bool certified;
};
Candidate certify(const core::LinearModel& equilibrated, const Sweeps& sweeps, const Objective& objective,
                  const core::Dataset& original, const AdmmOptions& o, bool convex) {
  core::LinearModel model = sweeps.to_original(equilibrated);
  const double value = objective.value(original, model.w(), model.b());
  const core::Dataset& data = sweeps.equilibrated_data();
  const core::Vector& scale = sweeps.feature_scale();
  const core::Vector fitted =
      hinge_multipliers(objective, data, equilibrated, scale, sweeps.multipliers(), o.stationarity_tolerance);
  const double gap = std::fmin(relative_majorant_gap(objective, data, equilibrated, scale, value, fitted),
                               relative_majorant_gap(objective, data, equilibrated, scale, value, sweeps.multipliers()));
  const double tolerance = convex ? o.gap_tolerance : o.stationarity_tolerance;
  return {std::move(model), value, gap, gap >= -kRoundingGap && gap <= tolerance};
}

// Polishing is tried every kPolishEvery sweeps with margins read within each of kPolishBands of 1; the
// first polished point whose certificate holds (and whose F is not above the iterate's) ends the run.
constexpr int kPolishEvery = 10;
constexpr double kPolishBands[] = {1e-2, 1e-3};
std::optional<Candidate> polish(const Sweeps& sweeps, const Objective& objective, const core::Dataset& original,
                                const AdmmOptions& o, bool convex) {
  const double iterate_value = sweeps.objective_value();
  for (const double band : kPolishBands) {
    Candidate candidate = certify(sweeps.polished_iterate(band), sweeps, objective, original, o, convex);
    if (candidate.certified && candidate.objective <= iterate_value + 1e-12 * std::abs(iterate_value)) return candidate;
  }
  return std::nullopt;
}

// Whether, and why, a nonconvex fit stopped uncertified for the exact check (finish_exactly).
enum class ExactCheck { none, residuals_met, sweeps_done };

// Residual balancing runs at sweeps 8, 16, 32, ..., kBalanceUntil: a few changes of rho early, then
// rho stays (ADMM converges for a fixed rho, and each change of rho1/rho2 costs a factor).
constexpr int kBalanceUntil = 1024;
bool balance_now(int k) { return k >= 8 && k <= kBalanceUntil && (k & (k - 1)) == 0; }

void fail(FitReport& report, const std::string& reason, const std::string& message) {
  report.status = core::Status::numerical_error;
  report.stop_reason = reason;
  report.message = message;
}

// Sweeps until (after min_iterations) the residuals meet their tolerances and the iterate's certificate
// holds, or a polished point's certificate holds; or the iterates overflow, or max_iterations. With
// exact_check a nonconvex fit also stops, status feasible, for finish_exactly where the residuals meet
// their tolerances but the bound does not hold, and after exact_check sweeps. Balances rho (balance_now) when asked and the objective
// is convex. Fills the report's status, stop reason, model, objective, traces and statistics; returns why
// the exact check is due, if it is.
ExactCheck run_sweeps(Sweeps& sweeps, const Objective& objective, const core::Dataset& original, const AdmmOptions& o,
                      std::chrono::steady_clock::time_point clock_start, FitReport& report) {
  const auto trace = [&](int k) { record_trace(sweeps, k, seconds_since(clock_start), report); };
  // Every penalty here is l1 or l1 minus a convex h (unsupported() refuses others): convex means l1.
  const bool convex = objective.is_convex();
  const std::string certificate_name = convex ? "duality gap" : "majorant gap";
  trace(0);
  report.status = core::Status::feasible;
  report.stop_reason = "iteration limit";
  ExactCheck check = ExactCheck::none;
  std::optional<Candidate> answer;
  // Residual balancing for the convex l1 objective only: for the nonconvex penalties it lowers rho1
  // until their prox steps overshoot (measured: rho1 1e-40 and F = 29.5 for LSP on wdbc; docs/methods.md).
  const bool adapt = o.adapt_rho && convex;
  int k = 0;
  while (k < o.max_iterations && !answer) {
    sweeps.sweep();
    ++k;
    if (!sweeps.finite()) {
      fail(report, "iterates not finite",
           fmt::format("ADMM iterates or residuals overflowed at sweep {} (rho1 = {:g}, rho2 = {:g} too far from the "
                       "data's scale)", k, sweeps.rho1(), sweeps.rho2()));
      break;
    }
    if (k >= o.min_iterations && sweeps.residuals_converged()) {
      Candidate iterate = certify(sweeps.iterate(), sweeps, objective, original, o, convex);
      if (iterate.certified) {
        answer = std::move(iterate);
        report.stop_reason = fmt::format("residuals and {} below tolerance", certificate_name);
      } else if (!convex && o.exact_check > 0) {
        check = ExactCheck::residuals_met;
        report.stop_reason = "residuals below tolerance";
        trace(k);
        break;
      }
    }
    if (!answer && k >= o.min_iterations && k % kPolishEvery == 0) {
      answer = polish(sweeps, objective, original, o, convex);
      if (answer) report.stop_reason = fmt::format("polished: {} below tolerance", certificate_name);
    }
    if (!answer && !convex && o.exact_check > 0 && k >= o.exact_check && k >= o.min_iterations) {
      check = ExactCheck::sweeps_done;
      report.stop_reason = "exact check due";
      trace(k);
      break;
    }
    if (recorded(k) || answer || k == o.max_iterations) trace(k);
    if (!answer && adapt && balance_now(k) && !sweeps.balance()) {
      fail(report, "factorization failed",
           fmt::format("the Cholesky factor of the w-system failed at rho1/rho2 = {:g} (sweep {})",
                       sweeps.rho1() / sweeps.rho2(), k));
      break;
    }
  }
  if (answer) {
    report.status = convex ? core::Status::optimal : core::Status::converged;
  } else if (report.status == core::Status::feasible) {
    answer = certify(sweeps.iterate(), sweeps, objective, original, o, convex);
    report.message = check == ExactCheck::residuals_met
                         ? fmt::format("the residuals met their tolerances after {} sweeps, the {} bound ({:.3g}) not",
                                       k, certificate_name, answer->certificate)
                     : check == ExactCheck::sweeps_done
                         ? fmt::format("after {} sweeps the {} bound was {:.3g}", k, certificate_name, answer->certificate)
                         : fmt::format("stopped after {} sweeps before the residuals and the {} ({:.3g}{}) met their "
                                       "tolerances", k, certificate_name, answer->certificate,
                                       convex ? ", a bound: the true distance to the optimum can be far smaller" : "");
  }
  report.iterations = k;
  report.inner_iterations = k;
  report.inner_solves = k;
  if (report.has_solution()) {
    report.model = answer->model;
    report.objective = answer->objective;
    report.objective_trace.back() = answer->objective;  // the polished point's F where it was taken
    core::progress("objective {:.10g}: the polished point's, in place of the last trace entry", answer->objective);
  }
  report.statistics["primal_residual"] = sweeps.primal_residual();
  report.statistics["dual_residual"] = sweeps.dual_residual();
  report.statistics["relative_gap"] = convex && answer ? answer->certificate : std::nan("");
  report.statistics["stationarity"] = !convex && answer ? answer->certificate : std::nan("");
  report.certificate = answer ? answer->certificate : std::nan("");
  report.certificate_kind = convex ? kDualityGap : kMajorantGap;
  report.statistics["final_rho1"] = sweeps.rho1();
  report.statistics["final_rho2"] = sweeps.rho2();
  report.statistics["factorizations"] = sweeps.factorizations();
  report.statistics["cg_products"] = static_cast<double>(sweeps.cg_products());
  return check;
}

// At an uncertified stop of a nonconvex fit (report: status feasible, a model): the convex majorant at
// the model solved exactly, one weighted-l1 LP (DCA's step there, convex_step.hpp). Its gap within
// stationarity_tolerance: the model is converged. Otherwise the LP's solution lowers F (F <= G < G(x) =
// F(x)) and DCA goes on from it (dc_iterations.hpp); the report becomes DCA's, with ADMM's sweeps and
// statistics kept, the LPs counted in dca_steps, and the traces going on with one entry per DCA iterate
// (numbered after the last sweep; no residuals there).
void finish_exactly(const Objective& objective, StepSolver& steps, const AdmmOptions& o, ExactCheck why,
                    const std::function<double()>& elapsed, FitReport& report) {
  const core::Dataset& data = steps.data();
  const core::LinearModel point = report.model;
  const ConvexStep step = linearized_step(objective, data, point.w(), point.b());
  const StepResult next = steps.solve(step);
  record_step_statistics(report, next);  // inner_iterations count ADMM's sweeps
  const double gap = step_majorant_gap(step, next, data, point.w(), point.b(), report.objective);
  if (std::isnan(gap)) {
    report.stop_reason = fmt::format("the exact check after {} sweeps could not certify", report.iterations);
    // (record_step_statistics has added the LP's own message when it was inexact)
    report.message += fmt::format("; the exact majorant check's LP ended '{}'", core::to_string(next.status));
    return;
  }
  if (gap <= o.stationarity_tolerance) {
    report.status = core::Status::converged;
    report.stop_reason = why == ExactCheck::residuals_met
                             ? "residuals and the exact majorant gap (one LP) below tolerance"
                             : "the exact majorant gap (one LP) below tolerance after exact_check sweeps";
    report.message.clear();
    report.certificate = gap;
    report.statistics["stationarity"] = gap;
    report.statistics["dca_steps"] = 1.0;  // the check's LP
    return;
  }
  FitReport admm_part = report;
  admm_part.message.clear();
  admm_part.seconds = elapsed();  // the sweeps and the check's LP: DCA's trace times go on from here
  const Start start{core::LinearModel(next.w, next.b), &admm_part};
  // DCA's iteration options at their defaults, with ADMM's stationarity tolerance.
  const Hyperparameters dca_options =
      resolve_parameters(dc_iteration_options(), {{"stationarity_tolerance", o.stationarity_tolerance}}, "admm");
  FitReport finished = run_dc_iterations(objective, steps, start, dca_options,
                                         [&](const core::Vector& w, double b) { return linearized_step(objective, data, w, b); });
  finished.statistics["dca_steps"] = finished.iterations + 1.0;  // the exact check's step and DCA's
  finished.statistics["stationarity"] = finished.certificate;
  finished.iterations = report.iterations;
  finished.inner_iterations = report.inner_iterations;
  finished.inner_solves = report.inner_solves;
  finished.traces = report.traces;
  for (std::size_t t = 0; t < finished.objective_trace.size(); ++t) {
    finished.traces["trace_iterations"].push_back(finished.traces["trace_iterations"].back() + 1.0);
    finished.traces["primal_residual_trace"].push_back(std::nan(""));
    finished.traces["dual_residual_trace"].push_back(std::nan(""));
  }
  finished.objective_trace.insert(finished.objective_trace.begin(), report.objective_trace.begin(),
                                  report.objective_trace.end());
  finished.objective_seconds.insert(finished.objective_seconds.begin(), report.objective_seconds.begin(),
                                    report.objective_seconds.end());
  finished.stop_reason = fmt::format("ADMM's point not stationary (exact majorant gap {:.3g}); DCA finished: {}", gap,
                                     finished.stop_reason);
  report = std::move(finished);
}

// The convex start of a nonconvex fit: F's majorant at zero solved (DCA's first step: the 1-norm SVM
// with weight rho phi'(0), convex_step.hpp). nullopt, with the reason in `why_not`, when that LP is not
// certified optimal or its point has a larger F than w = 0, b = 0 (a review saw an inexact LP on a
// column scaled by 1e20 start ADMM at F = 8e12). The LP's work goes to the report's LP columns.
struct ConvexStart {
  core::LinearModel model;
  double objective;  // F (the nonconvex objective) there
};
std::optional<ConvexStart> l1_start(const Objective& objective, StepSolver& steps, FitReport& report,
                                    std::string& why_not) {
  const core::Dataset& data = steps.data();
  const core::Vector zero = core::Vector::Zero(static_cast<Eigen::Index>(data.d()));
  const StepResult solved = steps.solve(linearized_step(objective, data, zero, 0.0));
  record_step_statistics(report, solved);
  if (solved.status != core::Status::optimal) {
    why_not = fmt::format("the convex start's LP ended '{}'{}{}", core::to_string(solved.status),
                          solved.message.empty() ? "" : ": ", solved.message);
    return std::nullopt;
  }
  const double at_zero = objective.value(data, zero, 0.0);
  const double at_start = objective.value(data, solved.w, solved.b);
  if (!(at_start <= at_zero)) {
    why_not = fmt::format("the convex start's F ({:.6g}) is above F at w = 0 ({:.6g})", at_start, at_zero);
    return std::nullopt;
  }
  return ConvexStart{core::LinearModel(solved.w, solved.b), at_start};
}

// A nonconvex fit's F against its convex start's F at the same lambda: above it by more than the
// stationarity tolerance, or 1e-3 where that is looser (relative), the fit found a poor point and the
// message warns; the excess is the column l1_start_excess.
void compare_with_start(double start_value, double stationarity_tolerance, FitReport& report) {
  const double tolerance = std::min(stationarity_tolerance, 1e-3);
  const double excess = report.objective / start_value - 1.0;
  report.statistics["l1_start_excess"] = excess;
  if (report.objective > start_value + tolerance * std::abs(start_value)) {
    report.message += fmt::format("{}poor point: F = {:.6g} is above F at the convex (l1) start, {:.6g}",
                                  report.message.empty() ? "" : "; ", report.objective, start_value);
  }
}

// The start a fit on a lambda path has besides the convex one (follows_lambda_path): the previous fit's (at
// the path's next larger lambda) model, rho1 and rho2, as pathwise solvers warm-start each lambda from the
// one before. None when that fit has no model. The duals are refitted at the point for this lambda
// (Sweeps::start_at): the penalty's part of them changes with lambda.
struct PathStart {
  core::LinearModel model;
  double lambda, rho1, rho2;
};
std::optional<PathStart> path_start(const FitReport* above, const AdmmOptions& o) {
  if (above == nullptr || !above->has_solution()) return std::nullopt;
  // A nonconvex fit that DCA finished reports DCA's statistics; its rho never moved (adapt_rho is for l1).
  const auto final_value = [&](const char* name, double fallback) {
    const auto found = above->statistics.find(name);
    return found != above->statistics.end() && std::isfinite(found->second) && found->second > 0.0 ? found->second
                                                                                                   : fallback;
  };
  return PathStart{above->model, above->hyperparameters.at("lambda"), final_value("final_rho1", o.rho1),
                   final_value("final_rho2", o.rho2)};
}

// The problem and factors one fit's runs of the sweeps share.
struct Setting {
  const Objective& objective;
  Workspace& workspace;
  const Equilibrated& problem;
  const AdmmOptions& o;
  std::chrono::steady_clock::time_point clock_start;
};

// One run of the sweeps from `from` (nullptr: zero) at rho1, rho2 with `factor`, their ratio's, then the
// exact check (finish_exactly) where it is due, its LPs solved by `steps`. `report` holds what the fit did
// before (factor_s, the convex start's LP).
void run_from(const Setting& setting, StepSolver& steps, const optim::RidgeSystem& factor, double rho1, double rho2,
              const core::LinearModel* from, FitReport& report) {
  const core::Dataset& data = setting.workspace.data();
  Sweeps sweeps(setting.objective, data, setting.problem, factor, setting.o, rho1, rho2);
  if (from != nullptr) sweeps.start_at(*from);
  const double start_seconds = seconds_since(setting.clock_start);
  const ExactCheck check = run_sweeps(sweeps, setting.objective, data, setting.o, setting.clock_start, report);
  report.statistics["iteration_s"] =
      report.iterations > 0 ? (seconds_since(setting.clock_start) - start_seconds) / report.iterations : 0.0;
  report.statistics["dca_steps"] = 0.0;
  if (check != ExactCheck::none && report.status == core::Status::feasible && report.has_solution()) {
    finish_exactly(setting.objective, steps, setting.o, check,
                   [&] { return seconds_since(setting.clock_start); }, report);
  }
}

// The run from the path's start, its LPs on caches of its own; rho carried, with a factor at its ratio made
// for this run where that is not the options' (or the options' rho where that factor fails).
FitReport run_from_path(const Setting& setting, const StartingFactor& starting, const PathStart& from,
                        const FitReport& before) {
  FitReport report = before;
  StepSolver steps(setting.workspace.data(), setting.workspace.step_options());
  const double ratio = from.rho1 / from.rho2;
  std::unique_ptr<const optim::RidgeSystem> carried;
  if (ratio != setting.o.rho1 / setting.o.rho2) carried = std::make_unique<optim::RidgeSystem>(*setting.problem.gram, ratio);
  if (carried && !carried->factored()) {
    run_from(setting, steps, starting.system, setting.o.rho1, setting.o.rho2, &from.model, report);
  } else {
    run_from(setting, steps, carried ? *carried : starting.system, from.rho1, from.rho2, &from.model, report);
  }
  if (carried) report.statistics["factorizations"] += 1.0;
  report.statistics["warm_lambda"] = from.lambda;
  return report;
}

// Whether `candidate` is a better answer than `incumbent`: it has a model, and a lower F or the other none.
bool better(const FitReport& candidate, const FitReport& incumbent) {
  return candidate.has_solution() && (!incumbent.has_solution() || candidate.objective < incumbent.objective);
}

class AdmmAlgorithm : public Algorithm {
 public:
  std::string id() const override { return "admm"; }
  std::string description() const override {
    return "ADMM on the hinge loss with a proximable penalty ([ADMM] 3, shared/ADMM.md): closed-form steps; options for "
           "equilibrated features, over-relaxation and residual-balanced rho; polishing; stops on a certificate";
  }
  const ParameterTable& options() const override {
    static const ParameterTable table = {
        {"rho1", "penalty parameter of w = z at the start (1.5 as published)", 1.5, 0.0, 1e8, true, false, Scale::log,
         Regularizes::neither, ParameterKind::solver},
        {"rho2", "penalty parameter of the margin constraint at the start (10 as published; divided by n unless "
         "rho2_per_n is 0)", 10.0, 0.0, 1e8, true, false, Scale::log, Regularizes::neither, ParameterKind::solver},
        {"rho2_per_n", "true: rho2 is divided by n, the scale of the mean hinge's weights 1/n (docs/methods.md, \"ADMM\"); "
         "false: used as given, as published", 1, 0, 1, false, false, Scale::linear, Regularizes::neither,
         ParameterKind::solver, true, kSwitch},
        {"adapt_rho", "true: residual balancing of rho1 and rho2 at sweeps 8, 16, ..., 1024, for the l1 penalty (convex; "
         "the nonconvex ones keep rho, docs/methods.md); false: fixed, as published", 1,
         0, 1, false, false, Scale::linear, Regularizes::neither, ParameterKind::solver, true, kSwitch},
        {"relaxation", "over-relaxation alpha (Boyd et al. 2011, 3.4.3); 1: none, as published", 1.6, 1.0,
         1.99, false, false, Scale::linear, Regularizes::neither, ParameterKind::solver},
        {"equilibrate", "true: iterate on features centered (dense data) and scaled to unit spread, answer mapped back; "
         "false: on the data as given, as published", 1, 0, 1, false, false, Scale::linear, Regularizes::neither,
         ParameterKind::solver, true, kSwitch},
        {"abs_tolerance", "absolute tolerance of the primal and dual residuals (per sqrt of their size)", 1e-6, 0.0, 1.0,
         true, false, Scale::log, Regularizes::neither, ParameterKind::solver},
        {"rel_tolerance", "relative tolerance of the primal and dual residuals", 1e-4, 0.0, 1.0, true, false, Scale::log,
         Regularizes::neither, ParameterKind::solver},
        {"gap_tolerance", "l1 objectives (convex) also need this certified relative duality gap to stop (the LP's "
         "1e-6: optimal means the same for both)", 1e-6, 0.0,
         1.0, true, false, Scale::log, Regularizes::neither, ParameterKind::solver},
        {"stationarity_tolerance", "nonconvex penalties also need this relative gap of the convex majorant (what one "
         "DCA step from the point could gain, relative to F) to stop", 1e-3, 0.0, 1.0, true, false, Scale::log, Regularizes::neither, ParameterKind::solver},
        {"min_iterations", "sweeps before the residual test may stop (max_iterations still ends the run)", 10, 1, 1e6,
         false, false, Scale::log, Regularizes::neither, ParameterKind::solver, true},
        {"max_iterations", "sweeps before stopping with status feasible (the last iterate kept)", 10000, 1, 1e7, false,
         false, Scale::log, Regularizes::neither, ParameterKind::solver, true},
        {"factorization", "the w-system's solve: smaller (the smaller dense factor of d x d and n x n, or conjugate "
         "gradients where that factor would be slow on sparse data or not fit the memory budget), d_by_d, n_by_n "
         "(Woodbury), or conjugate_gradient (no factor: O(nnz) a product)", 0, 0,
         3, false, false, Scale::linear, Regularizes::neither, ParameterKind::solver, true,
         {"smaller", "d_by_d", "n_by_n", "conjugate_gradient"}},
        {"l1_start", "true: a nonconvex penalty starts from its convex majorant at zero solved (the weighted 1-norm SVM "
         "DCA solves first; continuation), iterates and duals warm; false: from zero, as published", 1, 0, 1, false,
         false, Scale::linear, Regularizes::neither, ParameterKind::solver, true, kSwitch},
        {"exact_check", "a nonconvex fit not certified when its residuals meet their tolerances or after this many "
         "sweeps solves its convex majorant exactly (one LP): converged when that gap holds, else DCA steps finish "
         "from the LP's point (not before min_iterations; a fit that reaches max_iterations first is not checked); "
         "none when it is 0 (ADMM's bound only, as published)", 100, 0, 1e7, false, false, Scale::linear,
         Regularizes::neither, ParameterKind::solver, true},
        {"path_start", "true: on a lambda grid (run's inner selection and final fit), a fit at lambda starts from the "
         "fit at the grid's next larger lambda (its point and rho; made first, from the largest lambda down, and kept "
         "for the run), or from the convex start where that has the lower F; false: each lambda on its own, as "
         "published", 1, 0, 1, false, false, Scale::linear, Regularizes::neither, ParameterKind::solver, true, kSwitch},
        {"prox_public_code", "true: the public code's prox, unit weight at strength lambda/rho1 (inexact for SCAD and MCP)",
         0, 0, 1, false, false, Scale::linear, Regularizes::neither, ParameterKind::solver, true, kSwitch},
    };
    return table;
  }
  std::vector<std::string> statistic_names() const override {
    // factor_s: seconds this fit spent forming the Gram and the starting factor (0 when an earlier fit in
    // the workspace did). relative_gap: the certified (F - D) / F of an l1 objective; stationarity: the
    // relative gap of the convex majorant of a nonconvex one (NaN where the other applies). final_rho1, final_rho2: rho1
    // and rho2 at the end (the options rho1 and rho2 are the starting values).
    // factorizations: new factors after rho1/rho2 changed. cg_products: products with X'X of the
    // conjugate-gradient solves (0 with a factor). dca_steps: LPs solved after the sweeps by
    // exact_check (the check and DCA's steps). l1_start_excess: F / F(convex start) - 1 (NaN without
    // l1_start); positive is a poor stationary point. warm_lambda: the lambda of the path's fit this one
    // started from (NaN: none); path_fits, path_s: the fits at larger lambdas this fit made first, and their
    // seconds (0 when they were made already). other_start_sweeps: the sweeps of the run not kept (a
    // nonconvex fit on a path runs from the path's and the convex start; NaN otherwise). The LP columns (convex_step.hpp) count the LPs of
    // the convex start, the exact check and DCA's finish.
    std::vector<std::string> names = {"primal_residual", "dual_residual", "relative_gap", "stationarity", "final_rho1", "final_rho2", "factorizations",
            "factor_s", "iteration_s", "woodbury", "cg_products", "dca_steps", "l1_start_excess", "warm_lambda", "other_start_sweeps", "path_fits", "path_s"};
    names.insert(names.end(), lp_step_statistic_names().begin(), lp_step_statistic_names().end());
    return names;
  }
  std::vector<std::string> trace_names() const override {
    return {"trace_iterations", "primal_residual_trace", "dual_residual_trace"};
  }
  bool finds_optimum() const override { return false; }
  bool needs_start() const override { return false; }

  std::string unsupported(const Objective& objective) const override {
    if (objective.loss->id() != "hinge") return fmt::format("admm solves the hinge loss, not {}", objective.loss->id());
    if (!objective.penalty->has_prox()) {
      return fmt::format("admm needs a penalty with a proximal operator; {} has none", objective.penalty->id());
    }
    if (objective.penalty->convex_regularizer() != Regularizer::l1) {
      return fmt::format("admm's stop certifies penalties with an l1 convex part; {} has none", objective.penalty->id());
    }
    return "";
  }

  bool follows_lambda_path(const Hyperparameters& options) const override { return options.at("path_start") == 1.0; }

  // `path.report`: the fit at the next larger lambda of a lambda path (follows_lambda_path), or none.
  FitReport fit(const Objective& objective, Workspace& workspace, const Start& path,
                const Hyperparameters& options) const override {
    if (const std::string reason = unsupported(objective); !reason.empty()) throw core::InputError(reason);
    const auto clock_start = std::chrono::steady_clock::now();
    const core::Dataset& data = workspace.data();
    const AdmmOptions o = read_options(options, data.n());
    bool factored_here = false;
    const std::string problem_key = fmt::format("admm_problem|{}|{}", o.equilibrate, static_cast<int>(o.regime));
    const Equilibrated& problem = workspace.state<Equilibrated>(problem_key, [&] {
      factored_here = true;
      return std::make_unique<Equilibrated>(data, o.equilibrate, o.regime);
    });
    const StartingFactor& starting = workspace.state<StartingFactor>(
        fmt::format("{}|{}", problem_key, o.rho1 / o.rho2), [&] {
          factored_here = true;
          return std::make_unique<StartingFactor>(*problem.gram, o.rho1 / o.rho2);
        });
    const double setup_seconds = seconds_since(clock_start);
    FitReport report;
    report.statistics["factor_s"] = factored_here ? setup_seconds : 0.0;
    if (!starting.system.factored()) {
      fail(report, "factorization failed",
           problem.gram->iterative()
               ? "the w-system cannot be solved by conjugate gradients: rho1/rho2 or the columns' norms are not finite"
               : "the Cholesky factor of the w-system failed or overflowed (data too badly scaled)");
      return report;
    }
    const bool convex = objective.is_convex();
    // Each run's LPs (the convex start, the exact check, DCA's finish) go to caches of its own, never to
    // the workspace's shared ones: a warm basis can pick another vertex of a degenerate LP (a review saw
    // MCP on golub end 2x higher after other fits), so no other fit may move them. The convex start's run
    // on a path is thus, exactly, the fit the same lambda gets off the path.
    StepSolver steps(data, workspace.step_options());
    std::optional<ConvexStart> convex_start;
    std::string start_refused;  // why the convex start was not taken
    std::string start_message;  // the start LP's notes (a cold fallback), kept past the sweeps' message
    if (o.l1_start && !convex) {
      convex_start = l1_start(objective, steps, report, start_refused);
      start_message = std::exchange(report.message, "");
    }
    // On a lambda path the fit runs from the path's start; a nonconvex one also from the convex start (or
    // zero), and keeps the lower F: the path's point alone ended 25% above the convex start's on wdbc.
    const Setting setting{objective, workspace, problem, o, clock_start};
    const std::optional<PathStart> from_path = path_start(path.report, o);
    const FitReport before = report;
    bool path_kept = false;
    if (from_path) {
      report = run_from_path(setting, starting, *from_path, before);
      path_kept = true;
    }
    if (!from_path || !convex) {
      FitReport cold = before;
      run_from(setting, steps, starting.system, o.rho1, o.rho2, convex_start ? &convex_start->model : nullptr, cold);
      cold.statistics["warm_lambda"] = std::nan("");
      if (from_path) {  // each run names the other's sweeps, whichever is kept
        cold.statistics["other_start_sweeps"] = static_cast<double>(report.iterations);
        report.statistics["other_start_sweeps"] = static_cast<double>(cold.iterations);
      }
      if (!path_kept || better(cold, report)) {
        report = std::move(cold);
        path_kept = false;
      }
    }
    const std::string refusal_note = start_refused + (path_kept ? ": the path's start kept" : ": started from zero");
    for (const std::string& note : {start_message, start_refused.empty() ? "" : refusal_note}) {
      if (!note.empty()) report.message += (report.message.empty() ? "" : "; ") + note;
    }
    if (convex_start && report.has_solution()) {
      compare_with_start(convex_start->objective, o.stationarity_tolerance, report);
    }
    report.seconds = seconds_since(clock_start);
    report.statistics["woodbury"] = starting.system.uses_woodbury() ? 1.0 : 0.0;
    return report;
  }
};

}  // namespace

std::unique_ptr<const Algorithm> make_admm_algorithm() { return std::make_unique<AdmmAlgorithm>(); }

}  // namespace sparsesvm::models
