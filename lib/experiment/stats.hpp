#pragma once
// Summary statistics for tables: mean, sample standard deviation (n - 1), and the paired two-tailed
// t-test the FSV paper reports (FSV vs SVM-1 over the 10 folds, [FSV] section 4.3).
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

}  // namespace sparsesvm::experiment
