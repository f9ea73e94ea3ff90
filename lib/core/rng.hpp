#pragma once
// Reproducible randomness. The engine is std::mt19937_64, whose output sequence the C++ standard fixes;
// the distributions are our own, because std::uniform_real_distribution, std::normal_distribution and
// friends produce different numbers under libstdc++, libc++ and MSVC. Seeds of splits and generated
// data derive from names and numbers by a stable hash (derive_seed), never from execution order.
#include <cstdint>
#include <initializer_list>
#include <random>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace sparsesvm::core {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}

  std::uint64_t next_u64() { return engine_(); }
  // Uniform on [0, 1) with 53 random bits.
  double uniform();
  // Uniform on [low, high).
  double uniform(double low, double high);
  // Standard normal by the Box-Muller transform; the second variate of each pair is kept for the next call.
  double normal();
  double normal(double mean, double stddev);
  // True with probability p.
  bool bernoulli(double p);
  // Uniform integer in [0, n), without modulo bias (rejection of the incomplete top range).
  std::uint64_t index_below(std::uint64_t n);
  // Fisher-Yates shuffle.
  template <typename T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      std::swap(items[i - 1], items[index_below(i)]);
    }
  }
  // k distinct indices from [0, n), in the order drawn (a partial Fisher-Yates shuffle).
  std::vector<std::size_t> sample_without_replacement(std::size_t n, std::size_t k);

 private:
  std::mt19937_64 engine_;
  bool has_spare_normal_ = false;
  double spare_normal_ = 0.0;
};

// One component of a seed derivation: a name (hashed by FNV-1a) or a number.
using SeedPart = std::variant<std::string_view, std::uint64_t>;

// A seed that depends only on its parts, e.g. derive_seed({experiment_seed, "sonar", repetition}).
// Mixing is splitmix64, so nearby inputs give unrelated seeds. Stable across platforms and releases:
// changing it changes every split, so a test pins its values.
std::uint64_t derive_seed(std::initializer_list<SeedPart> parts);

}  // namespace sparsesvm::core
