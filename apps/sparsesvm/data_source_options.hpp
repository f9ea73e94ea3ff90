#pragma once
// Command-line options that name a data set, shared by every subcommand that loads one:
// a FILE argument or --generator SPEC, --format, and repeatable -o key=value loader options.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "data/load.hpp"

namespace sparsesvm::app {

struct DataSourceOptions {
  std::string location;
  std::string generator;
  std::string format = "auto";
  std::vector<std::string> loader_options;
  data::Classes classes = data::Classes::both;  // not an option: predict and fit --test relax it

  void add_to(CLI::App& command);
  // Loads the data set; CLI::ValidationError for inconsistent options, InputError for bad data.
  core::Dataset load() const;
};

// "key=value" -> {key, value}; CLI::ValidationError naming `option` otherwise.
std::pair<std::string, std::string> split_key_value(const std::string& item, const std::string& option);

}  // namespace sparsesvm::app
