// ADMM against the solver a user would otherwise pick for the same objective
//   F = (1/n) sum hinge + sum_j p(w_j; lambda, theta),  lambda = 2^-6 ([ADMM]'s setting) and 1e-4:
// the l1 penalty against OneNormSVM-mean (the LP, Clp), LSP, SCAD, MCP and capped-l1 against DCA (LPs)
// from zero. ADMM with its defaults only; ADMM-SCAD-published (the paper's algorithm as written) beside
// SCAD. One CSV row per (data, lambda, penalty) on standard output: status, iterations (ADMM: sweeps),
// seconds and F of each, ADMM's LPs after its sweeps (dca_steps: exact_finish), F(ADMM) / F(reference) - 1,
// time ratio. Each fit in a fresh workspace (ADMM's time includes forming
// and factoring its system, the LP's its setup). bench/admm_summary.py checks the goals.
// Usage: admm_bench FILE[@KEY=VALUE][:standardize]|gen:SPEC ...  (KEY=VALUE: a loader option)
#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <map>
#include <stdexcept>
#include <string>

#include "bench_data.hpp"
#include "data/generators/generator_registry.hpp"
#include "data/load.hpp"
#include "models/methods.hpp"

using namespace sparsesvm;

namespace {

constexpr double kLambdas[] = {0.015625, 1e-4};

models::FitReport fit(const core::Dataset& data, const std::string& method, double lambda) {
  models::Workspace workspace(data);
  return models::fit_method(method, {{"lambda", lambda}}, workspace);
}

std::string cells(const models::FitReport& report) {
  return fmt::format("{},{},{:.4g},{:.10g}", core::to_string(report.status), report.iterations, report.seconds,
                     report.objective);
}

void compare(const std::string& name, const core::Dataset& data) {
  for (const double lambda : kLambdas) {
    for (const std::string penalty : {"L1", "LSP", "SCAD", "MCP", "Capped"}) {
      const std::string reference_method = penalty == "L1" ? "OneNormSVM-mean" : "DCA-" + penalty;
      std::vector<std::string> methods = {"ADMM-" + penalty};
      if (penalty == "SCAD") methods.push_back("ADMM-SCAD-published");
      const models::FitReport reference = fit(data, reference_method, lambda);
      for (const std::string& method : methods) {
        const models::FitReport admm = fit(data, method, lambda);
        const auto dca_steps = admm.statistics.find("dca_steps");
        fmt::print("{},{},{},{:g},{},{},{:g},{},{},{:.3e},{:.3g}\n", name, data.n(), data.d(), lambda, method,
                   cells(admm), dca_steps == admm.statistics.end() ? 0.0 : dca_steps->second, reference_method,
                   cells(reference), admm.objective / reference.objective - 1.0, admm.seconds / reference.seconds);
        std::fflush(stdout);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc < 2) {
    fmt::print(stderr, "usage: admm_bench FILE[@KEY=VALUE][:standardize]|gen:SPEC ...\n");
    return 1;
  }
  fmt::print("data,n,d,lambda,method,status,iterations,seconds,objective,dca_steps,reference,reference_status,reference_iterations,"
             "reference_seconds,reference_objective,objective_excess,time_ratio\n");
  for (int k = 1; k < argc; ++k) {
    std::string argument = argv[k];
    if (argument.rfind("gen:", 0) == 0) {
      const std::string spec = argument.substr(4);
      std::string name = spec;  // commas would split the CSV cell
      std::replace(name.begin(), name.end(), ',', ' ');
      compare(name, data::generate(spec));
      continue;
    }
    const bool standardize = argument.size() > 12 && argument.substr(argument.size() - 12) == ":standardize";
    if (standardize) argument.resize(argument.size() - 12);
    std::map<std::string, std::string> options;  // FILE@KEY=VALUE: one loader option
    if (const auto at = argument.find('@'); at != std::string::npos) {
      const auto equals = argument.find('=', at);
      if (equals == std::string::npos) throw std::runtime_error("expected FILE@KEY=VALUE: " + argument);
      options[argument.substr(at + 1, equals - at - 1)] = argument.substr(equals + 1);
      argument.resize(at);
    }
    const core::Dataset data = data::load_dataset({argument, "auto", options});
    compare(data.name() + (standardize ? " (std)" : " (raw)"), standardize ? bench::standardized(data) : data);
  }
  return 0;
} catch (const std::exception& error) {
  fmt::print(stderr, "admm_bench: {}\n", error.what());
  return 1;
}
