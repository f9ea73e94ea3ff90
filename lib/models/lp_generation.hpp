#pragma once
// The convex step's LP (convex_step.hpp) solved over working sets of features and examples, for data
// whose full LP is too large to build (gisette: 6000 x 5000 dense, 60 million LP nonzeros):
//
//   minimize  sum_j (p_j w+_j + q_j w-_j) + c_b b + sum_i C_i xi_i [+ r nu]
//   subject to y_i (x_i.(w+ - w-) + b) + xi_i >= m_i            (dual alpha_i >= 0)
//              [w+_j + w-_j - nu <= 0 for l_inf]                  (dual beta_j <= 0)
//              w+, w-, xi [, nu] >= 0, b free
//
// Its dual constraints give the pricing rules (reduced cost = cost - A'(alpha, beta)), with
// g_j = sum_i alpha_i y_i x_ij:
//   w+_j: p_j - g_j - beta_j >= 0,  w-_j: q_j + g_j - beta_j >= 0,  xi_i: C_i - alpha_i >= 0,
//   b: c_b - sum_i alpha_i y_i = 0,  nu: r + sum_j beta_j >= 0.
// For the 1-norm SVM (p_j = q_j = lambda, no tilt) a feature outside the working set (beta_j = 0) can
// enter exactly while |g_j| > lambda ([DCA] A.2's dual; Bradley-Mangasarian [FSV] (13)).
// An example outside the working set has no row and no xi_i: its constraint is assumed slack at xi_i = 0,
// which holds while y_i (x_i.w + b) >= m_i; a violated one enters with its xi_i.
// Each round solves the restricted LP warm (ClpLp), adds the features that price out if any (primal
// simplex continues), else the violated examples (dual simplex continues); it stops when neither exists.
// Before adding, it drops what lies far from the optimal face: features nonbasic at zero whose reduced
// costs are large, and, once the features are priced out (so that a seed is not dropped before the
// features it needs have come in), examples whose rows are slack by a wide margin. The smaller LP keeps
// the same optimal basis, so nothing is lost, and stays near the size of that basis (gisette-shaped
// optimum: 736 features, 737 examples on the margin, out of 5000 and 6000). Each feature and example is
// dropped at most max_drops times, so generation still ends. With example generation the first examples
// come from a seed (example_seed.hpp) instead of an even spread. The answer is
// then certified on the full problem by `certify`: the restricted solution, extended by zeros, is primal
// feasible and its duals, extended by zeros, are dual feasible, so it is an optimum of the full LP.
// Folding. On text-shaped data most of the examples in the LP are on the wrong side of their margin at
// the optimum (20000 x 50000, lambda 1: 6072 with xi_i > 0, 1076 on the margin), and each costs a row. An
// example with xi_i > 0 has alpha_i = C_i, and its term C_i xi_i = C_i (m_i - y_i (x_i.w + b)) is linear:
// it can leave the LP as a tilt of the costs of w+, w- and b instead of a row (alpha_i = C_i stays in
// g). The seed's examples at alpha_i = C_i start folded (each class keeps at least one row). A folded example whose margin comes out above
// m_i is released (it gets its row back: its linear term kept rewarding a margin it no longer needs),
// and never folded again. Folded terms reward margins without limit, so while anything is folded every
// w+_j, w-_j and |b| is boxed (box_per_seed_weight times the larger of the seed's largest weight and a
// weight that moves a margin by the largest m_i); an answer on the box widens it tenfold, and the box goes
// when nothing is folded any more. At the end each folded example has xi_i = max(0, m_i - y_i f(x_i)) and the
// certificate is taken on the full problem as before; only the path changed.
// X is never copied whole: pricing and the constraint check use the data set's products, and the
// restricted LP holds only the entries of working features in working examples.
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/status.hpp"

namespace sparsesvm::optim {
class ClpLp;
struct IterationBudget;
}

namespace sparsesvm::models {

// The costs and margins of one convex-step LP, by variable.
struct StepLpCosts {
  core::Vector plus;    // p_j, of w+_j
  core::Vector minus;   // q_j, of w-_j
  double bias = 0.0;    // c_b, of b
  core::Vector slack;   // C_i, of xi_i
  double linf = 0.0;    // r, of nu (l_inf only)
  core::Vector margin;  // m_i
  double scale = 1.0;   // the factor every cost above was multiplied by (optim::clp_cost_scale): the LP's
                        // objective is scale times the step's
};

// A primal-dual point of the full LP; entries outside the working sets are zero.
struct StepLpPoint {
  core::Vector w_plus, w_minus;
  double b = 0.0;
  core::Vector xi;
  double nu = 0.0;
  core::Vector alpha;  // n
  core::Vector beta;   // d (l_inf only; empty otherwise)
};

// How far a point is from optimality on the full LP, each number relative: the largest dual
// infeasibility (negative reduced cost of any column, wrong sign of any multiplier) over the largest
// feature cost for w and nu, over its own C_i for a slack and a multiplier, over the largest C_i for b;
// the largest constraint violation over the largest margin; and the duality gap (primal - sum_i alpha_i
// m_i) over the objective's size: the largest feature cost times ||w||_1 (and nu), plus sum_i C_i |xi_i|,
// plus the smallest positive C_i times |b|. All three near zero prove the point optimal: feasible, dual
// feasible, and the gap closes complementary slackness.
// `within` also asks the gap of the objective a row reports, the one with the true hinge, to close.
struct LpCertificate {
  double reduced_cost_violation = 0.0;
  double constraint_violation = 0.0;
  double relative_gap = 0.0;   // (P - D) relative to what the costs could make (gap_scale in certify)
  // What P understates the objective of the point's (w, b) by, on the gap's scale: sum_i C_i times row
  // i's violation. A row violated within the simplex's tolerance (2e-8) by an example with C_i = 1e8
  // adds 2 to the true hinge: the gap of that objective, relative_gap + hinge_shortfall, must close too.
  double hinge_shortfall = 0.0;
  // D = sum_i alpha_i m_i in the LP's own units: for a dual feasible alpha a lower bound on the LP's optimum,
  // whatever the primal point's slacks or violated rows (what a DCA step's majorant gap needs).
  double dual_objective = 0.0;
  // The largest dual infeasibility of a feature column (and nu's), absolute, in the LP's units: the part of
  // reduced_cost_violation (times the largest feature cost) that X'(alpha y)'s rounding can explain.
  double feature_dual_infeasibility = 0.0;
  double slack_reduced_cost_violation = 0.0;  // the rest of reduced_cost_violation: slacks' and b's, relative
  bool within(double relative_tolerance) const;
  std::string describe() const;  // the four numbers, for a status message
};
// For a point of the l1 LP refused (not within `relative_tolerance`) by its features' reduced costs alone,
// each feature that misses by less than the rounding of its own reduced cost (machine epsilon times
// sum_i alpha_i |x_ij|, the size of the terms of g_j): a note, to follow the refusal's message, that at
// the data's scale the miss may be rounding alone. "" otherwise.
std::string rounding_limit_note(const core::Dataset& data, const StepLpCosts& costs, const StepLpPoint& point,
                                const LpCertificate& certificate, double relative_tolerance);
double largest_magnitude(const core::Vector& v);  // max_k |v_k|, 0 for an empty v
// The largest feature cost (|p_j|, |q_j|, r), or the largest C_i when there is none (RLP).
double feature_cost_scale(const StepLpCosts& costs);
LpCertificate certify(const core::Dataset& data, const StepLpCosts& costs, const StepLpPoint& point, bool linf);
// The same with the point's margins t_i = y_i (x_i.w + b) and g = X'(alpha y) already computed.
LpCertificate certify(const core::Dataset& data, const StepLpCosts& costs, const StepLpPoint& point, bool linf,
                      const core::Vector& t, const core::Vector& g);

// The point with b re-chosen for its w: the minimizer of c_b b + sum_i C_i max(0, m_i - y_i (x_i.w + b)),
// a convex piecewise-linear function of b whose minimum sits at a kink, and xi_i the true hinge there.
// w, alpha (and nu, beta) are kept. Where the function's slope misses 0 at an end by rounding, the end kink.
StepLpPoint with_best_bias(const core::Dataset& data, const StepLpCosts& costs, const StepLpPoint& point);

// For an answer whose certificate fails: a warm simplex can leave the rows of heavy examples violated
// inside its tolerance (a shift of b they all share), a hinge the certificate refuses. Tries
// with_best_bias; true, with point and certificate replaced, when the shifted point is certified.
bool certified_with_best_bias(const core::Dataset& data, const StepLpCosts& costs, bool linf, double tolerance,
                              StepLpPoint& point, LpCertificate& certificate);

struct GenerationSettings {
  bool generate_examples = true;   // false: every example is in the LP from the start
  std::size_t initial_examples = 1000;
  std::size_t min_feature_batch = 50;   // features added per round: max(this, working features / 4)
  std::size_t min_example_batch = 500;  // examples added per round: max(this, working examples)
  int max_rounds = 1000;
  int max_simplex_iterations = 10'000'000;
  optim::IterationBudget* budget = nullptr;  // a fit's work limit shared with other LPs (optim::LpOptions)
  double relative_tolerance = 1e-7;  // a certified answer is within this (scaled) of optimal
  // A feature is dropped when both reduced costs exceed this fraction of the largest feature cost, an
  // example when its row's slack exceeds this fraction of the largest margin (and alpha_i = xi_i = 0,
  // C_i - alpha_i above this fraction of the largest C_i). 0: nothing is dropped. The l_inf LP drops nothing.
  double drop_fraction = 0.1;
  int max_drops = 3;  // times each feature or example may be dropped: generation ends
  // Epochs of dual coordinate ascent that pick the initial examples when examples are generated
  // (example_seed.hpp), on sparse rows; 0: every k-th example, initial_examples of them.
  int seed_epochs = 200;
  // The same on dense rows, where an epoch costs more but a better seed saves more simplex iterations: on
  // the gisette-shaped set (nips2003_shaped 6000 x 5000, lambda 1) 500 epochs take 5.8 s and leave 3998
  // iterations to the LP, 200 epochs 2.8 s and 6189 (OneNormSVM 19.0 s against 21.6 s in all).
  int dense_seed_epochs = 500;
  int sharpened_seed_epochs = 200;  // more epochs at eps / 10 when the seed has examples at C_i (example_seed.hpp)
  // Fold the seed's examples at alpha_i = C_i into the costs (above); false: each gets a row.
  bool fold_examples = true;
  double box_per_seed_weight = 10.0;  // the first box on w and b while examples are folded
};

struct GenerationResult {
  core::Status status = core::Status::numerical_error;
  std::string message;
  // The answer; stopped by GenerationSettings::budget (status iteration_limit), the last restricted LP's
  // answer before it, if there was one (empty vectors if not).
  StepLpPoint point;
  LpCertificate certificate;
  long simplex_iterations = 0;
  bool fell_back_to_cold = false;
  int rounds = 0;
  std::size_t working_features = 0;
  std::size_t working_examples = 0;
  std::size_t seeded_examples = 0;   // initial examples chosen by the seed (0: none, or no example generation)
  std::size_t dropped_features = 0;  // drops during this solve (a feature dropped twice counts twice)
  std::size_t dropped_examples = 0;
  std::size_t folded_examples = 0;    // examples still folded into the costs at the answer
  std::size_t released_examples = 0;  // folded examples given their rows back during this solve
  int box_widenings = 0;              // tenfold widenings of the box during this solve
  bool handed_over = false;  // stopped at solve's hand-over budget, unanswered: the caller solves the full LP
};

// Where a hand-over is allowed, generation hands over as soon as pricing persists: after kPersistenceBatches
// batches of features have entered, the features still pricing out outnumber one batch and are at least
// kPersistentPricingShare of those that priced out at the first restricted LP, and both they and the LP's
// rows are at least kSquareBasisReach times the working features. The optimum then needs a large share of
// them, a basis near square (up to one feature a row) that generation reaches only through many rounds of
// restricted LPs growing by a quarter, each dearer than the last (from 4x away, more than 6), where the
// crossover's guessed basis is a few hundred pivots from it. Where the rows are few, generation is a few
// rounds from any basis: on a uniform 500 x 20000 draw at 5% (share 0.43-0.57, 150 working features,
// 500 rows) generation takes 1.5-2.5 s and the hand-over 16-24 s (helper-64's review). Measured with
// OneNormSVM (features pricing out after three batches over those at the first LP; CPU seconds by
// generation with the hand-over at 10,000 iterations, then by crossover alone):
//   uniform 2000 x 20000 draw (bench/uniform_sparse_draw.py), lambda 0.1-3   0.66-0.97   2.9-4.6 s, 2.4-3.5 s
//   text_shaped 2000 x 20000 (bench/run_sparse.sh's text2k), lambda 0.1      0.52        3.4 s, 3.0 s
//                                                           lambda 0.2       0.35        3.2 s, 1.7 s
//                                                           lambda 0.3       0.29        3.8 s, 2.3 s (missed)
//                                                           lambda 0.5, 1    0.23, 0.11  1.5 s, 1.8 s; 0.4 s, 1.4 s
//   rw_relevant 100 x 10000 (d_rel 20), lambda 0.01-3                      0.08-0.11   0.2 s, 12-15 s
//   dca_gaussians 200 x 5000, lambda 0.01-1                                0.01        0.2 s, 8-9 s
// The share falls fast where a few features explain the data (d >> n: the optimum has at most n
// features, and generation's LPs stay small) and barely moves where the optimum keeps most of them.
constexpr int kPersistenceBatches = 3;
constexpr double kPersistentPricingShare = 1.0 / 3.0;
constexpr std::size_t kSquareBasisReach = 4;

// Where examples are seeded (example_seed.hpp), the seed already tells that kind apart: generation hands
// over before its first LP when the seed keeps at least kSeedSquareBlock features and as many examples
// with rows (not folded), and the training set has at most kSeedRowsReach times that many examples. That
// first restricted LP is itself a square block of thousands of sparse columns and rows: from the slack
// basis Clp needs at least a pivot per column, over an LU that turns dense, and on these data generation
// spent its budget of 10^4 pivots in one to ten rounds, where the crossover's guessed basis is tens to
// hundreds of pivots from the optimum. But the crossover solves the full LP: where the seed leaves most
// examples out, their rows are work that generation never does. Measured with OneNormSVM, CPU seconds by
// size before the rule and after it (docs/benchmarks.md, "The seed's block"):
//   uniform draws 2500-5000 x 2000-30000, lambda 0.1-3: blocks 1311-3566, n / block 1.1-3.8: 16-67 s -> 2.4-24 s
//   text_shaped 3000-8000 rows (Reuters' width too), lambda 0.03-0.5: blocks 1077-3568, n / block 1.5-7.1:
//     5.7-36 s -> 1.8-11 s
//   sparse_categorical 20000 x 2000, lambda 1: block 1441, n / block 13.9: generation 95 s, the hand-over
//     over 200 s (the guess 2638 pivots away, past kHandOverWarmIterations): left to generation
//   text_shaped 5000-8000 rows at lambda 1, blocks 444-457: generation 1.4-2.0 s, the crossover 2.4 s;
//   dca_gaussians 3000 x 300 at lambda 0.1, block 40: generation 0.16 s, the crossover 8.7 s
constexpr std::size_t kSeedSquareBlock = 1000;
constexpr std::size_t kSeedRowsReach = 8;

// Generation's budget before it hands the step over to the crossover (StepSolver, convex_step.hpp), in
// simplex iterations. pass 0: no hand-over.
struct HandOverBudget {
  long pass = 0;  // the restricted LPs of one pass together
  // Each pass, until a restricted LP of the model has had an answer (the first round, or the first two
  // where the first is unbounded); 0 or at least pass: the pass's budget alone. Passes after an answer
  // start warm from its working sets and keep the pass's budget alone.
  long first_round = 0;
};

class GeneratedLp {
 public:
  GeneratedLp(const core::Dataset& data, bool linf, GenerationSettings settings);
  ~GeneratedLp();
  GeneratedLp(const GeneratedLp&) = delete;
  GeneratedLp& operator=(const GeneratedLp&) = delete;

  // Solves the step LP with these costs, starting from the working sets and basis of the last solve.
  // With a hand-over budget (above), a pass whose restricted LPs have taken budget.pass simplex iterations
  // without an answer, or that has taken budget.first_round before the model's first answered restricted
  // LP, stops there, between rounds or inside a round's restricted LP, `handed_over`, with no point (StepSolver's
  // hand-over, convex_step.hpp); an interrupted restricted LP is solved cold next time. It also stops
  // earlier where pricing persists (kPersistenceBatches above), or before its first LP where the seed keeps
  // a large square block (kSeedSquareBlock above).
  GenerationResult solve(const StepLpCosts& costs, HandOverBudget budget = {});

 private:
  enum class Role { bias, linf, plus, minus, slack };
  struct Column {
    Role role;
    Eigen::Index index;  // feature j or example i
  };

  void start_model(const StepLpCosts& costs);
  // Rounds from the current working sets and basis until nothing prices out (or the round limit), then the
  // answer's certificate on the full problem. all_examples_added: every example has its row (set here
  // when an unbounded restricted LP makes it take them all).
  GenerationResult generate(const StepLpCosts& costs, bool& all_examples_added, HandOverBudget budget);
  void add_examples(const std::vector<Eigen::Index>& examples, const StepLpCosts& costs);
  void add_features(const std::vector<Eigen::Index>& features, const StepLpCosts& costs);
  void update_costs_and_margins(const StepLpCosts& costs);
  StepLpPoint point_of(const core::Vector& primal, const core::Vector& row_duals, const StepLpCosts& costs) const;
  // g_j = sum_i alpha_i y_i x_ij and the margins t_i = y_i f(x_i) of a point.
  std::vector<Eigen::Index> violated_examples(const core::Vector& t, const StepLpCosts& costs) const;
  struct PricedFeatures {
    std::vector<Eigen::Index> batch;  // the most violated, at most max(min_feature_batch, working features / 4)
    std::size_t pricing_out = 0;      // every feature outside the working set whose reduced cost is negative
    std::size_t working = 0;          // features in the working set
  };
  PricedFeatures priced_features(const core::Vector& g, const StepLpCosts& costs) const;
  // Folding (above): the tilt of the folded examples' terms, released examples, the box.
  void fold(const std::vector<Eigen::Index>& examples, const StepLpCosts& costs);
  void refold(const StepLpCosts& costs);
  std::vector<Eigen::Index> released_examples(const core::Vector& t, const StepLpCosts& costs) const;
  void release(const std::vector<Eigen::Index>& examples, const StepLpCosts& costs);
  bool box_binds(const StepLpPoint& point, const StepLpCosts& costs, const core::Vector& g) const;
  void set_box(double box);  // the bounds of w+, w- and b (infinity: none)
  double weight_scale(const StepLpCosts& costs) const;
  core::Vector costs_of_columns(const StepLpCosts& costs) const;
  // Drops features and examples far from the optimal face (GenerationSettings::drop_fraction); adds the
  // counts to `result`.
  void drop_far_from_optimum(const StepLpPoint& point, const StepLpCosts& costs, const core::Vector& g,
                             const core::Vector& t, GenerationResult& result);
  void index_lp();  // example_row_, feature_column_, linf_row_, example_slack_column_ from rows_ and columns_
  double cost_of(const Column& column, const StepLpCosts& costs) const;

  const core::Dataset& data_;
  bool linf_;
  GenerationSettings settings_;
  std::unique_ptr<optim::ClpLp> lp_;
  std::vector<Column> columns_;              // what each LP column is
  struct Row {
    bool linf;           // an l_inf row of feature `index`, else the row of example `index`
    Eigen::Index index;
  };
  std::vector<Row> rows_;                    // what each LP row is
  std::vector<Eigen::Index> example_row_;    // row of example i, or -1
  std::vector<Eigen::Index> feature_column_; // column of w+_j (w-_j is the next), or -1
  std::vector<Eigen::Index> linf_row_;       // l_inf row of feature j, or -1
  std::vector<Eigen::Index> example_slack_column_;  // column of xi_i, or -1
  core::Vector margins_in_lp_;               // margins of the example rows as last given to the LP
  std::size_t seeded_examples_ = 0;
  std::size_t seed_features_ = 0;  // the seed's features and its examples given rows (0, 0 without a seed)
  std::size_t seed_rows_ = 0;
  bool answered_ = false;  // a restricted LP of this model has had an answer (HandOverBudget's first round)
  std::vector<int> feature_dropped_;         // times feature j has been dropped
  std::vector<int> example_dropped_;         // times example i has been dropped
  std::vector<char> folded_;                 // example i's term is folded into the costs
  core::Vector tilt_;                        // sum over folded i of C_i y_i x_i (d)
  double bias_tilt_ = 0.0;                   // sum over folded i of C_i y_i
  core::Vector slack_in_tilt_;               // the C_i the tilt was computed with
  double box_ = std::numeric_limits<double>::infinity();  // |w+_j|, |w-_j|, |b| <= box_ while folding
};

}  // namespace sparsesvm::models
