#include "core/memory_budget.hpp"

#include "core/dataset.hpp"

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <unistd.h>

namespace sparsesvm::core {
namespace {

std::atomic<double> budget_set{0.0};  // 0: not set

double budget_from_environment() {
  const char* text = std::getenv("SPARSESVM_MEMORY_BUDGET");
  if (text == nullptr || *text == '\0') return 0.0;
  return parse_memory_size(text, "environment variable SPARSESVM_MEMORY_BUDGET");
}

}  // namespace

double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0 ? static_cast<double>(pages) * static_cast<double>(page_size) : 0.0;
}

double memory_budget_bytes() {
  if (const double set = budget_set.load(); set > 0.0) return set;
  static const double from_environment = budget_from_environment();
  if (from_environment > 0.0) return from_environment;
  const double physical = physical_memory_bytes();
  return physical > 0.0 ? physical / 2.0 : 4.0 * 1024 * 1024 * 1024;  // 4 GB where the system does not say
}

void set_memory_budget(double bytes) {
  if (!(bytes >= 0.0) || !std::isfinite(bytes)) throw InputError(fmt::format("memory budget must be >= 0, found {}", bytes));
  budget_set.store(bytes);
}

double parse_memory_size(std::string_view text, const std::string& where) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  std::string_view suffix(end, static_cast<std::size_t>(text.data() + text.size() - end));
  double unit = 1.0;
  if (suffix == "K" || suffix == "k") unit = 1024.0;
  if (suffix == "M" || suffix == "m") unit = 1024.0 * 1024.0;
  if (suffix == "G" || suffix == "g") unit = 1024.0 * 1024.0 * 1024.0;
  const bool known_suffix = suffix.empty() || unit != 1.0;
  if (error != std::errc{} || !known_suffix || !(value * unit >= 1.0) || !std::isfinite(value * unit)) {
    throw InputError(fmt::format("{}: expected a positive size in bytes, optionally with K, M or G (e.g. 4G), found '{}'",
                                 where, text));
  }
  return value * unit;
}

std::string format_bytes(double bytes) {
  constexpr double kibibyte = 1024.0, mebibyte = kibibyte * 1024.0, gibibyte = mebibyte * 1024.0;
  if (bytes >= gibibyte) return fmt::format("{:.1f}G", bytes / gibibyte);
  if (bytes >= mebibyte) return fmt::format("{:.1f}M", bytes / mebibyte);
  return fmt::format("{:.1f}K", bytes / kibibyte);
}

double feature_matrix_bytes(const Dataset& data) {
  if (!data.is_sparse()) return static_cast<double>(sizeof(double)) * static_cast<double>(data.n()) * static_cast<double>(data.d());
  const SparseMatrix& x = data.sparse();
  return static_cast<double>(sizeof(double) + sizeof(SparseMatrix::StorageIndex)) * static_cast<double>(x.nonZeros()) +
         static_cast<double>(sizeof(SparseMatrix::StorageIndex)) * static_cast<double>(x.outerSize() + 1);
}

bool fits_in_memory_budget(double bytes) { return bytes <= memory_budget_bytes(); }

void require_memory(double bytes, const std::string& what, const std::string& remedy) {
  if (fits_in_memory_budget(bytes)) return;
  throw ResourceError(fmt::format("{} needs about {}, above the memory budget of {} (--memory-budget, "
                                  "SPARSESVM_MEMORY_BUDGET); {}",
                                  what, format_bytes(bytes), format_bytes(memory_budget_bytes()), remedy));
}

}  // namespace sparsesvm::core
