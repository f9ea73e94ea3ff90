#pragma once
// The protocol of a config: how each task splits its data (outer), selects hyperparameters on the
// training part (inner) and picks among the candidates (models/selection.hpp), typed once when the config
// is read. What depends on the outer or inner kind is a switch here or in tasks.cpp, never a string test.
//   outer  holdout          repeated random test_fraction / rest splits ([DCA] 4, [RW] 4)
//          kfold            outer_folds folds of each of `partitions` partitions ([FSV] 10-fold CV)
//          half_half        repeated random halves ([RW] 4)
//          train_tune_test  parts of fixed sizes, the tune part selects ([PSI] 5)
//   inner  kfold            inner_folds folds of the training part
//          tuning_sets      tuning_parts random parts of tuning_fraction each ([FSV]'s tuning-set rule)
//          tuning_set       train_tune_test's tune part
//          none             no selection: every tuned parameter has one value
#include <cstddef>
#include <string>
#include <string_view>

#include "models/scoring.hpp"
#include "models/selection.hpp"

namespace sparsesvm::experiment {

// given: the split a file's order makes, for a set published with its own test part (RCV1's LYRL2004
// split): the first `train` examples train, the rest test; one repetition, nothing drawn.
enum class Outer { holdout, kfold, half_half, train_tune_test, given };
enum class Inner { kfold, tuning_sets, tuning_set, none };

std::string_view to_string(Outer outer);
std::string_view to_string(Inner inner);
// The kind called `name`; an InputError "unknown outer protocol 'x' (did you mean ...? known: ...)" otherwise.
Outer parse_outer(const std::string& name);
Inner parse_inner(const std::string& name);

// How each task splits its data (outer), selects hyperparameters on the training part (inner), and
// picks among them (selection). docs/user-guide.md ("Config schema") has the YAML keys.
struct Protocol {
  Outer outer = Outer::holdout;
  double test_fraction = 0.3;     // holdout (half_half: 0.5)
  std::size_t repetitions = 20;   // holdout, half_half, train_tune_test
  std::size_t outer_folds = 10;   // kfold
  // kfold: partitions of the data, each split into outer_folds folds (rows rep = p * folds + fold; partition 0
  // is the one drawn without this option). Several give the spread of a CV estimate across re-partitions,
  // which the paper comparison needs for a fixed data set (paper_comparison.hpp).
  std::size_t partitions = 1;
  bool stratified = false;
  std::size_t train_size = 0;     // train_tune_test: examples in each part (given: the training part)
  std::size_t tune_size = 0;
  std::size_t test_size = 0;
  bool independent_test = false;  // train_tune_test on a generator: the test part is a fresh sample
  // Generators only, not kfold: every repetition draws a new sample of the generator (seed derived from the
  // config's seed, the data set and the repetition) and splits that, as papers that replicate a simulation
  // do ([PSI] 100 training sets); false: every repetition resplits one sample ([DCA] 4: 20 permutations).
  bool fresh_sample = false;
  Inner inner = Inner::kfold;
  std::size_t inner_folds = 5;
  std::size_t tuning_parts = 10;
  double tuning_fraction = 0.1;
  models::Metric metric = models::Metric::accuracy;  // the inner score (models/scoring.hpp)
  models::SelectionRule selection = models::SelectionRule::best;
  models::TieRule ties = models::TieRule::most_regularized;
  // [RW] Fig. 3's variant: during inner selection a model with ||w||_1 below this scores 0.5 (a coin);
  // 0 turns it off.
  double near_zero_norm = 0.0;
};

// Outer splits per data set instance: the folds of an outer k-fold (times its partitions), else the repetitions.
std::size_t outer_count(const Protocol& protocol);

// n_test / n_train of one outer split of the protocol (the corrected resampled t-test's correction): 0
// when every repetition draws a fresh sample (training sets share no example: the paired t-test holds);
// NaN for an independent test sample of a resplit pool (train_tune_test with independent_test) and for a
// given split (one split: nothing to correct), which the correction does not model (its cells stay empty).
double test_train_ratio(const Protocol& protocol);

}  // namespace sparsesvm::experiment
