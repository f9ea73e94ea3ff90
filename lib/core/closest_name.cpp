#include "core/closest_name.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace sparsesvm::core {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Characters that look alike (after lowering): swapping one for the other costs half an edit, so that
// RLSVMO means RLSVM0 rather than RLSVM2.
bool look_alike(char x, char y) {
  const auto pair = [&](char p, char q) { return (x == p && y == q) || (x == q && y == p); };
  return pair('o', '0') || pair('l', '1') || pair('i', '1') || pair('s', '5');
}

// Optimal string alignment distance between a and b, in half edits.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> cost(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) cost[i][0] = 2 * i;
  for (std::size_t j = 0; j <= b.size(); ++j) cost[0][j] = 2 * j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : (look_alike(a[i - 1], b[j - 1]) ? 1 : 2);
      cost[i][j] = std::min({cost[i - 1][j] + 2, cost[i][j - 1] + 2, cost[i - 1][j - 1] + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cost[i][j] = std::min(cost[i][j], cost[i - 2][j - 2] + 2);  // a swap of neighbours
      }
    }
  }
  return cost[a.size()][b.size()];
}

}  // namespace

std::optional<std::string> closest_name(const std::string& name, const std::vector<std::string>& known) {
  const std::string wanted = lower(name);
  const std::size_t allowed = 2 * std::max<std::size_t>(1, name.size() / 4);  // in half edits
  std::optional<std::string> best;
  std::size_t best_distance = allowed + 1;
  for (const std::string& candidate : known) {
    const std::size_t distance = edit_distance(wanted, lower(candidate));
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& known) {
  const std::optional<std::string> suggestion = closest_name(name, known);
  return suggestion ? fmt::format("did you mean '{}'? ", *suggestion) : "";
}

}  // namespace sparsesvm::core
