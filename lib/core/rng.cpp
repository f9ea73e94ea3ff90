#include "core/rng.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <stdexcept>

namespace sparsesvm::core {

double Rng::uniform() {
  // The top 53 bits give every double in [0,1) on a grid of 2^-53.
  return static_cast<double>(engine_() >> 11) * 0x1.0p-53;
}

double Rng::uniform(double low, double high) { return low + (high - low) * uniform(); }

double Rng::normal() {
  if (has_spare_normal_) {
    has_spare_normal_ = false;
    return spare_normal_;
  }
  // 1 - uniform() lies in (0, 1], so the logarithm is finite.
  const double radius = std::sqrt(-2.0 * std::log(1.0 - uniform()));
  const double angle = 2.0 * std::numbers::pi * uniform();
  spare_normal_ = radius * std::sin(angle);
  has_spare_normal_ = true;
  return radius * std::cos(angle);
}

double Rng::normal(double mean, double stddev) { return mean + stddev * normal(); }

bool Rng::bernoulli(double p) { return uniform() < p; }

std::uint64_t Rng::index_below(std::uint64_t n) {
  if (n == 0) throw std::invalid_argument("Rng::index_below: n must be positive");
  // Accept draws below the largest multiple of n; the rest would favour small residues.
  const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
  std::uint64_t draw = engine_();
  while (draw >= limit) draw = engine_();
  return draw % n;
}

std::vector<std::size_t> Rng::sample_without_replacement(std::size_t n, std::size_t k) {
  if (k > n) throw std::invalid_argument("Rng::sample_without_replacement: k exceeds n");
  std::vector<std::size_t> pool(n);
  std::iota(pool.begin(), pool.end(), std::size_t{0});
  for (std::size_t i = 0; i < k; ++i) {
    std::swap(pool[i], pool[i + index_below(n - i)]);
  }
  pool.resize(k);
  return pool;
}

namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 0xCBF29CE484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001B3ULL;
  }
  return hash;
}

}  // namespace

std::uint64_t derive_seed(std::initializer_list<SeedPart> parts) {
  std::uint64_t state = 0x5EED5EED5EED5EEDULL;
  for (const SeedPart& part : parts) {
    const std::uint64_t value = std::holds_alternative<std::uint64_t>(part)
                                    ? std::get<std::uint64_t>(part)
                                    : fnv1a(std::get<std::string_view>(part));
    state = splitmix64(state ^ splitmix64(value));
  }
  return state;
}

}  // namespace sparsesvm::core
