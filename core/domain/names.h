// One table per domain enum gives both its text form and its parser, so the
// two can never disagree.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <utility>

namespace arbiter {

template <typename Enum, size_t N>
using NameTable = std::array<std::pair<Enum, const char*>, N>;

template <typename Enum, size_t N>
const char* NameOf(const NameTable<Enum, N>& table, Enum value) {
  for (const auto& [v, name] : table)
    if (v == value) return name;
  return "?";  // unreachable: every table lists every value (domain_test)
}

template <typename Enum, size_t N>
std::optional<Enum> ValueOf(const NameTable<Enum, N>& table, std::string_view name) {
  for (const auto& [v, n] : table)
    if (name == n) return v;
  return std::nullopt;
}

}  // namespace arbiter
