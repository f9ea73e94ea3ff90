// `sparsesvm fit`: fit one method on one data set, as given (no hidden scaling), and print a summary.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "commands.hpp"
#include "core/errors.hpp"
#include "core/progress.hpp"
#include "data/transforms.hpp"
#include "data_source_options.hpp"
#include "fit_selection.hpp"
#include "experiment/csv.hpp"
#include "experiment/manifest.hpp"
#include "experiment/metrics.hpp"
#include "experiment/model_file.hpp"
#include "models/methods.hpp"
#include "models/scoring.hpp"

namespace sparsesvm::app {
namespace {

struct FitOptions {
  DataSourceOptions data;
  std::string method;
  models::Hyperparameters given;  // --<parameter> flags, one per name in the method registry
  std::uint64_t seed = 0;         // seeds random starts (FSV)
  std::string class_weight_text;  // --class-weight: none, balanced, positive=P,negative=N
  models::ClassWeight class_weight;  // parsed from it when the command runs
  std::vector<std::string> transforms;
  std::string out_csv;
  bool append = false;  // --append: add the row to out_csv's rows instead of replacing them
  std::string weights_csv;
  std::string test_file;  // --test: a held-out file, loaded like the training file
  std::string model_file;  // --model-out
  SelectionOptions selection;  // --grid, --cv, ...
  std::optional<double> cv_score;  // the chosen candidate's mean inner score, after a selection
  std::optional<double> test_score;  // the test file's score under --scoring, when it is not accuracy
  bool verbose = false;  // --verbose: progress lines on standard error
};

// --verbose: each progress line (core/progress.hpp) on standard error, after the seconds since the command
// began. A line that cannot be written is dropped: progress is for reading, and a closed or full standard
// error must not end a fit (fmt::print would throw, from inside Cbc's callback too).
void print_progress() {
  const auto began = std::chrono::steady_clock::now();
  core::set_progress_sink([began](const std::string& line) { std::fputs(core::timed_line(began, line).c_str(), stderr); });
}

// The training file's loader options with its class mapping as the loader resolved it (the automatic
// mapping or most_frequent become positive= and negative= values): a file of one class, or with its classes
// in another order, is then read as the training file was.
std::vector<std::pair<std::string, std::string>> resolved_loader_options(const DataSourceOptions& given,
                                                                         const core::Dataset& train) {
  static const std::set<std::string> kMapping = {"positive", "negative", "threshold", "most_frequent"};
  std::vector<std::pair<std::string, std::string>> options;
  for (const std::string& item : given.loader_options) {
    auto pair = split_key_value(item, "--option");
    if (!kMapping.contains(pair.first)) options.push_back(std::move(pair));
  }
  for (const auto& [key, value] : train.provenance().parameters) {
    if (key != "labels" || value == "none") continue;
    std::stringstream parts(value);
    for (std::string part; std::getline(parts, part, ';');) {
      if (part.find('=') != std::string::npos) options.push_back(split_key_value(part, "labels"));
    }
  }
  return options;
}

// The held-out file, loaded with the training file's format and loader options; refused unless its
// features are the training data's, by count and by name.
core::Dataset load_test_file(const FitOptions& options, const core::Dataset& train) {
  DataSourceOptions source = options.data;
  source.location = options.test_file;
  source.generator.clear();
  source.loader_options.clear();
  for (const auto& [key, value] : resolved_loader_options(options.data, train)) source.loader_options.push_back(key + "=" + value);
  source.classes = data::Classes::any;  // held-out data may hold one class
  core::Dataset test = source.load();
  experiment::check_same_features(test, train.feature_names(), options.test_file);
  return test;
}

// The CSV text of `rows` under `header`, after the rows already in `path` (its header first): columns of
// either, in the file's order then the new ones, blank where a row has none (rows of other methods carry
// other parameters). An existing file that is not a table is refused, not overwritten.
std::string appended_table(const std::string& path, const std::vector<std::string>& header,
                           const std::vector<std::string>& fields) {
  const bool absent = experiment::path_kind(path) == experiment::PathKind::absent;
  const std::string existing = absent ? "" : experiment::read_whole_file(path);
  std::vector<std::vector<std::string>> table = experiment::parse_csv(existing, path);
  if (table.empty()) return experiment::csv_line(header) + experiment::csv_line(fields);
  std::vector<std::string> columns = table.front();
  for (const std::vector<std::string>& row : table) {
    if (row.size() != columns.size()) {
      throw core::InputError(fmt::format("{}: not a table of result rows (a line has {} fields, the header {}); "
                                         "--append adds only to a file --out wrote", path, row.size(), columns.size()));
    }
  }
  // A name may head two columns (the parameter qp_solver and the statistic of the solver used): the k-th
  // column of a name goes to the k-th column of that name.
  const auto column_of = [&](const std::vector<std::string>& names, std::size_t k) {
    const long occurrence = std::count(names.begin(), names.begin() + static_cast<long>(k), names[k]);
    auto at = columns.begin();
    for (long seen = 0;; ++seen, ++at) {
      at = std::find(at, columns.end(), names[k]);
      if (at == columns.end() || seen == occurrence) return at;
    }
  };
  for (std::size_t k = 0; k < header.size(); ++k) {
    if (column_of(header, k) == columns.end()) columns.push_back(header[k]);
  }
  const auto aligned = [&](const std::vector<std::string>& names, const std::vector<std::string>& values) {
    std::vector<std::string> out(columns.size());
    for (std::size_t k = 0; k < names.size(); ++k) {
      out[static_cast<std::size_t>(column_of(names, k) - columns.begin())] = values[k];
    }
    return experiment::csv_line(out);
  };
  std::string content = experiment::csv_line(columns);
  for (std::size_t r = 1; r < table.size(); ++r) content += aligned(table.front(), table[r]);
  return content + aligned(header, fields);
}

void write_result_row(const FitOptions& options, const core::Dataset& data, const models::FitReport& report,
                      const std::optional<experiment::Confusion>& test) {
  const bool solved = report.has_solution();
  std::vector<std::string> header = {"method", "dataset"};
  std::vector<std::string> fields = {options.method, data.name()};
  for (const models::ParameterSpec& spec : models::find_method(options.method).parameters) {
    header.push_back(spec.name);
    const double value = report.hyperparameters.at(spec.name);
    fields.push_back(spec.is_choice() ? spec.format(value) : experiment::format_number(value));
  }
  header.insert(header.end(), {"status", "objective", "certificate", "certificate_kind", "iterations", "inner_iterations",
                               "nnz", "train_accuracy", "time_s", "stop_reason", "message"});
  fields.insert(fields.end(), {core::to_string(report.status), solved ? experiment::format_number(report.objective) : "",
                               experiment::format_number(report.certificate), report.certificate_kind,
                               std::to_string(report.iterations), std::to_string(report.inner_iterations),
                               solved ? std::to_string(report.model.count_nonzeros()) : "",
                               solved ? experiment::format_number(report.model.accuracy(data)) : "",
                               experiment::format_number(report.seconds), report.stop_reason, report.message});
  const models::Metric metric = models::parse_metric(options.selection.scoring);
  if (options.cv_score && metric == models::Metric::accuracy) {
    header.push_back("cv_accuracy");
    fields.push_back(experiment::format_number(*options.cv_score));
  } else if (options.cv_score) {
    header.insert(header.end(), {"cv_metric", "cv_score"});
    fields.insert(fields.end(), {options.selection.scoring, experiment::format_number(*options.cv_score)});
  }
  if (!options.test_file.empty()) {  // test scores exist when the fit has a model
    header.insert(header.end(), {"test_file", "test_n", "test_accuracy"});
    fields.insert(fields.end(), {options.test_file, test ? std::to_string(test->n) : "",
                                 test ? experiment::format_number(test->accuracy) : ""});
    if (metric != models::Metric::accuracy) {
      header.push_back("test_" + options.selection.scoring);
      fields.push_back(options.test_score ? experiment::format_number(*options.test_score) : "");
    }
  }
  const models::Algorithm& algorithm = models::find_algorithm(models::find_method(options.method).algorithm);
  for (const std::string& name : algorithm.statistic_names()) {
    if (!report.statistics.contains(name)) continue;
    header.push_back(name);
    fields.push_back(experiment::format_number(report.statistics.at(name)));
  }
  for (const std::string& name : algorithm.text_statistic_names()) {
    if (!report.text_statistics.contains(name)) continue;
    header.push_back(name);
    fields.push_back(report.text_statistics.at(name));
  }
  experiment::write_file_atomically(options.out_csv, options.append ? appended_table(options.out_csv, header, fields)
                                                                    : experiment::csv_line(header) + experiment::csv_line(fields));
}

void write_weights(const std::string& path, const core::Dataset& data, const core::LinearModel& model) {
  std::string content = experiment::csv_line({"feature", "weight"});
  for (std::size_t j = 0; j < data.d(); ++j) {
    content += experiment::csv_line({data.feature_names()[j], experiment::format_number(model.w()[static_cast<Eigen::Index>(j)])});
  }
  content += experiment::csv_line({"(bias)", experiment::format_number(model.b())});
  experiment::write_file_atomically(path, content);
}

void write_model(const FitOptions& options, const core::Dataset& data, const models::FitReport& report,
                 std::vector<std::unique_ptr<data::Transform>> transforms) {
  experiment::SavedModel saved;
  saved.commit = experiment::build_commit();
  saved.method = options.method;
  saved.parameters = {report.hyperparameters.begin(), report.hyperparameters.end()};
  saved.status = core::to_string(report.status);
  saved.objective = report.objective;
  saved.stop_reason = report.stop_reason;
  saved.class_weight = options.class_weight.to_string();
  saved.statistics = {report.statistics.begin(), report.statistics.end()};
  saved.train_name = data.name();
  saved.train_n = data.n();
  saved.train_source = data.provenance().describe();
  saved.loader_format = options.data.format;
  saved.loader_options = resolved_loader_options(options.data, data);
  saved.transforms = std::move(transforms);
  saved.features = data.feature_names();
  saved.model = report.model;
  experiment::write_model_file(options.model_file, saved);
}

void print_summary(const FitOptions& options, const core::Dataset& data, const models::FitReport& report) {
  fmt::print("method      {} ({})\n", options.method, models::parameter_text(report.hyperparameters));
  fmt::print("data        {} (n={}, d={})\n", data.name(), data.n(), data.d());
  if (const models::ClassWeight& weight = options.class_weight; !weight.is_none()) {
    const core::Vector s = models::class_example_weights(weight, data.labels());
    const auto of_class = [&](double label) {
      for (Eigen::Index i = 0; i < s.size(); ++i) {
        if (data.labels()[i] == label) return s[i];
      }
      return 0.0;
    };
    fmt::print("weights     class_weight {}: +1 examples {:.4g}, -1 examples {:.4g}\n", weight.to_string(), of_class(1.0),
               of_class(-1.0));
  }
  fmt::print("status      {}\n", core::to_string(report.status));
  if (!report.certificate_kind.empty()) {
    // NaN: no bound was had (the message says why), not a number to read.
    // solved_inaccurate: the number may be small while another check failed (an LP's reduced costs).
    fmt::print("certificate {} {}{}\n", report.certificate_kind,
               std::isnan(report.certificate) ? std::string("none") : fmt::format("{:.3g}", report.certificate),
               report.status == core::Status::solved_inaccurate ? " (not certified: the message says which check failed)"
                                                                 : "");
  }
  if (!report.stop_reason.empty()) fmt::print("stopped     {}\n", report.stop_reason);
  if (!report.message.empty()) fmt::print("message     {}\n", report.message);
  if (!core::has_solution(report.status)) return;
  fmt::print("objective   {:.10g}\n", report.objective);
  fmt::print("iterations  {} outer, {} LP/QP iterations in {} solves\n", report.iterations,
             report.inner_iterations, report.inner_solves);
  if (const auto nodes = report.statistics.find("mip_nodes"); nodes != report.statistics.end()) {
    // A MIP's search: the nodes of its searches (Cbc's nodes, the box search's boxes) and their LPs'
    // simplex iterations as lp_iteration_limit counts them (the box search's weighted: methods.md).
    fmt::print("search      {:.0f} nodes, {:.0f} LP iterations counted against lp_iteration_limit\n", nodes->second,
               report.statistics.at("mip_lp_iterations"));
  }
  const std::vector<std::size_t> selected = report.model.selected_features();
  std::vector<std::string> names;
  for (std::size_t j : selected) names.push_back(data.feature_names()[j]);
  fmt::print("features    {} of {}{}\n", selected.size(), data.d(),
             selected.size() <= 20 ? fmt::format(": {}", fmt::join(names, " ")) : "");
  fmt::print("train acc   {:.4f}\n", report.model.accuracy(data));
  fmt::print("time        {:.3f} s\n", report.seconds);
}


// One flag --<name> for every parameter name of the method registry; a method that does not take a
// given parameter refuses it when it resolves its table.
void add_parameter_flags(CLI::App& command, models::Hyperparameters& given) {
  std::map<std::string, std::vector<std::string>> users;
  std::map<std::string, std::string> description;
  std::map<std::string, bool> whole;  // every method's spec of it is a whole number (iteration counts)
  for (const models::MethodInfo& method : models::method_registry()) {
    for (const models::ParameterSpec& spec : method.parameters) {
      users[spec.name].push_back(method.name);
      whole.try_emplace(spec.name, true);
      whole[spec.name] = whole[spec.name] && spec.integer;
      std::string& text = description[spec.name];
      if (text.find(spec.description) == std::string::npos) text += (text.empty() ? "" : " | ") + spec.description;
    }
  }
  for (const auto& [name, methods] : users) {
    // A choice or switch takes its names (every method's spec of one name takes the same values).
    const models::ParameterSpec& spec = *models::registry_parameter(name);
    const std::string type = spec.is_switch() ? "BOOL" : spec.is_choice() ? "CHOICE" : whole.at(name) ? "INT" : "FLOAT";
    command
        .add_option_function<std::string>(
            "--" + name,
            [&given, &spec](const std::string& text) { given[spec.name] = spec.parse(text, "--" + spec.name); },
            fmt::format("{}{} (methods: {})", description.at(name),
                        spec.is_choice() ? fmt::format(" [{}]", fmt::join(spec.choices, ", ")) : "", fmt::join(methods, ", ")))
        ->type_name(type);
  }
}

}  // namespace

Command add_fit(CLI::App& app) {
  auto options = std::make_shared<FitOptions>();
  CLI::App* command = app.add_subcommand("fit", "Fit one method on one data set and print a summary");
  options->data.add_to(*command);
  command->add_option("-m,--method", options->method, "method name, e.g. OneNormSVM, RLSVM0, FSV (see --help of list)")
      ->required();
  add_parameter_flags(*command, options->given);
  options->selection.add_to(*command);
  command->add_option("--seed", options->seed, "seed of random starting points (FSV); default 0")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--class-weight", options->class_weight_text,
                      "weigh each class's losses: balanced (n / (2 n_class)) or positive=P,negative=N (the +1 and -1 "
                      "classes); default none. Refused for RLP and FSV, whose per-class averages cancel it");
  command->add_option("-t,--transform", options->transforms,
                      "transform fitted on this data before the fit, repeatable: standardize, scale, unit_norm, "
                      "impute_mean")
      ->allow_extra_args(false);
  command->add_option("--out", options->out_csv, "write one result row to this CSV file");
  command->add_flag("--append", options->append,
                    "with --out: add the row under the file's rows (columns joined; a loop of fits builds one table)")
      ->needs("--out");
  command->add_option("--weights", options->weights_csv, "write the coefficients (and the bias) to this CSV file");
  command->add_option("--model-out", options->model_file,
                      "write the fitted model (method, parameters, status, fitted transforms, weights by feature "
                      "name, bias) to this YAML file, for `sparsesvm predict`");
  command->add_flag("-v,--verbose", options->verbose,
                    "print the fit's progress to standard error: the data read, each cross-validation candidate, "
                    "each fit's beginning and end, each objective trace entry (a DCA step, an ADMM trace sweep), each LP "
                    "generation round, each full LP, Clp's status every 1000 simplex iterations of one solve, every 1024 "
                    "first-order iterations and every 1000 nodes of a "
                    "MIP's search; no number printed or written changes");
  command->add_option("--test", options->test_file,
                      "a held-out data file, read with the same format and -o options, its features transformed "
                      "as the training data's were: prints its accuracy and confusion counts (and adds "
                      "test_accuracy to --out)");
  return {command, [options]() {
    for (const std::string* output : {&options->out_csv, &options->weights_csv, &options->model_file}) {
      std::error_code error;
      if (!output->empty() && !options->data.location.empty() &&
          std::filesystem::equivalent(*output, options->data.location, error)) {
        throw core::InputError(fmt::format("{}: is the input data file; --out, --weights and --model-out would overwrite it", *output));
      }
    }
    if (options->verbose) print_progress();
    core::Dataset data = options->data.load();
    core::progress("read {} examples and {} features", data.n(), data.d());
    std::optional<core::Dataset> test;
    if (!options->test_file.empty()) test = load_test_file(*options, data);
    models::Hyperparameters parameters = options->given;
    std::vector<double> lambda_path;  // the grid's, when lambda was selected on it: the final fit is a point of it
    options->class_weight = models::ClassWeight::parse(options->class_weight_text, "--class-weight");
    const models::ClassWeight& class_weight = options->class_weight;
    if (!class_weight.is_none()) {
      const std::string refusal = models::class_weight_refusal(models::find_method(options->method));
      if (!refusal.empty()) throw core::InputError("--class-weight: " + refusal);
    }
    models::resolve_hyperparameters(models::find_method(options->method), options->given);  // refused before any fold
    if (options->selection.requested()) {  // on the data as loaded: each fold fits its own transforms
      const SelectionOutcome outcome = select_by_cv(options->selection, options->method, options->given, class_weight,
                                                    options->transforms, data, options->seed);
      parameters = outcome.chosen;
      lambda_path = outcome.lambda_path;
      options->cv_score = outcome.cv_score;
    }
    std::vector<std::unique_ptr<data::Transform>> transforms;
    for (const std::string& name : options->transforms) transforms.push_back(data::make_transform(name));
    data::fit_and_apply(transforms, data, test ? std::vector<core::Dataset*>{&*test} : std::vector<core::Dataset*>{});

    models::Workspace workspace(data, options->seed);
    workspace.set_example_weights(models::class_example_weights(class_weight, data.labels()));
    const models::FitReport report = models::fit_method(options->method, parameters, workspace, lambda_path);

    print_summary(*options, data, report);
    std::optional<experiment::Confusion> test_scores;
    if (test && report.has_solution()) {
      test_scores = experiment::confusion(report.model, *test);
      fmt::print("test acc    {:.4f} on {} ({})\n", test_scores->accuracy, options->test_file,
                 experiment::confusion_counts(*test_scores));
      const models::Metric metric = models::parse_metric(options->selection.scoring);
      if (metric != models::Metric::accuracy) {
        try {
          options->test_score = models::defined_score(metric, report.model.decision_values(*test), test->labels());
          fmt::print("test score  {:.4f} ({})\n", *options->test_score, options->selection.scoring);
        } catch (const core::InputError& undefined) {
          fmt::print("test score  none: {}\n", undefined.what());
        }
      }
    }
    if (!options->out_csv.empty()) write_result_row(*options, data, report, test_scores);
    if (!options->weights_csv.empty() && report.has_solution()) {
      write_weights(options->weights_csv, data, report.model);
    }
    if (!options->model_file.empty() && report.has_solution()) write_model(*options, data, report, std::move(transforms));
    return report.has_solution() ? 0 : 3;
  }};
}

}  // namespace sparsesvm::app
