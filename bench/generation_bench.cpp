// One LP-based method on one generated data set, its LP steps solved by generation or as the full LP
// (option lp_form), over a list of lambdas in one workspace (warm along the path). Prints one line per
// lambda and a total; bench/run_generation.sh runs it per form under /usr/bin/time (peak memory) and
// puts HiGHS (scipy) on the same LP beside it.
// Usage: generation_bench SPEC METHOD LP_FORM LAMBDA[,LAMBDA...] [--export PREFIX]
//   SPEC: a generator spec (dense data are standardized first, as the configs do; sparse data used as generated); LP_FORM: 0 by size, 1 full, 2 generation.
//   --export PREFIX writes PREFIX.x (float64, n x d, row-major) and PREFIX.y (float64 labels) and exits.
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "bench_data.hpp"
#include "data/generators/generator_registry.hpp"
#include "models/methods.hpp"

using namespace sparsesvm;

namespace {

std::vector<double> parse_lambdas(const std::string& text) {
  std::vector<double> lambdas;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');) lambdas.push_back(std::stod(item));
  return lambdas;
}

void export_data(const core::Dataset& data, const std::string& prefix) {
  std::ofstream x(prefix + ".x", std::ios::binary);
  for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(data.n()); ++i) {
    for (Eigen::Index j = 0; j < static_cast<Eigen::Index>(data.d()); ++j) {
      const double value = data.value(static_cast<std::size_t>(i), static_cast<std::size_t>(j));
      x.write(reinterpret_cast<const char*>(&value), sizeof value);
    }
  }
  std::ofstream y(prefix + ".y", std::ios::binary);
  y.write(reinterpret_cast<const char*>(data.labels().data()), static_cast<std::streamsize>(sizeof(double) * data.n()));
  fmt::print("exported {} x {} to {}.x, {}.y\n", data.n(), data.d(), prefix, prefix);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    fmt::print(stderr, "usage: generation_bench SPEC METHOD LP_FORM LAMBDA[,LAMBDA...] [--export PREFIX]\n");
    return 1;
  }
  core::Dataset generated = data::generate(argv[1]);
  // Sparse data (text_shaped) are used as generated: standardizing would make them dense.
  const core::Dataset data = generated.is_sparse() ? std::move(generated) : bench::standardized(std::move(generated));
  if (argc == 7 && std::string(argv[5]) == "--export") {
    export_data(data, argv[6]);
    return 0;
  }
  const std::string method = argv[2];
  const double form = std::stod(argv[3]);
  models::Workspace workspace(data);
  double total_seconds = 0.0;
  for (const double lambda : parse_lambdas(argv[4])) {
    const auto start = std::chrono::steady_clock::now();
    const models::FitReport report = models::fit_method(method, {{"lambda", lambda}, {"lp_form", form}}, workspace);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total_seconds += seconds;
    const auto statistic = [&report](const char* name) {
      const auto found = report.statistics.find(name);
      return found == report.statistics.end() ? 0.0 : found->second;
    };
    fmt::print("{} lp_form={} lambda={} status={} objective={:.10g} seconds={:.3f} iterations={} features={} "
               "working_features={} working_examples={} rounds={} reduced_cost_violation={:.2g} "
               "constraint_violation={:.2g} relative_gap={:.2g}\n",
               method, form, lambda, core::to_string(report.status), report.objective, seconds, report.iterations,
               (report.model.w().array() != 0.0).count(), statistic("lp_working_features"),
               statistic("lp_working_examples"), statistic("lp_generation_rounds"),
               statistic("lp_reduced_cost_violation"), statistic("lp_constraint_violation"),
               statistic("lp_relative_gap"));
    std::fflush(stdout);
  }
  fmt::print("total seconds={:.3f}\n", total_seconds);
  return 0;
}
