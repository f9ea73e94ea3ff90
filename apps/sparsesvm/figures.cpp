#include "figures.hpp"

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <spawn.h>
#include <sys/wait.h>
#include <vector>

#include "commands.hpp"
#include "core/errors.hpp"
#include "resources.hpp"

extern char** environ;

namespace sparsesvm::app {
namespace {

std::string python_interpreter() {
  const char* chosen = std::getenv("SPARSESVM_PYTHON");
  return chosen && *chosen ? chosen : "/usr/bin/python3";
}

// Runs argv with stdout and stderr appended to `log`; the exit status, or -1 when it could not start.
int run_program(const std::vector<std::string>& argv, const std::string& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int started = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (started != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The last non-empty line of a file (plot.py's error message), or "".
std::string last_line(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  return last;
}

}  // namespace

DrawnFigures draw_figures(const std::string& directory) {
  const std::filesystem::path dir(directory);
  if (!std::filesystem::exists(dir / "figures.json")) return {};
  const std::string python = python_interpreter();
  const std::string log = (dir / "plot.log").string();
  const std::string script = (resource_directory() / "scripts" / "plot.py").string();
  if (!std::filesystem::exists(python)) {
    return {false, fmt::format("figures not drawn: no {} (Debian: apt-get install python3 python3-matplotlib; then "
                               "sparsesvm plot {})", python, directory)};
  }
  if (run_program({python, "-c", "import matplotlib"}, log) != 0) {
    return {false, fmt::format("figures not drawn: {} has no matplotlib (Debian: apt-get install python3-matplotlib; "
                               "then sparsesvm plot {})", python, directory)};
  }
  if (!std::filesystem::exists(script)) {
    return {false, fmt::format("figures not drawn: {} is absent (neither installed beside this binary nor in the "
                               "source tree it was built from); run scripts/plot.py {} from a checkout", script, directory)};
  }
  if (std::ofstream out(log, std::ios::app); out) out << "running " << python << " " << script << " " << directory << "\n";
  if (run_program({python, script, directory}, log) != 0) {
    return {false, fmt::format("figures not drawn: {} ({})", last_line(log), log)};
  }
  return {true, fmt::format("figures: {}", (dir / "index.html").string())};
}

Command add_plot(CLI::App& app) {
  auto directory = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand(
      "plot", "Draw a collected run's figures (its config's figures: list) and index.html; run and collect do this themselves");
  command->add_option("directory", *directory, "a run directory after collect")->required();
  return {command, [directory]() {
    if (!std::filesystem::exists(std::filesystem::path(*directory) / "figures.json")) {
      throw core::InputError(fmt::format("{}/figures.json: missing; its config lists no figures, or collect has not run",
                                         *directory));
    }
    const DrawnFigures drawn = draw_figures(*directory);
    fmt::print("{}\n", drawn.message);
    return drawn.drawn ? 0 : 1;
  }};
}

}  // namespace sparsesvm::app
