#pragma once
// Summary statistics for tables: mean, sample standard deviation (n - 1), the paired two-tailed
// t-test the FSV paper reports (FSV vs SVM-1 over the 10 folds, [FSV] section 4.3), and the comparisons
// of many methods the field uses: the corrected resampled t-test (Nadeau and Bengio, Machine Learning
// 52, 2003), Wilcoxon's signed-rank test, and Friedman's test with Nemenyi's critical difference
// (Demsar, JMLR 7, 2006).
#include <cstddef>
#include <vector>

namespace sparsesvm::experiment {

double mean(const std::vector<double>& values);
// Sample standard deviation; 0 for fewer than two values.
double sample_stddev(const std::vector<double>& values);

// Regularized incomplete beta function I_x(a, b), by its continued fraction (modified Lentz).
double incomplete_beta(double a, double b, double x);

// Two-tailed p-value of Student's t with `dof` degrees of freedom: I_{dof/(dof+t^2)}(dof/2, 1/2).
double t_test_p_value(double t, double dof);

struct PairedTest {
  std::size_t n = 0;
  double mean_difference = 0.0;
  double t = 0.0;
  double p_value = 1.0;  // 1 when every difference is zero; NaN for fewer than two pairs
};

PairedTest paired_t_test(const std::vector<double>& a, const std::vector<double>& b);

// The corrected resampled t-test for J outer splits that share training examples (repeated holdout,
// k-fold): the variance of the mean difference is (1/J + n_test/n_train) s^2 instead of s^2 / J, with
// J - 1 degrees of freedom (Nadeau and Bengio 2003, eq. (11); Bouckaert and Frank 2004 for k-fold).
// test_train_ratio = n_test / n_train of one split; 0 gives the paired t-test.
PairedTest corrected_resampled_t_test(const std::vector<double>& a, const std::vector<double>& b,
                                      double test_train_ratio);

// Standard normal distribution function.
double normal_cdf(double z);

struct SignedRankTest {
  std::size_t n = 0;        // pairs with a nonzero difference (zeros are dropped: Wilcoxon's rule; differences are
                            // compared to 12 significant digits of the largest, so rounding makes no ties apart)
  double w_plus = 0.0;      // sum of the ranks of |a - b| over a > b (ties share their mean rank)
  double w_minus = 0.0;
  double p_value = 1.0;     // two-sided; NaN without pairs
  bool exact = false;       // the exact null distribution given the ties (n <= kExactSignedRankLimit), else the
                            // normal approximation with the tie correction, no continuity correction
};

// Up to this many nonzero differences the signed-rank p-value is exact (the permutation distribution of
// the midranks, so that tied differences get an exact p too: 4 equal differences give 0.125, not 0.0455).
inline constexpr std::size_t kExactSignedRankLimit = 50;

SignedRankTest wilcoxon_signed_rank(const std::vector<double>& a, const std::vector<double>& b);

// Ranks of `values` (1 = the best; `higher_is_better` says which end that is), ties given their mean rank.
std::vector<double> ranks(const std::vector<double>& values, bool higher_is_better);

struct FriedmanTest {
  std::size_t methods = 0;                  // k
  std::size_t datasets = 0;                 // N
  std::vector<double> mean_ranks;           // per method, over the data sets
  double chi_square = 0.0;                  // Friedman's statistic
  double iman_davenport_f = 0.0;            // its F form, (N-1) chi^2 / (N (k-1) - chi^2)
  double p_value = 1.0;                     // of F with (k-1, (k-1)(N-1)) degrees of freedom
  double critical_difference = 0.0;         // Nemenyi's, at `alpha`: mean ranks further apart differ
};

// From mean ranks over N data sets (Demsar 2006, section 3.2.2, eq. on p. 11; NaN p-value and infinite F
// when every data set ranks the methods alike).
FriedmanTest friedman_from_ranks(const std::vector<double>& mean_ranks, std::size_t datasets, double alpha = 0.05);
// values[dataset][method], every cell present.
FriedmanTest friedman_test(const std::vector<std::vector<double>>& values, bool higher_is_better, double alpha = 0.05);

// q_alpha of Nemenyi's test: the studentized range's upper alpha quantile for k means and infinite degrees
// of freedom, divided by sqrt 2 (Demsar's Table 5a: 1.960, 2.343, 2.569, ... for k = 2, 3, 4, ...).
double nemenyi_q(std::size_t k, double alpha);

}  // namespace sparsesvm::experiment
