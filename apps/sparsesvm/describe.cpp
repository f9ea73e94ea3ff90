// `sparsesvm describe METHOD`: a method's loss, penalty, algorithm, paper section and parameter table.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "models/losses/loss.hpp"
#include "models/methods.hpp"
#include "models/penalties/penalty.hpp"

namespace sparsesvm::app {
namespace {

std::string regularizes_text(models::Regularizes direction) {
  switch (direction) {
    case models::Regularizes::when_larger: return "larger";
    case models::Regularizes::when_smaller: return "smaller";
    case models::Regularizes::neither: return "-";
  }
  return "-";
}

// What a value is written as: a number, a whole number, a choice's name, or true/false.
std::string value_type(const models::ParameterSpec& spec) {
  if (spec.is_switch()) return "switch";
  if (spec.is_choice()) return "choice";
  return spec.integer ? "integer" : "number";
}

void describe(const std::string& name) {
  const models::MethodInfo& method = models::find_method(name);
  const models::LossInfo& loss = models::find_loss(method.loss);
  const models::PenaltyInfo& penalty = models::find_penalty(method.penalty);
  const models::Algorithm& algorithm = models::find_algorithm(method.algorithm);
  fmt::print("method      {}   {}\n", method.name, method.citation);
  fmt::print("loss        {}: {}   {}\n", loss.id, loss.formula, loss.citation);
  fmt::print("penalty     {}: {}   {}\n", penalty.id, penalty.formula, penalty.citation);
  fmt::print("algorithm   {}: {}\n", algorithm.id(), algorithm.description());
  if (!method.start.empty()) fmt::print("start       {}\n", method.start);
  if (method.parameters.empty()) fmt::print("\nparameters  none\n");
  else fmt::print("\n{:<22} {:<7} {:<7} {:>10} {:<32} {:<7} {:<12} {}\n", "parameter", "kind", "type", "default", "range",
             "scale", "regularizes", "description");
  for (const models::ParameterSpec& spec : method.parameters) {
    fmt::print("{:<22} {:<7} {:<7} {:>10} {:<32} {:<7} {:<12} {}\n", spec.name,
               spec.kind == models::ParameterKind::model ? "model" : "solver", value_type(spec), spec.format(spec.default_value),
               spec.range(), spec.scale == models::Scale::log ? "log" : "linear", regularizes_text(spec.regularizes),
               spec.description);
  }
  const std::vector<std::string> statistics = algorithm.statistic_names();
  if (!statistics.empty()) fmt::print("\nstatistics  {}\n", fmt::join(statistics, ", "));
}

}  // namespace

Command add_describe(CLI::App& app) {
  auto method = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand("describe", "Print a method's loss, penalty, algorithm, paper section and parameters");
  command->add_option("method", *method, "method name, e.g. RLSVM0 (sparsesvm list shows them all)")->required();
  return {command, [method]() {
    describe(*method);
    return 0;
  }};
}

}  // namespace sparsesvm::app
