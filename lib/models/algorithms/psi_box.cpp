#include "models/algorithms/psi_box.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

#include "core/progress.hpp"
#include "optim/clp_lp.hpp"
#include "optim/mip_builder.hpp"

namespace sparsesvm::models {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Polishing rounds per point: each is one LP; on psi's simulation it settles in 2-4.
constexpr int kMaxPolishRounds = 20;
// PSI-2: rounds of tangents at a node's point before its bound is taken as it stands; polishing goes on
// longer, as its answer must come close to the QP's to lower F.
constexpr int kNodeTangentRounds = 10;
constexpr int kPolishTangentRounds = 50;
// A coordinate of a box this narrow (relative to its size) is not split further.
constexpr double kSmallestWidth = 1e-10;
// Reduced-cost tightening (tighten_box): a node's LP is solved again on its cut box at most this often,
// and only after a cut of at least kWorthResolving of a width; cuts clear the incumbent's F by
// kTighteningMargin relative to it.
constexpr int kTighteningRounds = 1;
constexpr double kWorthResolving = 0.1;
constexpr double kTighteningMargin = 1e-6;
// The LP's point is at a bound when within this much of it, relative to the bound and the width.
constexpr double kAtBound = 1e-9;
// Open boxes keep their parent's basis (about 5 bytes an example) up to this much in all; beyond it a
// child starts cold: 10^6 open boxes at n = 300 would otherwise hold 1.5 GB.
constexpr std::size_t kMostStoredBasisBytes = std::size_t{64} << 20;

// What the LP of a box assumes of example i: t_i in [lower, upper] (its envelope's range); required: the
// row lower <= t_i is part of the LP (the box alone does not imply it); dropped: the example pays 2 and
// puts no condition on t_i.
struct ExampleRange {
  double lower = -kInfinity;
  double upper = kInfinity;
  bool required = false;
  bool dropped = false;
};

// An interval of t_i = z_i.(w, b) over the points of the box whose penalty Omega(w) is at most `radius`'s
// (||w|| <= radius in Omega's norm): the box's own interval, cut by the ball's, in which z_i.w moves by
// at most radius times the dual norm of z_i's weight part.
std::pair<double, double> margin_range(const PsiShape& shape, const Box& box, double radius, Eigen::Index i) {
  const Eigen::Index d = shape.z.cols() - 1;
  double lower = 0.0, upper = 0.0;
  for (Eigen::Index j = 0; j <= d; ++j) {
    const double zij = shape.z(i, j);
    lower += zij * (zij > 0.0 ? box.lower[j] : box.upper[j]);
    upper += zij * (zij > 0.0 ? box.upper[j] : box.lower[j]);
  }
  const auto weights = shape.z.row(i).head(d);
  const double reach = d == 0 ? 0.0 : radius * dual_norm(weights, shape.l2);
  const double zb = shape.z(i, d);
  const double bias_low = zb * (zb > 0.0 ? box.lower[d] : box.upper[d]);
  const double bias_high = zb * (zb > 0.0 ? box.upper[d] : box.lower[d]);
  return {std::max(lower, bias_low - reach), std::min(upper, bias_high + reach)};
}

// The radius of the ball of Omega's norm that holds every w with F(w, b) <= value: rho Omega(w) <= F.
double weight_radius(const PsiShape& shape, double value) {
  const double bound = std::max(0.0, value) / shape.rho;
  return shape.l2 ? std::sqrt(bound) : bound;
}

// Columns: w (d, the box's bounds), their penalty columns (l1: a_j >= |w_j|; l2: s_j >= w_j^2 through
// tangents), b, then one column phi_i >= envelope_i(t_i) per example (fixed at 0 where the envelope is
// constant). Rows: the penalty's (l1: 2 per weight; l2: 3 tangents per weight, at the box's ends and
// middle, and one at `anchor` when it has d entries), then 4 slots per example: t_i >= its range's lower
// end where that is required, and one per line of its envelope. The LP holds the rows of the slots in use;
// a basis is passed on in the layout of all slots (an unused slot's row basic), so that a child's solve
// can start from its parent's basis.
class Relaxation {
 public:
  static constexpr std::size_t kRowsPerExample = 4;
  static constexpr std::size_t kMostEnvelopeLines = kRowsPerExample - 1;

  Relaxation(const PsiShape& shape, const Box& box, const std::vector<ExampleRange>& ranges, const core::Vector& anchor = {})
      : shape_(shape), d_(shape.z.cols() - 1), lp_(2 * d_ + 1 + shape.z.rows()) {
    for (Eigen::Index j = 0; j < d_; ++j) {
      lp_.set_column(j, box.lower[j], box.upper[j]);
      const double largest = std::max(std::abs(box.lower[j]), std::abs(box.upper[j]));
      lp_.set_column(d_ + j, 0.0, shape.l2 ? largest * largest : largest, shape.rho);
      if (!shape.l2) {
        for (const double sign : {-1.0, 1.0}) {
          const Eigen::Index row = add_row(0.0);
          lp_.entries.emplace_back(row, d_ + j, 1.0);
          lp_.entries.emplace_back(row, j, sign);
        }
        continue;
      }
      for (const double p : {box.lower[j], box.upper[j], 0.5 * (box.lower[j] + box.upper[j])}) add_tangent({j, p});
      if (anchor.size() == d_) add_tangent({j, anchor[j]});
    }
    lp_.set_column(b(), box.lower[d_], box.upper[d_]);
    for (Eigen::Index i = 0; i < shape.z.rows(); ++i) lp_.set_column(phi(i), 0.0, 0.0);
    for (Eigen::Index i = 0; i < shape.z.rows() && !infeasible_; ++i) add_example(i, ranges[static_cast<std::size_t>(i)]);
  }

  bool infeasible() const { return infeasible_; }
  Eigen::Index b() const { return 2 * d_; }
  Eigen::Index phi(Eigen::Index i) const { return 2 * d_ + 1 + i; }

  // Solves (PSI-2: adding tangents where s_j falls short of w_j^2, until none does, the bound reaches
  // `enough`, or after tangent_rounds); the bound and the point, or solved = false. A non-empty `start`
  // is the basis of another LP of this layout (ClpLp::start_from).
  struct Answer {
    bool solved = false;
    bool infeasible = false;  // Clp proved the LP infeasible: the box holds no point of the problem
    double bound = -kInfinity;
    core::Vector w;
    double b = 0.0;
    core::Vector reduced_costs;  // of w's d columns, then of b's
    std::vector<unsigned char> basis;  // of the first solve, before any tangent was added (the layout's)
  };
  Answer solve(double enough, int tangent_rounds, long& iterations, const std::vector<unsigned char>& start = {}) {
    Answer answer;
    optim::ClpLp clp(lp_.problem());
    if (!start.empty()) clp.start_from(from_layout(start));
    for (int round = 0;; ++round) {
      const optim::LpSolution solution = clp.solve();
      iterations += solution.iterations;
      answer.infeasible = solution.status == core::Status::infeasible;
      if (solution.status != core::Status::optimal) return answer;
      if (round == 0) answer.basis = to_layout(clp.basis());
      answer.bound = solution.objective + lp_.constant;
      answer.w = solution.primal.head(d_);
      answer.b = solution.primal[b()];
      answer.reduced_costs.resize(d_ + 1);
      answer.reduced_costs << solution.reduced_costs.head(d_), solution.reduced_costs[b()];
      answer.solved = true;
      if (!shape_.l2 || answer.bound >= enough || round >= tangent_rounds) return answer;
      optim::LpBlock tangents;
      for (Eigen::Index j = 0; j < d_; ++j) {
        const double w = solution.primal[j];
        if (!short_of_square(solution.primal[d_ + j], w)) continue;
        tangents.add(-w * w, kInfinity);
        tangents.add_entry(static_cast<int>(d_ + j), 1.0);
        tangents.add_entry(static_cast<int>(j), -2.0 * w);
      }
      if (tangents.size() == 0) return answer;
      clp.add_rows(tangents);
    }
  }

 private:
  // A basis of this LP in the layout of all slots, and back.
  std::vector<unsigned char> to_layout(const std::vector<unsigned char>& basis) const {
    const auto columns = static_cast<std::size_t>(lp_.cost.size());
    std::vector<unsigned char> layout(columns + slots_, static_cast<unsigned char>(kBasic));
    std::copy_n(basis.begin(), columns, layout.begin());
    for (std::size_t row = 0; row < slot_of_row_.size(); ++row) layout[columns + slot_of_row_[row]] = basis[columns + row];
    return layout;
  }
  std::vector<unsigned char> from_layout(const std::vector<unsigned char>& layout) const {
    const auto columns = static_cast<std::size_t>(lp_.cost.size());
    std::vector<unsigned char> basis(layout.begin(), layout.begin() + static_cast<std::ptrdiff_t>(columns));
    for (const std::size_t slot : slot_of_row_) basis.push_back(layout[columns + slot]);
    return basis;
  }

  Eigen::Index add_row(double lower) {
    slot_of_row_.push_back(slots_++);
    return lp_.add_row(lower, kInfinity);
  }
  void add_tangent(const Tangent& tangent) {
    slot_of_row_.push_back(slots_++);
    add_tangent_row(lp_, tangent, tangent.j, d_ + tangent.j);
  }

  // The row lower <= scale t_i + phi_term phi.
  void add_margin_row(Eigen::Index i, double scale, Eigen::Index phi, double lower) {
    const Eigen::Index row = add_row(lower);
    for (Eigen::Index j = 0; j <= d_; ++j) {
      const double value = scale * shape_.z(i, j);
      if (value != 0.0) lp_.entries.emplace_back(row, j == d_ ? b() : j, value);
    }
    if (phi >= 0) lp_.entries.emplace_back(row, phi, 1.0);
  }

  void skip_slots(std::size_t count) { slots_ += count; }

  // Example i's kRowsPerExample slots; its phi column stays fixed at 0 unless its envelope has a slope.
  void add_example(Eigen::Index i, const ExampleRange& range) {
    const double c = shape_.example_weights[i];
    if (range.dropped) {
      lp_.constant += 2.0 * c;
      skip_slots(kRowsPerExample);
      return;
    }
    if (range.lower > range.upper) {
      infeasible_ = true;
      return;
    }
    if (range.required) {
      add_margin_row(i, 1.0, -1, range.lower);
    } else {
      skip_slots(1);
    }
    const std::vector<Line> lines = c == 0.0 ? std::vector<Line>{{0.0, 0.0}} : psi_envelope(range.lower, range.upper, shape_.psi_a);
    if (lines.size() == 1 && lines[0].slope == 0.0) {
      lp_.constant += c * lines[0].intercept;
      skip_slots(kMostEnvelopeLines);
      return;
    }
    // phi_i >= slope t_i + intercept for each line: phi_i - slope t_i >= intercept.
    lp_.set_column(phi(i), 0.0, kInfinity, c);
    for (const Line& line : lines) add_margin_row(i, -line.slope, phi(i), line.intercept);
    skip_slots(kMostEnvelopeLines - lines.size());
  }

  static constexpr unsigned char kBasic = 1;  // Clp's status of a basic variable

  const PsiShape& shape_;
  Eigen::Index d_;
  std::size_t slots_ = 0;                 // rows of the layout so far
  std::vector<std::size_t> slot_of_row_;  // each row's slot
  optim::MipBuilder lp_;
  bool infeasible_ = false;
};

}  // namespace

PsiShape psi_shape(const core::Dataset& data, const core::Vector& example_weights, double rho, double psi_a, bool l2,
                   const std::vector<bool>& fixed_to_region3) {
  const auto n = static_cast<Eigen::Index>(data.n());
  const auto d = static_cast<Eigen::Index>(data.d());
  PsiShape shape;
  shape.z.resize(n, d + 1);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) shape.z(i, j) = data.value(static_cast<std::size_t>(i), static_cast<std::size_t>(j));
  }
  shape.center = core::Vector::Zero(d);
  if (n > 0) shape.center = 0.5 * (shape.z.leftCols(d).colwise().minCoeff() + shape.z.leftCols(d).colwise().maxCoeff()).transpose();
  for (Eigen::Index i = 0; i < n; ++i) {
    const double y = data.labels()[i];
    shape.z.row(i).head(d) = y * (shape.z.row(i).head(d) - shape.center.transpose());
    shape.z(i, d) = y;
  }
  shape.example_weights = example_weights;
  shape.rho = rho;
  shape.psi_a = psi_a;
  shape.l2 = l2;
  shape.least_margin = core::Vector::Constant(n, -kInfinity);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (fixed_to_region3[static_cast<std::size_t>(i)]) shape.least_margin[i] = 1.0;
  }
  return shape;
}

double psi(double t, double a) { return t < 0.0 ? 2.0 : a * std::max(0.0, 1.0 - t); }

double box_iteration_weight(std::size_t examples) { return std::sqrt(static_cast<double>(examples) / 100.0) / 20.0; }

namespace {

// The margins of (w, b) (b the model's bias).
core::Vector shape_margins(const PsiShape& shape, const core::Vector& w, double b) {
  const Eigen::Index d = w.size();
  return shape.z.leftCols(d) * w + shape.z.col(d) * (b + w.dot(shape.center));
}

}  // namespace

double psi_objective(const PsiShape& shape, const core::Vector& w, double b) {
  const core::Vector t = shape_margins(shape, w, b);
  double value = shape.rho * (shape.l2 ? w.squaredNorm() : w.lpNorm<1>());
  for (Eigen::Index i = 0; i < t.size(); ++i) value += shape.example_weights[i] * psi(t[i], shape.psi_a);
  return value;
}

std::vector<Line> psi_envelope(double lower, double upper, double a) {
  // psi's corners inside [lower, upper], left to right; at the jump its lower value a.
  std::vector<std::pair<double, double>> points = {{lower, psi(lower, a)}};
  const auto add = [&](double t, double value) {
    if (t > points.back().first) points.emplace_back(t, value);
  };
  if (lower < 0.0 && upper >= 0.0) add(0.0, a);
  if (upper > 1.0) add(1.0, 0.0);
  add(upper, psi(upper, a));
  // The lower convex hull (Andrew's monotone chain): drop a corner on or above the segment past it.
  std::vector<std::pair<double, double>> hull;
  for (const auto& p : points) {
    while (hull.size() >= 2) {
      const auto& [t0, v0] = hull[hull.size() - 2];
      const auto& [t1, v1] = hull.back();
      if ((t1 - t0) * (p.second - v0) - (v1 - v0) * (p.first - t0) > 0.0) break;
      hull.pop_back();
    }
    hull.push_back(p);
  }
  if (hull.size() == 1) return {{0.0, hull[0].second}};
  std::vector<Line> lines;
  for (std::size_t k = 0; k + 1 < hull.size(); ++k) {
    const double slope = (hull[k + 1].second - hull[k].second) / (hull[k + 1].first - hull[k].first);
    lines.push_back({slope, hull[k].second - slope * hull[k].first});
  }
  return lines;
}

PsiPoint polish(const PsiShape& shape, const Box& box, PsiPoint point, long& iterations) {
  for (int round = 0; round < kMaxPolishRounds; ++round) {
    const core::Vector t = shape_margins(shape, point.w, point.b);
    std::vector<ExampleRange> ranges(static_cast<std::size_t>(t.size()));
    for (Eigen::Index i = 0; i < t.size(); ++i) {
      ExampleRange& range = ranges[static_cast<std::size_t>(i)];
      if (t[i] < 0.0 && shape.least_margin[i] == -kInfinity) {
        range.dropped = true;
        continue;
      }
      const auto [lower, upper] = margin_range(shape, box, weight_radius(shape, point.value), i);
      range.lower = std::max({lower, 0.0, shape.least_margin[i]});
      range.upper = upper;
      range.required = true;
    }
    Relaxation relaxation(shape, box, ranges, point.w);
    if (relaxation.infeasible()) return point;
    const Relaxation::Answer answer = relaxation.solve(-kInfinity, kPolishTangentRounds, iterations);
    if (!answer.solved) return point;
    const double b = answer.b - answer.w.dot(shape.center);
    const double value = psi_objective(shape, answer.w, b);
    if (!(value < point.value - 1e-12 * std::max(1.0, std::abs(point.value)))) return point;
    point = {answer.w, b, value};
  }
  return point;
}

Box root_box(const PsiShape& shape, const PsiPoint& point) {
  const Eigen::Index d = shape.z.cols() - 1;
  const double radius = weight_radius(shape, point.value);
  double farthest = 0.0;  // max_k ||x_k - c|| in the norm dual to Omega's
  for (Eigen::Index i = 0; i < shape.z.rows() && d > 0; ++i) {
    const auto weights = shape.z.row(i).head(d);
    farthest = std::max(farthest, dual_norm(weights, shape.l2));
  }
  const double centred_b = point.b + point.w.dot(shape.center);
  const double bias = std::max(radius * farthest + 1.0, std::abs(centred_b));
  Box box{core::Vector::Constant(d + 1, -radius), core::Vector::Constant(d + 1, radius)};
  box.lower[d] = -bias;
  box.upper[d] = bias;
  return box;
}

namespace {

struct Node {
  Box box;
  double bound = -kInfinity;
  long order = 0;  // creation order: ties in bound go to the older node, so the search is deterministic
  std::vector<unsigned char> basis;  // the parent's LP's, where its LP was solved: this node's starts from it
};
struct HigherBound {
  bool operator()(const Node& a, const Node& b) const {
    return a.bound != b.bound ? a.bound > b.bound : a.order > b.order;
  }
};

// The ranges of the margins over a node's box, and how many are undecided (L_i < 0 <= U_i).
std::vector<ExampleRange> node_ranges(const PsiShape& shape, const Box& box, double radius, std::vector<bool>& undecided) {
  const auto n = static_cast<std::size_t>(shape.z.rows());
  std::vector<ExampleRange> ranges(n);
  undecided.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    const auto [lower, upper] = margin_range(shape, box, radius, static_cast<Eigen::Index>(i));
    const double least = shape.least_margin[static_cast<Eigen::Index>(i)];
    ranges[i] = {std::max(lower, least), upper, least > lower, false};
    undecided[i] = ranges[i].lower < 0.0 && ranges[i].upper >= 0.0;
  }
  return ranges;
}

// The coordinate to bisect: the widest, weighted by its pull on the undecided margins (on all margins
// when none is undecided); -1 when every coordinate is too narrow to split.
Eigen::Index branching_coordinate(const PsiShape& shape, const Box& box, const std::vector<bool>& undecided) {
  const bool any_undecided = std::find(undecided.begin(), undecided.end(), true) != undecided.end();
  Eigen::Index best = -1;
  double best_score = 0.0;
  for (Eigen::Index j = 0; j < shape.z.cols(); ++j) {
    const double width = box.upper[j] - box.lower[j];
    const double size = std::max({1.0, std::abs(box.lower[j]), std::abs(box.upper[j])});
    if (width <= kSmallestWidth * size) continue;
    double pull = 0.0;
    for (Eigen::Index i = 0; i < shape.z.rows(); ++i) {
      if (!any_undecided || undecided[static_cast<std::size_t>(i)]) pull += std::abs(shape.z(i, j));
    }
    const double score = width * pull;
    if (score > best_score) {
      best = j;
      best_score = score;
    }
  }
  return best;
}

// Reduced-cost tightening (a MIP code's reduced-cost fixing, on the box): the node's LP is a relaxation
// of F over its box, and its optimal duals stay dual feasible when a column's bound moves, so where a
// coordinate sits at its lower bound with reduced cost r > 0, the LP over the box cut to coordinate >=
// lower + delta has value at least bound + r delta, and every point there has F at least that. The part
// of the box where that reaches `target` holds no point below it and is cut off (at an upper bound with
// r < 0 likewise). A coordinate counts as at a bound only where the LP's point is there too (a reduced
// cost within the solver's tolerance of 0 can carry either sign). Returns the largest share of a
// coordinate's width cut.
double tighten_box(const Relaxation::Answer& answer, double target, Box& box) {
  double largest_cut = 0.0;
  const double room = target - answer.bound;
  if (!(room > 0.0)) return largest_cut;
  const auto at = [](double value, double bound, double width) {
    return std::abs(value - bound) <= kAtBound * std::max({1.0, std::abs(bound), width});
  };
  for (Eigen::Index j = 0; j < box.lower.size(); ++j) {
    const double r = answer.reduced_costs[j];
    const double width = box.upper[j] - box.lower[j];
    if (!(std::abs(r) * width > room)) continue;  // F could stay below target across the whole width (or r is NaN)
    const double value = j + 1 < box.lower.size() ? answer.w[j] : answer.b;
    if (!at(value, r > 0.0 ? box.lower[j] : box.upper[j], width)) continue;
    const double reach = room / std::abs(r);
    if (r > 0.0) {
      box.upper[j] = box.lower[j] + reach;
    } else {
      box.lower[j] = box.upper[j] - reach;
    }
    largest_cut = std::max(largest_cut, 1.0 - reach / width);
  }
  return largest_cut;
}

}  // namespace

BoxSearchResult box_search(const PsiShape& shape, const Box& box, const PsiPoint& start, double relative_gap,
                           MipBudget& budget) {
  BoxSearchResult result;
  const double weight = box_iteration_weight(static_cast<std::size_t>(shape.z.rows()));
  long iterations = 0;
  result.best = polish(shape, box, start, iterations);
  budget.spend_box(0, iterations, weight);
  const auto threshold = [&] { return result.best.value - relative_gap * std::max(1.0, std::abs(result.best.value)); };
  double closed_floor = kInfinity;  // the lowest bound of the nodes closed without being split
  std::priority_queue<Node, std::vector<Node>, HigherBound> open;
  long created = 0;
  open.push({box, -kInfinity, created++, {}});
  std::size_t stored_basis_bytes = 0;  // of the open boxes
  std::vector<bool> undecided;
  while (!open.empty() && !budget.exhausted()) {
    if (open.top().bound >= threshold()) break;  // every open node is pruned
    Node node = open.top();
    open.pop();
    stored_basis_bytes -= node.basis.size();
    ++result.nodes;
    if (result.nodes % core::kProgressNodeInterval == 0) {
      core::progress("psi box search: {} boxes, {} open; incumbent F {:.10g}, lowest open bound {:.10g}", result.nodes,
                     open.size() + 1, result.best.value, node.bound);
    }
    // Only points below the incumbent's F matter: their weights lie in its ball, and the box shrinks to it.
    const double radius = weight_radius(shape, result.best.value);
    bool empty = false;
    for (Eigen::Index j = 0; j + 1 < node.box.lower.size(); ++j) {
      node.box.lower[j] = std::max(node.box.lower[j], -radius);
      node.box.upper[j] = std::min(node.box.upper[j], radius);
      empty = empty || node.box.lower[j] > node.box.upper[j];
    }
    // The node's LP, again on the box its reduced costs cut while they cut a tenth of a width or more.
    double bound = node.bound;
    bool closed = empty;
    for (int round = 0; !closed; ++round) {
      const std::vector<ExampleRange> ranges = node_ranges(shape, node.box, radius, undecided);
      Relaxation relaxation(shape, node.box, ranges);
      if (relaxation.infeasible()) {  // no point below the incumbent's F in this box
        closed = true;
        break;
      }
      iterations = 0;
      const Relaxation::Answer answer = relaxation.solve(threshold(), kNodeTangentRounds, iterations, node.basis);
      budget.spend_box(0, iterations, weight);
      if (!answer.basis.empty()) node.basis = answer.basis;
      if (answer.infeasible) {
        closed = true;
        break;
      }
      if (!answer.solved) break;
      bound = std::max(bound, answer.bound);
      const double b = answer.b - answer.w.dot(shape.center);
      const double value = psi_objective(shape, answer.w, b);
      if (value < result.best.value) {
        iterations = 0;
        result.best = polish(shape, box, {answer.w, b, value}, iterations);
        budget.spend_box(0, iterations, weight);
      }
      if (bound >= threshold()) break;
      // The cut must clear the incumbent by a margin, against the duals' rounding.
      const double target = result.best.value + kTighteningMargin * std::max(1.0, std::abs(result.best.value));
      if (tighten_box(answer, target, node.box) < kWorthResolving || round == kTighteningRounds) break;
    }
    budget.spend_box(1, 0, weight);
    if (closed) continue;
    if (bound >= threshold()) {
      closed_floor = std::min(closed_floor, bound);
      continue;
    }
    const Eigen::Index j = branching_coordinate(shape, node.box, undecided);
    if (j < 0) {
      ++result.unresolved_boxes;
      closed_floor = std::min(closed_floor, bound);
      continue;
    }
    const double middle = 0.5 * (node.box.lower[j] + node.box.upper[j]);
    // The children's start, within kMostStoredBasisBytes.
    if (stored_basis_bytes + 2 * node.basis.size() > kMostStoredBasisBytes) node.basis.clear();
    stored_basis_bytes += 2 * node.basis.size();
    Node left{node.box, bound, created++, node.basis};
    left.box.upper[j] = middle;
    node.box.lower[j] = middle;
    open.push(std::move(left));
    open.push({std::move(node.box), bound, created++, std::move(node.basis)});
  }
  const double open_floor = open.empty() ? kInfinity : open.top().bound;
  result.lower_bound = std::min({result.best.value, closed_floor, open_floor});
  result.proven = result.unresolved_boxes == 0 && open_floor >= threshold();
  return result;
}

}  // namespace sparsesvm::models
