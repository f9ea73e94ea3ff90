#include "experiment/stats.hpp"

#include <algorithm>
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

PairedTest corrected_resampled_t_test(const std::vector<double>& a, const std::vector<double>& b,
                                      double test_train_ratio) {
  PairedTest test = paired_t_test(a, b);
  if (test.n < 2 || !std::isfinite(test.t) || test.t == 0.0) return test;
  // t_plain = mean / (s / sqrt J); the corrected t divides the mean by s sqrt(1/J + ratio) instead.
  const double J = static_cast<double>(test.n);
  test.t /= std::sqrt(1.0 + J * test_train_ratio);
  test.p_value = t_test_p_value(test.t, J - 1.0);
  return test;
}

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

std::vector<double> ranks(const std::vector<double>& values, bool higher_is_better) {
  std::vector<std::size_t> order(values.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    return higher_is_better ? values[i] > values[j] : values[i] < values[j];
  });
  std::vector<double> result(values.size());
  for (std::size_t first = 0; first < order.size();) {
    std::size_t last = first;  // the run of ties [first, last]
    while (last + 1 < order.size() && values[order[last + 1]] == values[order[first]]) ++last;
    const double shared = 0.5 * static_cast<double>(first + last) + 1.0;
    for (std::size_t k = first; k <= last; ++k) result[order[k]] = shared;
    first = last + 1;
  }
  return result;
}

namespace {

// Values rounded to 12 significant digits of the largest magnitude among them, so that numbers equal in
// exact arithmetic (accuracies k1/n - k2/n computed two ways) tie instead of differing in the last bit.
std::vector<double> quantized(const std::vector<double>& values) {
  double largest = 0.0;
  for (const double v : values) largest = std::max(largest, std::abs(v));
  if (largest == 0.0 || !std::isfinite(largest)) return values;
  std::vector<double> rounded(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) rounded[k] = std::round(values[k] / largest * 1e12) * (largest / 1e12);
  return rounded;
}

// P(W+ <= w) under the null for the given ranks (midranks where |differences| tie): each rank is in W+ with
// probability 1/2 independently, so the number of subsets of the ranks with each sum, counted by dynamic
// programming over the doubled ranks (midranks are multiples of 1/2), over 2^n: the exact permutation
// distribution conditional on the ties.
double exact_signed_rank_cdf(const std::vector<double>& ranks, double w) {
  std::vector<std::size_t> doubled;
  std::size_t total = 0;
  for (const double rank : ranks) {
    doubled.push_back(static_cast<std::size_t>(std::lround(2.0 * rank)));
    total += doubled.back();
  }
  std::vector<double> subsets(total + 1, 0.0);
  subsets[0] = 1.0;
  for (const std::size_t rank : doubled) {
    for (std::size_t s = total; s >= rank; --s) subsets[s] += subsets[s - rank];
  }
  double below = 0.0;
  for (std::size_t s = 0; s <= total && static_cast<double>(s) <= 2.0 * w + 1e-9; ++s) below += subsets[s];
  return below / std::ldexp(1.0, static_cast<int>(ranks.size()));
}

}  // namespace

SignedRankTest wilcoxon_signed_rank(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) throw std::invalid_argument("wilcoxon_signed_rank: samples of different sizes");
  std::vector<double> all(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) all[k] = a[k] - b[k];
  std::vector<double> differences;
  for (const double d : quantized(all)) {
    if (d != 0.0) differences.push_back(d);
  }
  SignedRankTest test;
  test.n = differences.size();
  if (test.n == 0) {
    test.p_value = a.empty() ? std::numeric_limits<double>::quiet_NaN() : 1.0;
    return test;
  }
  std::vector<double> magnitudes(test.n);
  for (std::size_t k = 0; k < test.n; ++k) magnitudes[k] = std::abs(differences[k]);
  const std::vector<double> rank = ranks(magnitudes, false);
  double tie_term = 0.0;  // sum over groups of tied |d| of t^3 - t
  std::vector<double> sorted = magnitudes;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t first = 0; first < sorted.size();) {
    std::size_t last = first;
    while (last + 1 < sorted.size() && sorted[last + 1] == sorted[first]) ++last;
    const double t = static_cast<double>(last - first + 1);
    tie_term += t * t * t - t;
    first = last + 1;
  }
  for (std::size_t k = 0; k < test.n; ++k) (differences[k] > 0 ? test.w_plus : test.w_minus) += rank[k];
  const double n = static_cast<double>(test.n);
  test.exact = test.n <= kExactSignedRankLimit;
  if (test.exact) {  // the null distribution is symmetric about n (n + 1) / 4, ties or not
    test.p_value = std::min(1.0, 2.0 * exact_signed_rank_cdf(rank, std::min(test.w_plus, test.w_minus)));
  } else {
    const double mean_w = n * (n + 1.0) / 4.0;
    const double variance = n * (n + 1.0) * (2.0 * n + 1.0) / 24.0 - tie_term / 48.0;
    test.p_value = variance > 0.0 ? 2.0 * normal_cdf(-std::abs(test.w_plus - mean_w) / std::sqrt(variance)) : 1.0;
  }
  return test;
}

double nemenyi_q(std::size_t k, double alpha) {
  if (k < 2) throw std::invalid_argument("nemenyi_q: needs at least two methods");
  // P(range of k standard normals <= r) = k * integral phi(z) (Phi(z + r) - Phi(z))^(k-1) dz, by Simpson's
  // rule on [-9, 9]; the quantile by bisection; Demsar's q is r / sqrt 2.
  const auto range_cdf = [k](double r) {
    constexpr int kIntervals = 4000;
    constexpr double kLow = -9.0, kHigh = 9.0;
    const double h = (kHigh - kLow) / kIntervals;
    double sum = 0.0;
    for (int i = 0; i <= kIntervals; ++i) {
      const double z = kLow + h * i;
      const double weight = i == 0 || i == kIntervals ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
      const double density = std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI);
      sum += weight * density * std::pow(normal_cdf(z + r) - normal_cdf(z), static_cast<double>(k - 1));
    }
    return static_cast<double>(k) * sum * h / 3.0;
  };
  double low = 0.0, high = 20.0;
  for (int iteration = 0; iteration < 100; ++iteration) {
    const double middle = 0.5 * (low + high);
    (range_cdf(middle) < 1.0 - alpha ? low : high) = middle;
  }
  return 0.5 * (low + high) / std::sqrt(2.0);
}

FriedmanTest friedman_from_ranks(const std::vector<double>& mean_ranks, std::size_t datasets, double alpha) {
  FriedmanTest test;
  test.methods = mean_ranks.size();
  test.datasets = datasets;
  test.mean_ranks = mean_ranks;
  const double k = static_cast<double>(test.methods), N = static_cast<double>(datasets);
  if (test.methods < 2 || datasets < 2) {
    test.p_value = std::numeric_limits<double>::quiet_NaN();
    return test;
  }
  double sum_of_squares = 0.0;
  for (const double r : mean_ranks) sum_of_squares += r * r;
  test.chi_square = 12.0 * N / (k * (k + 1.0)) * (sum_of_squares - k * (k + 1.0) * (k + 1.0) / 4.0);
  const double denominator = N * (k - 1.0) - test.chi_square;
  const double d1 = k - 1.0, d2 = (k - 1.0) * (N - 1.0);
  if (denominator <= 0.0) {  // every data set ranks the methods alike: F is infinite
    test.iman_davenport_f = std::numeric_limits<double>::infinity();
    test.p_value = 0.0;
  } else {
    test.iman_davenport_f = (N - 1.0) * test.chi_square / denominator;
    // P(F > f) = I_{d2 / (d2 + d1 f)}(d2 / 2, d1 / 2).
    test.p_value = incomplete_beta(0.5 * d2, 0.5 * d1, d2 / (d2 + d1 * test.iman_davenport_f));
  }
  test.critical_difference = nemenyi_q(test.methods, alpha) * std::sqrt(k * (k + 1.0) / (6.0 * N));
  return test;
}

FriedmanTest friedman_test(const std::vector<std::vector<double>>& values, bool higher_is_better, double alpha) {
  const std::size_t k = values.empty() ? 0 : values.front().size();
  std::vector<double> mean_ranks(k, 0.0);
  for (const std::vector<double>& row : values) {
    if (row.size() != k) throw std::invalid_argument("friedman_test: every data set needs a value per method");
    const std::vector<double> rank = ranks(quantized(row), higher_is_better);
    for (std::size_t j = 0; j < k; ++j) mean_ranks[j] += rank[j];
  }
  for (double& rank : mean_ranks) rank /= static_cast<double>(values.size());
  return friedman_from_ranks(mean_ranks, values.size(), alpha);
}

}  // namespace sparsesvm::experiment
