#include "experiment/stats.hpp"

#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace sparsesvm::experiment {

double mean(const std::vector<double>& values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double sample_stddev(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  const double m = mean(values);
  double sum = 0.0;
  for (double v : values) sum += (v - m) * (v - m);
  return std::sqrt(sum / static_cast<double>(values.size() - 1));
}

namespace {

// Continued fraction of I_x(a, b) (Numerical Recipes' betacf, written from the formula).
double beta_continued_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEpsilon = 1e-15;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  d = 1.0 / (std::abs(d) < kTiny ? kTiny : d);
  double h = d;
  for (int m = 1; m <= 10000; ++m) {
    const double m2 = 2.0 * m;
    // Even step: d_{2m} = m (b - m) x / ((a + 2m - 1)(a + 2m)).
    double numerator = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + numerator * d;
    c = 1.0 + numerator / c;
    d = 1.0 / (std::abs(d) < kTiny ? kTiny : d);
    c = std::abs(c) < kTiny ? kTiny : c;
    h *= d * c;
    // Odd step: d_{2m+1} = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)).
    numerator = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + numerator * d;
    c = 1.0 + numerator / c;
    d = 1.0 / (std::abs(d) < kTiny ? kTiny : d);
    c = std::abs(c) < kTiny ? kTiny : c;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1.0) < kEpsilon) return h;
  }
  return h;
}

}  // namespace

double incomplete_beta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  // The fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) otherwise.
  if (x < (a + 1.0) / (a + b + 2.0)) return std::exp(log_front) * beta_continued_fraction(a, b, x) / a;
  return 1.0 - std::exp(log_front) * beta_continued_fraction(b, a, 1.0 - x) / b;
}

double t_test_p_value(double t, double dof) { return incomplete_beta(0.5 * dof, 0.5, dof / (dof + t * t)); }

PairedTest paired_t_test(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) throw std::invalid_argument("paired_t_test: samples of different sizes");
  PairedTest test;
  test.n = a.size();
  if (test.n < 2) {
    test.p_value = std::numeric_limits<double>::quiet_NaN();
    return test;
  }
  std::vector<double> differences(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) differences[k] = a[k] - b[k];
  test.mean_difference = mean(differences);
  const double standard_error = sample_stddev(differences) / std::sqrt(static_cast<double>(test.n));
  if (standard_error == 0.0) {
    test.t = test.mean_difference == 0.0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), test.mean_difference);
    test.p_value = test.mean_difference == 0.0 ? 1.0 : 0.0;
    return test;
  }
  test.t = test.mean_difference / standard_error;
  test.p_value = t_test_p_value(test.t, static_cast<double>(test.n - 1));
  return test;
}

}  // namespace sparsesvm::experiment
