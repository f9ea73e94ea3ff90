// ADMM against DCA on the identical objective F = (1/n) sum hinge + sum_j p(w_j; lambda, theta), for the
// four nonconvex penalties: the time each needs to reach F within 1e-4 (relative) of the better of the
// two final values. Both start from zero; ADMM with rho1 = 1.5, rho2 = 10 / n, up to 10^4 sweeps; DCA
// with its defaults. Times are measured, not interpolated: DCA is re-run with max_iterations = k for the
// first k whose objective is within reach, ADMM with max_iterations = the first recorded sweep within
// reach (ADMM records F at sweeps 1..10, then 10 per decade, so its time can be up to one recorded step
// late). Each run in a fresh workspace: ADMM's time includes its factorization, DCA's its LPs from cold.
// Usage: admm_bench FILE|gen:SPEC ...   (dense files are standardized; generated sparse data kept as is)
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <cstdio>
#include <limits>
#include <string>

#include "bench_data.hpp"
#include "data/generators/generator_registry.hpp"
#include "data/load.hpp"
#include "models/methods.hpp"

using namespace sparsesvm;

namespace {

constexpr double kReach = 1e-4;
constexpr double kNever = std::numeric_limits<double>::infinity();

models::FitReport fit(const core::Dataset& data, const std::string& method, models::Hyperparameters h) {
  models::Workspace workspace(data);
  return models::fit_method(method, h, workspace);
}

// Seconds of a fresh run stopped at `iterations`.
double seconds_at(const core::Dataset& data, const std::string& method, models::Hyperparameters h, double iterations) {
  h["max_iterations"] = iterations;
  return fit(data, method, h).seconds;
}

// The first iteration whose recorded F is within reach of `target`, or NaN. `iterations[k]` is the
// iteration of objective_trace[k].
double first_within(const std::vector<double>& trace, const std::vector<double>& iterations, double target) {
  for (std::size_t k = 0; k < trace.size(); ++k) {
    if (trace[k] <= target + kReach * std::abs(target) && iterations[k] > 0) return iterations[k];
  }
  return std::nan("");
}

void compare(const std::string& name, const core::Dataset& data) {
  for (const std::string penalty : {"LSP", "SCAD", "MCP", "Capped"}) {
    const models::Hyperparameters admm_options = {{"rho2_per_n", 1}};
    const models::FitReport admm = fit(data, "ADMM-" + penalty, admm_options);
    const models::FitReport dca = fit(data, "DCA-" + penalty, {});
    const double best = std::min(admm.objective, dca.objective);
    std::vector<double> dca_iterations(dca.objective_trace.size());
    for (std::size_t k = 0; k < dca_iterations.size(); ++k) dca_iterations[k] = static_cast<double>(k);
    const double dca_k = first_within(dca.objective_trace, dca_iterations, best);
    const double admm_k = first_within(admm.objective_trace, admm.traces.at("trace_iterations"), best);
    const double dca_s = std::isnan(dca_k) ? kNever : seconds_at(data, "DCA-" + penalty, {}, dca_k);
    const double admm_s = std::isnan(admm_k) ? kNever : seconds_at(data, "ADMM-" + penalty, admm_options, admm_k);
    // The ratio of times to reach; "ADMM only" / "DCA only" when the other never gets within reach.
    const std::string ratio = std::isinf(dca_s) ? "ADMM only" : std::isinf(admm_s) ? "DCA only"
                                                                                   : fmt::format("{:.2f}", admm_s / dca_s);
    fmt::print("{:<18} {:>6} {:>6} {:<7} {:>11.6g} {:>11.6g} {:>+10.2e} {:>9.3f} {:>9.3f} {:>9.3f} {:>10.3f} {:>9}\n",
               name, data.n(), data.d(), penalty, dca.objective, admm.objective, admm.objective / dca.objective - 1,
               dca.seconds, admm.seconds, dca_s, admm_s, ratio);
  }
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc < 2) {
    fmt::print(stderr, "usage: admm_bench FILE|gen:SPEC ...\n");
    return 1;
  }
  fmt::print("{:<18} {:>6} {:>6} {:<7} {:>11} {:>11} {:>10} {:>9} {:>9} {:>9} {:>10} {:>9}\n", "data", "n", "d", "penalty",
             "F_DCA", "F_ADMM", "ADMM/DCA-1", "DCA_s", "ADMM_s", "DCA_reach", "ADMM_reach", "ratio");
  for (int k = 1; k < argc; ++k) {
    const std::string argument = argv[k];
    if (argument.rfind("gen:", 0) == 0) {
      compare(argument.substr(4, argument.find(':', 4) - 4), data::generate(argument.substr(4)));
    } else {
      const core::Dataset data = data::load_dataset({argument, "auto", {}});
      compare(data.name(), data.is_sparse() ? data : bench::standardized(data));
    }
  }
  return 0;
} catch (const std::exception& error) {
  fmt::print(stderr, "admm_bench: {}\n", error.what());
  return 1;
}
