#include <fmt/format.h>

#include <algorithm>

#include "commands.hpp"
#include "data/load.hpp"
#include "data/summary.hpp"

namespace sparsesvm::app {
namespace {

struct DescribeOptions {
  data::DataSource source;
  std::string generator;
  std::vector<std::string> loader_options;  // key=value
  std::size_t max_features = 40;
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
  command->add_option("file", options->source.location,
                      "data file (UCI-style delimited text or LIBSVM), or DIR/NAME for the NIPS 2003 format");
  command->add_option("-g,--generator", options->generator,
                      "a generator spec instead of a file, e.g. dca_gaussians:noise_dims=10,seed=3");
  command->add_option("-f,--format", options->source.format, "auto, delimited, libsvm or nips2003")
      ->check(CLI::IsMember({"auto", "delimited", "libsvm", "nips2003"}));
  command->add_option("-o,--option", options->loader_options,
                      "loader option key=value, repeatable (e.g. -o positive=M -o drop_columns=0 -o missing=keep); "
                      "see the README for the keys");
  command->add_option("--max-features", options->max_features, "features listed in the table (0: all)");
  return {command, [options]() {
    data::DataSource source = options->source;
    if (!options->generator.empty() == !source.location.empty()) {
      throw CLI::ValidationError("describe-data", "give either a file or --generator, not both or neither");
    }
    if (!options->generator.empty()) {
      source = data::DataSource{options->generator, "generator", {}};
    }
    for (const std::string& item : options->loader_options) {
      const std::size_t equals = item.find('=');
      if (equals == std::string::npos || equals == 0) {
        throw CLI::ValidationError("--option", fmt::format("expected key=value, found '{}'", item));
      }
      source.options[item.substr(0, equals)] = item.substr(equals + 1);
    }
    print_summary(data::load_dataset(source), options->max_features);
    return 0;
  }};
}

}  // namespace sparsesvm::app
