// ASCII case folding for names that Slurm, shells and the site profile
// compare without case (GPU models, partitions, modules, option names).
// Bytes outside ASCII are left alone, whatever the C locale says.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace s2a {

[[nodiscard]] inline std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

/// Whether `text` holds `lower_word` (lower case) in any mix of cases.
[[nodiscard]] inline bool ascii_contains_ignoring_case(std::string_view text,
                                                       std::string_view lower_word) {
  return std::search(text.begin(), text.end(), lower_word.begin(), lower_word.end(),
                     [](char c, char lower) {
                       return (c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) ==
                              lower;
                     }) != text.end();
}

[[nodiscard]] inline std::string ascii_upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

}  // namespace s2a
