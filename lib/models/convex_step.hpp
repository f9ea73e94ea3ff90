#pragma once
// The convex program that every convex method solves once and every DCA iteration solves again
// ([DCA] eq. (23)-(24), (28), (31), A.1-A.5; [FSV] (4), (9), (12)-(14)):
//
//   minimize_{w,b}  sum_i C_i max(0, m_i - y_i (w.x_i + b)) + rho_g R(w) - <eta, w> - kappa b
//
// (with R = sum_j u_j |w_j|, a weighted l1, for the successive linearization of [FSV] (9)),
//
// with R one of none, ||w||_1, ||w||_inf (solved as LPs by Clp) or ||w||_2^2 (the l2 SVM, solved by the
// portfolio of optim/l2_svm_solver.hpp: dual coordinate descent and the interior point).
// Only the costs change between DCA iterations and along a lambda path, so a StepSolver builds each
// LP once per training set and re-solves from the last basis (ClpLp), and keeps the last dual solution
// of the QP as the next start.
//
// LP columns: w+ (d), w- (d), b (free), xi (n) [, nu for l_inf], with w = w+ - w-, so that
// ||w||_1 = sum(w+ + w-) needs no extra rows. Rows: y_i (x_i.(w+ - w-) + b) + xi_i >= m_i, and for
// l_inf also w+_j + w-_j - nu <= 0.
#include <memory>
#include <string>

#include "core/dataset.hpp"
#include "core/status.hpp"
#include "models/fit_report.hpp"
#include "models/lp_generation.hpp"
#include "models/objective.hpp"
#include "models/parameters.hpp"
#include "models/penalties/penalty.hpp"
#include "models/workspace_state.hpp"

namespace sparsesvm::optim {
class ClpLp;
class L2SvmSolver;
struct L2SvmProblem;
}  // namespace sparsesvm::optim

namespace sparsesvm::models {

// How an LP step is solved: chosen by the data's size, the full LP, or feature and example generation
// (lp_generation.hpp). By size, the l1 LP is generated once X has more than kGenerationNonzeros nonzeros,
// whatever its shape (bench/generation_results.txt): on 200 x 10000 (arcene's shape) a 9-lambda path took
// 0.10 s against 1.0 s for the full LP, on 3000 x 2000 2.6 s against 12 s, on 6000 x 5000 (gisette's)
// 18 s against 139 s and 0.2x its memory.
enum class LpForm { by_shape = 0, full = 1, generation = 2 };
constexpr double kGenerationNonzeros = 1e6;
// Generation keeps a working set of examples (not every row in the LP), starting from the seed of
// example_seed.hpp, on data with more than kExampleGenerationSize examples.
constexpr std::size_t kExampleGenerationSize = 2000;

struct ConvexStep {
  core::Vector hinge_weight;       // C_i >= 0
  core::Vector margin;             // m_i
  Regularizer regularizer = Regularizer::l1;
  double regularizer_weight = 0.0; // rho_g
  core::Vector feature_weights;     // l1 only: rho_g sum_j u_j |w_j| (SLA's reweighting); empty: all u_j = 1
  core::Vector tilt_w;             // eta (size d)
  double tilt_b = 0.0;             // kappa
  LpForm lp_form = LpForm::by_shape;
  int qp_solver = 0;               // l2 only: optim::QpSolver's value (0 by shape, 1 interior point, 2 dual CD)

  // The l2 SVM (optim/l2_svm.hpp) this step poses when its regularizer is l2^2.
  optim::L2SvmProblem l2_svm_problem() const;
  // The step objective at (w, b).
  double value(const core::Dataset& data, const core::Vector& w, double b) const;
};

enum class StepKind { lp, qp };

struct StepResult {
  StepKind kind = StepKind::lp;
  core::Status status = core::Status::numerical_error;
  std::string message;
  core::Vector w;
  double b = 0.0;
  long simplex_iterations = 0;
  long qp_updates = 0;            // dual CD coordinate updates
  long qp_interior_iterations = 0;  // interior-point iterations
  double qp_relative_gap = 0;     // (P - D) / |P| of a QP solve
  std::string qp_solver;          // which QP solver answered: dual_cd, interior_point, dual_cd>interior_point
  bool fell_back_to_cold = false;
  // LP steps: how it was solved and its certificate on the full LP (lp_generation.hpp).
  bool generated = false;
  LpCertificate certificate;
  std::size_t working_features = 0;  // of the generated LP (all d for the full LP)
  std::size_t working_examples = 0;
  int generation_rounds = 0;
};

struct StepSolverOptions {
  double qp_relative_gap = 1e-6;   // accept a QP when P - D <= qp_relative_gap * |P|
  long cd_max_epochs = 100'000;    // dual CD when it runs alone
  int lp_max_iterations = 10'000'000;
  bool warm_start = true;          // false: every solve is cold (benchmarks)
};

// The convex-step caches of one training set; a Workspace owns it (Workspace::steps()).
class StepSolver : public WorkspaceState {
 public:
  explicit StepSolver(const core::Dataset& train, StepSolverOptions options = {});
  ~StepSolver();
  StepSolver(const StepSolver&) = delete;
  StepSolver& operator=(const StepSolver&) = delete;

  const core::Dataset& data() const { return data_; }
  StepResult solve(const ConvexStep& step);

 private:
  StepResult solve_lp(const ConvexStep& step);
  StepResult solve_full_lp(const StepLpCosts& costs, bool linf);
  StepResult solve_generated_lp(const StepLpCosts& costs, bool linf);
  bool generates(const ConvexStep& step) const;
  StepResult solve_qp(const ConvexStep& step);

  const core::Dataset& data_;
  StepSolverOptions options_;
  std::unique_ptr<optim::ClpLp> l1_lp_;    // also serves R = none
  std::unique_ptr<optim::ClpLp> linf_lp_;
  std::unique_ptr<GeneratedLp> generated_l1_lp_;
  std::unique_ptr<GeneratedLp> generated_linf_lp_;
  std::unique_ptr<optim::L2SvmSolver> qp_;
  core::Vector l1_margins_;
  core::Vector linf_margins_;
  core::Vector last_alpha_;
  double last_b_ = 0.0;  // where dual CD's search for an unpenalized bias starts
};

// The convex step linearized at (w, b) ([DCA] eq. (22)-(23), (30)): G with the tilt (eta, kappa) in dH(w, b).
// For a convex objective at any point, this is the objective itself.
ConvexStep linearized_step(const Objective& objective, const core::Dataset& data, const core::Vector& w, double b);
// Only the loss part of it: the hinge weights and margins of the loss's convex part and the tilt of its
// concave part; no regularizer (the caller sets it).
ConvexStep linearized_loss(const Objective& objective, const core::Dataset& data, const core::Vector& w, double b);

// Why the convex steps cannot run `objective` (its loss has no hinge-shaped convex part), or "".
std::string convex_step_unsupported(const Objective& objective);

// Adds a step's solver work to a report: inner_iterations, inner_solves, cold fallbacks (with their
// message) and the statistics named by step_statistic_names().
void record_step(FitReport& report, const StepResult& step);
// simplex_iterations, the QP's columns (qp_updates, qp_interior_iterations, qp_max_relative_gap) and the
// LP certificate's columns (lp_*). The QP's solver is the text statistic kQpSolverColumn.
const std::vector<std::string>& step_statistic_names();
constexpr const char* kQpSolverColumn = "qp_solver";
// The QP's columns alone (RW's inner SVMs).
const std::vector<std::string>& qp_statistic_names();
// Adds one QP solve's solver, iterations and gap to a report's statistics.
void record_qp_statistics(FitReport& report, const std::string& solver, long updates, long interior_iterations,
                          double relative_gap);
// The same without the QP's: for algorithms whose steps are always LPs.
const std::vector<std::string>& lp_step_statistic_names();
// The option `lp_form` (LpForm's values) of every algorithm whose steps are LPs.
const ParameterSpec& lp_form_option();
// The option `qp_solver` (optim::QpSolver's values) of every algorithm whose steps can be l2 SVMs.
const ParameterSpec& qp_solver_option();

}  // namespace sparsesvm::models
