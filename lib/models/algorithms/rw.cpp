// RW(N): the re-weighting walk from the 2-norm to the 1-norm SVM ([RW] Algorithm 1):
//
//   v := 1;  for t = 1..N:  x'_j := x_j v_j;  w' := SVM(x');  u^(t) := w' v;  v_j := sqrt(|u^(t)_j|)
//
// and RW(N) returns u^(N), the classifier on the original features. The inner SVM is the 2-norm
// problem (rho/2)||w'||^2 + sum_i c_i loss(y_i (w'.x'_i + b)) with the objective's own weights c_i and
// loss (hinge: L1-SVM, squared hinge: L2-SVM), solved by the l2 SVM portfolio (optim/l2_svm_solver.hpp,
// option qp_solver) on the columns scaled in place (sparse data stay sparse): dual coordinate descent
// warm-started from the previous iteration's dual point, handing over to the interior point where it
// stops short. Columns whose v_j reached 0 leave the interior point's system, so later iterations shrink.
//
// Which 1-norm objective the walk approaches: at a fixed point v_j^2 = |u_j|, so w'_j = u_j / v_j =
// sign(u_j) v_j, and the inner optimality condition rho w'_j + v_j g_j = 0 (g a subgradient of the loss
// term at u) becomes rho sign(u_j) + g_j = 0: the optimality condition of
//
//   F(u, b) = rho ||u||_1 + sum_i c_i loss(y_i (u.x_i + b))
//
// (not (rho/2)||u||_1: the factor 1/2 of the inner regularizer cancels against the 2 in d/dw' of w'^2).
// The majorization ||u||_1 <= (1/2) sum_j (u_j^2 / v_j^2 + v_j^2) ([RW] Theorem 2) gives the same
// scaling. RW's method rows use rho = 1, c_i = C ([RW] eq. (1)), so F = ||u||_1 + C sum loss; the
// tests check that RW(N)'s F approaches the LP optimum of exactly this objective.
//
// Bias: `bias_feature` s > 0 is liblinear's -B s: a constant feature whose weight is penalized and
// re-weighted like the others (what the RW paper ran); the walk then approaches F + rho |b| / s.
// s = 0 leaves b unpenalized (the 1-norm SVM's LP convention, used for the convergence study).
//
// One walk serves every N: the workspace keeps the iterates of each (objective, options) walk, and
// RW(N) extends the walk to N iterations, so RW(1), RW(2), ..., RW(10) at one C cost 10 SVM solves.
// RW(N)'s time is the walk's time through iteration N.
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <string_view>

#include "core/errors.hpp"
#include "core/progress.hpp"
#include "core/sha256.hpp"
#include "models/algorithms/algorithm.hpp"
#include "models/convex_step.hpp"
#include "optim/l2_svm_solver.hpp"

namespace sparsesvm::models {
namespace {

struct WalkIterate {
  core::Status status = core::Status::numerical_error;
  std::string message;
  core::Vector w;
  double b = 0.0;
  double objective = 0.0;
  double seconds = 0.0;  // since the walk began
  long coordinate_updates = 0;
  long interior_iterations = 0;
  double relative_gap = 0.0;
  std::string solver;
};

struct Walk {
  std::vector<WalkIterate> iterates;
  core::Vector scale;        // v for the next iteration
  double bias_scale = 1.0;   // v of the bias feature
  core::Vector alpha;        // last dual point
};

// The walks of one training set, by (objective, options); the inner solver keeps dual CD's CSR rows.
struct Walks : WorkspaceState {
  explicit Walks(const core::Dataset& data) : solver(data) {}
  optim::L2SvmSolver solver;
  std::map<std::string, Walk> walks;
  core::Vector last_first_alpha;  // a new walk (another C) starts from the previous walk's first dual point
};

// What a walk depends on: everything but its length.
std::string walk_key(const Objective& objective, Hyperparameters options) {
  options.erase("rw_iterations");
  const core::Vector& c = objective.example_weights;
  const std::string_view weights(reinterpret_cast<const char*>(c.data()), static_cast<std::size_t>(c.size()) * sizeof(double));
  return fmt::format("{}|{:.17g}|{}|{}", objective.loss->id(), objective.penalty_weight, parameter_key(options),
                     core::sha256_hex(weights));
}

// Runs iteration t + 1 of `walk`: the SVM on the columns scaled by v, then v_j := sqrt(|u_j|).
void extend(Walk& walk, Walks& walks, const core::Dataset& data, const Objective& objective,
            const Hyperparameters& options) {
  const auto clock_start = std::chrono::steady_clock::now();
  const bool first = walk.iterates.empty();
  if (first) {
    walk.scale = core::Vector::Ones(static_cast<Eigen::Index>(data.d()));
    walk.bias_scale = 1.0;
    walk.alpha = walks.last_first_alpha;
  }
  const double s = options.at("bias_feature");
  optim::L2SvmProblem problem;
  problem.lambda = objective.penalty_weight / 2.0;  // (rho/2)||w'||^2
  problem.upper = objective.example_weights;
  problem.margin = core::Vector::Ones(static_cast<Eigen::Index>(data.n()));
  problem.loss = objective.loss->id() == "squared_hinge" ? optim::SvmLoss::squared_hinge : optim::SvmLoss::hinge;
  problem.bias = s > 0 ? optim::BiasMode::regularized : optim::BiasMode::unpenalized;
  problem.bias_feature = s * walk.bias_scale;
  problem.feature_scale = walk.scale;
  optim::L2SvmOptions solver_options;
  solver_options.solver = static_cast<optim::QpSolver>(static_cast<int>(options.at("qp_solver")));
  solver_options.relative_gap = options.at("inner_relative_gap");
  solver_options.bias_guess = first ? 0.0 : walk.iterates.back().b;
  const optim::L2SvmSolution solution = walks.solver.solve(problem, walk.alpha, solver_options);

  WalkIterate iterate;
  iterate.status = solution.status;
  iterate.message = solution.message;
  iterate.coordinate_updates = solution.coordinate_updates;
  iterate.interior_iterations = solution.interior_iterations;
  iterate.relative_gap = solution.relative_gap;
  iterate.solver = solution.solver;
  if (core::has_solution(solution.status)) {
    iterate.w = solution.w;
    iterate.b = solution.b;
    iterate.objective = objective.value(data, solution.w, solution.b);
    walk.scale = solution.w.cwiseAbs().cwiseSqrt();
    // The bias feature's weight on the original constant s is b / s.
    walk.bias_scale = s > 0 ? std::sqrt(std::abs(solution.b) / s) : 1.0;
    walk.alpha = solution.alpha;
    if (first) walks.last_first_alpha = solution.alpha;
  }
  iterate.seconds = (first ? 0.0 : walk.iterates.back().seconds) +
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count();
  walk.iterates.push_back(std::move(iterate));
}

// RW(N) from the first N iterates of a walk (fewer when an inner solve failed: the report is that failure).
// What RW(N) proves is that it solved N 2-norm SVMs, each within its relative gap (the certificate: the
// largest); the 1-norm objective F it reports is only approached, so a walk with a solution is
// `feasible` (solved_inaccurate if an inner SVM was), never optimal.
FitReport report_after(const Walk& walk, std::size_t iterations) {
  FitReport report;
  const WalkIterate& last = walk.iterates[iterations - 1];
  report.status = last.status == core::Status::optimal ? core::Status::feasible : last.status;
  report.certificate_kind = kInnerSvmGap;
  report.certificate = 0.0;
  report.message = last.message;
  report.iterations = static_cast<int>(iterations);
  report.inner_solves = static_cast<int>(iterations);
  report.seconds = last.seconds;
  for (std::size_t t = 0; t < iterations; ++t) {
    const WalkIterate& iterate = walk.iterates[t];
    report.inner_iterations += iterate.coordinate_updates + iterate.interior_iterations;
    report.certificate = std::max(report.certificate, std::abs(iterate.relative_gap));
    if (iterate.status == core::Status::solved_inaccurate && core::has_solution(last.status)) {
      report.status = core::Status::solved_inaccurate;
    }
    record_qp_statistics(report, iterate.solver, iterate.coordinate_updates, iterate.interior_iterations,
                         iterate.relative_gap);
    if (core::has_solution(iterate.status)) report.trace_objective(iterate.objective, iterate.seconds);
  }
  if (core::has_solution(last.status)) {
    report.model = core::LinearModel(last.w, last.b);
    report.objective = last.objective;
    report.stop_reason = fmt::format("{} re-weighting iterations (2-norm SVMs); the 1-norm objective is approached, "
                                     "not certified", iterations);
  } else {
    report.certificate = std::nan("");
    report.stop_reason = fmt::format("inner SVM failed at iteration {}", iterations);
  }
  return report;
}

class RwAlgorithm : public Algorithm {
 public:
  std::string id() const override { return "rw"; }
  std::string description() const override {
    return "[RW] Algorithm 1: N 2-norm SVMs (dual CD) on re-weighted features v_j = sqrt(|u_j|), approaching the 1-norm SVM";
  }
  const ParameterTable& options() const override {
    static const ParameterTable table = {
        {"rw_iterations", "N, the number of 2-norm SVMs solved; RW(1) is the 2-norm SVM", 2.0, 1.0, 1000.0, false, false,
         Scale::linear, Regularizes::neither, ParameterKind::model, true},
        {"bias_feature", "s of liblinear's -B s: a penalized, re-weighted constant feature; 0 leaves b unpenalized "
         "(above 10 the shared column stalls dual CD)", 1.0, 0.0, 10.0, false, false, Scale::linear, Regularizes::neither,
         ParameterKind::model},
        {"inner_relative_gap", "each SVM is solved to this relative duality gap", 1e-6, 0.0, 0.1, true, false, Scale::log,
         Regularizes::neither, ParameterKind::solver},
        qp_solver_option(),
    };
    return table;
  }
  std::vector<std::string> statistic_names() const override { return qp_statistic_names(); }
  std::vector<std::string> text_statistic_names() const override { return {kQpSolverColumn}; }
  bool finds_optimum() const override { return false; }
  bool needs_start() const override { return false; }

  std::string unsupported(const Objective& objective) const override {
    const std::optional<CappedAbs> shape = objective.penalty->capped_abs();
    if (!shape || shape->scale != 1.0 || std::isfinite(shape->cap)) {
      return fmt::format("rw approaches a 1-norm objective; penalty {} is not l1", objective.penalty->id());
    }
    const std::string loss = objective.loss->id();
    if (loss != "hinge" && loss != "squared_hinge") {
      return fmt::format("rw's inner SVM solves the hinge or the squared hinge, not {}", loss);
    }
    return "";
  }

  FitReport fit(const Objective& objective, Workspace& workspace, const Start&,
                const Hyperparameters& options) const override {
    if (const std::string reason = unsupported(objective); !reason.empty()) throw core::InputError(reason);
    if (!(objective.penalty_weight > 0)) throw core::InputError("rw needs a positive weight of the 1-norm");
    Walks& walks = workspace.state<Walks>("rw", [&] { return std::make_unique<Walks>(workspace.data()); });
    Walk& walk = walks.walks[walk_key(objective, options)];
    const auto wanted = static_cast<std::size_t>(options.at("rw_iterations"));
    while (walk.iterates.size() < wanted && (walk.iterates.empty() || core::has_solution(walk.iterates.back().status))) {
      extend(walk, walks, workspace.data(), objective, options);
      core::progress("RW: iterate {} of {} solved, {}", walk.iterates.size(), wanted,
                     core::to_string(walk.iterates.back().status));
    }
    return report_after(walk, std::min(wanted, walk.iterates.size()));
  }
};

}  // namespace

std::unique_ptr<const Algorithm> make_rw_algorithm() { return std::make_unique<RwAlgorithm>(); }

}  // namespace sparsesvm::models
