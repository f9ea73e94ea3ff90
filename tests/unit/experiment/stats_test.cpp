#include <catch2/catch.hpp>

#include <cmath>

#include "experiment/stats.hpp"

using namespace sparsesvm::experiment;

TEST_CASE("incomplete beta matches closed forms", "[stats]") {
  // I_x(1, 1) = x;  I_x(1, b) = 1 - (1 - x)^b;  I_x(a, 1) = x^a.
  for (double x : {0.05, 0.3, 0.5, 0.9}) {
    CHECK(incomplete_beta(1, 1, x) == Approx(x).epsilon(1e-12));
    CHECK(incomplete_beta(1, 4.5, x) == Approx(1 - std::pow(1 - x, 4.5)).epsilon(1e-12));
    CHECK(incomplete_beta(3.5, 1, x) == Approx(std::pow(x, 3.5)).epsilon(1e-12));
  }
}

TEST_CASE("t-test p-values match Student's t tables", "[stats]") {
  // One degree of freedom is the Cauchy distribution: P(|T| > 1) = 1/2 exactly.
  CHECK(t_test_p_value(1.0, 1) == Approx(0.5).epsilon(1e-12));
  // Two-tailed 5% critical values: 2.262157 (9 dof), 2.228139 (10 dof), 1.959964 (normal limit).
  CHECK(t_test_p_value(2.262157, 9) == Approx(0.05).epsilon(1e-5));
  CHECK(t_test_p_value(2.228139, 10) == Approx(0.05).epsilon(1e-5));
  CHECK(t_test_p_value(1.959964, 1e7) == Approx(0.05).epsilon(1e-4));
  CHECK(t_test_p_value(0.0, 9) == Approx(1.0));
}

TEST_CASE("paired t-test on hand-computed differences", "[stats]") {
  // Differences 1, 2, 3: mean 2, sd 1, t = 2 / (1 / sqrt 3) = 3.4641, 2 dof: p = 0.07418.
  const PairedTest test = paired_t_test({2, 4, 6}, {1, 2, 3});
  CHECK(test.n == 3);
  CHECK(test.mean_difference == Approx(2.0));
  CHECK(test.t == Approx(3.4641016));
  CHECK(test.p_value == Approx(0.0741799).epsilon(1e-5));
  CHECK(paired_t_test({1, 2}, {1, 2}).p_value == 1.0);
  CHECK(sample_stddev({1, 2, 3, 4}) == Approx(std::sqrt(5.0 / 3.0)));
}
