// Membership in the short keyword lists the mapping rules are written with
// (program names, subcommands, flags): a linear scan beats hashing at these
// sizes and keeps each list next to the rule that reads it.
#pragma once

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string_view>

namespace s2a::air {

inline bool contains(std::initializer_list<std::string_view> list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

template <size_t N>
bool contains(const std::array<std::string_view, N>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace s2a::air
