#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>
#include <set>

#include "core/rng.hpp"

using sparsesvm::core::derive_seed;
using sparsesvm::core::Rng;

TEST_CASE("mt19937_64 gives the sequence the C++ standard fixes", "[rng]") {
  // [rand.predef]: the 10000th output of a default-constructed mt19937_64 is 9981545732273789042.
  std::mt19937_64 engine;
  engine.discard(9999);
  CHECK(engine() == 9981545732273789042ULL);
}

TEST_CASE("first values of every distribution are pinned, so a platform change is caught", "[rng]") {
  // Obtained on Debian 12 / g++ 12 / glibc 2.36. The uniform value was checked by hand: the first output
  // of mt19937_64(42) is 13930160852258120406, and (x >> 11) * 2^-53 = 0.755155532954539 (Python).
  // The first two normals were checked against Box-Muller on the first two uniforms in Python:
  // sqrt(-2 log(1 - u1)) * cos(2 pi u2) and * sin(2 pi u2).
  Rng uniform(42);
  CHECK(uniform.uniform() == Approx(0.75515553295453897).epsilon(1e-15));
  CHECK(uniform.uniform() == Approx(0.63903139385469743).epsilon(1e-15));
  CHECK(uniform.uniform() == Approx(0.7521452007480266).epsilon(1e-15));

  Rng normal(42);
  CHECK(normal.normal() == Approx(-1.0771745442782885).epsilon(1e-13));
  CHECK(normal.normal() == Approx(-1.2860634502166481).epsilon(1e-13));
  CHECK(normal.normal() == Approx(1.0945198485006107).epsilon(1e-13));

  Rng index(42);
  std::vector<std::uint64_t> indices;
  for (int i = 0; i < 5; ++i) indices.push_back(index.index_below(10));
  CHECK(indices == std::vector<std::uint64_t>{6, 4, 0, 2, 1});

  Rng coin(42);
  std::vector<bool> flips;
  for (int i = 0; i < 5; ++i) flips.push_back(coin.bernoulli(0.3));
  CHECK(flips == std::vector<bool>{false, false, false, true, false});

  Rng shuffler(42);
  std::vector<int> items{0, 1, 2, 3, 4, 5, 6, 7};
  shuffler.shuffle(items);
  CHECK(items == std::vector<int>{7, 0, 5, 1, 2, 4, 3, 6});

  Rng sampler(42);
  CHECK(sampler.sample_without_replacement(10, 4) == std::vector<std::size_t>{6, 0, 4, 7});

  CHECK(derive_seed({std::uint64_t{1}, std::string_view("sonar"), std::uint64_t{0}}) == 4359389006711744828ULL);
  CHECK(derive_seed({std::uint64_t{1}, std::string_view("sonar"), std::uint64_t{1}}) == 10218616747199851098ULL);
}

TEST_CASE("distributions have the right moments on many draws", "[rng]") {
  Rng rng(7);
  const int draws = 200000;
  double sum_u = 0, sum_u2 = 0, sum_z = 0, sum_z2 = 0, sum_z4 = 0;
  for (int i = 0; i < draws; ++i) {
    const double u = rng.uniform();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    sum_u += u;
    sum_u2 += u * u;
    const double z = rng.normal();
    sum_z += z;
    sum_z2 += z * z;
    sum_z4 += z * z * z * z;
  }
  // Uniform: mean 1/2, variance 1/12. Normal: mean 0, variance 1, fourth moment 3. Tolerances are about
  // five standard errors.
  CHECK(sum_u / draws == Approx(0.5).margin(0.004));
  CHECK(sum_u2 / draws - std::pow(sum_u / draws, 2) == Approx(1.0 / 12).margin(0.002));
  CHECK(sum_z / draws == Approx(0.0).margin(0.012));
  CHECK(sum_z2 / draws == Approx(1.0).margin(0.016));
  CHECK(sum_z4 / draws == Approx(3.0).margin(0.1));
}

TEST_CASE("index_below is uniform and sample_without_replacement is distinct", "[rng]") {
  Rng rng(11);
  std::vector<int> counts(7, 0);
  const int draws = 70000;
  for (int i = 0; i < draws; ++i) ++counts[rng.index_below(7)];
  for (int c : counts) CHECK(std::abs(c - draws / 7) < 500);  // sd is about 93

  for (int trial = 0; trial < 100; ++trial) {
    const auto sample = rng.sample_without_replacement(20, 12);
    const std::set<std::size_t> distinct(sample.begin(), sample.end());
    CHECK(distinct.size() == 12);
    CHECK(*distinct.rbegin() < 20);
  }
  CHECK_THROWS(rng.sample_without_replacement(3, 4));
}

TEST_CASE("derive_seed depends on every part and on their order", "[rng]") {
  const auto a = derive_seed({std::uint64_t{1}, std::string_view("sonar"), std::uint64_t{0}});
  CHECK(a == derive_seed({std::uint64_t{1}, std::string_view("sonar"), std::uint64_t{0}}));
  CHECK(a != derive_seed({std::uint64_t{2}, std::string_view("sonar"), std::uint64_t{0}}));
  CHECK(a != derive_seed({std::uint64_t{1}, std::string_view("pima"), std::uint64_t{0}}));
  CHECK(a != derive_seed({std::uint64_t{0}, std::string_view("sonar"), std::uint64_t{1}}));
}
