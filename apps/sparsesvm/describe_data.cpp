#include <fmt/format.h>

#include <algorithm>

#include "commands.hpp"
#include "data_source_options.hpp"
#include "data/libsvm_writer.hpp"
#include "data/summary.hpp"

namespace sparsesvm::app {
namespace {

struct DescribeOptions {
  DataSourceOptions data;
  std::size_t max_features = 40;
  std::string libsvm_out;
};

void print_summary(const core::Dataset& data, std::size_t max_features) {
  fmt::print("dataset   {}\n", data.name());
  fmt::print("source    {}\n", data.provenance().describe());
  fmt::print("examples  {} (+1: {}, -1: {})\n", data.n(), data.count_positive(), data.count_negative());
  fmt::print("features  {} ({})\n", data.d(), data.is_sparse() ? "sparse" : "dense");
  fmt::print("missing   {}\n", data.count_missing());
  if (const auto& informative = data.informative_features()) {
    fmt::print("informative features  {}\n", std::count(informative->begin(), informative->end(), true));
  }
  const std::vector<data::FeatureStats> stats = data::feature_stats(data);
  const std::size_t shown = max_features == 0 ? stats.size() : std::min(max_features, stats.size());
  fmt::print("\n{:<16} {:>12} {:>12} {:>12} {:>12} {:>8}\n", "feature", "min", "max", "mean", "std", "missing");
  for (std::size_t j = 0; j < shown; ++j) {
    const data::FeatureStats& s = stats[j];
    fmt::print("{:<16} {:>12.5g} {:>12.5g} {:>12.5g} {:>12.5g} {:>8}\n", data.feature_names()[j], s.min, s.max, s.mean,
               s.stddev, s.missing);
  }
  if (shown < stats.size()) {
    fmt::print("... {} more features (--max-features 0 shows all)\n", stats.size() - shown);
  }
}

}  // namespace

Command add_describe_data(CLI::App& app) {
  auto options = std::make_shared<DescribeOptions>();
  CLI::App* command = app.add_subcommand(
      "describe-data", "Load a data file or generate a synthetic set; print n, d, classes, missing values and "
                       "per-feature min/max/mean/std");
  options->data.add_to(*command);
  command->add_option("--max-features", options->max_features, "features listed in the table (0: all)")
      ->check(CLI::Range(0, 1000000));
  command->add_option("--write-libsvm", options->libsvm_out,
                      "also write the data (a generator's draw, after loading) to this file in LIBSVM format, e.g. "
                      "for liblinear");
  return {command, [options]() {
    const core::Dataset data = options->data.load();
    print_summary(data, options->max_features);
    if (!options->libsvm_out.empty()) {
      data::write_libsvm(data, options->libsvm_out);
      fmt::print("\nwritten   {} (LIBSVM; read it with -o n_features={} to keep all {} columns)\n", options->libsvm_out,
                 data.d(), data.d());
    }
    return 0;
  }};
}

}  // namespace sparsesvm::app
