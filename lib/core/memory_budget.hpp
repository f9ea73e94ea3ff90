#pragma once
// The memory budget: the most that one allocation of a solve may take (a dense system with its factor
// counted together; a copy of the data on its own, not added to the system that follows it). The solves whose
// dense matrices grow with n^2 or d^2 (ADMM's Gram and factor, the interior point's system), and the
// copies as large as the data (generation's seed on dense data: without room it reads X in place; ADMM's
// equilibrated copy: without room, a ResourceError naming equilibrate: 0; dual CD's row copy of dense
// data: without room, a ResourceError naming storage: sparse), ask first
// with `fits_in_memory_budget` (to take another route when they do not fit) or `require_memory` (to
// stop with a ResourceError naming the option that would fit), so such a fit ends with a clear message
// instead of meeting the out-of-memory killer. Not covered: the data set itself and the full LP's matrix
// where the LP form's rule builds it (small data; lp_generation.hpp; a hand-over's full LP, past that
// size on sparse data, asks first: convex_step.hpp), and with `run -j N` the
// N fits of one process are each held to the budget on their own.
// The budget is half the memory the process may use unless set: the machine's physical memory, or the memory
// limit of its control group where that is lower (a Slurm job's --mem, a container's limit, which the OOM
// killer enforces and physical memory does not show). Set: `set_memory_budget` (the command line's
// --memory-budget) or the environment variable SPARSESVM_MEMORY_BUDGET, in bytes or with a suffix K, M,
// G (powers of 1024), e.g. "4G". `memory_budget_bytes` reads the variable once and throws InputError when
// it is malformed (the command checks it at start).
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/errors.hpp"

namespace sparsesvm::core {

class Dataset;

// A fit refused before allocating more than the memory budget. An InputError, so that `fit` exits 1 and
// `run` records the row (status memory_budget) and goes on.
class ResourceError : public InputError {
 public:
  explicit ResourceError(const std::string& message) : InputError(message) {}
};

// Physical memory in bytes (0 when the system does not say).
double physical_memory_bytes();
// The lowest memory limit of the process's control group and its ancestors, in bytes; 0 when there is none.
// `proc_self_cgroup` is /proc/self/cgroup's text: "0::PATH" (cgroup v2: ROOT/PATH/memory.max, "max" for
// none) or "N:...memory...:PATH" (v1: ROOT/memory/PATH/memory.limit_in_bytes, about 2^63 for none). Files
// that are absent or unreadable count as no limit.
double cgroup_memory_limit_bytes(const std::string& proc_self_cgroup, const std::filesystem::path& root);
// The same for this process (/proc/self/cgroup, /sys/fs/cgroup).
double cgroup_memory_limit_bytes();
// The default budget: half the lower of physical memory and the control group's limit (0: none known), 4 GB
// when neither is known.
double default_memory_budget(double physical_bytes, double cgroup_limit_bytes);
// The budget in bytes, as set or by default.
double memory_budget_bytes();
// Sets the budget for this process (0: back to the default). InputError for a negative or non-finite value.
void set_memory_budget(double bytes);
// "4G", "512M", "300000000" -> bytes; InputError naming `where` for anything else.
double parse_memory_size(std::string_view text, const std::string& where);
// In the units the option takes (powers of 1024): "3.2G", "512.0M", "1.5K".
std::string format_bytes(double bytes);

// What a copy of the data's feature matrix takes: n x d doubles, or a sparse matrix's values, inner
// indices and outer starts.
double feature_matrix_bytes(const Dataset& data);

bool fits_in_memory_budget(double bytes);
// Throws ResourceError "`what` needs about 3.2 GB, above the memory budget of 2 GB; `remedy`" when
// `bytes` exceeds the budget.
void require_memory(double bytes, const std::string& what, const std::string& remedy);

}  // namespace sparsesvm::core
