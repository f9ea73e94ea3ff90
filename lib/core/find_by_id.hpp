#pragma once
// The lookup every registry (losses, penalties, algorithms, methods, generators) does: the row whose id
// is `id`, or an InputError "unknown <kind> '<id>' (did you mean 'b'? known: a, b, c)" (the suggestion only
// when a known id is close: core/closest_name.hpp). Never a fallback.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <string>
#include <vector>

#include "core/closest_name.hpp"
#include "core/errors.hpp"

namespace sparsesvm::core {

template <typename Rows, typename IdOf>
const auto& find_by_id(const Rows& rows, const std::string& id, const char* kind, IdOf id_of) {
  std::vector<std::string> known;
  for (const auto& row : rows) {
    if (id_of(row) == id) return row;
    known.push_back(id_of(row));
  }
  throw InputError(fmt::format("unknown {} '{}' ({}known: {})", kind, id, did_you_mean(id, known), fmt::join(known, ", ")));
}

}  // namespace sparsesvm::core
