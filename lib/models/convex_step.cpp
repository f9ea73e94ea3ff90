#include "models/convex_step.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "core/errors.hpp"
#include "core/memory_budget.hpp"
#include "core/progress.hpp"
#include "models/lp_crossover.hpp"
#include "models/objective.hpp"
#include "optim/clp_lp.hpp"
#include "optim/l2_svm_solver.hpp"

namespace sparsesvm::models {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// A solved LP is optimal when its certificate on the full problem (lp_generation.hpp: each violation
// relative to its own scale) is within this.
constexpr double kCertificateTolerance = 1e-6;

}  // namespace

optim::LpProblem build_lp(const core::Dataset& data, bool with_linf) {
  const auto n = static_cast<Eigen::Index>(data.n());
  const auto d = static_cast<Eigen::Index>(data.d());
  const Eigen::Index b_column = 2 * d;
  const Eigen::Index xi_column = 2 * d + 1;
  const Eigen::Index nu_column = 2 * d + 1 + n;
  const Eigen::Index columns = with_linf ? nu_column + 1 : nu_column;
  const Eigen::Index rows = with_linf ? n + d : n;
  const core::Vector& y = data.labels();

  std::vector<Eigen::Triplet<double>> entries;
  const auto add_example_entry = [&](Eigen::Index i, Eigen::Index j, double x) {
    if (x == 0.0) return;
    entries.emplace_back(i, j, y[i] * x);
    entries.emplace_back(i, d + j, -y[i] * x);
  };
  if (data.is_sparse()) {
    const core::SparseMatrix& x = data.sparse();
    for (Eigen::Index i = 0; i < n; ++i) {
      for (core::SparseMatrix::InnerIterator it(x, i); it; ++it) add_example_entry(i, it.col(), it.value());
    }
  } else {
    const core::DenseMatrix& x = data.dense();
    for (Eigen::Index j = 0; j < d; ++j) {
      for (Eigen::Index i = 0; i < n; ++i) add_example_entry(i, j, x(i, j));
    }
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    entries.emplace_back(i, b_column, y[i]);
    entries.emplace_back(i, xi_column + i, 1.0);
  }
  if (with_linf) {
    for (Eigen::Index j = 0; j < d; ++j) {
      entries.emplace_back(n + j, j, 1.0);
      entries.emplace_back(n + j, d + j, 1.0);
      entries.emplace_back(n + j, nu_column, -1.0);
    }
  }
  optim::LpProblem lp;
  lp.matrix.resize(rows, columns);
  lp.matrix.setFromTriplets(entries.begin(), entries.end());
  lp.matrix.makeCompressed();
  lp.column_lower = core::Vector::Zero(columns);
  lp.column_lower[b_column] = -kInfinity;
  lp.column_upper = core::Vector::Constant(columns, kInfinity);
  lp.row_lower = core::Vector::Constant(rows, -kInfinity);
  lp.row_lower.head(n).setOnes();
  lp.row_upper = core::Vector::Constant(rows, kInfinity);
  if (with_linf) lp.row_upper.tail(d).setZero();
  lp.cost = core::Vector::Zero(columns);
  return lp;
}

// The LP's costs by variable: w+_j costs u_j - eta_j and w-_j costs u_j + eta_j, so that
// u_j (w+_j + w-_j) - eta_j (w+_j - w-_j) = u_j |w_j| - eta_j w_j at a vertex; b costs -kappa.
StepLpCosts step_lp_costs(const ConvexStep& step, Eigen::Index d) {
  const core::Vector tilt = step.tilt_w.size() == d ? step.tilt_w : core::Vector::Zero(d);
  const double l1_weight = step.regularizer == Regularizer::l1 ? step.regularizer_weight : 0.0;
  const core::Vector per_weight =
      step.feature_weights.size() == d ? (l1_weight * step.feature_weights).eval() : core::Vector::Constant(d, l1_weight);
  const double linf_weight = step.regularizer == Regularizer::linf ? step.regularizer_weight : 0.0;
  StepLpCosts costs{per_weight - tilt, per_weight + tilt, -step.tilt_b, step.hinge_weight, linf_weight, step.margin};
  const double largest_cost = std::max({step.hinge_weight.cwiseAbs().maxCoeff(), costs.plus.cwiseAbs().maxCoeff(),
                                        costs.minus.cwiseAbs().maxCoeff(), std::abs(costs.bias), linf_weight});
  const double scale = optim::clp_cost_scale(step.hinge_weight.cwiseAbs().maxCoeff(),
                                      std::max(per_weight.cwiseAbs().maxCoeff(), linf_weight), largest_cost);
  costs.scale = scale;
  if (scale != 1.0) {
    costs.plus *= scale;
    costs.minus *= scale;
    costs.bias *= scale;
    costs.slack *= scale;
    costs.linf *= scale;
  }
  return costs;
}

optim::L2SvmProblem ConvexStep::l2_svm_problem() const {
  optim::L2SvmProblem problem;
  problem.lambda = regularizer_weight;
  problem.upper = hinge_weight;
  problem.margin = margin;
  problem.tilt_w = tilt_w;
  problem.tilt_b = tilt_b;
  return problem;
}

double ConvexStep::value(const core::Dataset& data, const core::Vector& w, double b) const {
  const core::Vector t = margins(data, w, b);
  const double regularizer_term = feature_weights.size() > 0 ? feature_weights.dot(w.cwiseAbs())
                                                             : regularizer_value(regularizer, w);
  double total = regularizer_weight * regularizer_term - tilt_b * b;
  if (tilt_w.size() > 0) total -= tilt_w.dot(w);
  for (Eigen::Index i = 0; i < t.size(); ++i) total += hinge_weight[i] * std::max(0.0, margin[i] - t[i]);
  return total;
}

StepSolver::StepSolver(const core::Dataset& train, StepSolverOptions options) : data_(train), options_(options) {}

StepSolver::~StepSolver() = default;

StepResult StepSolver::solve(const ConvexStep& step) {
  const auto n = static_cast<Eigen::Index>(data_.n());
  const auto d = static_cast<Eigen::Index>(data_.d());
  if (step.hinge_weight.size() != n || step.margin.size() != n || (step.tilt_w.size() != 0 && step.tilt_w.size() != d) ||
      (step.feature_weights.size() != 0 &&
       (step.feature_weights.size() != d || step.regularizer != Regularizer::l1))) {
    throw std::invalid_argument("ConvexStep: vectors must have n (and d) entries; feature weights go with l1 only");
  }
  // Every convex part by name (no default: a new Regularizer is a compile error here until it has a
  // solver), and a value outside the enum refused rather than solved as an LP that ignores it.
  switch (step.regularizer) {
    case Regularizer::l2_squared: return solve_qp(step);
    case Regularizer::none:
    case Regularizer::l1:
    case Regularizer::linf: return solve_lp(step);
  }
  throw std::invalid_argument(
      fmt::format("ConvexStep: no solver for convex part {}", static_cast<int>(step.regularizer)));
}

bool StepSolver::generates(const ConvexStep& step) const {
  if (step.lp_form != LpForm::by_shape) return step.lp_form == LpForm::generation;
  return step.regularizer == Regularizer::l1 && generation_by_shape(data_.n(), data_.d(), data_.stored_values());
}

HandOverBudget StepSolver::hand_over_budget(const ConvexStep& step, const StepLpCosts& costs) const {
  const bool full_lp_fits = hand_over_by_shape(data_.n(), data_.d(), data_.stored_values());
  // Only while no answer of the full LP is held: the crossover then starts its first-order method from
  // zero. From a held answer (a DCA chain's later, tilted steps) it ran out of first-order iterations and
  // pivoted far (CapOneNormSVM on the uniform draw: 14,000-25,000 pivots a step, 60-80 s) where
  // generation, warm from its working set, is cheaper.
  if (step.lp_form != LpForm::by_shape || step.regularizer != Regularizer::l1 || !full_lp_fits ||
      last_l1_point_ || !first_order_unsupported(costs, false).empty()) {
    return {};
  }
  HandOverBudget budget;
  budget.pass = options_.hand_over_iterations >= 0
                    ? options_.hand_over_iterations
                    : std::max(kHandOverIterations, kHandOverIterationsPerExample * static_cast<long>(data_.n()));
  budget.first_round = options_.hand_over_first_round_iterations >= 0 ? options_.hand_over_first_round_iterations
                                                                      : kHandOverFirstRoundIterations;
  return budget;
}

bool StepSolver::resumes_hand_over(const ConvexStep& step, const StepLpCosts& costs) const {
  // The full LP exists, in a generated training set, only by a hand-over; its answer, when still optimal
  // on the same margins, is resumed where generation's working set is the one it left (convex_step.hpp).
  return step.lp_form == LpForm::by_shape && step.regularizer == Regularizer::l1 && l1_lp_ && last_l1_point_ &&
         options_.warm_start && costs.margin == l1_margins_ && still_optimal(costs);
}

bool generation_by_shape(std::size_t n, std::size_t d, double nonzeros) {
  const bool wide_or_tall = d >= 4 * n || n > kExampleGenerationSize;  // beyond it, examples are generated too
  return nonzeros > kGenerationNonzeros || (nonzeros > kGenerationMidNonzeros && wide_or_tall) ||
         static_cast<double>(d) > kGenerationColumns;
}

bool hand_over_by_shape(std::size_t n, std::size_t d, double nonzeros) {
  if (n == 0 || d == 0 || static_cast<double>(d) > kGenerationColumns) return false;
  if (nonzeros <= kGenerationNonzeros) return true;  // the size by shape builds as a full LP anyway
  const double density = nonzeros / (static_cast<double>(n) * static_cast<double>(d));
  return density <= kSparseHandOverDensity && nonzeros <= kSparseHandOverNonzeros &&
         core::fits_in_memory_budget(kCrossoverBytesPerNonzero * nonzeros);
}

StepResult StepSolver::solve_lp(const ConvexStep& step) {
  const bool linf = step.regularizer == Regularizer::linf;
  const StepLpCosts costs = step_lp_costs(step, static_cast<Eigen::Index>(data_.d()));
  if (step.lp_form == LpForm::crossover) {  // refused before any LP is built
    if (const std::string why = first_order_unsupported(costs, linf); !why.empty()) {
      throw core::InputError("lp_form crossover: " + why);
    }
  }
  const bool generated = generates(step);
  const bool resumed = generated && resumes_hand_over(step, costs);
  lp_budget_.remaining = std::max(step.simplex_iteration_limit, kNoSimplexLimit);
  limit_points_.clear();
  StepResult result = generated && !resumed ? solve_generated_lp(costs, linf, hand_over_budget(step, costs))
                                            : solve_full_lp(costs, linf, step.lp_form == LpForm::crossover || resumed);
  if (result.status == core::Status::iteration_limit && lp_budget_.spent()) {
    result = best_point_within_limit(step, costs, linf, std::move(result));
  }
  lp_budget_.remaining = -1;
  result.lp_cost_scale = costs.scale;
  if (result.status == core::Status::optimal && !result.certificate.within(kCertificateTolerance)) {
    result.status = core::Status::solved_inaccurate;
    // The route's own message (a hand-over's, Clp's) is kept after it: it says how the answer was reached.
    result.message = "LP not certified: " + result.certificate.describe() +
                     result.rounding_note +
                     (result.message.empty() ? "" : "; " + result.message);
  }
  return result;
}

StepResult StepSolver::solve_full_lp(const StepLpCosts& costs, bool linf, bool crossover, long warm_iteration_limit) {
  auto& lp = linf ? linf_lp_ : l1_lp_;
  auto& cached_margins = linf ? linf_margins_ : l1_margins_;
  const auto n = static_cast<Eigen::Index>(data_.n());
  if (!lp) {
    lp = std::make_unique<optim::ClpLp>(build_lp(data_, linf), optim::LpOptions{options_.lp_max_iterations, 0.0, &lp_budget_});
    cached_margins = core::Vector::Ones(n);
  }
  core::Vector cost = core::Vector::Zero(static_cast<Eigen::Index>(lp->columns()));
  cost << costs.plus, costs.minus, costs.bias, costs.slack, core::Vector::Constant(linf ? 1 : 0, costs.linf);
  const bool margins_changed = costs.margin != cached_margins;
  if (margins_changed) {
    core::Vector row_lower = core::Vector::Constant(static_cast<Eigen::Index>(lp->rows()), -kInfinity);
    row_lower.head(n) = costs.margin;
    lp->set_row_lower(row_lower);
    cached_margins = costs.margin;
  }
  lp->set_cost(cost);
  if (!options_.warm_start) lp->forget_basis();
  const long first_order_iterations = crossover ? start_crossover(costs, margins_changed, *lp) : 0;
  if (!linf) last_l1_point_.reset();  // kept for lp_form crossover's next solve: a certified optimum, or nothing
  core::progress("full LP: {} rows and {} columns, to Clp's simplex", lp->rows(), lp->columns());
  const optim::LpSolution solution = lp->solve(warm_iteration_limit);
  core::progress("full LP: {} after {} simplex iterations", core::to_string(solution.status), solution.iterations);
  if (solution.status == core::Status::iteration_limit && lp_budget_.spent() && solution.primal.size() > 0) {
    const auto d = static_cast<Eigen::Index>(data_.d());
    keep_limit_point({"the last simplex iterate of the full LP", solution.primal.head(d) - solution.primal.segment(d, d),
                      solution.primal[2 * d], linf ? core::Vector() : core::Vector(solution.row_duals.head(n)), false});
  }
  auto [result, point] = read_full_lp(solution, costs, linf);
  // A warm start (the last basis, or the crossover's) can end optimal for Clp with rows violated inside its
  // tolerance that heavy C_i turn into a hinge the certificate refuses: b is re-chosen for the answer's w,
  // and if that is not certified either, the slack basis is tried once more (b re-chosen there too). The
  // cold answer replaces the warm one only when it is certified.
  const auto certified = [&](StepResult& answer, StepLpPoint& answer_point) {
    if (answer.status != core::Status::optimal) return false;
    if (answer.certificate.within(kCertificateTolerance)) return true;
    if (!certified_with_best_bias(data_, costs, linf, kCertificateTolerance, answer_point, answer.certificate)) return false;
    answer.b = answer_point.b;
    return true;
  };
  if (result.status == core::Status::optimal && !certified(result, point) && solution.warm) {
    lp->forget_basis();
    auto [cold, cold_point] = read_full_lp(lp->solve(), costs, linf);
    const long iterations = result.simplex_iterations + cold.simplex_iterations;
    if (certified(cold, cold_point)) {
      std::tie(result, point) = std::tie(cold, cold_point);
      result.fell_back_to_cold = true;
    }
    result.simplex_iterations = iterations;
  }
  if (!linf && result.status == core::Status::optimal && result.certificate.within(kCertificateTolerance)) {
    last_l1_point_ = point;
    last_l1_feature_scale_ = feature_cost_scale(costs);
  }
  if (result.status == core::Status::optimal && !result.certificate.within(kCertificateTolerance)) {
    result.rounding_note = rounding_limit_note(data_, costs, point, result.certificate, kCertificateTolerance);
  }
  result.first_order_iterations = first_order_iterations;
  return result;
}

std::pair<StepResult, StepLpPoint> StepSolver::read_full_lp(const optim::LpSolution& solution, const StepLpCosts& costs,
                                                            bool linf) const {
  const auto n = static_cast<Eigen::Index>(data_.n());
  const auto d = static_cast<Eigen::Index>(data_.d());
  StepResult result;
  result.status = solution.status;
  result.message = solution.message;
  result.simplex_iterations = solution.iterations;
  result.fell_back_to_cold = solution.fell_back_to_cold;
  result.warm_limit_reached = solution.warm_limit_reached;
  result.working_features = static_cast<std::size_t>(d);
  result.working_examples = static_cast<std::size_t>(n);
  StepLpPoint point;
  if (core::has_solution(solution.status)) {
    const core::Vector& x = solution.primal;
    point = {x.head(d), x.segment(d, d), x[2 * d], x.segment(2 * d + 1, n), linf ? x[2 * d + 1 + n] : 0.0,
             solution.row_duals.head(n), linf ? solution.row_duals.tail(d).eval() : core::Vector()};
    result.certificate = certify(data_, costs, point, linf);
    result.w = point.w_plus - point.w_minus;
    result.b = point.b;
  }
  return {result, point};
}

bool StepSolver::still_optimal(const StepLpCosts& costs) const {
  // Beyond the first C of a path whose answer has xi = 0 (the hard-margin regime), that answer stays
  // optimal: for C' > C any point has lambda ||w||_1 + C' sum xi >= lambda ||w||_1 + C sum xi, which the
  // answer minimizes with nothing from xi. Its multipliers prove it as they are when only the C_i grew
  // (OneNormSVM-C), and scaled by lambda' / lambda when the feature costs shrank (OneNormSVM's lambda,
  // the same LP divided by lambda): both are tried.
  StepLpPoint point = *last_l1_point_;
  for (const double scale : {1.0, feature_cost_scale(costs) / last_l1_feature_scale_}) {
    if (!std::isfinite(scale)) continue;
    point.alpha = scale * last_l1_point_->alpha;
    if (certify(data_, costs, point, false).within(kCertificateTolerance)) return true;
  }
  return false;
}

long StepSolver::start_crossover(const StepLpCosts& costs, bool margins_changed, optim::ClpLp& lp) {
  // An answer still optimal under the new costs, on the same rows (a new margin would leave the last
  // basis neither primal nor dual feasible: a cold solve), resumes the last basis.
  const bool warm = options_.warm_start && last_l1_point_;
  if (warm && !margins_changed && still_optimal(costs)) return 0;
  FirstOrderPoint start;  // from zero, or from the last answer
  if (warm) start = {last_l1_point_->w_plus - last_l1_point_->w_minus, last_l1_point_->b, last_l1_point_->alpha};
  const CrossoverStart crossover = crossover_start(data_, costs, start);
  keep_first_order_point(crossover.point);
  lp.start_from(crossover.basis);
  return crossover.point.iterations;
}

std::string hand_over_message(const std::string& generation_message, long warm_limit, const StepResult& crossover,
                              bool simplex_limit_spent) {
  std::string route = generation_message + "; ";
  if (crossover.status == core::Status::iteration_limit) {
    route += simplex_limit_spent ? "the full LP had no answer within the simplex iteration limit"
                                 : "the full LP had no answer within Clp's iteration limit of a solve";
  } else if (crossover.warm_limit_reached) {
    route += fmt::format("the crossover's guessed basis had no answer in {} dual simplex iterations, so the full LP "
                         "was solved from the slack basis", warm_limit);
  } else if (crossover.fell_back_to_cold) {
    route += "the crossover's guessed basis gave no certified answer, so the full LP was solved from the slack basis";
  } else {
    route += "the crossover's guessed basis answered";
  }
  return crossover.message.empty() ? route : route + " (" + crossover.message + ")";
}

StepResult StepSolver::solve_generated_lp(const StepLpCosts& costs, bool linf, HandOverBudget hand_over) {
  auto& lp = linf ? generated_linf_lp_ : generated_l1_lp_;
  if (!lp) {
    GenerationSettings settings;
    settings.generate_examples = data_.n() > kExampleGenerationSize;
    settings.max_simplex_iterations = options_.lp_max_iterations;
    settings.budget = &lp_budget_;
    lp = std::make_unique<GeneratedLp>(data_, linf, settings);
  }
  const GenerationResult solution = lp->solve(costs, hand_over);
  if (solution.handed_over) {  // this step by crossover (convex_step.hpp); the row counts every pivot
    const long warm_limit = options_.hand_over_warm_iterations >= 0 ? options_.hand_over_warm_iterations
                                                                     : kHandOverWarmIterations;
    StepResult result = solve_full_lp(costs, linf, true, warm_limit);
    result.message = hand_over_message(solution.message, warm_limit, result, lp_budget_.spent());
    result.simplex_iterations += solution.simplex_iterations;
    result.generation_rounds = solution.rounds;
    return result;
  }
  StepResult result;
  result.status = solution.status;
  result.message = solution.message;
  result.simplex_iterations = solution.simplex_iterations;
  result.fell_back_to_cold = solution.fell_back_to_cold;
  result.generated = true;
  result.working_features = solution.working_features;
  result.working_examples = solution.working_examples;
  result.generation_rounds = solution.rounds;
  result.certificate = solution.certificate;
  if (core::has_solution(solution.status)) {
    result.w = solution.point.w_plus - solution.point.w_minus;
    result.b = solution.point.b;
  } else if (solution.point.w_plus.size() > 0 && lp_budget_.spent()) {
    keep_limit_point({"generation's last restricted answer", solution.point.w_plus - solution.point.w_minus,
                      solution.point.b, solution.point.alpha, false});
  }
  return result;
}

StepResult StepSolver::best_point_within_limit(const ConvexStep& step, const StepLpCosts& costs, bool linf,
                                               StepResult stopped) {
  const auto d = static_cast<Eigen::Index>(data_.d());
  std::vector<double> values;  // the step objective of each kept point, in limit_points_' order
  for (const LimitPoint& point : limit_points_) values.push_back(step.value(data_, point.w, point.b));
  const bool first_order_run = std::any_of(limit_points_.begin(), limit_points_.end(),
                                           [](const LimitPoint& point) { return point.first_order; });
  if (!first_order_run && first_order_unsupported(costs, linf).empty()) {
    // From the best point so far, or zero, to FirstOrderOptions' gap, in at most as many iterations as the
    // simplex's limit: a PDHG iteration (two passes over X) is worth about a dense simplex iteration, and
    // the fit's work stays proportional to its limit (30,000 iterations took minutes on dense 6000 x 5000).
    FirstOrderOptions options;
    options.max_iterations = std::min(options.max_iterations, step.simplex_iteration_limit);
    FirstOrderPoint start;
    double start_value = step.value(data_, core::Vector::Zero(d), 0.0);
    for (std::size_t k = 0; k < limit_points_.size(); ++k) {
      if (values[k] < start_value) {
        start = FirstOrderPoint{limit_points_[k].w, limit_points_[k].b, {}, 0, 0.0};
        start_value = values[k];
      }
    }
    const FirstOrderPoint first_order = first_order_point(data_, costs, start, options);
    stopped.first_order_iterations += first_order.iterations;
    keep_first_order_point(first_order);
    values.push_back(step.value(data_, first_order.w, first_order.b));
  }
  StepResult result = std::move(stopped);  // its work counts
  result.w = core::Vector::Zero(d);
  result.b = 0.0;
  std::string source = "zero weights";
  double value = step.value(data_, result.w, result.b);
  for (const double b : {-1.0, 1.0}) {  // a constant classifier, where the points are worse
    if (const double constant_value = step.value(data_, result.w, b); constant_value < value) {
      std::tie(result.b, value) = std::tie(b, constant_value);
      source = fmt::format("zero weights and b = {:g}", b);
    }
  }
  double lower_bound = -kInfinity;  // in the step's units
  for (std::size_t k = 0; k < limit_points_.size(); ++k) {
    const LimitPoint& point = limit_points_[k];
    if (values[k] < value) std::tie(result.w, result.b, source, value) = std::tie(point.w, point.b, point.source, values[k]);
    if (!linf) lower_bound = std::max(lower_bound, l1_lower_bound(data_, costs, point.alpha) / costs.scale);
  }
  result.stopped_at_simplex_limit = true;
  result.certificate = LpCertificate();
  result.certificate.relative_gap = std::isfinite(lower_bound) ? std::max(0.0, value - lower_bound) /
                                                                   std::max(std::abs(value), std::numeric_limits<double>::min())
                                                               : std::numeric_limits<double>::quiet_NaN();
  // Weak duality proves the point optimal where the bound meets it (RLP on separable data: F = D = 0).
  result.status = result.certificate.relative_gap <= kCertificateTolerance ? core::Status::optimal : core::Status::feasible;
  const std::string bound = std::isfinite(lower_bound) ? fmt::format("above the lower bound {:.10g} (the best of the "
                                                                     "points' duals made feasible) by a relative {:.3g}",
                                                                     lower_bound, result.certificate.relative_gap)
                                                       : "no lower bound";
  result.message = fmt::format("stopped at its simplex iteration limit, after {} iterations: the model is {}, step "
                               "objective {:.10g}, {}; {}", step.simplex_iteration_limit, source, value, bound, result.message);
  return result;
}

void StepSolver::keep_limit_point(LimitPoint point) {
  if (lp_budget_.limited()) limit_points_.push_back(std::move(point));
}

void StepSolver::keep_first_order_point(const FirstOrderPoint& point) {
  keep_limit_point({fmt::format("the first-order point after {} iterations", point.iterations), point.w, point.b,
                    point.alpha, true});
}

StepResult StepSolver::solve_qp(const ConvexStep& step) {
  if (!(step.regularizer_weight > 0)) {
    throw core::InputError(fmt::format("l2-regularized step needs a positive weight, found {}", step.regularizer_weight));
  }
  const optim::L2SvmProblem problem = step.l2_svm_problem();
  optim::L2SvmOptions qp_options;
  qp_options.solver = static_cast<optim::QpSolver>(step.qp_solver);
  qp_options.relative_gap = options_.qp_relative_gap;
  qp_options.max_epochs = options_.cd_max_epochs;
  qp_options.bias_guess = last_b_;
  if (!qp_) qp_ = std::make_unique<optim::L2SvmSolver>(data_);
  optim::L2SvmSolution solution = qp_->solve(problem, options_.warm_start ? last_alpha_ : core::Vector(), qp_options);
  StepResult result;
  result.kind = StepKind::qp;
  result.status = solution.status;
  result.message = solution.message;
  result.qp_solver = solution.solver;
  result.qp_updates = solution.coordinate_updates;
  result.qp_interior_iterations = solution.interior_iterations;
  result.qp_relative_gap = solution.relative_gap;
  if (core::has_solution(result.status)) {
    result.w = std::move(solution.w);
    result.b = solution.b;
    last_alpha_ = std::move(solution.alpha);
    last_b_ = result.b;
  }
  return result;
}

}  // namespace sparsesvm::models

namespace sparsesvm::models {

ConvexStep linearized_loss(const Objective& objective, const core::Dataset& data, const core::Vector& w, double b) {
  const auto n = static_cast<Eigen::Index>(data.n());
  const Loss& loss = *objective.loss;
  ConvexStep step;
  step.hinge_weight = objective.example_weights * loss.convex_scale();
  step.margin = core::Vector::Constant(n, loss.convex_margin());

  // d/dw of sum_i c_i h(t_i) is sum_i c_i h'(t_i) y_i x_i; d/db is sum_i c_i h'(t_i) y_i.
  const core::Vector t = margins(data, w, b);
  core::Vector weighted_slopes(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    weighted_slopes[i] = objective.example_weights[i] * loss.concave_slope(t[i]) * data.labels()[i];
  }
  step.tilt_w = data.transpose_times(weighted_slopes);
  step.tilt_b = weighted_slopes.sum();
  return step;
}

ConvexStep linearized_step(const Objective& objective, const core::Dataset& data, const core::Vector& w, double b) {
  ConvexStep step = linearized_loss(objective, data, w, b);
  step.regularizer = objective.penalty->convex_regularizer();
  step.regularizer_weight = objective.penalty_weight * objective.penalty->convex_weight();
  step.tilt_w += objective.penalty_weight * objective.penalty->concave_subgradient(w);
  return step;
}

std::string convex_step_unsupported(const Objective& objective) {
  if (objective.loss->has_hinge_split()) return "";
  return fmt::format("loss {} has no hinge-shaped convex part, so no LP/QP step can run it (algorithm rw can)",
                     objective.loss->id());
}

void record_step(FitReport& report, const StepResult& step, const std::string& source) {
  report.inner_iterations += step.simplex_iterations + step.qp_updates + step.qp_interior_iterations;
  report.inner_solves += 1;
  record_step_statistics(report, step, source);
}

void record_step_statistics(FitReport& report, const StepResult& step, const std::string& source) {
  const auto raise = [&report](const char* name, double value) {
    double& statistic = report.statistics[name];
    statistic = std::max(statistic, value);
  };
  // Only the statistics of the kind of solve that ran: an LP method has no QP gap (blank, not 0).
  if (step.kind == StepKind::lp) {
    report.statistics["simplex_iterations"] += static_cast<double>(step.simplex_iterations);
    raise("lp_generated", step.generated ? 1.0 : 0.0);
    raise("lp_reduced_cost_violation", step.certificate.reduced_cost_violation);
    raise("lp_constraint_violation", step.certificate.constraint_violation);
    raise("lp_relative_gap", std::abs(step.certificate.relative_gap));
    raise("lp_working_features", static_cast<double>(step.working_features));
    raise("lp_working_examples", static_cast<double>(step.working_examples));
    report.statistics["lp_generation_rounds"] += static_cast<double>(step.generation_rounds);
  } else {
    record_qp_statistics(report, step.qp_solver, step.qp_updates, step.qp_interior_iterations, step.qp_relative_gap);
  }
  report.fell_back_to_cold = report.fell_back_to_cold || step.fell_back_to_cold;
  const bool noteworthy = step.fell_back_to_cold || step.status == core::Status::solved_inaccurate;
  if (!noteworthy || step.message.empty()) return;
  if (source.empty()) {  // the fit's own words: once
    if (report.message.find(step.message) == std::string::npos) {
      report.message += (report.message.empty() ? "" : "; ") + step.message;
    }
    return;
  }
  const std::string enclosed = fmt::format(" [{}: {}]", core::to_string(step.status), step.message);
  if (report.step_notes.insert(enclosed).second) report.message += (report.message.empty() ? "" : "; ") + source + enclosed;
}

const std::vector<std::string>& lp_step_statistic_names() {
  static const std::vector<std::string> names = {
      "simplex_iterations", "lp_generated", "lp_reduced_cost_violation", "lp_constraint_violation",
      "lp_relative_gap", "lp_working_features", "lp_working_examples", "lp_generation_rounds"};
  return names;
}

const std::vector<std::string>& qp_statistic_names() {
  static const std::vector<std::string> names = {"qp_updates", "qp_interior_iterations", "qp_max_relative_gap"};
  return names;
}

const std::vector<std::string>& step_statistic_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = lp_step_statistic_names();
    all.insert(all.begin() + 1, qp_statistic_names().begin(), qp_statistic_names().end());
    return all;
  }();
  return names;
}

void record_qp_statistics(FitReport& report, const std::string& solver, long updates, long interior_iterations,
                          double relative_gap) {
  // Every solver that answered a QP of the fit, in order of first use: "dual_cd,interior_point".
  std::string& solvers = report.text_statistics[kQpSolverColumn];
  if (!solver.empty() && ("," + solvers + ",").find("," + solver + ",") == std::string::npos) {
    solvers += (solvers.empty() ? "" : ",") + solver;
  }
  report.statistics["qp_updates"] += static_cast<double>(updates);
  report.statistics["qp_interior_iterations"] += static_cast<double>(interior_iterations);
  double& gap = report.statistics["qp_max_relative_gap"];
  gap = std::max(gap, relative_gap);
}

const ParameterSpec& lp_form_option() {
  static const ParameterSpec spec{
      "lp_form", "how LP steps are solved: by_size (generation for the l1 LP beyond 1e6 nonzeros of X, beyond 1.5e5 "
      "when d >= 4n or n > 2000, or beyond 1e5 features; handing over to crossover where it stalls below 1e6 "
      "nonzeros, or 5e6 where at most 1% of X's cells are stored and the memory budget allows), full (the whole LP), generation (feature and example generation), crossover (the full l1 LP "
      "from a basis guessed from a first-order point)",
      0, 0, 3, false, false, Scale::linear, Regularizes::neither, ParameterKind::solver, true,
      {"by_size", "full", "generation", "crossover"}};
  return spec;
}

const ParameterSpec& simplex_iteration_limit_option() {
  static const ParameterSpec spec{
      "simplex_iteration_limit", "simplex iterations of the fit's LP, all its solves together (generation's, and the "
      "full LP's from the crossover's guessed basis or the slack basis; l2 SVMs have none); past them the fit keeps "
      "the best point it has (the full LP's last iterate, generation's last restricted answer, or the first-order "
      "point: the crossover's, its route's own, or one run then of at most as many iterations as the limit), status feasible "
      "with stop_reason `simplex iteration limit` (optimal where the gap proves it), and as certificate its relative gap "
      "to a lower bound from those points' duals made feasible (none with an l_inf norm): a work limit, the same row "
      "on any machine with the same memory budget (which can choose the route); 0 means none",
      0, 0, 2e9, false, false, Scale::log, Regularizes::neither, ParameterKind::solver, true};
  return spec;
}

const ParameterSpec& qp_solver_option() {
  static const ParameterSpec spec{
      "qp_solver", "how l2 SVMs are solved: by_shape (dual CD handing over to the interior point, or either alone), "
      "interior_point, dual_cd",
      0, 0, 2, false, false, Scale::linear, Regularizes::neither, ParameterKind::solver, true,
      {"by_shape", "interior_point", "dual_cd"}};
  return spec;
}

}  // namespace sparsesvm::models
