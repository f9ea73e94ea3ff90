#include "models/lp_crossover.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/progress.hpp"
#include "models/objective.hpp"
#include "models/screened_prox.hpp"
#include "optim/clp_lp.hpp"

namespace sparsesvm::models {
namespace {

// sum_j |x_ij| for every example i.
core::Vector absolute_row_sums(const core::Dataset& data) {
  if (data.is_sparse()) {
    const core::SparseMatrix absolute = data.sparse().cwiseAbs();
    return absolute * core::Vector::Ones(static_cast<Eigen::Index>(data.d()));
  }
  return data.dense().cwiseAbs().rowwise().sum();
}

// A point z = (w, b, alpha) of the iteration, with X w beside w. Every new w is a prox output (sparse)
// or a linear combination of earlier ones, so X w follows the same combination and the iteration needs
// one product with X per step, at the prox output.
struct Iterate {
  core::Vector w;
  double b = 0.0;
  core::Vector alpha;
  core::Vector xw;  // X w
};

// The saddle problem's pieces that the iteration and its merit need.
class SaddleLp {
 public:
  SaddleLp(const core::Dataset& data, const StepLpCosts& costs) : data_(data), costs_(costs), columns_(data) {}
  const ColumnProducts& columns() const { return columns_; }
  // t_i = y_i (x_i.w + b) from X w.
  core::Vector margins(const core::Vector& xw, double b) const {
    return (data_.labels().array() * (xw.array() + b)).matrix();
  }

  // sum_j h_j(w_j) + c_b b + sum_i C_i max(0, m_i - y_i f(x_i)).
  double primal(const core::Vector& w, double b, const core::Vector& t) const {
    double value = costs_.bias * b;
    for (Eigen::Index j = 0; j < w.size(); ++j) value += w[j] >= 0 ? costs_.plus[j] * w[j] : -costs_.minus[j] * w[j];
    for (Eigen::Index i = 0; i < t.size(); ++i) value += costs_.slack[i] * std::max(0.0, costs_.margin[i] - t[i]);
    return value;
  }
  // The Lagrangian's minimum over |w_j|, |b| <= radius: sum_i alpha_i m_i minus radius times every
  // violated dual constraint (g_j above p_j or below -q_j, y'alpha off c_b).
  double localized_dual(const core::Vector& alpha, const core::Vector& g, double radius) const {
    double value = alpha.dot(costs_.margin) - radius * std::abs(costs_.bias - alpha.dot(data_.labels()));
    for (Eigen::Index j = 0; j < g.size(); ++j) {
      value -= radius * std::max({0.0, g[j] - costs_.plus[j], -costs_.minus[j] - g[j]});
    }
    return value;
  }
  // (P - D_R) / |P| with R twice the point's largest entry (at least 1). Relative to P itself, not to
  // max(1, |P|): at the hard-margin end in the lambda form P = lambda ||w||_1 can be far below 1.
  double relative_gap(const Iterate& z) const {
    const core::Vector g = data_.transpose_times(z.alpha.cwiseProduct(data_.labels()));
    const double radius = 2.0 * std::max({1.0, largest_magnitude(z.w), std::abs(z.b)});
    const double p = primal(z.w, z.b, margins(z.xw, z.b));
    return (p - localized_dual(z.alpha, g, radius)) / std::max(std::abs(p), std::numeric_limits<double>::min());
  }

 private:
  const core::Dataset& data_;
  const StepLpCosts& costs_;
  ColumnProducts columns_;
};

// Restarts on the fixed-point residual ||z - T(z)||_M (z = (w, b, alpha), T one PDHG step, M the norm in
// which T is firmly nonexpansive: below), every kCheckInterval iterations (where the gap is checked
// too): the anchor moves to T(z) when the residual has fallen below kSufficientDecay times the anchor's
// own (measured at its first step, in the steps of its primal weight), or below kNecessaryDecay times
// it and risen since the last check (Lu and Yang 2024, Restarted Halpern PDHG; cuPDLPx's rules without
// its artificial restart at 36% of the iterations, which, measured with a residual of the diagonal part
// only, took 1.7x the iterations on the uniform draw of docs/benchmarks.md and 4% fewer on the
// Reuters-shaped rows). The first check always restarts, so that the primal weight (1 at first) moves
// early. At a restart the primal weight moves toward the ratio of dual to primal movement since the last
// anchor (a geometric mean of the old weight and that ratio).
constexpr long kCheckInterval = 64;
static_assert(kProgressFirstOrderInterval % kCheckInterval == 0, "a progress line comes at a gap check");
constexpr double kSufficientDecay = 0.2;
constexpr double kNecessaryDecay = 0.8;
constexpr double kStepFraction = 0.95;  // eta: the diagonal steps' fraction of their bound

double distance(const core::Vector& a, const core::Vector& b) { return (a - b).norm(); }

// The diagonal steps of Pock and Chambolle (2011) for a primal weight omega: tau = eta / (omega sum_i
// |x_ij|) for w_j, eta / (omega n) for b, sigma_i = eta omega / (sum_j |x_ij| + 1).
struct DiagonalSteps {
  core::Vector tau;
  double tau_b = 0.0;
  core::Vector sigma;
};

class PdhgOperator {
 public:
  PdhgOperator(const core::Dataset& data, const StepLpCosts& costs)
      : data_(data), costs_(costs), lp_(data, costs), prox_(data, costs, lp_.columns()) {
    const core::Vector ones = core::Vector::Ones(static_cast<Eigen::Index>(data.n()));
    column_sums_ = data.absolute_transpose_times(ones).unaryExpr([](double s) { return s > 0 ? s : 1.0; });
    row_sums_ = absolute_row_sums(data);
    row_sums_.array() += 1.0;  // b's entry in every row
  }
  const SaddleLp& lp() const { return lp_; }

  DiagonalSteps steps(double primal_weight) const {
    return {kStepFraction / primal_weight * column_sums_.cwiseInverse(),
            kStepFraction / primal_weight / static_cast<double>(data_.n()),
            kStepFraction * primal_weight * row_sums_.cwiseInverse()};
  }
  // T(z): the primal (prox) step, then the dual step at the extrapolated primal point 2 w' - w.
  Iterate apply(const Iterate& z, const DiagonalSteps& steps) {
    Iterate image;
    image.w = prox_.step(z.w, z.alpha, steps.tau);
    image.xw = lp_.columns().times(image.w);
    image.b = z.b + steps.tau_b * (z.alpha.dot(data_.labels()) - costs_.bias);
    const core::Vector t = lp_.margins(2.0 * image.xw - z.xw, 2.0 * image.b - z.b);
    image.alpha = (z.alpha + steps.sigma.cwiseProduct(costs_.margin - t)).cwiseMax(0.0).cwiseMin(costs_.slack);
    return image;
  }
  // ||z - T(z)||_M, M the PDHG metric [T^-1, -K'; -K, S^-1] (T, S the diagonal steps). In the saddle
  // form the coupling is -alpha' Y (X w + b 1), so K = -Y [X 1] and the cross term -2 dalpha' K dx is
  // 2 sum_i dalpha_i y_i (x_i.dw + db): one product with X.
  double residual(const Iterate& z, const Iterate& image, const DiagonalSteps& steps) const {
    const core::Vector dw = z.w - image.w;
    const double db = z.b - image.b;
    const core::Vector dalpha = z.alpha - image.alpha;
    const double squared = (dw.array().square() / steps.tau.array()).sum() + db * db / steps.tau_b +
                           (dalpha.array().square() / steps.sigma.array()).sum() +
                           2.0 * dalpha.dot(lp_.margins(z.xw - image.xw, db));
    return std::sqrt(std::max(squared, 0.0));  // M is positive definite (eta < 1): only rounding is below 0
  }

 private:
  const core::Dataset& data_;
  const StepLpCosts& costs_;
  SaddleLp lp_;
  ScreenedProx prox_;
  core::Vector column_sums_;
  core::Vector row_sums_;
};

// The reflected Halpern step after j steps since the anchor z_0 (Lu and Yang 2024, with the
// reflection 2T - I of cuPDLPx): z <- j / (j + 1) (2 T(z) - z) + 1 / (j + 1) z_0. Its weight on the anchor
// shrinks as 1 / (j + 1), which is what makes the fixed-point residual in M fall as O(1 / j) (2T - I
// is nonexpansive in M, T being firmly nonexpansive there).
void halpern_step(Iterate& z, const Iterate& image, const Iterate& anchor, long j) {
  const double toward = static_cast<double>(j) / static_cast<double>(j + 1);
  const double back = 1.0 - toward;
  z.w = toward * (2.0 * image.w - z.w) + back * anchor.w;
  z.b = toward * (2.0 * image.b - z.b) + back * anchor.b;
  z.alpha = toward * (2.0 * image.alpha - z.alpha) + back * anchor.alpha;
  z.xw = toward * (2.0 * image.xw - z.xw) + back * anchor.xw;
}

}  // namespace

std::string first_order_unsupported(const StepLpCosts& costs, bool linf) {
  if (linf) return "the first-order start has no l_inf term";
  if (((costs.plus + costs.minus).array() < 0).any()) return "the first-order start needs p_j + q_j >= 0 (a convex step)";
  return "";
}

FirstOrderPoint first_order_point(const core::Dataset& data, const StepLpCosts& costs, const FirstOrderPoint& start,
                                  const FirstOrderOptions& options) {
  const auto n = static_cast<Eigen::Index>(data.n());
  const auto d = static_cast<Eigen::Index>(data.d());
  PdhgOperator pdhg(data, costs);
  long k = 0;
  const auto measured = [&](const Iterate& point, double relative_gap) {
    return FirstOrderPoint{point.w, point.b, point.alpha, k, relative_gap};
  };
  Iterate current;
  current.w = start.w.size() == d ? start.w : core::Vector::Zero(d);
  current.b = start.b;
  current.alpha = start.alpha.size() == n ? core::Vector(start.alpha.cwiseMax(0.0).cwiseMin(costs.slack)) : core::Vector::Zero(n);
  current.xw = pdhg.lp().columns().times(current.w);
  const double start_gap = pdhg.lp().relative_gap(current);
  if (options.max_iterations <= 0 || (start_gap <= options.relative_gap && !options.accept)) return measured(current, start_gap);

  double primal_weight = 1.0;
  DiagonalSteps steps = pdhg.steps(primal_weight);
  Iterate anchor = current;
  Iterate image;
  long since_anchor = 0;
  double anchor_residual = std::numeric_limits<double>::infinity();  // the first check restarts
  double last_residual = std::numeric_limits<double>::infinity();
  double target_gap = options.relative_gap;
  double gap = start_gap;
  Iterate best;  // the checked point of least gap: the gap is not monotone, for running out of iterations
  double best_gap = std::numeric_limits<double>::infinity();
  while (k < options.max_iterations) {
    ++k;
    ++since_anchor;
    image = pdhg.apply(current, steps);
    if (since_anchor == 1 && k > 1) anchor_residual = pdhg.residual(current, image, steps);  // a new anchor's own
    if (k % kCheckInterval == 0) {
      gap = pdhg.lp().relative_gap(image);
      if (k % kProgressFirstOrderInterval == 0) core::progress("first-order method (PDHG), iteration {}: relative gap {:.3g}", k, gap);
      if (gap < best_gap) {
        best = image;
        best_gap = gap;
      }
      if (gap <= target_gap) {  // the point T(z): its w a prox output, with exact zeros where inactive
        FirstOrderPoint point = measured(image, gap);
        if (!options.accept || target_gap <= options.smallest_gap || options.accept(point)) return point;
        target_gap /= 2;
      }
      const double residual = pdhg.residual(current, image, steps);
      const bool restart = std::isinf(anchor_residual) || residual <= kSufficientDecay * anchor_residual ||
                           (residual <= kNecessaryDecay * anchor_residual && residual > last_residual);
      last_residual = residual;
      if (restart) {
        const double moved_primal = std::hypot(distance(image.w, anchor.w), image.b - anchor.b);
        const double moved_dual = distance(image.alpha, anchor.alpha);
        if (moved_primal > 1e-10 && moved_dual > 1e-10) primal_weight = std::sqrt(primal_weight * moved_dual / moved_primal);
        steps = pdhg.steps(primal_weight);
        current = image;
        anchor = image;
        since_anchor = 0;
        last_residual = std::numeric_limits<double>::infinity();
        continue;
      }
    }
    halpern_step(current, image, anchor, since_anchor);
  }
  // Out of iterations: the last T(z), or the checked point of least gap if that is better.
  const double last_gap = k % kCheckInterval == 0 ? gap : pdhg.lp().relative_gap(image);
  return best_gap < last_gap ? measured(best, best_gap) : measured(image, last_gap);
}

double l1_lower_bound(const core::Dataset& data, const StepLpCosts& costs, const core::Vector& alpha) {
  const core::Vector& y = data.labels();
  const bool zero_feasible = costs.bias == 0.0 && (costs.plus.array() >= 0).all() && (costs.minus.array() >= 0).all();
  if (!zero_feasible || alpha.size() != y.size()) return -std::numeric_limits<double>::infinity();
  core::Vector feasible = alpha.cwiseMax(0.0).cwiseMin(costs.slack);
  double positive_sum = 0.0, negative_sum = 0.0;
  for (Eigen::Index i = 0; i < y.size(); ++i) (y[i] > 0 ? positive_sum : negative_sum) += feasible[i];
  const double larger = std::max(positive_sum, negative_sum);
  const double shrink = larger > 0 ? std::min(positive_sum, negative_sum) / larger : 1.0;
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    if ((y[i] > 0) == (positive_sum > negative_sum)) feasible[i] *= shrink;
  }
  const core::Vector g = data.transpose_times((feasible.array() * y.array()).matrix());
  double scale = 1.0;  // the largest s <= 1 with -q_j <= s g_j <= p_j
  for (Eigen::Index j = 0; j < g.size(); ++j) {
    const double limit = g[j] > 0 ? costs.plus[j] : costs.minus[j];
    if (std::abs(g[j]) * scale > limit) scale = limit / std::abs(g[j]);
  }
  return scale * feasible.dot(costs.margin);
}

std::vector<unsigned char> crossover_basis(const core::Dataset& data, const StepLpCosts& costs, const core::Vector& w,
                                           double b) {
  const std::size_t n = data.n(), d = data.d();
  const std::size_t columns = 2 * d + 1 + n;
  const auto status = [](optim::BasisStatus s) { return static_cast<unsigned char>(s); };
  std::vector<unsigned char> basis(columns + n, status(optim::BasisStatus::at_lower));
  basis[2 * d] = status(optim::BasisStatus::basic);
  // Each example's distance from its margin, relative to the margin's size.
  const core::Vector t = margins(data, w, b);
  std::vector<double> excess(n);
  std::vector<std::size_t> outside;  // on or beyond the margin
  for (std::size_t i = 0; i < n; ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    excess[i] = (t[k] - costs.margin[k]) / std::max(1.0, std::abs(costs.margin[k]));
    if (excess[i] < -kInsideMargin) basis[2 * d + 1 + i] = status(optim::BasisStatus::basic);  // row stays tight
    else outside.push_back(i);
  }
  // The nonzero weights, largest first; the basis has room for as many as the tight rows can pair with
  // (with b, one fewer than the examples outside the margin), and the smallest are left out first.
  std::vector<std::size_t> nonzero;
  for (std::size_t j = 0; j < d; ++j) {
    if (w[static_cast<Eigen::Index>(j)] != 0.0) nonzero.push_back(j);
  }
  std::stable_sort(nonzero.begin(), nonzero.end(), [&](std::size_t a, std::size_t c) {
    return std::abs(w[static_cast<Eigen::Index>(a)]) > std::abs(w[static_cast<Eigen::Index>(c)]);
  });
  nonzero.resize(std::min(nonzero.size(), outside.empty() ? 0 : outside.size() - 1));
  for (const std::size_t j : nonzero) basis[w[static_cast<Eigen::Index>(j)] > 0 ? j : d + j] = status(optim::BasisStatus::basic);
  std::stable_sort(outside.begin(), outside.end(), [&](std::size_t a, std::size_t c) { return excess[a] < excess[c]; });
  const std::size_t tight = std::min(outside.size(), nonzero.size() + 1);
  for (std::size_t k = tight; k < outside.size(); ++k) basis[columns + outside[k]] = status(optim::BasisStatus::basic);
  return basis;
}

CrossoverStart crossover_start(const core::Dataset& data, const StepLpCosts& costs, const FirstOrderPoint& start,
                               const CrossoverRule& rule) {
  CrossoverStart answer;
  if (start.w.size() > 0) {  // a warm start: taken as it stands when already within warm_gap
    FirstOrderOptions as_it_stands;
    as_it_stands.max_iterations = 0;
    answer.point = first_order_point(data, costs, start, as_it_stands);
    if (answer.point.relative_gap <= rule.warm_gap) {
      answer.basis = crossover_basis(data, costs, answer.point.w, answer.point.b);
      return answer;
    }
  }
  std::vector<unsigned char> previous;  // the last guess
  bool accepted = false;
  FirstOrderOptions options;
  options.max_iterations = rule.max_iterations;
  options.relative_gap = rule.first_gap;
  options.smallest_gap = rule.last_gap;
  options.accept = [&](const FirstOrderPoint& point) {
    std::vector<unsigned char> basis = crossover_basis(data, costs, point.w, point.b);
    ++answer.checks;
    std::size_t moved = 0;
    if (!previous.empty()) {
      for (std::size_t k = 0; k < basis.size(); ++k) moved += basis[k] != previous[k] ? 1 : 0;
    }
    accepted = !previous.empty() && moved < data.n() / rule.settled_share;
    previous = std::move(basis);
    return accepted;
  };
  answer.point = first_order_point(data, costs, start, options);
  // An accepted point's basis is the last guess; at the smallest gap or out of iterations, guessed now.
  answer.basis = accepted ? std::move(previous) : crossover_basis(data, costs, answer.point.w, answer.point.b);
  return answer;
}

}  // namespace sparsesvm::models
