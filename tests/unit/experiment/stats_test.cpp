#include <catch2/catch.hpp>

#include <cmath>

#include "experiment/comparisons.hpp"
#include "experiment/config.hpp"
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

TEST_CASE("corrected resampled t-test shrinks t by sqrt(1 + J n_test / n_train)", "[stats]") {
  // Differences 1, 2, 3, 4: mean 2.5, s^2 = 5/3, J = 4; with n_test/n_train = 0.3/0.7 the variance of the
  // mean is (1/4 + 3/7) 5/3 = 1.1309524 (Nadeau and Bengio, eq. (11)): t = 2.5 / 1.0634625 = 2.3508, 3 dof.
  const std::vector<double> a = {2, 4, 6, 8}, b = {1, 2, 3, 4};
  const PairedTest corrected = corrected_resampled_t_test(a, b, 0.3 / 0.7);
  CHECK(corrected.t == Approx(2.5 / std::sqrt((0.25 + 3.0 / 7.0) * 5.0 / 3.0)).epsilon(1e-12));
  CHECK(corrected.t == Approx(2.35082).epsilon(1e-5));
  CHECK(corrected.p_value == Approx(t_test_p_value(corrected.t, 3)).epsilon(1e-12));
  CHECK(corrected.p_value > paired_t_test(a, b).p_value);  // the overlap of training sets widens the interval
  // Without overlap (ratio 0) it is the paired t-test.
  CHECK(corrected_resampled_t_test(a, b, 0.0).t == Approx(paired_t_test(a, b).t).epsilon(1e-12));
}

TEST_CASE("Wilcoxon's signed-rank test: exact by hand, normal approximation against scipy", "[stats]") {
  // Five positive differences: W- = 0, and P(W- <= 0) = 1/32, two-sided 1/16.
  const SignedRankTest all_up = wilcoxon_signed_rank({2, 3, 4, 5, 6}, {1, 1, 1, 1, 1});
  CHECK(all_up.exact);
  CHECK(all_up.w_minus == 0.0);
  CHECK(all_up.p_value == Approx(1.0 / 16.0).epsilon(1e-12));
  // Differences 1, -2, 3, 4, 5: W- = 2; subsets of {1..5} with sum <= 2 are {}, {1}, {2}: p = 2 * 3/32.
  const SignedRankTest one_down = wilcoxon_signed_rank({1, -2, 3, 4, 5}, {0, 0, 0, 0, 0});
  CHECK(one_down.w_minus == 2.0);
  CHECK(one_down.w_plus == 13.0);
  CHECK(one_down.p_value == Approx(6.0 / 32.0).epsilon(1e-12));
  // Zero differences are dropped.
  CHECK(wilcoxon_signed_rank({1, -2, 3, 4, 5, 7}, {0, 0, 0, 0, 0, 7}).n == 5);
  // The critical-value table's n = 10 row (two-sided alpha 0.05: reject at T <= 8), with the p-values of
  // scipy.stats.wilcoxon(d, method='exact'): 25/512 at T = 8, 33/512 at T = 9.
  const std::vector<double> zeros(10, 0.0);
  const SignedRankTest t8 = wilcoxon_signed_rank({1, 2, 3, 4, 5, 6, 7, -8, 9, 10}, zeros);
  CHECK(t8.w_minus == 8.0);
  CHECK(t8.p_value == Approx(0.048828125).epsilon(1e-12));
  CHECK(wilcoxon_signed_rank({1, 2, 3, 4, 5, 6, 7, 8, -9, 10}, zeros).p_value == Approx(0.064453125).epsilon(1e-12));
  // scipy.stats.wilcoxon([1,-2,3,4,5,6,7,-8,9,10], [0]*10): statistic 10, p = 0.083984375 (exact).
  const SignedRankTest ten = wilcoxon_signed_rank({1, -2, 3, 4, 5, 6, 7, -8, 9, 10}, std::vector<double>(10, 0.0));
  CHECK(std::min(ten.w_plus, ten.w_minus) == 10.0);
  CHECK(ten.p_value == Approx(0.083984375).epsilon(1e-12));
  // Above kExactSignedRankLimit pairs: the normal approximation with the tie correction. 60 differences
  // 1..60 with 20 of them negative (ranks 1..20 down): W- = 210; mean 915, variance 60 61 121 / 24 = 18452.5;
  // scipy.stats.wilcoxon(d, correction=False, mode='approx'): p = 2.1037302037925465e-07.
  std::vector<double> sixty;
  for (int k = 1; k <= 60; ++k) sixty.push_back(k <= 20 ? -k : k);
  const SignedRankTest large = wilcoxon_signed_rank(sixty, std::vector<double>(60, 0.0));
  CHECK_FALSE(large.exact);
  CHECK(large.w_minus == 210.0);
  CHECK(large.p_value == Approx(2.1037302037925465e-07).epsilon(1e-9));
}

// Two-sided p by brute force: every assignment of signs to the midranks of |d|, counting those whose W+
// is at least as far from the mean as the observed one (an algorithm independent of the DP in stats.cpp).
double brute_force_signed_rank_p(const std::vector<double>& d) {
  std::vector<double> magnitudes;
  for (const double x : d) magnitudes.push_back(std::abs(x));
  const std::vector<double> rank = ranks(magnitudes, false);
  double observed = 0, total = 0;
  for (std::size_t k = 0; k < d.size(); ++k) {
    observed += d[k] > 0 ? rank[k] : 0.0;
    total += rank[k];
  }
  const double mean = total / 2, distance = std::abs(observed - mean);
  std::size_t extreme = 0;
  for (std::size_t mask = 0; mask < (std::size_t{1} << d.size()); ++mask) {
    double w = 0;
    for (std::size_t k = 0; k < d.size(); ++k) w += (mask >> k & 1) ? rank[k] : 0.0;
    extreme += std::abs(w - mean) >= distance - 1e-9 ? 1 : 0;
  }
  return static_cast<double>(extreme) / static_cast<double>(std::size_t{1} << d.size());
}

TEST_CASE("Wilcoxon with tied differences is exact for small n: the permutation distribution of the midranks",
          "[stats]") {
  // Four equal differences (the benchmark's 4 splits): ranks 2.5 each, W+ = 10 only when all are up, so
  // p = 2/16 = 0.125, the smallest any test on 4 pairs can give (the normal approximation said 0.0455).
  const SignedRankTest four = wilcoxon_signed_rank({0.9, 0.8, 0.7, 0.6}, {0.85, 0.75, 0.65, 0.55});
  CHECK(four.exact);
  CHECK(four.p_value == Approx(0.125).epsilon(1e-12));
  // Tied magnitudes of both signs, against brute force over the 2^n sign assignments.
  for (const std::vector<double>& d : std::vector<std::vector<double>>{
           {1, 6, -3, 7, 3, 1, 1, -2}, {0.5, -0.5, 0.5, 1, 1, -2}, {2, 2, -2, 2, 4, 4, -1, 3, 3, 3, 3, -3}}) {
    const SignedRankTest test = wilcoxon_signed_rank(d, std::vector<double>(d.size(), 0.0));
    CHECK(test.exact);
    CHECK(test.p_value == Approx(brute_force_signed_rank_p(d)).epsilon(1e-12));
  }
}

TEST_CASE("ranks give ties their mean rank", "[stats]") {
  CHECK(ranks({0.9, 0.7, 0.9, 0.8}, true) == std::vector<double>{1.5, 4, 1.5, 3});
  CHECK(ranks({0.9, 0.7, 0.9, 0.8}, false) == std::vector<double>{3.5, 1, 3.5, 2});
}

TEST_CASE("Nemenyi's q matches Demsar's Table 5a", "[stats]") {
  // Demsar (2006), Table 5(a), alpha = 0.05, k = 2..10.
  const std::vector<double> table = {1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164};
  for (std::size_t k = 2; k <= 10; ++k) CHECK(nemenyi_q(k, 0.05) == Approx(table[k - 2]).margin(1.5e-3));
  // k = 2 is the two-sided normal quantile.
  CHECK(nemenyi_q(2, 0.05) == Approx(1.959964).epsilon(1e-5));
}

TEST_CASE("Friedman's test reproduces Demsar's worked example and scipy", "[stats]") {
  // Demsar (2006) section 3.2.2: four C4.5 variants on 14 data sets, mean ranks 3.143, 2.000, 2.893,
  // 1.964: chi^2_F = 9.28, F_F = 3.69, and Nemenyi's CD = 2.569 sqrt(4 * 5 / (6 * 14)) = 1.25.
  const FriedmanTest demsar = friedman_from_ranks({3.143, 2.000, 2.893, 1.964}, 14);
  CHECK(demsar.chi_square == Approx(9.28).margin(0.01));
  CHECK(demsar.iman_davenport_f == Approx(3.69).margin(0.01));
  CHECK(demsar.critical_difference == Approx(1.25).margin(0.005));
  CHECK(demsar.p_value < 0.05);  // Demsar: F(3, 39) = 2.85 at 0.05, so the null is rejected
  // scipy.stats.friedmanchisquare on three methods over six data sets without ties: 3.0.
  const std::vector<std::vector<double>> values = {
      {0.90, 0.88, 0.85}, {0.80, 0.82, 0.79}, {0.70, 0.65, 0.66}, {0.95, 0.91, 0.90}, {0.60, 0.62, 0.55}, {0.85, 0.80, 0.86}};
  const FriedmanTest three = friedman_test(values, true);
  CHECK(three.chi_square == Approx(3.0).epsilon(1e-12));
  CHECK(three.mean_ranks == std::vector<double>{1.5, 2.0, 2.5});
  // Lower is better reverses the ranks: k + 1 - r.
  CHECK(friedman_test(values, false).mean_ranks == std::vector<double>{2.5, 2.0, 1.5});
}

TEST_CASE("ranks and the CD diagram take proven rows only; unproven methods are listed apart", "[stats][comparisons]") {
  const auto row = [](const std::string& dataset, const std::string& method, int rep, double accuracy,
                      const std::string& status, const std::string& stop, const std::string& kind) {
    return ResultRow{{"dataset", dataset}, {"condition", ""}, {"method", method}, {"rep", std::to_string(rep)},
                     {"accuracy", std::to_string(accuracy)}, {"status", status}, {"stop_reason", stop},
                     {"certificate_kind", kind}};
  };
  CHECK(proven_row(row("d", "m", 0, 1, "optimal", "one convex solve", "duality_gap")));
  CHECK(proven_row(row("d", "m", 0, 1, "feasible", "walk truncated", "inner_svm_gap")));  // RW(N)'s promise
  CHECK(proven_row(row("d", "m", 0, 1, "feasible", "MILP solved", "restricted_mip_gap")));
  CHECK_FALSE(proven_row(row("d", "m", 0, 1, "feasible", "iteration limit", "restricted_mip_gap")));
  CHECK_FALSE(proven_row(row("d", "m", 0, 1, "feasible", "time limit", "mip_gap")));
  CHECK_FALSE(proven_row(row("d", "m", 0, 1, "feasible", "change below tolerance", "majorant_gap")));
  CHECK_FALSE(proven_row(row("d", "m", 0, 1, "solved_inaccurate", "one convex solve", "duality_gap")));

  ExperimentConfig config;
  for (const char* label : {"A", "B", "C"}) config.methods.push_back({label, label, {}, std::nullopt});
  std::vector<ResultRow> rows;
  const std::vector<std::pair<std::string, std::string>> datasets = {{"d1", ""}, {"d2", ""}, {"d3", ""}};
  for (const auto& [dataset, condition] : datasets) {
    for (int rep = 0; rep < 2; ++rep) {
      rows.push_back(row(dataset, "A", rep, 0.9, "optimal", "one convex solve", "duality_gap"));
      rows.push_back(row(dataset, "B", rep, 0.8, "converged", "change below tolerance", "majorant_gap"));
      // C is best everywhere, but one of its six rows stopped at a limit.
      const bool limited = dataset == "d2" && rep == 1;
      rows.push_back(row(dataset, "C", rep, 0.95, "feasible", limited ? "iteration limit" : "MILP solved",
                         limited ? "mip_gap" : "restricted_mip_gap"));
    }
  }
  const RankTables apart = rank_tables(config, rows, datasets, "accuracy", true);
  CHECK(apart.ranks.find("A,1,3,6,0,yes") != std::string::npos);
  CHECK(apart.ranks.find("B,2,3,6,0,yes") != std::string::npos);
  CHECK(apart.ranks.find("C,,,6,1,no: unproven rows") != std::string::npos);
  CHECK(apart.friedman.find("C (1 of 6 rows unproven)") != std::string::npos);
  CHECK(apart.friedman.find("converged 6, optimal 6") != std::string::npos);
  config.comparisons.include_unproven = true;
  const RankTables all = rank_tables(config, rows, datasets, "accuracy", true);
  CHECK(all.ranks.find("C,1,3,6,1,yes") != std::string::npos);
  CHECK(all.ranks.find("A,2,3,6,0,yes") != std::string::npos);
}
