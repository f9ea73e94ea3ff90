// sparsesvm: fit sparse linear classifiers and reproduce the papers' experiments.
// Exit codes: 0 success, 1 bad input (a message names the file/line or option), 2 internal error,
// 3 a solver ended without a solution (the status says why), 4 `status`: tasks remain missing or failed.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <csignal>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <vector>

#include "commands.hpp"
#include "core/closest_name.hpp"
#include "core/errors.hpp"
#include "core/memory_budget.hpp"
#include "experiment/manifest.hpp"
#include "optim/solver_info.hpp"

namespace {

std::string version_text() {
  std::string text = fmt::format("sparsesvm {} (commit {})", SPARSESVM_VERSION, sparsesvm::experiment::build_commit());
  for (const auto& [library, version] : sparsesvm::optim::solver_versions()) {
    text += fmt::format("\n  {} {}", library, version);
  }
  return text;
}

// After an unknown flag: "did you mean '--lambda'?" for each flag a parsed (sub)command did not expect,
// against that command's long option names.
void suggest_flags(const CLI::App& app) {
  std::vector<const CLI::App*> commands = app.get_subcommands([](const CLI::App* command) { return command->parsed(); });
  commands.push_back(&app);
  for (const CLI::App* command : commands) {
    std::vector<std::string> names;
    for (const CLI::Option* option : command->get_options()) {
      for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    }
    for (const std::string& extra : command->remaining()) {
      if (extra.rfind("--", 0) != 0) continue;
      const std::string flag = extra.substr(0, extra.find('='));
      const std::optional<std::string> suggestion = sparsesvm::core::closest_name(flag, names);
      if (suggestion) std::cerr << "sparsesvm: unknown flag " << flag << ": did you mean " << *suggestion << "?\n";
    }
  }
}

// Clp refactorizes its basis every hundred pivots or so into freshly allocated arrays of a few MB. By
// default glibc's mmap threshold is dynamic: it starts at 128 KiB and rises to the largest mmapped block
// freed, and the heap's top is trimmed once twice that is free; so a block larger than any before is
// mmapped and unmapped, and the heap shrinks when several arrays are freed together, and each
// refactorization page-faults its arrays in again: OneNormSVM on the gisette-shaped LIBSVM file
// (nips2003_shaped 6000 x 5000, lambda 1) took 408k page faults. With requests below 32 MiB (glibc's
// documented maximum on 64-bit) served from the heap and its top trimmed only when 256 MiB is free there,
// it takes 266k (docs/benchmarks.md has the times). Setting them turns the dynamic adjustment off and
// overrides a user's MALLOC_*_THRESHOLD_ variables. The cost: up to 256 MiB freed may stay resident,
// which --memory-budget does not count. `run`'s worker threads allocate from their own arenas, which
// this helps less. Only where memory comes from changes, never a number: heap blocks are not zeroed as
// fresh mmaps are, and results were unchanged with MALLOC_PERTURB_ set.
void keep_solver_blocks_in_heap() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  // A file size limit (ulimit -f) would kill the process on the first write past it; ignored, the write
  // fails with EFBIG and is reported like a full disk (path, reason, exit 1, a "stopped" line in run.log).
  std::signal(SIGXFSZ, SIG_IGN);
  keep_solver_blocks_in_heap();
  CLI::App app{"sparsesvm: sparse linear classifiers and the experiments of five papers on sparse SVMs"};
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);
  app.footer("Exit codes: 0 success; 1 bad input (the message names the file and line or the option); 2 internal "
             "error; 3 a solver ended without a solution (its status says why); 4 `status`: tasks are missing or "
             "failed.");
  // Before the subcommand: sparsesvm --memory-budget 2G fit ... (core/memory_budget.hpp).
  std::string memory_budget;
  app.add_option("--memory-budget", memory_budget,
                 "before the command: the most the dense matrices of one solve may take, e.g. 4G or 500M (default: half "
                 "the physical memory or of the control group's limit, such as a Slurm job's --mem, whichever is "
                 "lower; or SPARSESVM_MEMORY_BUDGET); above it a fit takes another route or stops "
                 "naming the option that fits");
  const std::vector<sparsesvm::app::Command> commands = {sparsesvm::app::add_describe_data(app),
                                                             sparsesvm::app::add_describe(app),
                                                             sparsesvm::app::add_fit(app),
                                                             sparsesvm::app::add_predict(app),
                                                             sparsesvm::app::add_run(app),
                                                             sparsesvm::app::add_collect(app),
                                                             sparsesvm::app::add_list(app),
                                                             sparsesvm::app::add_status(app),
                                                             sparsesvm::app::add_plot(app)};

  try {
    app.parse(argc, argv);
    if (!memory_budget.empty()) {
      sparsesvm::core::set_memory_budget(sparsesvm::core::parse_memory_size(memory_budget, "--memory-budget"));
    }
    sparsesvm::core::memory_budget_bytes();  // a malformed SPARSESVM_MEMORY_BUDGET stops here, exit 1
    for (const sparsesvm::app::Command& command : commands) {
      if (command.subcommand->parsed()) return command.action();
    }
    return 0;
  } catch (const CLI::ParseError& error) {
    // --help and --version exit 0; every bad flag or argument exits 1 (CLI11's own codes are 100+).
    if (app.exit(error) == 0) return 0;
    suggest_flags(app);
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "sparsesvm: error: out of memory; the input asks for more than this machine has\n";
    return 1;
  } catch (const std::filesystem::filesystem_error& error) {
    // An output directory that cannot be written (read-only, disk full): the path and the OS reason.
    std::cerr << "sparsesvm: error: " << error.path1().string() << ": " << error.code().message() << "\n";
    return 1;
  } catch (const sparsesvm::core::InputError& error) {
    std::cerr << "sparsesvm: error: " << error.what() << "\n";
    return 1;
  } catch (const std::exception& error) {
    std::cerr << "sparsesvm: internal error: " << error.what() << "\n";
    return 2;
  }
}
