#include "models/lp_generation.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <iterator>
#include <limits>
#include <numeric>

#include "core/progress.hpp"
#include "models/example_seed.hpp"
#include "models/objective.hpp"
#include "optim/clp_lp.hpp"

namespace sparsesvm::models {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// A box still binding after this many tenfold widenings leaves the answer to the certificate (it then
// reports the reduced cost that wants more).
constexpr int kMaxBoxWidenings = 8;

// Dual infeasibility of a column at its lower bound 0 with reduced cost `rc`: max(0, -rc). (Basic
// columns with |rc| > 0 would break complementary slackness; the duality gap measures that, so that
// rounding noise like w_j = 1e-27 on a nonbasic column does not count.)
double dual_infeasibility(double reduced_cost) { return std::max(0.0, -reduced_cost); }

// The `limit` candidates with the largest violation, largest first (ties by index: deterministic).
std::vector<Eigen::Index> most_violated(std::vector<std::pair<double, Eigen::Index>> candidates, std::size_t limit) {
  const auto larger = [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); };
  if (candidates.size() > limit) {
    std::nth_element(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(limit), candidates.end(), larger);
    candidates.resize(limit);
  }
  std::sort(candidates.begin(), candidates.end(), larger);
  std::vector<Eigen::Index> chosen;
  for (const auto& candidate : candidates) chosen.push_back(candidate.second);
  return chosen;
}

}  // namespace

std::string LpCertificate::describe() const {
  return fmt::format("reduced-cost violation {:.3g}, constraint violation {:.3g}, relative gap {:.3g}, hinge "
                     "shortfall {:.3g}",
                     reduced_cost_violation, constraint_violation, relative_gap, hinge_shortfall);
}

std::string rounding_limit_note(const core::Dataset& data, const StepLpCosts& costs, const StepLpPoint& point,
                                const LpCertificate& certificate, double relative_tolerance) {
  LpCertificate without_features = certificate;
  without_features.reduced_cost_violation = certificate.slack_reduced_cost_violation;
  const double limit = relative_tolerance * feature_cost_scale(costs);
  if (point.beta.size() != 0 || !without_features.within(relative_tolerance) ||
      certificate.feature_dual_infeasibility <= limit) {
    return "";  // the l_inf LP, refused by something else, or not refused
  }
  // Feature j's reduced costs p_j - g_j and q_j + g_j, with g_j = sum_i alpha_i y_i x_ij: computed in
  // double precision, g_j is off by up to about machine epsilon times sum_i alpha_i |x_ij| (a loose bound:
  // on heart_scale times 1e6 the actual error is 20-60 times smaller). Each feature that misses the
  // tolerance must miss by less than that for rounding to be a possible explanation.
  const core::Vector g = data.transpose_times((point.alpha.array() * data.labels().array()).matrix());
  const core::Vector magnitude = data.absolute_transpose_times(point.alpha.cwiseAbs());
  const double epsilon = std::numeric_limits<double>::epsilon();
  for (Eigen::Index j = 0; j < g.size(); ++j) {
    const double miss = std::max(dual_infeasibility(costs.plus[j] - g[j]), dual_infeasibility(costs.minus[j] + g[j]));
    if (miss > limit && miss > epsilon * magnitude[j]) return "";
  }
  return "; each feature that misses does so by less than machine epsilon times sum_i alpha_i |x_ij|, a bound on "
         "the rounding of its reduced cost: at this data's scale the miss may be rounding alone; features on a common "
         "scale (fit -t standardize or -t scale, a config's transforms) avoid the question";
}

double largest_magnitude(const core::Vector& v) { return v.size() > 0 ? v.cwiseAbs().maxCoeff() : 0.0; }

bool LpCertificate::within(double relative_tolerance) const {
  return reduced_cost_violation <= relative_tolerance && constraint_violation <= relative_tolerance &&
         std::abs(relative_gap) <= relative_tolerance && relative_gap + hinge_shortfall <= relative_tolerance;
}

double feature_cost_scale(const StepLpCosts& costs) {
  const double features = std::max({largest_magnitude(costs.plus), largest_magnitude(costs.minus), std::abs(costs.linf)});
  return features > 0.0 ? features : largest_magnitude(costs.slack);  // RLP: no feature costs, scale by C
}

LpCertificate certify(const core::Dataset& data, const StepLpCosts& costs, const StepLpPoint& point, bool linf) {
  const core::Vector& y = data.labels();
  return certify(data, costs, point, linf, margins(data, point.w_plus - point.w_minus, point.b),
                 data.transpose_times((point.alpha.array() * y.array()).matrix()));
}

LpCertificate certify(const core::Dataset& data, const StepLpCosts& costs, const StepLpPoint& point, bool linf,
                      const core::Vector& t, const core::Vector& g) {
  const core::Vector& y = data.labels();
  // Each violation relative to the size of what it is measured against: reduced costs of feature columns
  // against the largest feature cost, of slack columns (and the multipliers' signs) against their C_i,
  // b's against the largest C_i, rows against the largest margin, the gap against the objective's size
  // (below). A tiny lambda is then held to the same relative accuracy as lambda = 1.
  const double tiny = std::numeric_limits<double>::min();
  const double feature_scale = std::max(feature_cost_scale(costs), tiny);
  const double slack_scale = std::max(largest_magnitude(costs.slack), tiny);
  const double margin_scale = std::max(largest_magnitude(costs.margin), tiny);
  double primal = 0.0;  // absolute first, scaled at the end
  double shortfall = 0.0;
  for (Eigen::Index i = 0; i < t.size(); ++i) {
    const double row_violation = costs.margin[i] - t[i] - point.xi[i];
    primal = std::max({primal, row_violation, -point.xi[i]});
    shortfall += costs.slack[i] * std::max(0.0, row_violation);
  }
  primal = std::max({primal, -point.w_plus.minCoeff(), -point.w_minus.minCoeff(), 0.0});
  const core::Vector beta = linf ? point.beta : core::Vector::Zero(g.size());
  double feature_dual = 0.0;
  for (Eigen::Index j = 0; j < g.size(); ++j) {
    feature_dual = std::max({feature_dual, dual_infeasibility(costs.plus[j] - g[j] - beta[j]),
                             dual_infeasibility(costs.minus[j] + g[j] - beta[j]), beta[j]});
  }
  // The slacks' reduced costs and the multipliers' signs each relative to their own C_i: with class
  // weights C_i can span 1e8, and an error relative to the largest would hide one on a light example.
  double slack_dual = std::abs(costs.bias - point.alpha.dot(y)) / slack_scale;
  for (Eigen::Index i = 0; i < t.size(); ++i) {
    const double scale = costs.slack[i] > 0.0 ? costs.slack[i] : slack_scale;
    slack_dual = std::max({slack_dual, dual_infeasibility(costs.slack[i] - point.alpha[i]) / scale, -point.alpha[i] / scale});
  }
  double primal_objective = costs.plus.dot(point.w_plus) + costs.minus.dot(point.w_minus) + costs.bias * point.b +
                            costs.slack.dot(point.xi);
  // The gap's scale: the objective's size with every feature cost at the largest. A DCA step's
  // objective can nearly vanish (near convergence the tilt cancels the penalty's cost of every nonzero
  // w_j), and the gap cannot be small relative to that, only relative to what the costs could make.
  // The slacks count at their own C_i (sum_i C_i |xi_i|, here C_max sum_i (C_i / C_max) |xi_i|), and b at
  // the smallest positive C_i.
  const core::Vector relative_slack_cost = costs.slack / slack_scale;
  double smallest_slack_cost = 1.0;
  for (const double c : relative_slack_cost) {
    if (c > 0.0) smallest_slack_cost = std::min(smallest_slack_cost, c);
  }
  double gap_scale = feature_scale * (point.w_plus.lpNorm<1>() + point.w_minus.lpNorm<1>()) +
                     slack_scale * (relative_slack_cost.cwiseProduct(point.xi.cwiseAbs()).sum() +
                                    smallest_slack_cost * std::abs(point.b));
  if (linf) {
    for (Eigen::Index j = 0; j < g.size(); ++j) primal = std::max(primal, point.w_plus[j] + point.w_minus[j] - point.nu);
    feature_dual = std::max(feature_dual, dual_infeasibility(costs.linf + beta.sum()));
    primal_objective += costs.linf * point.nu;
    gap_scale += feature_scale * std::abs(point.nu);
  }
  LpCertificate certificate;
  certificate.reduced_cost_violation = std::max(feature_dual / feature_scale, slack_dual);
  certificate.feature_dual_infeasibility = feature_dual;
  certificate.slack_reduced_cost_violation = slack_dual;
  certificate.constraint_violation = primal / margin_scale;
  const double dual_objective = point.alpha.dot(costs.margin);
  certificate.dual_objective = dual_objective;
  certificate.relative_gap = (primal_objective - dual_objective) / std::max(gap_scale, tiny);
  certificate.hinge_shortfall = shortfall / std::max(gap_scale, tiny);
  return certificate;
}

StepLpPoint with_best_bias(const core::Dataset& data, const StepLpCosts& costs, const StepLpPoint& point) {
  const core::Vector& y = data.labels();
  const core::Vector s = margins(data, point.w_plus - point.w_minus, 0.0).cwiseProduct(y);  // x_i.w
  // Example i's hinge is active for b below its kink k_i = m_i - s_i (y_i = 1), or above k_i = -(m_i + s_i)
  // (y_i = -1). The slope in b rises by C_i at every kink, from c_b - sum_{y_i = 1} C_i below them all.
  std::vector<std::pair<double, double>> kinks;  // (k_i, C_i)
  double slope = costs.bias;
  for (Eigen::Index i = 0; i < s.size(); ++i) {
    if (!(costs.slack[i] > 0.0)) continue;
    kinks.emplace_back(y[i] > 0 ? costs.margin[i] - s[i] : -(costs.margin[i] + s[i]), costs.slack[i]);
    if (y[i] > 0) slope -= costs.slack[i];
  }
  if (kinks.empty()) return point;
  std::sort(kinks.begin(), kinks.end());
  // The first kink where the slope turns nonnegative: 0 is in its subgradient. A dual-feasible alpha makes
  // the slope <= 0 below every kink and >= 0 above them all; where rounding leaves it a hair off at an end
  // (a DCA tilt c_b equal to one class's sum of C_i, summed in another order), the end kink is the
  // minimizer exact arithmetic gives. The certificate decides whether the point is kept.
  double chosen = kinks.back().first;
  for (const auto& [kink, weight] : kinks) {
    slope += weight;
    if (slope >= 0.0) {
      chosen = kink;
      break;
    }
  }
  StepLpPoint shifted = point;
  shifted.b = chosen;
  const core::Vector t = (s + core::Vector::Constant(s.size(), chosen)).cwiseProduct(y);  // y_i (x_i.w + b)
  for (Eigen::Index i = 0; i < t.size(); ++i) shifted.xi[i] = std::max(0.0, costs.margin[i] - t[i]);
  return shifted;
}

bool certified_with_best_bias(const core::Dataset& data, const StepLpCosts& costs, bool linf, double tolerance,
                              StepLpPoint& point, LpCertificate& certificate) {
  const StepLpPoint shifted = with_best_bias(data, costs, point);
  const LpCertificate shifted_certificate = certify(data, costs, shifted, linf);
  if (!shifted_certificate.within(tolerance)) return false;
  point = shifted;
  certificate = shifted_certificate;
  return true;
}

GeneratedLp::GeneratedLp(const core::Dataset& data, bool linf, GenerationSettings settings)
    : data_(data), linf_(linf), settings_(settings) {}

GeneratedLp::~GeneratedLp() = default;

double GeneratedLp::cost_of(const Column& column, const StepLpCosts& costs) const {
  switch (column.role) {
    case Role::bias: return costs.bias - bias_tilt_;
    case Role::linf: return costs.linf;
    case Role::plus: return costs.plus[column.index] - tilt_[column.index];
    case Role::minus: return costs.minus[column.index] + tilt_[column.index];
    case Role::slack: return costs.slack[column.index];
  }
  return 0.0;
}

// The first LP: b [and nu], and the initial examples' rows and slacks; no feature yet.
void GeneratedLp::start_model(const StepLpCosts& costs) {
  const auto n = static_cast<Eigen::Index>(data_.n());
  const auto d = static_cast<Eigen::Index>(data_.d());
  example_row_.assign(static_cast<std::size_t>(n), -1);
  example_slack_column_.assign(static_cast<std::size_t>(n), -1);
  feature_column_.assign(static_cast<std::size_t>(d), -1);
  linf_row_.assign(static_cast<std::size_t>(d), -1);
  feature_dropped_.assign(static_cast<std::size_t>(d), 0);
  example_dropped_.assign(static_cast<std::size_t>(n), 0);
  folded_.assign(static_cast<std::size_t>(n), 0);
  tilt_ = core::Vector::Zero(d);
  // Initial examples: all of them, the seed (example_seed.hpp), or every k-th (an even spread over the
  // file); both classes included. The seed's examples at alpha_i = C_i are folded (above).
  std::vector<Eigen::Index> initial;
  Seed seed;
  const auto wanted = static_cast<Eigen::Index>(settings_.initial_examples);
  if (!settings_.generate_examples || n <= wanted) {
    initial.resize(static_cast<std::size_t>(n));
    std::iota(initial.begin(), initial.end(), Eigen::Index{0});
  } else {
    const int epochs = data_.is_sparse() ? settings_.seed_epochs : settings_.dense_seed_epochs;
    if (epochs > 0) seed = seed_working_sets(data_, costs, {epochs, settings_.sharpened_seed_epochs});
    seeded_examples_ = seed.examples.size();
    std::vector<Eigen::Index> to_fold;
    if (settings_.fold_examples) {
      to_fold = seed.at_cost;
      std::set_difference(seed.examples.begin(), seed.examples.end(), seed.at_cost.begin(), seed.at_cost.end(),
                          std::back_inserter(initial));
    } else {
      initial = seed.examples;
    }
    if (seed.examples.empty()) {
      for (Eigen::Index k = 0; k < wanted; ++k) initial.push_back(k * n / wanted);
    }
    // Each class gets a row, taken back from the folded ones if need be (an LP without rows is one Clp
    // does not solve cleanly: "empty problem").
    for (const double label : {1.0, -1.0}) {
      const auto has_label = [&](Eigen::Index i) { return data_.labels()[i] == label; };
      if (std::any_of(initial.begin(), initial.end(), has_label)) continue;
      for (Eigen::Index i = 0; i < n; ++i) {
        if (!has_label(i)) continue;
        to_fold.erase(std::remove(to_fold.begin(), to_fold.end(), i), to_fold.end());
        initial.push_back(i);
        break;
      }
    }
    if (!seed.examples.empty()) {
      seed_features_ = seed.features.size();
      seed_rows_ = initial.size();
    }
    if (!to_fold.empty()) {
      box_ = settings_.box_per_seed_weight * std::max(seed.largest_weight, weight_scale(costs));
      fold(to_fold, costs);
    }
  }
  optim::LpProblem empty;
  empty.matrix.resize(0, 0);
  empty.matrix.makeCompressed();
  empty.column_lower = empty.column_upper = empty.row_lower = empty.row_upper = empty.cost = core::Vector();
  lp_ = std::make_unique<optim::ClpLp>(empty, optim::LpOptions{settings_.max_simplex_iterations, 0.0, settings_.budget});
  optim::LpBlock fixed;
  fixed.add(-box_, box_, cost_of({Role::bias, 0}, costs));
  columns_.push_back({Role::bias, 0});
  if (linf_) {
    fixed.add(0.0, kInfinity, costs.linf);
    columns_.push_back({Role::linf, 0});
  }
  lp_->add_columns(fixed);
  add_examples(initial, costs);
  if (!seed.features.empty()) add_features(seed.features, costs);
  margins_in_lp_ = costs.margin;
}

// Each new example brings its slack xi_i (a column without entries yet, cost C_i >= 0: dual feasibility
// kept) and its row y_i (x_i.(w+ - w-) + b) + xi_i >= m_i over the working features.
void GeneratedLp::add_examples(const std::vector<Eigen::Index>& examples, const StepLpCosts& costs) {
  optim::LpBlock slacks;
  for (const Eigen::Index i : examples) {
    slacks.add(0.0, kInfinity, costs.slack[i]);
    example_slack_column_[static_cast<std::size_t>(i)] = static_cast<Eigen::Index>(columns_.size());
    columns_.push_back({Role::slack, i});
  }
  lp_->add_columns(slacks);
  std::vector<Eigen::Index> working_features;
  for (Eigen::Index j = 0; j < static_cast<Eigen::Index>(feature_column_.size()); ++j) {
    if (feature_column_[static_cast<std::size_t>(j)] >= 0) working_features.push_back(j);
  }
  optim::LpBlock rows;
  const core::Vector& y = data_.labels();
  for (const Eigen::Index i : examples) {
    rows.add(costs.margin[i], kInfinity);
    const auto add_feature_entry = [&](Eigen::Index j, double x) {
      const Eigen::Index column = feature_column_[static_cast<std::size_t>(j)];
      if (column < 0 || x == 0.0) return;
      rows.add_entry(static_cast<int>(column), y[i] * x);
      rows.add_entry(static_cast<int>(column + 1), -y[i] * x);
    };
    if (data_.is_sparse()) {
      for (core::SparseMatrix::InnerIterator it(data_.sparse(), i); it; ++it) add_feature_entry(it.col(), it.value());
    } else {
      for (const Eigen::Index j : working_features) add_feature_entry(j, data_.dense()(i, j));
    }
    rows.add_entry(0, y[i]);  // b
    rows.add_entry(static_cast<int>(example_slack_column_[static_cast<std::size_t>(i)]), 1.0);
    example_row_[static_cast<std::size_t>(i)] = static_cast<Eigen::Index>(rows_.size());
    rows_.push_back({false, i});
  }
  // The examples added after a solve are violated ones; their rows enter with basic row slacks and their
  // xi_i at zero (reduced cost C_i >= 0), so the basis stays dual feasible and dual simplex continues.
  // Measured on the gisette-shaped set, this took half the iterations of making each xi_i basic and
  // continuing by primal simplex (2252 against 5106 after the first batch).
  lp_->add_rows(rows);
}

// Each new feature brings w+_j and w-_j with entries +-y_i x_ij in the working example rows, and for
// l_inf its row w+_j + w-_j - nu <= 0 (satisfied at w_j = 0: primal feasibility kept).
void GeneratedLp::add_features(const std::vector<Eigen::Index>& features, const StepLpCosts& costs) {
  const core::Vector& y = data_.labels();
  // entries[k]: (row, y_i x_ij) of features[k] in the working examples.
  std::vector<std::vector<std::pair<int, double>>> entries(features.size());
  if (data_.is_sparse()) {
    std::vector<Eigen::Index> position(feature_column_.size(), -1);
    for (std::size_t k = 0; k < features.size(); ++k) position[static_cast<std::size_t>(features[k])] = static_cast<Eigen::Index>(k);
    for (std::size_t row = 0; row < rows_.size(); ++row) {
      if (rows_[row].linf) continue;
      const Eigen::Index i = rows_[row].index;
      for (core::SparseMatrix::InnerIterator it(data_.sparse(), i); it; ++it) {
        const Eigen::Index k = position[static_cast<std::size_t>(it.col())];
        if (k >= 0 && it.value() != 0.0) entries[static_cast<std::size_t>(k)].emplace_back(static_cast<int>(row), y[i] * it.value());
      }
    }
  } else {
    for (std::size_t k = 0; k < features.size(); ++k) {
      for (std::size_t row = 0; row < rows_.size(); ++row) {
        if (rows_[row].linf) continue;
        const double x = data_.dense()(rows_[row].index, features[k]);
        if (x != 0.0) entries[k].emplace_back(static_cast<int>(row), y[rows_[row].index] * x);
      }
    }
  }
  optim::LpBlock columns;
  for (std::size_t k = 0; k < features.size(); ++k) {
    const Eigen::Index j = features[k];
    feature_column_[static_cast<std::size_t>(j)] = static_cast<Eigen::Index>(columns_.size());
    for (const Role role : {Role::plus, Role::minus}) {
      const double sign = role == Role::plus ? 1.0 : -1.0;
      columns.add(0.0, box_, cost_of({role, j}, costs));
      for (const auto& [row, value] : entries[k]) columns.add_entry(row, sign * value);
      columns_.push_back({role, j});
    }
  }
  lp_->add_columns(columns);
  if (!linf_) return;
  optim::LpBlock rows;
  for (const Eigen::Index j : features) {
    rows.add(-kInfinity, 0.0);
    const auto column = static_cast<int>(feature_column_[static_cast<std::size_t>(j)]);
    rows.add_entry(column, 1.0);
    rows.add_entry(column + 1, 1.0);
    rows.add_entry(1, -1.0);  // nu
    linf_row_[static_cast<std::size_t>(j)] = static_cast<Eigen::Index>(rows_.size());
    rows_.push_back({true, j});
  }
  lp_->add_rows(rows);
}

core::Vector GeneratedLp::costs_of_columns(const StepLpCosts& costs) const {
  core::Vector cost(static_cast<Eigen::Index>(columns_.size()));
  for (std::size_t k = 0; k < columns_.size(); ++k) cost[static_cast<Eigen::Index>(k)] = cost_of(columns_[k], costs);
  return cost;
}

void GeneratedLp::update_costs_and_margins(const StepLpCosts& costs) {
  if (slack_in_tilt_.size() > 0 && costs.slack != slack_in_tilt_) refold(costs);  // (size 0: nothing ever folded)
  lp_->set_cost(costs_of_columns(costs));
  if (costs.margin == margins_in_lp_) return;
  core::Vector row_lower(static_cast<Eigen::Index>(rows_.size()));
  for (std::size_t row = 0; row < rows_.size(); ++row) {
    row_lower[static_cast<Eigen::Index>(row)] = rows_[row].linf ? -kInfinity : costs.margin[rows_[row].index];
  }
  lp_->set_row_lower(row_lower);
  margins_in_lp_ = costs.margin;
}

StepLpPoint GeneratedLp::point_of(const core::Vector& primal, const core::Vector& row_duals,
                                   const StepLpCosts& costs) const {
  const auto n = static_cast<Eigen::Index>(data_.n());
  const auto d = static_cast<Eigen::Index>(data_.d());
  StepLpPoint point{core::Vector::Zero(d), core::Vector::Zero(d), 0.0, core::Vector::Zero(n), 0.0,
                    core::Vector::Zero(n), linf_ ? core::Vector::Zero(d) : core::Vector()};
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    const double value = primal[static_cast<Eigen::Index>(k)];
    const Eigen::Index index = columns_[k].index;
    switch (columns_[k].role) {
      case Role::bias: point.b = value; break;
      case Role::linf: point.nu = value; break;
      case Role::plus: point.w_plus[index] = value; break;
      case Role::minus: point.w_minus[index] = value; break;
      case Role::slack: point.xi[index] = value; break;
    }
  }
  for (std::size_t row = 0; row < rows_.size(); ++row) {
    (rows_[row].linf ? point.beta : point.alpha)[rows_[row].index] = row_duals[static_cast<Eigen::Index>(row)];
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    if (folded_[static_cast<std::size_t>(i)]) point.alpha[i] = costs.slack[i];  // xi_i waits for the margins
  }
  return point;
}

std::vector<Eigen::Index> GeneratedLp::violated_examples(const core::Vector& t, const StepLpCosts& costs) const {
  const double tolerance = settings_.relative_tolerance * largest_magnitude(costs.margin);
  std::vector<std::pair<double, Eigen::Index>> candidates;
  for (Eigen::Index i = 0; i < t.size(); ++i) {
    const double violation = costs.margin[i] - t[i];
    const auto k = static_cast<std::size_t>(i);
    if (example_row_[k] < 0 && !folded_[k] && violation > tolerance) candidates.emplace_back(violation, i);
  }
  return most_violated(std::move(candidates), std::max(settings_.min_example_batch, rows_.size()));
}

// A weight that moves some margin by the largest m_i: the box's floor, so that a seed at w = 0 (its b
// then rounding noise) does not make a box too small for any folded example to be released from.
double GeneratedLp::weight_scale(const StepLpCosts& costs) const {
  const double largest_entry = data_.is_sparse() ? largest_magnitude(data_.sparse().coeffs())
                                                 : largest_magnitude(data_.dense().reshaped());
  const double margin = largest_magnitude(costs.margin);
  return largest_entry > 0.0 ? margin / largest_entry : margin;
}

void GeneratedLp::fold(const std::vector<Eigen::Index>& examples, const StepLpCosts& costs) {
  for (const Eigen::Index i : examples) folded_[static_cast<std::size_t>(i)] = 1;
  refold(costs);
}

void GeneratedLp::refold(const StepLpCosts& costs) {
  const core::Vector& y = data_.labels();
  core::Vector weighted = core::Vector::Zero(y.size());  // C_i y_i of the folded examples
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    if (folded_[static_cast<std::size_t>(i)]) weighted[i] = costs.slack[i] * y[i];
  }
  tilt_ = data_.transpose_times(weighted);
  bias_tilt_ = weighted.sum();
  slack_in_tilt_ = costs.slack;
}

std::vector<Eigen::Index> GeneratedLp::released_examples(const core::Vector& t, const StepLpCosts& costs) const {
  const double tolerance = settings_.relative_tolerance * largest_magnitude(costs.margin);
  std::vector<Eigen::Index> released;
  for (Eigen::Index i = 0; i < t.size(); ++i) {
    if (folded_[static_cast<std::size_t>(i)] && t[i] - costs.margin[i] > tolerance) released.push_back(i);
  }
  return released;
}

// Released examples get their rows and slacks; the costs lose their terms. Their rows hold at the last
// point with xi_i = 0 (their margins are above m_i), so primal simplex continues.
void GeneratedLp::release(const std::vector<Eigen::Index>& examples, const StepLpCosts& costs) {
  for (const Eigen::Index i : examples) folded_[static_cast<std::size_t>(i)] = 0;
  refold(costs);
  lp_->set_cost(costs_of_columns(costs));
  add_examples(examples, costs);
  if (std::find(folded_.begin(), folded_.end(), 1) == folded_.end()) set_box(kInfinity);  // nothing left to bound
}

// The box binds when a weight sits on it with a reduced cost that asks to go further (p_j - g_j < 0 for
// w_j > 0, q_j + g_j < 0 for w_j < 0, c_b != y'alpha for b; alpha and g include the folded examples).
// A weight on the box with a zero reduced cost lies on a ray of optima (a DCA step can have one: a
// ramp's tilt cancelling a hinge), and the point is as optimal as any other on it.
bool GeneratedLp::box_binds(const StepLpPoint& point, const StepLpCosts& costs, const core::Vector& g) const {
  if (!std::isfinite(box_)) return false;
  const double edge = box_ * (1.0 - 1e-9);
  const double tolerance = settings_.relative_tolerance * feature_cost_scale(costs);
  for (Eigen::Index j = 0; j < g.size(); ++j) {
    const double w = point.w_plus[j] - point.w_minus[j];
    const double beta = linf_ ? point.beta[j] : 0.0;  // the l_inf row's multiplier enters both reduced costs
    if ((w >= edge && costs.plus[j] - g[j] - beta < -tolerance) || (-w >= edge && costs.minus[j] + g[j] - beta < -tolerance)) {
      return true;
    }
  }
  const double bias_reduced_cost = costs.bias - point.alpha.dot(data_.labels());
  const double slack_tolerance = settings_.relative_tolerance * largest_magnitude(costs.slack);
  return std::abs(point.b) >= edge && std::abs(bias_reduced_cost) > slack_tolerance;
}

void GeneratedLp::set_box(double box) {
  box_ = box;
  const auto count = static_cast<Eigen::Index>(columns_.size());
  core::Vector lower = core::Vector::Zero(count);
  core::Vector upper = core::Vector::Constant(count, kInfinity);
  for (Eigen::Index k = 0; k < count; ++k) {
    switch (columns_[static_cast<std::size_t>(k)].role) {
      case Role::bias: lower[k] = -box_; upper[k] = box_; break;
      case Role::plus:
      case Role::minus: upper[k] = box_; break;
      case Role::linf:
      case Role::slack: break;
    }
  }
  lp_->set_column_bounds(lower, upper);
}

GeneratedLp::PricedFeatures GeneratedLp::priced_features(const core::Vector& g, const StepLpCosts& costs) const {
  const double tolerance = settings_.relative_tolerance * feature_cost_scale(costs);
  std::vector<std::pair<double, Eigen::Index>> candidates;
  std::size_t working = 0;
  for (Eigen::Index j = 0; j < g.size(); ++j) {
    if (feature_column_[static_cast<std::size_t>(j)] >= 0) {
      ++working;
      continue;
    }
    // Outside the working set beta_j = 0: reduced costs p_j - g_j (w+_j) and q_j + g_j (w-_j).
    const double violation = std::max(g[j] - costs.plus[j], -g[j] - costs.minus[j]);
    if (violation > tolerance) candidates.emplace_back(violation, j);
  }
  const std::size_t pricing_out = candidates.size();
  return {most_violated(std::move(candidates), std::max(settings_.min_feature_batch, working / 4)), pricing_out, working};
}

void GeneratedLp::drop_far_from_optimum(const StepLpPoint& point, const StepLpCosts& costs, const core::Vector& g,
                                        const core::Vector& t, GenerationResult& result) {
  if (linf_ || settings_.drop_fraction <= 0.0) return;
  // Each test below is strict: a column with a positive reduced cost is nonbasic, a row with a positive
  // slack has its slack basic; removing them leaves a basis of the smaller LP, optimal there too.
  const double feature_margin = settings_.drop_fraction * feature_cost_scale(costs);
  const double slack_margin = settings_.drop_fraction * largest_magnitude(costs.slack);
  const double row_margin = settings_.drop_fraction * largest_magnitude(costs.margin);
  std::vector<int> dropped_rows, dropped_columns;
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    const Eigen::Index j = columns_[k].index;
    if (columns_[k].role != Role::plus || feature_dropped_[static_cast<std::size_t>(j)] >= settings_.max_drops) continue;
    if (point.w_plus[j] == 0.0 && point.w_minus[j] == 0.0 && costs.plus[j] - g[j] > feature_margin &&
        costs.minus[j] + g[j] > feature_margin) {
      ++feature_dropped_[static_cast<std::size_t>(j)];
      dropped_columns.push_back(static_cast<int>(k));
      dropped_columns.push_back(static_cast<int>(k + 1));  // w-_j
    }
  }
  for (std::size_t row = 0; row < rows_.size() && t.size() > 0; ++row) {
    const Eigen::Index i = rows_[row].index;
    if (rows_[row].linf || example_dropped_[static_cast<std::size_t>(i)] >= settings_.max_drops) continue;
    if (point.alpha[i] == 0.0 && point.xi[i] == 0.0 && t[i] - costs.margin[i] > row_margin &&
        costs.slack[i] > slack_margin) {
      ++example_dropped_[static_cast<std::size_t>(i)];
      dropped_rows.push_back(static_cast<int>(row));
      dropped_columns.push_back(static_cast<int>(example_slack_column_[static_cast<std::size_t>(i)]));
    }
  }
  if (dropped_rows.empty() && dropped_columns.empty()) return;
  result.dropped_examples += dropped_rows.size();
  result.dropped_features += (dropped_columns.size() - dropped_rows.size()) / 2;
  lp_->remove(dropped_rows, dropped_columns);
  const auto erase_marked = [](auto& items, std::vector<int> marked) {
    std::sort(marked.begin(), marked.end());
    std::size_t kept = 0, next_marked = 0;
    for (std::size_t k = 0; k < items.size(); ++k) {
      if (next_marked < marked.size() && static_cast<std::size_t>(marked[next_marked]) == k) {
        ++next_marked;
      } else {
        items[kept++] = items[k];
      }
    }
    items.resize(kept);
  };
  erase_marked(columns_, dropped_columns);
  erase_marked(rows_, dropped_rows);
  index_lp();
}

void GeneratedLp::index_lp() {
  std::fill(example_row_.begin(), example_row_.end(), -1);
  std::fill(example_slack_column_.begin(), example_slack_column_.end(), -1);
  std::fill(feature_column_.begin(), feature_column_.end(), -1);
  std::fill(linf_row_.begin(), linf_row_.end(), -1);
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    const auto index = static_cast<std::size_t>(columns_[k].index);
    if (columns_[k].role == Role::slack) example_slack_column_[index] = static_cast<Eigen::Index>(k);
    if (columns_[k].role == Role::plus) feature_column_[index] = static_cast<Eigen::Index>(k);
  }
  for (std::size_t row = 0; row < rows_.size(); ++row) {
    const auto index = static_cast<std::size_t>(rows_[row].index);
    (rows_[row].linf ? linf_row_ : example_row_)[index] = static_cast<Eigen::Index>(row);
  }
}

GenerationResult GeneratedLp::solve(const StepLpCosts& costs, HandOverBudget budget) {
  if (!lp_) start_model(costs);
  update_costs_and_margins(costs);
  bool all_examples_added = !settings_.generate_examples;
  GenerationResult result = generate(costs, all_examples_added, budget);
  if (result.handed_over || !core::has_solution(result.status)) return result;
  const double tolerance = settings_.relative_tolerance * 10;
  // The restricted LPs are solved warm, round after round. Like the full LP's (convex_step.cpp), a warm
  // solve can end optimal for Clp with rows violated inside its tolerance that heavy C_i turn into a hinge
  // the certificate refuses: b is re-chosen for the answer's w (certified_with_best_bias), and if that is
  // not certified either, generation runs once more from the slack basis (its first round; b re-chosen
  // there too), whose answer replaces the warm one only when it is certified. No cold retry after the round
  // limit: that is no rounding.
  const bool at_round_limit = result.rounds >= settings_.max_rounds;
  const auto certified = [&](GenerationResult& answer) {
    return answer.status == core::Status::optimal &&
           (answer.certificate.within(tolerance) ||
            certified_with_best_bias(data_, costs, linf_, tolerance, answer.point, answer.certificate));
  };
  const bool retry = result.status == core::Status::optimal && !certified(result) && !at_round_limit;
  if (retry) {
    lp_->forget_basis();
    GenerationResult cold = generate(costs, all_examples_added, HandOverBudget{});
    // The row counts the work of both tries, whichever answer it keeps.
    const auto add_work = [](const GenerationResult& from, GenerationResult& to) {
      to.rounds += from.rounds;
      to.simplex_iterations += from.simplex_iterations;
      to.dropped_features += from.dropped_features;
      to.dropped_examples += from.dropped_examples;
      to.released_examples += from.released_examples;
      to.box_widenings += from.box_widenings;
    };
    if (certified(cold)) {
      cold.fell_back_to_cold = true;
      add_work(result, cold);
      return cold;
    }
    add_work(cold, result);
  }
  if (result.status == core::Status::optimal && !result.certificate.within(tolerance)) {
    result.status = core::Status::solved_inaccurate;
    result.message = fmt::format("generation {}: {}{}{}", at_round_limit ? "stopped at its round limit" : "not certified",
                                 result.certificate.describe(),
                                 rounding_limit_note(data_, costs, result.point, result.certificate, tolerance),
                                 retry ? "; generated once more from the slack basis, not certified either" : "");
  }
  return result;
}

GenerationResult GeneratedLp::generate(const StepLpCosts& costs, bool& all_examples_added, HandOverBudget budget) {
  GenerationResult result;
  core::Vector g, t;  // X'(alpha y) and the margins at result.point, once computed: certify reuses them
  // Past the caller's budget, unanswered (between rounds, or inside a round's restricted LP, which
  // solve_within stops there): the full LP is left to the caller.
  const bool hands_over = budget.pass > 0;
  // The pass's budget and, until a restricted LP of this model has had an answer (the first round, or the
  // first two where the first is unbounded), budget.first_round: where the first answer alone takes that
  // many, the working set is already too large for generation to pay (convex_step.hpp,
  // kHandOverFirstRoundIterations). A restricted LP may take what is left of it.
  const bool first_round_binds = budget.first_round > 0 && budget.first_round < budget.pass;
  const auto first_round_holds = [&] { return first_round_binds && !answered_; };
  const auto iteration_budget = [&] { return first_round_holds() ? budget.first_round : budget.pass; };
  const auto budget_spent = [&] { return hands_over && result.simplex_iterations >= iteration_budget(); };
  const auto iterations_allowed = [&] {
    return hands_over ? std::max(1L, iteration_budget() - result.simplex_iterations) : 0L;
  };
  const auto hand_over = [&](const std::string& when) {
    result.handed_over = true;
    result.status = core::Status::iteration_limit;
    result.message = "generation handed over to the crossover " + when;
    core::progress("LP {}", result.message);
    result.point = StepLpPoint();
    return result;
  };
  const auto after_work = [&] {
    return fmt::format("after {} simplex iterations in {} rounds{}", result.simplex_iterations, result.rounds,
                       first_round_holds() ? " (the first round's budget)" : "");
  };
  // Persistent pricing (lp_generation.hpp): the features pricing out when the first batch entered, and the
  // batches entered since; checked once, at the first pricing after the last of those batches.
  std::size_t first_pricing_out = 0;
  int feature_batches = 0;
  bool persistence_checked = false;
  const auto pricing_persists = [&](const PricedFeatures& priced) {
    if (!hands_over || feature_batches < kPersistenceBatches || persistence_checked) return false;
    persistence_checked = true;
    const std::size_t square_basis = std::min(priced.pricing_out, rows_.size());
    return priced.pricing_out > priced.batch.size() && square_basis >= kSquareBasisReach * priced.working &&
           static_cast<double>(priced.pricing_out) >= kPersistentPricingShare * static_cast<double>(first_pricing_out);
  };
  const std::size_t seed_block = std::min(seed_features_, seed_rows_);  // lp_generation.hpp, kSeedSquareBlock
  if (hands_over && seed_block >= kSeedSquareBlock && data_.n() <= kSeedRowsReach * seed_block) {
    return hand_over(fmt::format("at its seed, before any LP: the seed keeps {} features and {} of {} examples with rows",
                                 seed_features_, seed_rows_, data_.n()));
  }
  const auto round_line = [&](const std::string& outcome) {
    core::progress("LP generation round {}: restricted LP of {} rows and {} columns, {} simplex iterations so far, {}",
                   result.rounds, rows_.size(), columns_.size(), result.simplex_iterations, outcome);
  };
  for (result.rounds = 1;; ++result.rounds) {
    const long allowed = iterations_allowed();
    const optim::LpSolution solution = lp_->solve_within(allowed);
    result.simplex_iterations += solution.iterations;
    result.fell_back_to_cold = result.fell_back_to_cold || solution.fell_back_to_cold;
    result.status = solution.status;
    result.message = solution.message;
    if (solution.status == core::Status::iteration_limit && allowed > 0 && solution.iterations >= allowed) {
      return hand_over(after_work());
    }
    if (solution.status == core::Status::unbounded && !all_examples_added) {
      // Too few examples bound the restricted LP (a tilt on b, one class): take them all and go on.
      std::vector<Eigen::Index> rest;
      for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(example_row_.size()); ++i) {
        if (example_row_[static_cast<std::size_t>(i)] < 0 && !folded_[static_cast<std::size_t>(i)]) rest.push_back(i);
      }
      add_examples(rest, costs);
      all_examples_added = true;
      continue;
    }
    if (!core::has_solution(solution.status)) {
      round_line("ended " + core::to_string(solution.status));
      return result;
    }
    result.point = point_of(solution.primal, solution.row_duals, costs);
    answered_ = true;
    g.resize(0);
    t.resize(0);
    if (result.rounds >= settings_.max_rounds) {
      round_line(fmt::format("the last round allowed ({})", settings_.max_rounds));
      break;
    }
    // Features first: until the working features are priced out, w is far from its optimum and nearly
    // every example would look violated.
    g = data_.transpose_times((result.point.alpha.array() * data_.labels().array()).matrix());
    const PricedFeatures priced = priced_features(g, costs);
    round_line(fmt::format("features pricing out: {}", priced.pricing_out));
    const std::vector<Eigen::Index>& features = priced.batch;
    if (pricing_persists(priced)) {
      return hand_over(after_work() + fmt::format(", {} features still pricing out after {} batches ({} after the first LP)",
                                                  priced.pricing_out, kPersistenceBatches, first_pricing_out));
    }
    if (features.empty() && settings_.generate_examples) t = margins(data_, result.point.w_plus - result.point.w_minus, result.point.b);
    const auto examples = t.size() > 0 ? violated_examples(t, costs) : std::vector<Eigen::Index>();
    const auto released = t.size() > 0 ? released_examples(t, costs) : std::vector<Eigen::Index>();
    // The box is widened only when nothing else changes: a wrongly folded example usually explains it.
    const bool widen = t.size() > 0 && examples.empty() && released.empty() && result.box_widenings < kMaxBoxWidenings &&
                       box_binds(result.point, costs, g);
    if (features.empty() && examples.empty() && released.empty() && !widen) break;
    if (budget_spent()) return hand_over(after_work());
    // Once the unbounded fallback below has taken every example, none is dropped again.
    drop_far_from_optimum(result.point, costs, g, all_examples_added || !features.empty() ? core::Vector() : t, result);
    if (!features.empty()) {
      if (feature_batches++ == 0) first_pricing_out = priced.pricing_out;
      add_features(features, costs);
    } else {
      // One change a round, so that one simplex continues warm: a release changes costs (primal simplex),
      // new rows and a wider box move the primal point (dual simplex); both at once would go cold.
      if (!released.empty()) {
        result.released_examples += released.size();
        release(released, costs);
      } else {
        add_examples(examples, costs);
        if (widen) {
          set_box(10.0 * box_);
          ++result.box_widenings;
        }
      }
    }
  }
  result.seeded_examples = seeded_examples_;
  result.working_examples = static_cast<std::size_t>(
      std::count_if(example_row_.begin(), example_row_.end(), [](Eigen::Index row) { return row >= 0; }));
  result.working_features = static_cast<std::size_t>(
      std::count_if(feature_column_.begin(), feature_column_.end(), [](Eigen::Index column) { return column >= 0; }));
  if (g.size() == 0) g = data_.transpose_times((result.point.alpha.array() * data_.labels().array()).matrix());
  if (t.size() == 0) t = margins(data_, result.point.w_plus - result.point.w_minus, result.point.b);
  for (Eigen::Index i = 0; i < t.size(); ++i) {
    if (!folded_[static_cast<std::size_t>(i)]) continue;
    result.point.xi[i] = std::max(0.0, costs.margin[i] - t[i]);
    ++result.folded_examples;
  }
  result.certificate = certify(data_, costs, result.point, linf_, t, g);
  return result;
}

}  // namespace sparsesvm::models
