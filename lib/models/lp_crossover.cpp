#include "models/lp_crossover.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "models/objective.hpp"
#include "optim/clp_lp.hpp"

namespace sparsesvm::models {
namespace {

// sum_i |x_ij| for every feature j, and sum_j |x_ij| for every example i.
std::pair<core::Vector, core::Vector> absolute_sums(const core::Dataset& data) {
  if (data.is_sparse()) {
    const core::SparseMatrix absolute = data.sparse().cwiseAbs();
    const core::Vector ones_n = core::Vector::Ones(static_cast<Eigen::Index>(data.n()));
    const core::Vector ones_d = core::Vector::Ones(static_cast<Eigen::Index>(data.d()));
    return {absolute.transpose() * ones_n, absolute * ones_d};
  }
  const auto absolute = data.dense().cwiseAbs();
  return {absolute.colwise().sum().transpose(), absolute.rowwise().sum()};
}

// The prox of tau h_j at v: the minimizer of tau h_j(w) + (w - v)^2 / 2, a soft threshold shifted by the
// two slopes.
double shifted_soft_threshold(double v, double tau, double p, double q) {
  if (v > tau * p) return v - tau * p;
  if (v < -tau * q) return v + tau * q;
  return 0.0;
}

// The saddle problem's pieces that the iteration and its merit need.
class SaddleLp {
 public:
  SaddleLp(const core::Dataset& data, const StepLpCosts& costs) : data_(data), costs_(costs) {}

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
  double relative_gap(const core::Vector& w, double b, const core::Vector& alpha) const {
    const core::Vector t = margins(data_, w, b);
    const core::Vector g = data_.transpose_times(alpha.cwiseProduct(data_.labels()));
    const double radius = 2.0 * std::max({1.0, largest_magnitude(w), std::abs(b)});
    const double p = primal(w, b, t);
    return (p - localized_dual(alpha, g, radius)) / std::max(std::abs(p), std::numeric_limits<double>::min());
  }
  // One primal step from (w, alpha): the prox puts exact zeros where the weights are inactive, which an
  // average of iterates (nonzero wherever any iterate was) does not have.
  core::Vector primal_step(const core::Vector& w, const core::Vector& alpha, const core::Vector& tau) const {
    const core::Vector g = data_.transpose_times(alpha.cwiseProduct(data_.labels()));
    core::Vector next(w.size());
    for (Eigen::Index j = 0; j < w.size(); ++j) {
      next[j] = shifted_soft_threshold(w[j] + tau[j] * g[j], tau[j], costs_.plus[j], costs_.minus[j]);
    }
    return next;
  }

 private:
  const core::Dataset& data_;
  const StepLpCosts& costs_;
};

// Restarts (two of PDLP's three rules, its sufficient decay and its artificial restart; not the
// necessary decay without progress): every kRestartCheck iterations the average since the last restart
// and the current iterate are compared by their gaps; the better one becomes the new start when its gap
// has fallen below kRestartDecay times the gap at the last restart, or when the average spans more than
// kLongAverage of all iterations. The primal weight (1 at first) then moves toward the ratio of dual to
// primal movement since the last restart (a geometric mean of the old weight and that ratio).
constexpr long kRestartCheck = 64;
constexpr double kRestartDecay = 0.2;
constexpr double kLongAverage = 0.36;
constexpr double kStepFraction = 0.95;  // eta: the diagonal steps' fraction of their bound

struct Iterate {
  core::Vector w;
  double b = 0.0;
  core::Vector alpha;
};

double distance(const core::Vector& a, const core::Vector& b) { return (a - b).norm(); }

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
  const core::Vector& y = data.labels();
  const SaddleLp lp(data, costs);
  // Named vectors, not a structured binding: `finished` below captures them, which clang 14 refuses.
  std::pair<core::Vector, core::Vector> sums = absolute_sums(data);
  const core::Vector column_sums = sums.first.unaryExpr([](double s) { return s > 0 ? s : 1.0; });
  core::Vector row_sums = std::move(sums.second);
  row_sums.array() += 1.0;  // b's entry in every row
  const double bias_column_sum = static_cast<double>(n);

  Iterate current{start.w.size() == d ? start.w : core::Vector::Zero(d), start.b,
                  start.alpha.size() == n ? core::Vector(start.alpha.cwiseMax(0.0).cwiseMin(costs.slack)) : core::Vector::Zero(n)};
  Iterate at_restart = current;
  Iterate sum{core::Vector::Zero(d), 0.0, core::Vector::Zero(n)};
  long averaged = 0;
  double restart_gap = lp.relative_gap(current.w, current.b, current.alpha);
  double gap = restart_gap;
  double primal_weight = 1.0;
  double target_gap = options.relative_gap;
  long k = 0;
  // The point returned: one last primal (prox) step from `point`, so that inactive weights are exact zeros.
  const auto finished = [&](const Iterate& point) {
    core::Vector w = lp.primal_step(point.w, point.alpha, kStepFraction / primal_weight * column_sums.cwiseInverse());
    const double relative_gap = lp.relative_gap(w, point.b, point.alpha);
    return FirstOrderPoint{std::move(w), point.b, point.alpha, k, relative_gap};
  };
  while (k < options.max_iterations && (gap > target_gap || options.accept)) {
    ++k;
    const core::Vector tau = kStepFraction / primal_weight * column_sums.cwiseInverse();
    const double tau_b = kStepFraction / primal_weight / bias_column_sum;
    core::Vector w_next = lp.primal_step(current.w, current.alpha, tau);
    const double b_next = current.b + tau_b * (current.alpha.dot(y) - costs.bias);
    // The dual step at the extrapolated primal point 2 x_next - x.
    const core::Vector t = margins(data, 2.0 * w_next - current.w, 2.0 * b_next - current.b);
    const core::Vector sigma = kStepFraction * primal_weight * row_sums.cwiseInverse();
    current.alpha = (current.alpha + sigma.cwiseProduct(costs.margin - t)).cwiseMax(0.0).cwiseMin(costs.slack);
    current.w = std::move(w_next);
    current.b = b_next;
    sum.w += current.w;
    sum.b += current.b;
    sum.alpha += current.alpha;
    ++averaged;
    if (k % kRestartCheck != 0) continue;
    const double scale = 1.0 / static_cast<double>(averaged);
    Iterate average{sum.w * scale, sum.b * scale, sum.alpha * scale};
    const double gap_current = lp.relative_gap(current.w, current.b, current.alpha);
    const double gap_average = lp.relative_gap(average.w, average.b, average.alpha);
    const bool average_better = gap_average < gap_current;
    gap = std::min(gap_current, gap_average);
    if (gap <= target_gap && !options.accept) {  // done: the better of the two is the point
      if (average_better) current = std::move(average);
      break;
    }
    if (gap <= target_gap) {  // a check: the better of the two, offered to `accept`
      const Iterate& best = average_better ? average : current;
      FirstOrderPoint point = finished(best);
      if (target_gap <= options.smallest_gap || options.accept(point)) return point;
      target_gap /= 2;
    }
    if (gap >= kRestartDecay * restart_gap && static_cast<double>(averaged) < kLongAverage * static_cast<double>(k)) continue;
    if (average_better) current = std::move(average);
    const double moved_primal = std::hypot(distance(current.w, at_restart.w), current.b - at_restart.b);
    const double moved_dual = distance(current.alpha, at_restart.alpha);
    if (moved_primal > 1e-10 && moved_dual > 1e-10) primal_weight = std::sqrt(primal_weight * moved_dual / moved_primal);
    at_restart = current;
    restart_gap = gap;
    sum = Iterate{core::Vector::Zero(d), 0.0, core::Vector::Zero(n)};
    averaged = 0;
  }
  if (k == options.max_iterations && averaged > 0) {  // out of iterations: the better of average and iterate
    const double scale = 1.0 / static_cast<double>(averaged);
    Iterate average{sum.w * scale, sum.b * scale, sum.alpha * scale};
    if (lp.relative_gap(average.w, average.b, average.alpha) < lp.relative_gap(current.w, current.b, current.alpha)) {
      current = std::move(average);
    }
  }
  return finished(current);
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
