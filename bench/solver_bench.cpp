// Warm against cold starts, and SMO against Clp's QP, measured in one run on the same data.
//   1. lambda path: OneNormSVM over the DCA paper's nine lambdas, one workspace (warm) vs cold solves
//   2. DCA chains: RLSVM0 and CapOneNormSVM at every lambda of the path, warm vs cold
//   3. QP: SVM at lambda = 1 by SMO (cold) vs Clp's primal QP simplex
// Usage: solver_bench [DATA.csv ...]   (default: a 500 x 100 DCA Gaussian set and the exported UCI sets
// given on the command line; every set is standardized first). Prints one table row per data set.
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <functional>

#include "data/generators/generator_registry.hpp"
#include "bench_data.hpp"
#include "data/load.hpp"
#include "models/methods.hpp"
#include "optim/clp_qp.hpp"
#include "optim/l2_svm_solver.hpp"

using namespace sparsesvm;

namespace {

const std::vector<double> kLambdas = {0.1, 0.2, 0.3, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0};

struct Totals {
  long iterations = 0;
  double seconds = 0.0;
};

// Fits `method` at every lambda in one workspace, warm or with warm starts off (cold).
Totals run_path(const core::Dataset& data, const std::string& method, bool warm) {
  models::StepSolverOptions options;
  options.warm_start = warm;
  models::Workspace workspace(data, 0, options);
  Totals totals;
  const auto start = std::chrono::steady_clock::now();
  for (double lambda : kLambdas) {
    const models::FitReport report = models::fit_method(method, {{"lambda", lambda}}, workspace);
    if (!core::has_solution(report.status)) fmt::print(stderr, "{} lambda={}: {}\n", method, lambda, report.brief());
    totals.iterations += report.inner_iterations;
  }
  totals.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return totals;
}

double time_call(const std::function<void()>& call) {
  const auto start = std::chrono::steady_clock::now();
  call();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void report(const core::Dataset& data) {
  std::string row = fmt::format("{:<14} {:>4}x{:<4}", data.name(), data.n(), data.d());
  for (const std::string method : {"OneNormSVM", "RLSVM0", "CapOneNormSVM"}) {
    const Totals warm = run_path(data, method, true);
    const Totals cold = run_path(data, method, false);
    row += fmt::format(" | {:>7} / {:>7} it {:>5.1f}x  {:>6.3f} / {:>6.3f} s {:>5.1f}x", warm.iterations,
                       cold.iterations, static_cast<double>(cold.iterations) / static_cast<double>(std::max(1L, warm.iterations)),
                       warm.seconds, cold.seconds, cold.seconds / warm.seconds);
  }
  optim::L2SvmProblem problem;
  problem.lambda = 1.0;
  problem.upper = core::Vector::Ones(static_cast<Eigen::Index>(data.n()));
  problem.margin = problem.upper;
  double ours_objective = 0.0, clp_objective = 0.0;
  const double ours_seconds = time_call([&] {
    ours_objective = optim::L2SvmSolver(data).solve(problem, core::Vector()).primal_objective;
  });
  const double clp_seconds = time_call([&] { clp_objective = optim::solve_svm_primal_with_clp(data, problem).objective; });
  row += fmt::format(" | l2 SVM portfolio {:.3f} s, Clp QP {:.3f} s: {:.0f}x (objectives {:.6g} / {:.6g})", ours_seconds,
                     clp_seconds, clp_seconds / ours_seconds, ours_objective, clp_objective);
  fmt::print("{}\n", row);
}

}  // namespace

int main(int argc, char** argv) {
  fmt::print("data set        n x d   | per method: simplex iterations warm / cold, ratio, seconds warm / cold, ratio "
             "(OneNormSVM path, RLSVM0 chains, CapOneNormSVM chains) | SVM QP\n");
  report(bench::standardized(data::generate("dca_gaussians:n=500,noise_dims=90,seed=1")));
  for (int k = 1; k < argc; ++k) report(bench::standardized(data::load_dataset({argv[k], "auto", {}})));
  return 0;
}
