#pragma once
// Enums that configs and flags name: a table of (value, name) pairs per enum, the name of a value, and the
// value of a name (an InputError "unknown <kind> 'x' (did you mean 'y'? known: ...)" otherwise, as
// find_by_id). Used by the protocol kinds, selection rules and tie rules.
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "core/find_by_id.hpp"

namespace sparsesvm::core {

template <typename Enum, std::size_t N>
using EnumNames = std::pair<Enum, std::string_view>[N];

template <typename Enum, std::size_t N>
std::string_view enum_name(const EnumNames<Enum, N>& names, Enum value) {
  for (const auto& [candidate, name] : names) {
    if (candidate == value) return name;
  }
  throw std::logic_error("an enum value without a name");
}

template <typename Enum, std::size_t N>
Enum enum_value(const EnumNames<Enum, N>& names, const std::string& name, const char* kind) {
  return find_by_id(names, name, kind, [](const auto& row) { return std::string(row.second); }).first;
}

}  // namespace sparsesvm::core
