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
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/dataset.hpp"
#include "core/status.hpp"
#include "models/fit_report.hpp"
#include "models/lp_crossover.hpp"
#include "models/lp_generation.hpp"
#include "optim/lp_problem.hpp"
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

// How an LP step is solved: chosen by the data's shape and nonzeros, the full LP, or feature and example
// generation (lp_generation.hpp). By shape, the l1 LP is generated when any of these holds
// (measured with OneNormSVM, docs/benchmarks.md "LP form"; bench/generation_results.txt):
//   nnz(X) > kGenerationNonzeros                      gisette's 6000 x 5000: 18 s against 139 s for the
//                                                      full LP, 0.2x its memory; 3000 x 2000: 2.6 against 12 s
//   nnz(X) > kGenerationMidNonzeros and (d >= 4 n      text-shaped 5000 x 2000 (150,000 nonzeros): 2.3 against
//   or n > kExampleGenerationSize)                     6.0 s; dense 3000 x 100: 0.06 against 0.25 s; dense
//                                                      100 x 5000: 0.05 against 0.37 s
//   d > kGenerationColumns                             text-shaped 1000 x 10^6: 1.1 s and 135 MB against
//                                                      15 s and 443 MB
// Below these the full LP is cheaper (500 x 50 dense: 0.005 s against 0.12 s) or the two are alike; the
// papers' UCI sets and golub (116,000 values) stay with the full LP.
// `crossover` is the full l1 LP started from a basis guessed from a first-order point (lp_crossover.hpp),
// for LPs that neither the slack basis nor generation finishes: each solve runs the first-order method
// (from the last answer when there is one) and dual simplex from its basis, except where the last answer
// is still certified optimal under the new costs on the same margins (a C path beyond its first
// hard-margin C), which resumes the last basis.
// By shape, generation hands over to crossover where the full LP may be built (hand_over_by_shape below), no answer
// of the full LP is held (the crossover's first-order method starts from zero), and one pass of generation has taken max(kHandOverIterations,
// kHandOverIterationsPerExample n) simplex iterations without an answer: its working set has grown toward a square
// degenerate basis, where each pivot costs more than the last (issue 37's uniform 2000 x 20000 draw, lambda 1: 11,655
// iterations in 1.2 s, all 45,947 in 55 s; the crossover from zero 2.3 s), or its first restricted LP is already
// large (text-shaped 5000 x 47236, lambda 0.1: 19,395 iterations and 49 s in round 1, 86 s in all, 23.9 s in all with
// the budget binding inside a round, whose restricted LP solve_within stops); or as soon as a pass has taken
// kHandOverFirstRoundIterations before the working set's first answer (its first round: lp_generation.hpp,
// HandOverBudget), which binds only where 2n is more (n > 25,000): there each pivot of a first LP that large
// costs milliseconds and the crossover answers sooner (OneNormSVM at lambda 1, CPU: 100000 x 100000
// text-shaped 734 -> 353 s, a tall 60000 x 30000 text-shaped set 490 -> 144 s), while a set whose first
// LP is smaller keeps 2n for the pass (a 36000 x 20000 text-shaped set: 54,989 iterations in 10 rounds,
// 30 s; a cap on the pass at 5 x 10^4 handed it over, 163 s); or, before the budget, as soon as
// pricing persists (lp_generation.hpp, kPersistenceBatches: the uniform draw after 3599 iterations in 4 rounds,
// 2.3-2.4 s in all against 3.3-4.3 s); or before any LP where the seed keeps a square block of a thousand or
// more (lp_generation.hpp, kSeedSquareBlock). That step is solved as by `crossover`
// (its row: lp_generated 0, lp_generation_rounds > 0, the simplex iterations of generation, of the guess and of any
// slack-basis solve), with dual simplex from the guessed basis held to kHandOverWarmIterations, after which the full
// LP is solved from the slack basis: a good guess is a few hundred iterations from the optimum (the uniform draw 171,
// the text-shaped rows 294), a bad one thousands, each dearer than the slack basis's (a uniform 1000 x 4000 draw at
// lambda 3, labels from 5 features: 14,859 iterations and 11.7 s from the guess, 858 and 0.2 s from the slack basis;
// generation alone 50,407 and 3.4 s). A later step whose costs leave that answer certified optimal on the same
// margins resumes it (RLSVM1 on separable data repeats its first LP); other later steps are generated again, warm
// from the working set where generation stopped (cold where it stopped inside a round).
enum class LpForm { by_shape = 0, full = 1, generation = 2, crossover = 3 };
constexpr double kGenerationNonzeros = 1e6;
constexpr double kGenerationMidNonzeros = 1.5e5;
constexpr double kGenerationColumns = 1e5;
constexpr long kHandOverIterations = 10'000;
constexpr long kHandOverIterationsPerExample = 2;
constexpr long kHandOverFirstRoundIterations = 50'000;
constexpr long kHandOverWarmIterations = 2'000;
// The full LP a hand-over builds: up to kGenerationNonzeros of X (the largest full LP that by shape builds
// elsewhere), or kSparseHandOverNonzeros where at most kSparseHandOverDensity of X's cells are stored and the
// full LP, at about kCrossoverBytesPerNonzero a nonzero, fits the memory budget; and d <= kGenerationColumns.
// Sparse data past 10^6 nonzeros gained (OneNormSVM by size, CPU seconds, docs/benchmarks.md "The hand-over's line"):
//   text_shaped 20000 x 50000 (10^6 + 108 nonzeros), lambda 0.1 and 0.3: no answer in 200 s -> 71 s and 45 s;
//     lambda 1 answered by generation (10 s) either way
//   text_shaped 23149 x 47236 (Reuters' shape, 1.78 x 10^6), lambda 0.1: no answer in 200 s -> 149 s, 433 MB
// Dense data did not (the guessed basis of a dense LP is no nearer, and each first-order iteration reads
// every cell): dca_gaussians 2000 x 2000, lambda 1: 29 s by generation, 65 s with the hand-over.
constexpr double kSparseHandOverNonzeros = 5e6;
constexpr double kSparseHandOverDensity = 0.01;
constexpr double kCrossoverBytesPerNonzero = 250;
// Generation keeps a working set of examples (not every row in the LP), starting from the seed of
// example_seed.hpp, on data with more than kExampleGenerationSize examples.
constexpr std::size_t kExampleGenerationSize = 2000;
// Whether a step LP with the l1 (or no) penalty on this data is generated by shape.
bool generation_by_shape(std::size_t n, std::size_t d, double nonzeros);
// Whether generation may hand a step on this data over to the crossover's full LP (the rule above).
bool hand_over_by_shape(std::size_t n, std::size_t d, double nonzeros);
// ConvexStep::simplex_iteration_limit of a step without one.
constexpr long kNoSimplexLimit = -1;

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
  // LP steps: simplex iterations of this step, all its LP solves together (generation's, the full LP's from
  // the crossover's guessed basis or the slack basis); kNoSimplexLimit (< 0) means none. A step it stops
  // keeps its best point (StepSolver::best_point_within_limit). At 0 only a basis the step's LPs already
  // hold can answer (optim::ClpLp's check without a pivot): a DC step after the earlier ones spent the limit.
  long simplex_iteration_limit = kNoSimplexLimit;

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
  bool warm_limit_reached = false;  // the warm start stopped at its iteration limit (optim::LpSolution)
  bool stopped_at_simplex_limit = false;  // by ConvexStep::simplex_iteration_limit: feasible, or optimal by its bound
  // LP steps: how it was solved and its certificate on the full LP (lp_generation.hpp).
  bool generated = false;
  LpCertificate certificate;
  std::string rounding_note;  // of a full LP's answer the certificate refuses: rounding_limit_note, or ""
  double lp_cost_scale = 1.0;  // the LP's objective over the step's (StepLpCosts::scale)
  std::size_t working_features = 0;  // of the generated LP (all d for the full LP)
  std::size_t working_examples = 0;
  int generation_rounds = 0;
  long first_order_iterations = 0;  // lp_form crossover: PDHG iterations before the simplex (0: the basis resumed)
};

// The message of a handed-over step: generation's, then which route answered. The crossover's guessed basis
// (its dual simplex held to warm_limit iterations), or the slack basis, after the guess stopped at that limit
// or gave no certified answer (`crossover.fell_back_to_cold`), or none within the step's simplex_iteration_limit
// (`simplex_limit_spent`) or Clp's own iteration limit of a solve; the full LP's own message, if any, in brackets.
std::string hand_over_message(const std::string& generation_message, long warm_limit, const StepResult& crossover,
                              bool simplex_limit_spent);

struct StepSolverOptions {
  double qp_relative_gap = 1e-6;   // accept a QP when P - D <= qp_relative_gap * |P|
  long cd_max_epochs = 100'000;    // dual CD when it runs alone
  int lp_max_iterations = 10'000'000;
  bool warm_start = true;          // false: every solve is cold (benchmarks)
  // By shape, generation's simplex iterations in a pass before it hands over to crossover (above): -1 the
  // rule by n, 0 never (tests set a small number). The first round's budget below applies beside it.
  long hand_over_iterations = -1;
  // The same before the working set's first answer (lp_generation.hpp, HandOverBudget): -1
  // kHandOverFirstRoundIterations, 0 none of its own.
  long hand_over_first_round_iterations = -1;
  // After a hand-over, dual simplex iterations from the crossover's basis before the slack basis is
  // tried: -1 kHandOverWarmIterations, 0 no limit.
  long hand_over_warm_iterations = -1;
};

// The step's LP costs by variable (w+, w-, b, xi, nu), scaled by optim::clp_cost_scale.
StepLpCosts step_lp_costs(const ConvexStep& step, Eigen::Index d);

// The full LP of the convex step (above), with zero costs: columns w+ (d), w- (d), b, xi (n) [, nu]; rows
// y_i (x_i.(w+ - w-) + b) + xi_i >= 1 [and w+_j + w-_j - nu <= 0]; `with_linf` adds nu and its d rows.
optim::LpProblem build_lp(const core::Dataset& data, bool with_linf);

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
  // crossover: from the basis guessed by start_crossover; warm_iteration_limit > 0 bounds the warm solve
  // (then the slack basis, optim::ClpLp::solve).
  StepResult solve_full_lp(const StepLpCosts& costs, bool linf, bool crossover, long warm_iteration_limit = 0);
  // The solution as a step result with its certificate, and as a point of the full LP.
  std::pair<StepResult, StepLpPoint> read_full_lp(const optim::LpSolution& solution, const StepLpCosts& costs,
                                                  bool linf) const;
  long start_crossover(const StepLpCosts& costs, bool margins_changed, optim::ClpLp& lp);
  bool still_optimal(const StepLpCosts& costs) const;  // the last l1 answer, under new costs
  StepResult solve_generated_lp(const StepLpCosts& costs, bool linf, HandOverBudget hand_over);
  bool generates(const ConvexStep& step) const;
  // Generation's budget before it hands over to crossover for this step (pass 0: it does not).
  HandOverBudget hand_over_budget(const ConvexStep& step, const StepLpCosts& costs) const;
  // Whether a step generated by shape resumes the answer of an earlier hand-over instead.
  bool resumes_hand_over(const ConvexStep& step, const StepLpCosts& costs) const;
  StepResult solve_qp(const ConvexStep& step);
  // A step stopped by its simplex_iteration_limit without an answer: the best of zero weights (b = 0, -1 or 1)
  // and the points it kept (limit_points_; the first-order point computed now from the best of them if the
  // step had none); its certificate the gap to the best lower bound the points' duals give (l1_lower_bound),
  // else NaN; status feasible, or optimal where that gap is within the certificate's tolerance.
  StepResult best_point_within_limit(const ConvexStep& step, const StepLpCosts& costs, bool linf, StepResult stopped);
  // A point of a step with a limit, a model (w, b) and the duals alpha (n, or empty) that bound it.
  struct LimitPoint {
    std::string source;
    core::Vector w;
    double b = 0.0;
    core::Vector alpha;
    bool first_order = false;
  };
  // Keep a point for best_point_within_limit when the step has a limit: the full LP's last simplex iterate
  // or generation's last restricted answer, or a first-order point.
  void keep_limit_point(LimitPoint point);
  void keep_first_order_point(const FirstOrderPoint& point);

  const core::Dataset& data_;
  StepSolverOptions options_;
  optim::IterationBudget lp_budget_;  // this step's ConvexStep::simplex_iteration_limit, shared by every LP below
  std::vector<LimitPoint> limit_points_;  // this step's, as its routes give them
  std::unique_ptr<optim::ClpLp> l1_lp_;    // also serves R = none
  std::unique_ptr<optim::ClpLp> linf_lp_;
  std::unique_ptr<GeneratedLp> generated_l1_lp_;
  std::unique_ptr<GeneratedLp> generated_linf_lp_;
  std::unique_ptr<optim::L2SvmSolver> qp_;
  core::Vector l1_margins_;
  core::Vector linf_margins_;
  std::optional<StepLpPoint> last_l1_point_;  // the full l1 LP's last answer, when certified optimal
  double last_l1_feature_scale_ = 1.0;        // and its costs' feature_cost_scale
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

// Adds a step's solver work to a report: inner_iterations, inner_solves, cold fallbacks and inexact
// solves (with their message, once) and the statistics named by step_statistic_names(). With a `source`
// (a chain's "step 3") the message is marked as that step's, "step 3 [solved_inaccurate: ...]": a note
// about one step of a chain, not about the row, whose status its last steps settle; shown at the first
// step that had it (FitReport::step_notes), even where the chain's start (marked "the start [...]") had
// the same words.
void record_step(FitReport& report, const StepResult& step, const std::string& source = "");
// The same but inner_iterations and inner_solves, for an algorithm that counts other work there (ADMM: its
// sweeps) and solves a step besides.
void record_step_statistics(FitReport& report, const StepResult& step, const std::string& source = "");
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
// The option `simplex_iteration_limit` (ConvexStep::simplex_iteration_limit) of the direct solve (the DC
// iterations' is built from it).
const ParameterSpec& simplex_iteration_limit_option();
// The option `qp_solver` (optim::QpSolver's values) of every algorithm whose steps can be l2 SVMs.
const ParameterSpec& qp_solver_option();

}  // namespace sparsesvm::models
