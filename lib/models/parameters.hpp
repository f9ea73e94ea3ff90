#pragma once
// Parameter specs: the one place a hyperparameter or an algorithm option is named. A method's table
// (methods.hpp) is the union of the objective weight lambda, its loss's, its penalty's and its
// algorithm's tables, with the method's own defaults. YAML validation, the `fit` flags, the result
// columns, `sparsesvm describe` and the tie-breaking of model selection all read these tables.
#include <map>
#include <string>
#include <vector>

namespace sparsesvm::models {

using Hyperparameters = std::map<std::string, double>;

enum class Scale { linear, log };

// Which way a parameter makes the model simpler; model selection breaks ties with it.
enum class Regularizes {
  when_larger,   // lambda: a larger value regularizes more
  when_smaller,  // C: a smaller value regularizes more
  neither        // shape parameters (mu, a) and algorithm options
};

// Whether a parameter belongs to the objective (a result column of its own) or to the algorithm.
enum class ParameterKind { model, solver };

struct ParameterSpec {
  std::string name;
  std::string description;  // one line
  double default_value = 0.0;
  double lower = 0.0;
  double upper = 0.0;
  bool lower_open = true;   // lower bound excluded: (lower, ...
  bool upper_open = false;  // upper bound excluded: ..., upper)
  Scale scale = Scale::linear;
  Regularizes regularizes = Regularizes::neither;
  ParameterKind kind = ParameterKind::model;
  bool integer = false;     // a whole number (iteration counts)
  // A choice: the names of the values 0, 1, ... (stored as those numbers, so task ids do not depend on how
  // a value was written). YAML, the command line and sweeps take a name or its number; rows, `describe`
  // and --help print names. kSwitch makes a true/false switch.
  std::vector<std::string> choices = {};

  // "(0, 1]", "[1, 1e+06]"; for a choice its names ("by_size | full | generation").
  std::string range() const;
  // Empty when `value` is admissible, else the reason ("must lie in (0, 1], found 2").
  std::string check(double value) const;
  bool is_choice() const { return !choices.empty(); }
  bool is_switch() const;
  // The value as written in rows and messages: a choice's name, else the number.
  std::string format(double value) const;
  // A value as the user wrote it: a choice's name (a switch also takes true/false, yes/no, on/off) or a
  // number. InputError "<where>: lp_form must be one of by_size, full, generation, crossover (or 0-3), found '2.5'" (no
  // prefix when `where` is empty).
  double parse(const std::string& text, const std::string& where) const;
};

// The names of a switch's values 0 and 1.
inline const std::vector<std::string> kSwitch = {"false", "true"};

using ParameterTable = std::vector<ParameterSpec>;

// The spec named `name`, or nullptr.
const ParameterSpec* find_parameter(const ParameterTable& table, const std::string& name);

// The table's defaults overridden by `given`. InputError "<owner>: unknown parameter 'x' (known: ...)" or
// "<owner>: lambda must lie in (0, 1), found 1.5" for a name or value the table does not admit.
Hyperparameters resolve_parameters(const ParameterTable& table, const Hyperparameters& given,
                                   const std::string& owner);

// The spec of `name` in the first method of the registry that has it (every method's spec of one name
// takes the same values), or nullptr: for reading sweep, grid and command-line values before a method
// is known.
const ParameterSpec* registry_parameter(const std::string& name);

// "lambda=0.5,mu=1": sorted by name, numbers in shortest round-trip form; a stable key for caches.
std::string parameter_key(const Hyperparameters& values);
// "lambda=0.5, lp_form=by_size": sorted by name, each value as ParameterSpec::format writes it (a name no
// method has, as from a model file of another version, as its number); for people.
std::string parameter_text(const Hyperparameters& values);

}  // namespace sparsesvm::models
