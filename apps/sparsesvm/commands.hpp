#pragma once
// The subcommands of `sparsesvm`. Each registers its options on the CLI11 app and returns the action
// to run once the command line has been parsed.
#include <CLI/CLI.hpp>
#include <functional>

namespace sparsesvm::app {

using Action = std::function<int()>;

struct Command {
  CLI::App* subcommand;
  Action action;
};

// `sparsesvm describe-data`: load a file or a generator spec and print its shape and statistics.
Command add_describe_data(CLI::App& app);

// `sparsesvm describe METHOD`: the method's parts and parameter table.
Command add_describe(CLI::App& app);

// `sparsesvm fit`: fit one method on one data set; exit code 3 when the solver found no solution.
Command add_fit(CLI::App& app);

// `sparsesvm predict`: apply a model file written by `fit --model-out` (predict.cpp).
Command add_predict(CLI::App& app);

// `sparsesvm run`, `collect` and `list`: the experiment harness (run.cpp).
Command add_run(CLI::App& app);
Command add_collect(CLI::App& app);
Command add_list(CLI::App& app);

// `sparsesvm plot`: draw a collected run's figures (figures.cpp; run and collect call it too).
Command add_plot(CLI::App& app);

// `sparsesvm status`: done, missing and failed tasks of a run; exit 4 while work remains (status.cpp).
Command add_status(CLI::App& app);

}  // namespace sparsesvm::app
