// `sparsesvm predict`: apply a model file written by `fit --model-out` to a data set.
#include <fmt/format.h>

#include "commands.hpp"
#include "core/errors.hpp"
#include "data_source_options.hpp"
#include "experiment/csv.hpp"
#include "experiment/metrics.hpp"
#include "experiment/model_file.hpp"
#include "models/parameters.hpp"

namespace sparsesvm::app {
namespace {

struct PredictOptions {
  DataSourceOptions data;
  std::string model_file;
  std::string out_csv;
  bool no_labels = false;  // --no-labels: the file has no class column
};

// The file is read as the training file was (the model's loader section), unless the command line gives
// a format or loader options of its own.
DataSourceOptions source_for(const PredictOptions& options, const experiment::SavedModel& saved) {
  DataSourceOptions source = options.data;
  if (source.format == "auto" && source.loader_options.empty()) {
    source.format = saved.loader_format;
    for (const auto& [key, value] : saved.loader_options) source.loader_options.push_back(key + "=" + value);
  }
  source.classes = options.no_labels ? data::Classes::none : data::Classes::any;  // new data: one class is fine
  return source;
}

// One line per example; `label` is empty for a file without a class column.
void write_predictions(const std::string& path, const core::Dataset& data, const core::LinearModel& model,
                       bool labelled) {
  const core::Vector decision = model.decision_values(data);
  std::string content = experiment::csv_line({"row", "decision", "predicted", "label"});
  for (Eigen::Index i = 0; i < decision.size(); ++i) {
    const std::string label = !labelled ? "" : data.labels()[i] > 0.0 ? "1" : "-1";
    content += experiment::csv_line({std::to_string(i + 1), experiment::format_number(decision[i]),
                                     decision[i] >= 0.0 ? "1" : "-1", label});
  }
  experiment::write_file_atomically(path, content);
}

}  // namespace

Command add_predict(CLI::App& app) {
  auto options = std::make_shared<PredictOptions>();
  CLI::App* command = app.add_subcommand("predict", "Apply a model file (fit --model-out) to a data set");
  options->data.add_to(*command);
  command->add_option("--model", options->model_file, "the model file")->required();
  command->add_option("--out", options->out_csv,
                      "write one row per example: row (1-based), decision f(x), predicted and true label (+1/-1)");
  command->add_flag("--no-labels", options->no_labels,
                    "the file has no class column (every column is a feature): predictions only, no accuracy");
  return {command, [options]() {
    const experiment::SavedModel saved = experiment::read_model_file(options->model_file);
    const DataSourceOptions source = source_for(*options, saved);
    core::Dataset data = [&] {
      try {
        return source.load();
      } catch (const core::InputError& error) {
        if (options->no_labels) throw;
        throw core::InputError(fmt::format("{} (a file without a class column is read with --no-labels)", error.what()));
      }
    }();
    const std::string where = source.location.empty() ? source.generator : source.location;
    if (!options->no_labels && data.d() + 1 == saved.features.size()) {
      throw core::InputError(fmt::format("{}: {} features, one fewer than the model's {}; a file without a class "
                                         "column is read with --no-labels", where, data.d(), saved.features.size()));
    }
    experiment::check_same_features(data, saved.features, where);
    // The transforms as fitted on the training data, in order.
    for (const auto& transform : saved.transforms) transform->apply(data);
    fmt::print("model       {}: {} ({}), fitted on {} (n={}, d={}), status {}\n", options->model_file, saved.method,
               models::parameter_text(saved.parameters), saved.train_name, saved.train_n, saved.features.size(),
               saved.status);
    fmt::print("data        {} (n={}, d={})\n", where, data.n(), data.d());
    if (options->no_labels) {
      const core::Vector predicted = saved.model.predict(data);
      fmt::print("predicted   +1: {}, -1: {} (no class column: no accuracy)\n", (predicted.array() > 0).count(),
                 (predicted.array() < 0).count());
    } else {
      const experiment::Confusion counts = experiment::confusion(saved.model, data);
      fmt::print("accuracy    {:.4f} ({})\n", counts.accuracy, experiment::confusion_counts(counts));
    }
    if (!options->out_csv.empty()) write_predictions(options->out_csv, data, saved.model, !options->no_labels);
    return 0;
  }};
}

}  // namespace sparsesvm::app
