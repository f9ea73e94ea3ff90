#pragma once
// Errors that sparsesvm raises for bad input. apps/ catches them, prints the one-line message and
// exits non-zero. A message says where (file:line[:column] or a config key), what was found and what
// was expected, e.g. "datasets/wdbc.csv:118: expected 31 fields, found 30".
#include <cstddef>
#include <stdexcept>
#include <string>

namespace sparsesvm::core {

// Bad data or bad arguments: a malformed file, a NaN, a single-class training part, an unknown name.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

// A bad configuration value; the message names the key path.
class ConfigError : public InputError {
 public:
  explicit ConfigError(const std::string& message) : InputError(message) {}
};

// "file:line: message", or "file:line:column: message" when the column is known (columns are 1-based,
// 0 means unknown).
[[noreturn]] void throw_at(const std::string& file, std::size_t line, std::size_t column,
                           const std::string& message);

}  // namespace sparsesvm::core
