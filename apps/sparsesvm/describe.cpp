// `sparsesvm describe METHOD`: a method's loss, penalty, algorithm, paper section and parameter table.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "core/errors.hpp"
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

// A Markdown table cell: pipes escaped, so a formula's |w| stays inside its cell.
std::string cell(const std::string& text) {
  std::string escaped;
  for (const char c : text) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
  return escaped;
}

// docs/methods-reference.md: every method of the registry with its parts and parameter table, written by
// `sparsesvm describe --all --markdown` (a test compares the committed page with this output).
void describe_all_markdown() {
  fmt::print("# Methods and parameters (generated)\n\nWritten by `sparsesvm describe --all --markdown` from the method "
             "registry; a test fails when this page and the registry differ. [methods.md](methods.md) explains the "
             "methods.\n");
  for (const models::MethodInfo& method : models::method_registry()) {
    const models::Algorithm& algorithm = models::find_algorithm(method.algorithm);
    fmt::print("\n## {}\n\n{}. Loss `{}`, penalty `{}`, algorithm `{}`{}.\n", method.name, method.citation, method.loss,
               method.penalty, algorithm.id(), method.start.empty() ? "" : fmt::format(", started from {}", method.start));
    if (method.parameters.empty()) continue;
    fmt::print("\n| parameter | kind | type | default | range | description |\n|---|---|---|---|---|---|\n");
    for (const models::ParameterSpec& spec : method.parameters) {
      fmt::print("| `{}` | {} | {} | {} | {} | {} |\n", spec.name,
                 spec.kind == models::ParameterKind::model ? "model" : "solver", value_type(spec),
                 cell(spec.format(spec.default_value)), cell(spec.range()), cell(spec.description));
    }
  }
}

}  // namespace

Command add_describe(CLI::App& app) {
  auto method = std::make_shared<std::string>();
  auto all = std::make_shared<bool>(false);
  auto markdown = std::make_shared<bool>(false);
  CLI::App* command = app.add_subcommand("describe", "Print a method's loss, penalty, algorithm, paper section and parameters");
  command->add_option("method", *method, "method name, e.g. RLSVM0 (sparsesvm list shows them all)");
  command->add_flag("--all", *all, "every method of the registry");
  command->add_flag("--markdown", *markdown, "with --all: the Markdown page docs/methods-reference.md");
  return {command, [method, all, markdown]() {
    if (*all == !method->empty()) throw core::InputError("describe takes a method name or --all");
    if (*markdown && !*all) throw core::InputError("--markdown goes with --all");
    if (*markdown) {
      describe_all_markdown();
      return 0;
    }
    if (!*all) {
      describe(*method);
      return 0;
    }
    for (const models::MethodInfo& info : models::method_registry()) {
      describe(info.name);
      fmt::print("\n");
    }
    return 0;
  }};
}

}  // namespace sparsesvm::app
