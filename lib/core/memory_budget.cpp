#include "core/memory_budget.hpp"

#include "core/dataset.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace sparsesvm::core {
namespace {

std::atomic<double> budget_set{0.0};  // 0: not set

double budget_from_environment() {
  const char* text = std::getenv("SPARSESVM_MEMORY_BUDGET");
  if (text == nullptr || *text == '\0') return 0.0;
  return parse_memory_size(text, "environment variable SPARSESVM_MEMORY_BUDGET");
}

// The first word of a limit file as bytes: 0 for "max", an absent or unreadable file, or a value of 2^60 or
// more (cgroup v1's "no limit" is about 2^63).
double limit_in_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string word;
  if (!(in >> word)) return 0.0;
  double value = 0.0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  const bool number = error == std::errc{} && end == word.data() + word.size();
  return number && value > 0.0 && value < std::ldexp(1.0, 60) ? value : 0.0;
}

// The lower of two limits in bytes, where 0 stands for none.
double lower_limit(double a, double b) {
  if (a <= 0.0) return b;
  return b <= 0.0 ? a : std::min(a, b);
}

// The lowest limit in `file_name` of the group at `group` (under `mount`) and its ancestors, 0 for none.
double lowest_limit_up_from(const std::filesystem::path& mount, const std::string& group, const std::string& file_name) {
  double lowest = 0.0;
  std::filesystem::path relative = std::filesystem::path(group).relative_path();
  while (true) {
    lowest = lower_limit(lowest, limit_in_file(mount / relative / file_name));
    if (relative.empty()) return lowest;
    relative = relative.parent_path();
  }
}

}  // namespace

double cgroup_memory_limit_bytes(const std::string& proc_self_cgroup, const std::filesystem::path& root) {
  double lowest = 0.0;
  std::istringstream lines(proc_self_cgroup);
  std::string line;
  while (std::getline(lines, line)) {
    // hierarchy-ID:controllers:path; the path may itself hold colons
    const std::size_t first = line.find(':');
    const std::size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string group = line.substr(second + 1);
    if (group.empty() || group.front() != '/') continue;
    double limit = 0.0;
    if (line.compare(0, first, "0") == 0 && controllers.empty()) {
      limit = lowest_limit_up_from(root, group, "memory.max");
    } else {
      std::istringstream names(controllers);
      std::string name;
      bool memory = false;
      while (std::getline(names, name, ',')) memory = memory || name == "memory";
      if (memory) limit = lowest_limit_up_from(root / "memory", group, "memory.limit_in_bytes");
    }
    lowest = lower_limit(lowest, limit);
  }
  return lowest;
}

double cgroup_memory_limit_bytes() {
  std::ifstream in("/proc/self/cgroup");
  std::stringstream text;
  text << in.rdbuf();
  return cgroup_memory_limit_bytes(text.str(), "/sys/fs/cgroup");
}

double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0 ? static_cast<double>(pages) * static_cast<double>(page_size) : 0.0;
}

double memory_budget_bytes() {
  if (const double set = budget_set.load(); set > 0.0) return set;
  static const double from_environment = budget_from_environment();
  if (from_environment > 0.0) return from_environment;
  static const double cgroup = cgroup_memory_limit_bytes();
  return default_memory_budget(physical_memory_bytes(), cgroup);
}

double default_memory_budget(double physical_bytes, double cgroup_limit_bytes) {
  const double usable = lower_limit(physical_bytes, cgroup_limit_bytes);
  return usable > 0.0 ? usable / 2.0 : 4.0 * 1024 * 1024 * 1024;  // 4 GB where the system does not say
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
