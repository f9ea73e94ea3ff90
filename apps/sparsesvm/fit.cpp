// `sparsesvm fit`: fit one method on one data set, as given (no hidden scaling), and print a summary.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>

#include "commands.hpp"
#include "data/transforms.hpp"
#include "data_source_options.hpp"
#include "experiment/csv.hpp"
#include "models/methods.hpp"

namespace sparsesvm::app {
namespace {

struct FitOptions {
  DataSourceOptions data;
  std::string method;
  std::optional<double> lambda;
  std::optional<double> mu;
  std::optional<double> a;
  std::vector<std::string> transforms;
  std::string out_csv;
  std::string weights_csv;
};

std::string number_or_empty(const models::Hyperparameters& h, const std::string& key) {
  return h.contains(key) ? experiment::format_number(h.at(key)) : "";
}

void write_result_row(const FitOptions& options, const core::Dataset& data, const models::Hyperparameters& h,
                      const models::FitReport& report) {
  const bool solved = core::has_solution(report.status);
  std::string content = experiment::csv_line({"method", "dataset", "lambda", "mu", "a", "status", "objective",
                                              "iterations", "inner_iterations", "nnz", "train_accuracy", "time_s",
                                              "message"});
  content += experiment::csv_line(
      {options.method, data.name(), number_or_empty(h, "lambda"), number_or_empty(h, "mu"), number_or_empty(h, "a"),
       core::to_string(report.status), solved ? experiment::format_number(report.objective) : "",
       std::to_string(report.iterations), std::to_string(report.inner_iterations),
       solved ? std::to_string(report.model.count_nonzeros()) : "",
       solved ? experiment::format_number(report.model.accuracy(data)) : "", experiment::format_number(report.seconds),
       report.message});
  experiment::write_file_atomically(options.out_csv, content);
}

void write_weights(const std::string& path, const core::Dataset& data, const core::LinearModel& model) {
  std::string content = experiment::csv_line({"feature", "weight"});
  for (std::size_t j = 0; j < data.d(); ++j) {
    content += experiment::csv_line({data.feature_names()[j], experiment::format_number(model.w()[static_cast<Eigen::Index>(j)])});
  }
  content += experiment::csv_line({"(bias)", experiment::format_number(model.b())});
  experiment::write_file_atomically(path, content);
}

void print_summary(const FitOptions& options, const core::Dataset& data, const models::Hyperparameters& h,
                   const models::FitReport& report) {
  std::vector<std::string> parameters;
  for (const auto& [key, value] : h) parameters.push_back(fmt::format("{}={}", key, value));
  fmt::print("method      {} ({})\n", options.method, fmt::join(parameters, ", "));
  fmt::print("data        {} (n={}, d={})\n", data.name(), data.n(), data.d());
  fmt::print("status      {}\n", core::to_string(report.status));
  if (!report.message.empty()) fmt::print("message     {}\n", report.message);
  if (!core::has_solution(report.status)) return;
  fmt::print("objective   {:.10g}\n", report.objective);
  fmt::print("iterations  {} DCA, {} LP/QP iterations in {} solves\n", report.iterations, report.inner_iterations,
             report.inner_solves);
  const std::vector<std::size_t> selected = report.model.selected_features();
  std::vector<std::string> names;
  for (std::size_t j : selected) names.push_back(data.feature_names()[j]);
  fmt::print("features    {} of {}{}\n", selected.size(), data.d(),
             selected.size() <= 20 ? fmt::format(": {}", fmt::join(names, " ")) : "");
  fmt::print("train acc   {:.4f}\n", report.model.accuracy(data));
  fmt::print("time        {:.3f} s\n", report.seconds);
}

}  // namespace

Command add_fit(CLI::App& app) {
  auto options = std::make_shared<FitOptions>();
  CLI::App* command = app.add_subcommand("fit", "Fit one method on one data set and print a summary");
  options->data.add_to(*command);
  command->add_option("-m,--method", options->method, "method name, e.g. OneNormSVM, RLSVM0, FSV (see --help of list)")
      ->required();
  command->add_option("--lambda", options->lambda, "regularization weight (method default if omitted)");
  command->add_option("--mu", options->mu, "mu of the ramp loss, in (0, 1]");
  command->add_option("--a", options->a, "a of approx_l0 (alpha for FSV) or the cap of capped_l1");
  command->add_option("-t,--transform", options->transforms,
                      "transform fitted on this data before the fit, repeatable: standardize, scale, unit_norm, "
                      "impute_mean")
      ->allow_extra_args(false);
  command->add_option("--out", options->out_csv, "write one result row to this CSV file");
  command->add_option("--weights", options->weights_csv, "write the coefficients (and the bias) to this CSV file");
  return {command, [options]() {
    core::Dataset data = options->data.load();
    std::vector<std::unique_ptr<data::Transform>> transforms;
    for (const std::string& name : options->transforms) transforms.push_back(data::make_transform(name));
    data::fit_and_apply(transforms, data, {});

    models::Hyperparameters given;
    if (options->lambda) given["lambda"] = *options->lambda;
    if (options->mu) given["mu"] = *options->mu;
    if (options->a) given["a"] = *options->a;
    const models::MethodInfo& method = models::find_method(options->method);
    const models::Hyperparameters resolved = models::resolve_hyperparameters(method, given);
    models::StepSolver solver(data);
    const models::FitReport report = models::fit_method(method.name, given, solver);

    print_summary(*options, data, resolved, report);
    if (!options->out_csv.empty()) write_result_row(*options, data, resolved, report);
    if (!options->weights_csv.empty() && core::has_solution(report.status)) {
      write_weights(options->weights_csv, data, report.model);
    }
    return core::has_solution(report.status) ? 0 : 3;
  }};
}

}  // namespace sparsesvm::app
