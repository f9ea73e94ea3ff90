#pragma once
// What the MIP algorithms (psi_mip.cpp, global_mip.cpp) share: their start, their search options
// (lp_iteration_limit, node_limit, time_limit, relative_gap), the budget those limits give a fit, and the
// statistics every MIP row carries (mip_best_bound, mip_relative_gap, mip_nodes, mip_lp_iterations,
// mip_seconds, mip_big_m, mip_closed).
#include <chrono>
#include <string>
#include <vector>

#include "models/algorithms/algorithm.hpp"
#include "optim/cbc_mip.hpp"
#include "optim/mip_builder.hpp"

namespace sparsesvm::models {

// Where the branch and bound starts: the start's model, or, when the start's fit has no solution (the
// SVM at C = 1e7 on overlapping classes), the constant classifier w = 0, b = +1 or -1 with smaller F.
struct MipStart {
  core::LinearModel model;
  bool replaced = false;  // the start failed and the constant classifier stands in
};
MipStart mip_start(const Objective& objective, const core::Dataset& data, const Start& start);

// The defaults of the limits (mip_search_options). The simplex-iteration limit is the one meant to bind:
// measured at 15-30 thousand iterations a second on psi's simulation with 2 features (n = 100), 2-5
// thousand with 4 (n = 100-200; the box search's weighted units about as many) and about 1000 on pima's
// big-M LPs (768 rows), it stops a fit within 10 s, 1-2 minutes and about 3 minutes there, before the
// wall-clock safety net, so default rows reproduce on any machine. No node limit by default: a node costs
// 1 to thousands of iterations.
inline constexpr double kDefaultNodeLimit = 0;
inline constexpr double kDefaultIterationLimit = 2e5;
inline constexpr double kDefaultTimeLimit = 600;
// `where_checked` says where lp_iteration_limit is checked besides after each node (psi adds its box search).
ParameterTable mip_search_options(const std::string& where_checked = "inside each LP");
std::vector<std::string> mip_statistic_names();

// What every MIP algorithm answers alike: it finds (certifies) an optimum, it starts from a method's fit
// (a warm start and its bounds), and survives that fit's failure (mip_start). Its statistics are the
// shared ones and its own.
class MipAlgorithm : public Algorithm {
 public:
  std::vector<std::string> statistic_names() const final {
    std::vector<std::string> names = mip_statistic_names();
    const std::vector<std::string> own = own_statistic_names();
    names.insert(names.end(), own.begin(), own.end());
    return names;
  }
  bool finds_optimum() const final { return true; }
  bool needs_start() const final { return true; }
  bool survives_failed_start() const final { return true; }

 protected:
  virtual std::vector<std::string> own_statistic_names() const = 0;
};

// Above this size of a MILP's big-M or of its weights' bound, Cbc's tolerances (integrality 1e-6,
// feasibility 1e-7, on rows whose coefficients span 1 to M) no longer certify an optimum: probes with
// unscaled features (columns near 1e5, M near 1e7) got `optimal` at twice the true minimum. Such answers
// are reported solved_inaccurate. Nor do they certify a bound: psi_quadratic (n = 30) with one feature
// scaled by 1e3 to 1e5 (M 2e7 to 2e9) got Cbc's "best possible" 5000 where the box search proves a
// minimum of 2007.6 (at M of 2e6 to 4e6 the bounds held); RLSVM1-global on 30 x 4 data with every
// feature scaled by 1e-7 and lambda with it (M 128, but weights bounded by 1.8e8) got `optimal` with a
// bound 0.7% above the minimum of the equivalent unscaled problem.
constexpr double kLargestTrustedMipScale = 1e6;

// The sizes of a MILP that Cbc's tolerances must resolve: its largest big-M (statistic mip_big_m) and
// the bound on its weights that its optima obey (|w_j| <= W, or ||w|| <= W).
struct MipScale {
  double big_m = 0.0;
  double weight_bound = 0.0;
  bool trusted() const;  // both (W where finite) at most kLargestTrustedMipScale
  // For a report's message: which of the two is above kLargestTrustedMipScale, so no bound of Cbc's is
  // claimed; "" where trusted.
  std::string untrusted_note() const;

 private:
  bool big_m_above() const;
  bool weight_bound_above() const;  // a finite W above the limit
};

// Cbc's bound on F for a MILP of this scale: the bound itself where trusted, else -infinity (none claimed).
double trusted_cbc_bound(double bound, const MipScale& scale);

// The stop_reason of a fit whose Cbc answer is kept, unproven, because its MILP's scale is not trusted.
inline constexpr const char* kUntrustedScaleStop = "Cbc's answer at an untrusted scale";

// (objective - bound) / max(1, |objective|); +infinity without a finite bound.
double mip_relative_gap(double objective, double bound);

// The limits of one fit's search, over all of its MILPs: node_limit nodes of branch and bound and
// lp_iteration_limit simplex iterations of its LPs (the work limits: deterministic, so the same rows on any
// machine under any load; a node of a large MIP can cost thousands of iterations, hence both), and
// time_limit wall-clock seconds counted from the start of the start's fit (a safety net: where it stops a
// fit, the row depends on the machine). 0 turns a work limit off.
// psi's box search (psi_box.hpp) builds and solves a small LP cold at every box, with no cuts or
// heuristics between them; its iterations count against the iteration limit at box_iteration_weight(n)
// each (psi_box.hpp), so that a limit stands for comparable time in both searches.
class MipBudget {
 public:
  MipBudget(const Hyperparameters& options, double start_seconds);
  // A budget of `fraction` of what is left of each work limit, on this budget's clock and time limit (for
  // one phase of a search; its work is then added here by absorb: a work limit that stopped it does not
  // stop this one; the wall clock, the whole fit's safety net, does).
  MipBudget share(double fraction) const;
  // True, with stopped_by() set, once any limit is used up.
  bool exhausted();
  // The options of the next MILP: what is left of each limit, with this gap and objective constant.
  optim::MipOptions next(double relative_gap, double objective_constant) const;
  void spend(const optim::MipSolution& answer);  // counts its nodes and iterations; keeps the limit that stopped it
  // Work of the box search: its boxes count as nodes, its LP iterations at `weight` each.
  void spend_box(long boxes, long lp_iterations, double weight);
  // Simplex iterations of LPs outside the search (the big-M's tightening), counted as Cbc's are.
  void spend_lp(long lp_iterations) { iterations_ += lp_iterations; }
  // Adds the work done on a share of this budget (share()); a share the wall clock stopped stops this one.
  void absorb(const MipBudget& part);
  long nodes() const { return nodes_; }
  double time_limit() const { return time_limit_; }
  long node_limit() const { return node_limit_; }
  // The work that lp_iteration_limit counts: Cbc's simplex iterations and the box search's, weighted.
  long iterations() const { return iterations_ + static_cast<long>(box_work_); }
  // The simplex iterations themselves, Cbc's and the box search's, unweighted (the row's inner_iterations).
  long simplex_iterations() const { return iterations_ + box_iterations_; }
  long iteration_limit() const { return iteration_limit_; }
  optim::MipLimit stopped_by() const { return stopped_by_; }
  // Seconds since the start's fit began (what time_limit counts).
  double elapsed() const;

 private:
  std::chrono::steady_clock::time_point clock_start_ = std::chrono::steady_clock::now();
  double start_seconds_;
  double time_limit_;
  long node_limit_;
  long iteration_limit_;
  long nodes_ = 0;
  long iterations_ = 0;      // Cbc's
  double box_work_ = 0.0;    // the box search's, weighted
  long box_iterations_ = 0;  // the box search's, unweighted
  optim::MipLimit stopped_by_ = optim::MipLimit::none;
};

struct MipSearch {
  double lower_bound = 0.0;  // the best proven lower bound on F (-infinity: none)
  double seconds = 0.0;      // of branch and bound, the start's fit not included
  const MipBudget& budget;   // its limits, the work done and the limit that stopped it, if one did
  MipScale scale;             // of the formulation (a search without a MILP: zeros)
  // What the MIP assumes that the objective does not imply ("" when nothing): its bound and a closed gap
  // then hold for the restricted problem only, so the fit is feasible, never optimal (docs/user-guide.md, "Statuses and certificates").
  std::string restriction;
};

// Fills the shared statistics, adds the start's time to report.seconds (the paper's timings include the
// start) and its work to inner_iterations and inner_solves (with the search's simplex iterations), names the limit that stopped an unproven search in stop_reason ("iteration limit", "node
// limit" or "time limit") and in the message with the row's own gap, says why Cbc's bound is missing
// where the MILP's scale is not trusted (the caller passes it through trusted_cbc_bound and claims no
// optimum on Cbc's word there: kUntrustedScaleStop), gives
// a report from a replaced start that is not proven optimal the start's failed status (its model kept
// for inspection, not counted as a solution), and notes the replaced start and that distrust in
// report.message.
void finish_mip_report(FitReport& report, const MipSearch& search, const Start& start, const MipStart& used);

// When Cbc ends a MILP without a point of its own. Every MILP here has a feasible start, so at a limit, or
// "infeasible" (which it cannot be: numerical trouble, seen on features scaled by 1e20), the report's best
// point so far stands, unproven: status feasible; any other failure becomes the report's status.
void keep_best_point_after_failed_mip(FitReport& report, const optim::MipSolution& answer);

// The norm dual to the penalty's of v: ||v||_2 (l2) or max_j |v_j| (l1); |w.v| <= Omega-radius times it.
template <typename Derived>
double dual_norm(const Eigen::MatrixBase<Derived>& v, bool l2) {
  return l2 ? v.norm() : v.cwiseAbs().maxCoeff();
}

// A tangent s_j >= 2 p w_j - p^2 below w_j^2: PSI-2's outer approximation of its squared weights (the MILP's
// and the box search's).
struct Tangent {
  Eigen::Index j = 0;
  double p = 0.0;
};
// The tangent's row, with w_j in column `w_column` and s_j in `s_column`.
void add_tangent_row(optim::MipBuilder& mip, const Tangent& tangent, Eigen::Index w_column, Eigen::Index s_column);
// Whether s falls short of w^2 beyond rounding: a tangent at w cuts the point (w, s) off.
bool short_of_square(double s, double w);

}  // namespace sparsesvm::models
