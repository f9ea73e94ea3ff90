#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/memory_budget.hpp"
#include "data/generators/generator_registry.hpp"
#include "models/methods.hpp"
#include "models/workspace.hpp"
#include "optim/interior_point_svm.hpp"
#include "optim/ridge_system.hpp"
#include "unit/peak_memory.hpp"

using namespace sparsesvm;

namespace {

using testing::peak_resident_bytes;
using testing::reset_peak_resident;

// Sets a budget for one scope, then restores the default.
struct BudgetScope {
  explicit BudgetScope(double bytes) { core::set_memory_budget(bytes); }
  ~BudgetScope() { core::set_memory_budget(0.0); }
};

}  // namespace

TEST_CASE("memory sizes parse with K, M, G suffixes and refuse anything else", "[memory]") {
  CHECK(core::parse_memory_size("300", "k") == 300.0);
  CHECK(core::parse_memory_size("4G", "k") == 4.0 * 1024 * 1024 * 1024);
  CHECK(core::parse_memory_size("1.5M", "k") == 1.5 * 1024 * 1024);
  for (const char* bad : {"", "-1G", "4X", "G", "0", "nan"}) {
    CHECK_THROWS_WITH(core::parse_memory_size(bad, "--memory-budget"), Catch::Contains("--memory-budget: expected a positive size"));
  }
  CHECK(core::memory_budget_bytes() > 0.0);
  const BudgetScope scope(1e6);
  CHECK(core::memory_budget_bytes() == 1e6);
  CHECK_THROWS_AS(core::require_memory(2e6, "a thing", "use less"), core::ResourceError);
  CHECK_THROWS_WITH(core::require_memory(2e6, "a thing", "use less"),
                    Catch::Contains("a thing needs about 1.9M, above the memory budget of 976.6K") &&
                        Catch::Contains("use less"));
  CHECK_NOTHROW(core::require_memory(5e5, "a thing", "use less"));
}

TEST_CASE("the default budget sees a control group's memory limit (a Slurm job's --mem), v2 and v1", "[memory]") {
  // A fake /sys/fs/cgroup: the job's group holds the limit, the task's group below it says "max".
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() / fmt::format("sparsesvm_cgroup_test_{}", ::getpid());
  std::filesystem::remove_all(root);
  const auto write = [](const std::filesystem::path& file, const std::string& text) {
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
  };
  write(root / "system.slice/job_7/memory.max", "4294967296\n");
  write(root / "system.slice/job_7/step_0/memory.max", "max\n");
  write(root / "system.slice/memory.max", "8589934592\n");
  CHECK(core::cgroup_memory_limit_bytes("0::/system.slice/job_7/step_0\n", root) == 4294967296.0);
  // A lower limit below wins; no limit anywhere is 0; an unreadable value is no limit.
  write(root / "system.slice/job_7/step_0/memory.max", "1073741824\n");
  CHECK(core::cgroup_memory_limit_bytes("0::/system.slice/job_7/step_0\n", root) == 1073741824.0);
  CHECK(core::cgroup_memory_limit_bytes("0::/other\n", root) == 0.0);
  write(root / "other/memory.max", "lots\n");
  CHECK(core::cgroup_memory_limit_bytes("0::/other\n", root) == 0.0);
  // cgroup v1: the memory controller's line; about 2^63 means none.
  write(root / "memory/slurm/uid_0/job_9/memory.limit_in_bytes", "2147483648\n");
  write(root / "memory/slurm/uid_0/job_9/step_0/memory.limit_in_bytes", "9223372036854771712\n");
  const std::string v1 = "12:pids:/slurm/uid_0/job_9/step_0\n4:cpuacct,memory:/slurm/uid_0/job_9/step_0\n0::/\n";
  CHECK(core::cgroup_memory_limit_bytes(v1, root) == 2147483648.0);
  CHECK(core::cgroup_memory_limit_bytes("4:cpu:/slurm/uid_0/job_9/step_0\n", root) == 0.0);
  CHECK(core::cgroup_memory_limit_bytes("", root) == 0.0);
  CHECK(core::cgroup_memory_limit_bytes("garbage without colons\n", root) == 0.0);
  // A container sees its own group at the mount's root: "0::/" (v2), or (v1) a path the container does not
  // show, whose walk ends at the root.
  write(root / "memory.max", "3221225472\n");
  CHECK(core::cgroup_memory_limit_bytes("0::/\n", root) == 3221225472.0);
  write(root / "memory/memory.limit_in_bytes", "5368709120\n");
  CHECK(core::cgroup_memory_limit_bytes("4:memory:/docker/0123abcd\n", root) == 5368709120.0);
  std::filesystem::remove_all(root);
  // The default budget: half the lower of physical memory and the group's limit.
  const double gib = 1024.0 * 1024 * 1024;
  CHECK(core::default_memory_budget(24 * gib, 4 * gib) == 2 * gib);
  CHECK(core::default_memory_budget(24 * gib, 0.0) == 12 * gib);
  CHECK(core::default_memory_budget(24 * gib, 64 * gib) == 12 * gib);
  CHECK(core::default_memory_budget(0.0, 4 * gib) == 2 * gib);
  CHECK(core::default_memory_budget(0.0, 0.0) == 4 * gib);
  if (std::getenv("SPARSESVM_MEMORY_BUDGET") == nullptr) {  // this process, as it runs
    CHECK(core::memory_budget_bytes() ==
          core::default_memory_budget(core::physical_memory_bytes(), core::cgroup_memory_limit_bytes()));
  }
}

TEST_CASE("ADMM's w-system refuses a dense factor above the budget before allocating, and by shape iterates",
          "[memory]") {
  // 15000 examples, 300 features, sparse: the n x n (Woodbury) system would take 3 x 1.8 GB.
  const core::Dataset data = data::generate("text_shaped:n=15000,d=300,nnz_per_row=10,informative=10,seed=2");
  const BudgetScope scope(200e6);
  const bool measures = reset_peak_resident();
  CHECK_THROWS_AS(optim::RidgeGram(data, optim::RidgeRegime::examples), core::ResourceError);
  CHECK_THROWS_WITH(optim::RidgeGram(data, optim::RidgeRegime::examples),
                    Catch::Contains("15000 x 15000") && Catch::Contains("factorization: conjugate_gradient"));
  if (measures) CHECK(peak_resident_bytes() < 100e6);
  const optim::RidgeGram by_shape(data);  // d x d: 300 x 300, small
  CHECK_FALSE(by_shape.iterative());
  {
    const BudgetScope tiny(1e6);  // not even 3 x 300^2 doubles (2.2 MB)
    CHECK(optim::RidgeGram(data).iterative());
  }
}

TEST_CASE("a fit above the budget ends with a ResourceError naming the option that fits", "[memory]") {
  const core::Dataset data = data::generate("text_shaped:n=15000,d=30000,nnz_per_row=10,informative=10,seed=2");
  const BudgetScope scope(300e6);
  const bool measures = reset_peak_resident();
  models::Workspace workspace(data);
  models::Hyperparameters forced_interior_point{{"lambda", 1.0}, {"qp_solver", 1.0}};
  CHECK_THROWS_WITH(models::fit_method("SVM", forced_interior_point, workspace),
                    Catch::Contains("interior point's dense 15000 x 15000 system") && Catch::Contains("qp_solver: dual_cd"));
  models::Hyperparameters forced_woodbury{{"lambda", 1e-3}, {"factorization", 2.0}, {"max_iterations", 5.0}};
  CHECK_THROWS_AS(models::fit_method("ADMM-L1", forced_woodbury, workspace), core::ResourceError);
  if (measures) CHECK(peak_resident_bytes() < 150e6);
  // By shape, the same ADMM fit iterates with conjugate gradients and stays small.
  models::Hyperparameters by_shape{{"lambda", 1e-3}, {"max_iterations", 5.0}};
  const models::FitReport report = models::fit_method("ADMM-L1", by_shape, workspace);
  CHECK(report.has_solution());
  CHECK(report.statistics.at("cg_products") > 0.0);
  if (measures) CHECK(peak_resident_bytes() < 150e6);
}

TEST_CASE("ADMM refuses its equilibrated copy above the budget", "[memory]") {
  const core::Dataset data = data::generate("rw_relevant:n=500,d=100,seed=3");  // 400 KB dense
  const BudgetScope scope(300e3);
  models::Workspace workspace(data);
  const models::Hyperparameters copying{{"lambda", 0.1}, {"max_iterations", 5.0}};
  CHECK_THROWS_AS(models::fit_method("ADMM-L1", copying, workspace), core::ResourceError);
  CHECK_THROWS_WITH(models::fit_method("ADMM-L1", copying, workspace),
                    Catch::Contains("equilibrated copy of the 500 x 100 data") && Catch::Contains("equilibrate: 0"));
  models::Hyperparameters as_given = copying;
  as_given["equilibrate"] = 0.0;
  CHECK(models::fit_method("ADMM-L1", as_given, workspace).has_solution());
  const BudgetScope roomy(1e6);
  CHECK(models::fit_method("ADMM-L1", copying, workspace).has_solution());
}

TEST_CASE("by shape, the l2 SVM keeps to dual CD where the interior point's system is over the budget", "[memory]") {
  // Found by review: by_shape handed over to the interior point after dual CD, which then refused.
  const core::Dataset data = data::generate("rw_relevant:n=500,d=100,seed=3");
  const BudgetScope scope(1e6);  // over dual CD's row copy (400 KB), under the interior point's 1.44 MB
  models::Workspace workspace(data);
  const models::FitReport report = models::fit_method("SVM", {{"lambda", 0.1}}, workspace);
  CHECK(report.status == core::Status::optimal);
  CHECK(report.text_statistics.at("qp_solver") == "dual_cd");
}

TEST_CASE("dual CD asks the budget before copying dense rows, and reads sparse rows in place", "[memory]") {
  // 400 KB, no zeros: its row copy is row-major, 400 KB (the CSR of its non-zeros would take 600 KB).
  const core::Dataset dense = data::generate("rw_relevant:n=500,d=100,seed=3");
  const core::Dataset sparse("sparse", core::SparseMatrix(dense.dense().sparseView()), dense.labels(), {}, {});
  const BudgetScope scope(350e3);
  models::Workspace dense_workspace(dense);
  const models::Hyperparameters by_dual_cd{{"lambda", 0.1}, {"qp_solver", 2.0}};  // qp_solver: dual_cd
  CHECK_THROWS_WITH(models::fit_method("SVM", by_dual_cd, dense_workspace),
                    Catch::Contains("dual CD's row copy of the 500 x 100 dense data") && Catch::Contains("storage: sparse"));
  models::Workspace sparse_workspace(sparse);
  CHECK(models::fit_method("SVM", by_dual_cd, sparse_workspace).status == core::Status::optimal);
  const BudgetScope roomy(450e3);
  CHECK(models::fit_method("SVM", by_dual_cd, dense_workspace).status == core::Status::optimal);
}

TEST_CASE("budgets print in the option's units and refuse what overflows", "[memory]") {
  CHECK(core::format_bytes(1.5 * 1024 * 1024 * 1024) == "1.5G");
  CHECK(core::format_bytes(100 * 1024.0) == "100.0K");
  CHECK_THROWS_WITH(core::parse_memory_size("1e308G", "--memory-budget"), Catch::Contains("expected a positive size"));
}
