#include "core/errors.hpp"

#include <fmt/format.h>

namespace sparsesvm::core {

void throw_at(const std::string& file, std::size_t line, std::size_t column, const std::string& message) {
  if (column == 0) throw InputError(fmt::format("{}:{}: {}", file, line, message));
  throw InputError(fmt::format("{}:{}:{}: {}", file, line, column, message));
}

}  // namespace sparsesvm::core
