// psi-learning by mixed integer programming ([PSI] 3.2-3.3): F(w, b) = rho Omega(w) + sum_i c_i psi(t_i)
// with Omega = ||w||_1 (PSI-1: one MILP) or ||w||_2^2 (PSI-2: an outer-approximation loop of MILPs),
// t_i = y_i (w.x_i + b). Per example, binaries (delta2, delta3) pick psi's region and (z1, z2, z3) place
// t_i in it ([PSI] (3.7)-(3.13); psi counts margins within 1e-6 below 0 as 0, losses/psi.cpp):
//   t_i = z1 + z2 + z3,  delta3 <= delta2,  delta3 <= z2 <= delta2,  z3 <= (M_i - 1) delta3,
//   -z1 <= M_i (1 - delta2)   (the paper's 2M is looser than needed: z1 >= -M_i already),
//   z1 in [-M_i, 0], z2 in [0, 1], z3 in [0, M_i - 1],   psi(t_i) = 2 - psi_a z2 - (2 - psi_a) delta2.
//
// Big-M from the data (option big_m = 0). The start (the SVM of the same C) is feasible with value F0,
// so an optimum has rho Omega(w) <= F0: ||w||_1 <= F0 / rho, or ||w||_2 <= sqrt(F0 / rho), hence
// |w.x_i| <= R_i = that bound times ||x_i||_inf (l1) or ||x_i||_2 (l2). For fixed w, F depends on b only
// through psi's regions, each a closed interval of b; some optimal b lies at an end of its interval, so
// |b| <= R + 1 with R = max_i R_i, and |t_i| <= M_i = R_i + R + 1. The bounds are columns bounds too
// (|w_j|, |b|), which the relaxations need. A fixed big_m reproduces the paper's M = 1000 instead.
//
// PSI-2: s >= ||w||^2 is replaced by tangent cuts s >= 2 w_k.w - ||w_k||^2 (below the paraboloid), one
// at the start and one at each MILP answer w_k. Each MILP's bound is a lower bound on the optimum, each
// w_k's true F an upper bound; the loop ends when they meet within relative_gap.
//
// Restricted psi-learning ([PSI] 3.2-3.3, option restrict_margin > 0): examples the start classifies with
// y f(x) > restrict_margin are fixed to region 3 (delta2 = delta3 = 1). PSI-1r and PSI-2r start from the
// SVM whose C is best on the tuning part (methods.hpp, start_tuned); statistic start_C says which C.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "core/errors.hpp"
#include "models/algorithms/algorithm.hpp"
#include "models/algorithms/mip_support.hpp"
#include "optim/cbc_mip.hpp"
#include "optim/mip_builder.hpp"

namespace sparsesvm::models {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Column layout of the MIP: the weights (l1: w+ then w-; l2: w, then s >= ||w||^2), b, then five
// columns per example.
struct Layout {
  Eigen::Index d = 0;
  Eigen::Index n = 0;
  bool l2 = false;
  Eigen::Index weight_columns() const { return l2 ? d + 1 : 2 * d; }
  Eigen::Index s() const { return d; }  // l2 only
  Eigen::Index b() const { return weight_columns(); }
  Eigen::Index z1(Eigen::Index i) const { return b() + 1 + 5 * i; }
  Eigen::Index z2(Eigen::Index i) const { return z1(i) + 1; }
  Eigen::Index z3(Eigen::Index i) const { return z1(i) + 2; }
  Eigen::Index delta2(Eigen::Index i) const { return z1(i) + 3; }
  Eigen::Index delta3(Eigen::Index i) const { return z1(i) + 4; }
  Eigen::Index columns() const { return b() + 1 + 5 * n; }
};

// The bounds of the derivation above.
struct Bounds {
  double weight = kInfinity;     // on ||w||_1 (l1) or ||w||_2 (l2)
  double bias = kInfinity;       // on |b|
  core::Vector big_m;            // M_i
};

Bounds derive_bounds(const core::Dataset& data, bool l2, double rho, double start_value, double fixed_big_m,
                     const core::Vector& start_margins, double start_b) {
  const auto n = static_cast<Eigen::Index>(data.n());
  Bounds bounds;
  bounds.big_m = core::Vector::Constant(n, fixed_big_m);
  if (fixed_big_m > 0.0) {
    bounds.bias = fixed_big_m;
    return bounds;
  }
  bounds.weight = l2 ? std::sqrt(start_value / rho) : start_value / rho;
  core::Vector reach(n);  // R_i
  for (Eigen::Index i = 0; i < n; ++i) {
    double norm = 0.0;
    for (std::size_t j = 0; j < data.d(); ++j) {
      const double x = std::abs(data.value(static_cast<std::size_t>(i), j));
      norm = l2 ? norm + x * x : std::max(norm, x);
    }
    reach[i] = bounds.weight * (l2 ? std::sqrt(norm) : norm);
  }
  const double largest = n > 0 ? reach.maxCoeff() : 0.0;
  // The start must stay feasible: its own |b| and |t_i| widen the bounds where they exceed them.
  bounds.bias = std::max(largest + 1.0, std::abs(start_b));
  for (Eigen::Index i = 0; i < n; ++i) bounds.big_m[i] = std::max(reach[i] + bounds.bias, std::abs(start_margins[i]));
  return bounds;
}

void add_weight_columns(optim::MipBuilder& mip, const Layout& at, const Bounds& bounds, double rho) {
  const Eigen::Index d = at.d;
  if (at.l2) {
    mip.column_lower.head(d).setConstant(-bounds.weight);
    mip.column_upper.head(d).setConstant(bounds.weight);
    mip.column_upper[at.s()] = bounds.weight * bounds.weight;
    mip.cost[at.s()] = rho;
  } else {
    mip.column_upper.head(2 * d).setConstant(bounds.weight);
    mip.cost.head(2 * d).setConstant(rho);
  }
  mip.column_lower[at.b()] = -bounds.bias;
  mip.column_upper[at.b()] = bounds.bias;
}

// The columns and rows (3.7)-(3.13) of example i.
void add_example(optim::MipBuilder& mip, const core::Dataset& data, const Layout& at, Eigen::Index i, double c, double m,
                 double psi_a, bool fixed_to_region3) {
  mip.set_column(at.z1(i), -m, 0.0);
  mip.set_column(at.z2(i), 0.0, 1.0, -psi_a * c);  // (3.7): c_i (2 - a z2 - (2 - a) delta2)
  mip.set_column(at.z3(i), 0.0, m - 1.0);
  mip.set_binary(at.delta2(i), -(2.0 - psi_a) * c);
  mip.set_binary(at.delta3(i));
  if (fixed_to_region3) mip.column_lower[at.delta2(i)] = mip.column_lower[at.delta3(i)] = 1.0;
  mip.constant += 2.0 * c;
  const double y = data.labels()[i];
  const Eigen::Index margin = mip.add_row(0.0, 0.0);  // (3.8) y_i (x_i.w + b) - z1 - z2 - z3 = 0
  for (std::size_t j = 0; j < data.d(); ++j) {
    const double x = data.value(static_cast<std::size_t>(i), j);
    if (x == 0.0) continue;
    mip.entries.emplace_back(margin, static_cast<Eigen::Index>(j), y * x);
    if (!at.l2) mip.entries.emplace_back(margin, at.d + static_cast<Eigen::Index>(j), -y * x);
  }
  mip.entries.emplace_back(margin, at.b(), y);
  for (const Eigen::Index z : {at.z1(i), at.z2(i), at.z3(i)}) mip.entries.emplace_back(margin, z, -1.0);
  mip.add_row({{at.delta3(i), 1.0}, {at.delta2(i), -1.0}}, -kInfinity, 0.0);      // (3.9)
  mip.add_row({{at.delta3(i), 1.0}, {at.z2(i), -1.0}}, -kInfinity, 0.0);          // (3.10), left
  mip.add_row({{at.z2(i), 1.0}, {at.delta2(i), -1.0}}, -kInfinity, 0.0);          // (3.10), right
  mip.add_row({{at.z3(i), 1.0}, {at.delta3(i), -(m - 1.0)}}, -kInfinity, 0.0);    // (3.11)
  mip.add_row({{at.z1(i), -1.0}, {at.delta2(i), m}}, -kInfinity, m);              // (3.12), with M_i
}

// PSI-2's tangent cut at w_k: s - 2 w_k.w >= -||w_k||^2.
void add_cut(optim::MipBuilder& mip, const Layout& at, const core::Vector& w) {
  const Eigen::Index row = mip.add_row(-w.squaredNorm(), kInfinity);
  mip.entries.emplace_back(row, at.s(), 1.0);
  for (Eigen::Index j = 0; j < at.d; ++j) {
    if (w[j] != 0.0) mip.entries.emplace_back(row, j, -2.0 * w[j]);
  }
}

// The MIP point of (w, b): each example in the region of its margin.
core::Vector mip_point(const core::Dataset& data, const Layout& at, const core::Vector& w, double b) {
  core::Vector x = core::Vector::Zero(at.columns());
  if (at.l2) {
    x.head(at.d) = w;
    x[at.s()] = w.squaredNorm();
  } else {
    x.head(at.d) = w.cwiseMax(0.0);
    x.segment(at.d, at.d) = (-w).cwiseMax(0.0);
  }
  x[at.b()] = b;
  const core::Vector t = margins(data, w, b);
  for (Eigen::Index i = 0; i < at.n; ++i) {
    if (t[i] < 0.0) {
      x[at.z1(i)] = t[i];
    } else if (t[i] <= 1.0) {
      x[at.z2(i)] = t[i];
      x[at.delta2(i)] = 1.0;
    } else {
      x[at.z2(i)] = 1.0;
      x[at.z3(i)] = t[i] - 1.0;
      x[at.delta2(i)] = x[at.delta3(i)] = 1.0;
    }
  }
  return x;
}

core::Vector weights_of(const core::Vector& x, const Layout& at) {
  return at.l2 ? core::Vector(x.head(at.d)) : core::Vector(x.head(at.d) - x.segment(at.d, at.d));
}

class PsiMipAlgorithm : public MipAlgorithm {
 public:
  std::string id() const override { return "psi_mip"; }
  std::string description() const override {
    return "psi-learning as a MIP in Cbc ([PSI] (3.14)): one MILP for the l1 penalty, an outer-approximation "
           "loop of MILPs for l2^2; data-derived big-M; warm-started from the SVM";
  }
  const ParameterTable& options() const override {
    static const ParameterTable table = [] {
      ParameterTable options = mip_search_options();
      options.insert(options.end(), {
        {"big_m", "0: each M_i derived from the data and the start's objective; > 0: this M for every example "
                  "([PSI] 3.4: 1000)", 0.0, 0.0, 1e9, false, false, Scale::log, Regularizes::neither,
         ParameterKind::solver},
        {"restrict_margin", "restricted psi ([PSI] 3.3): examples with y f_start(x) above it are fixed to region 3; "
                            "0: none", 0.0, 0.0, 1e6, false, false, Scale::linear, Regularizes::neither,
         ParameterKind::solver},
        {"max_cuts", "PSI-2: outer-approximation rounds before stopping with status feasible", 200.0, 1.0, 1e5,
         false, false, Scale::log, Regularizes::neither, ParameterKind::solver, true},
      });
      return options;
    }();
    return table;
  }

  std::string unsupported(const Objective& objective) const override {
    if (objective.loss->id().rfind("psi[", 0) != 0) {
      return fmt::format("psi_mip solves the psi loss only, not {}", objective.loss->id());
    }
    const Regularizer r = objective.penalty->convex_regularizer();
    if (!objective.penalty->is_convex() || (r != Regularizer::l1 && r != Regularizer::l2_squared)) {
      return fmt::format("psi_mip takes the l1 or l2^2 penalty, not {}", objective.penalty->id());
    }
    return "";
  }

  FitReport fit(const Objective& objective, Workspace& workspace, const Start& start,
                const Hyperparameters& options) const override {
    if (const std::string reason = unsupported(objective); !reason.empty()) throw core::InputError(reason);
    const auto clock_start = std::chrono::steady_clock::now();
    const core::Dataset& data = workspace.data();
    const Layout at{static_cast<Eigen::Index>(data.d()), static_cast<Eigen::Index>(data.n()),
                    objective.penalty->convex_regularizer() == Regularizer::l2_squared};
    const double rho = objective.penalty_weight * objective.penalty->convex_weight();
    const double psi_a = objective.loss->value(0.0);  // psi(0) = a
    const MipStart used = mip_start(objective, data, start);
    const core::LinearModel& start_model = used.model;
    const core::Vector start_w = start_model.w();
    const double start_b = start_model.b();
    const core::Vector start_margins = margins(data, start_w, start_b);
    const double start_value = objective.value(data, start_w, start_b);
    const Bounds bounds = derive_bounds(data, at.l2, rho, start_value, options.at("big_m"), start_margins, start_b);

    optim::MipBuilder mip(at.columns());
    add_weight_columns(mip, at, bounds, rho);
    const double restrict_margin = options.at("restrict_margin");
    int fixed = 0;
    for (Eigen::Index i = 0; i < at.n; ++i) {
      const bool to_region3 = restrict_margin > 0.0 && start_margins[i] > restrict_margin;
      fixed += to_region3 ? 1 : 0;
      add_example(mip, data, at, i, objective.example_weights[i], bounds.big_m[i], psi_a, to_region3);
    }
    if (at.l2) add_cut(mip, at, start_w);

    FitReport report;
    report.objective_trace = {start_value};
    report.model = core::LinearModel(start_w, start_b);
    report.objective = start_value;
    double lower_bound = -kInfinity;
    long nodes = 0;
    int cuts = at.l2 ? 1 : 0;
    const double time_limit = options.at("time_limit");
    const double tolerance = options.at("relative_gap");
    const auto max_cuts = static_cast<int>(options.at("max_cuts"));
    report.status = core::Status::feasible;
    report.stop_reason = "time limit";
    for (int round = 0;; ++round) {
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count();
      if (elapsed >= time_limit) break;
      const optim::MipSolution answer =
          optim::solve_mip(mip.problem(), mip.integers, mip_point(data, at, report.model.w(), report.model.b()),
                           {time_limit - elapsed, tolerance});
      ++report.inner_solves;
      ++report.iterations;
      nodes += answer.nodes;
      if (!core::has_solution(answer.status)) {
        keep_best_point_after_failed_mip(report, answer);
        break;
      }
      lower_bound = std::max(lower_bound, answer.best_bound + mip.constant);
      const core::Vector w = weights_of(answer.primal, at);
      const double b = answer.primal[at.b()];
      const double value = objective.value(data, w, b);  // the true F (for PSI-2 above the cut model)
      if (value < report.objective) {
        report.model = core::LinearModel(w, b);
        report.objective = value;
      }
      report.objective_trace.push_back(report.objective);
      const double gap = mip_relative_gap(report.objective, lower_bound);
      if (gap <= tolerance && answer.status == core::Status::optimal) {
        report.status = core::Status::optimal;
        report.stop_reason = at.l2 ? "outer approximation closed" : "MILP solved";
        break;
      }
      if (answer.status != core::Status::optimal) {
        report.message = answer.message;
        break;
      }
      if (!at.l2 || cuts >= max_cuts) {
        // An l1 MILP proven optimal closes the gap up to rounding: below the tolerance, or inaccurate.
        report.status = at.l2 ? core::Status::feasible : core::Status::solved_inaccurate;
        report.stop_reason = at.l2 ? "cut limit" : "MILP optimum above its bound";
        report.message = fmt::format("gap {:.3g} above the lower bound after {} MILPs", gap, report.inner_solves);
        break;
      }
      add_cut(mip, at, w);
      ++cuts;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count();
    report.statistics["mip_cuts"] = cuts;
    report.statistics["mip_fixed_examples"] = fixed;
    // The start's C: the method's own, or the best-tuned one (restricted variants, methods.hpp).
    const bool start_has_c = start.report && start.report->hyperparameters.contains("C");
    report.statistics["start_C"] = start_has_c ? start.report->hyperparameters.at("C") : kNaN;
    finish_mip_report(report, {lower_bound, nodes, seconds, time_limit, at.n > 0 ? bounds.big_m.maxCoeff() : 0.0},
                      start, used);
    return report;
  }
 protected:
  std::vector<std::string> own_statistic_names() const override {
    return {"mip_cuts", "mip_fixed_examples", "start_C"};
  }
};

}  // namespace

std::unique_ptr<const Algorithm> make_psi_mip_algorithm() { return std::make_unique<PsiMipAlgorithm>(); }

}  // namespace sparsesvm::models
