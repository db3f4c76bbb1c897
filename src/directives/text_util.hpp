// Small byte-level helpers shared by the directive scanner and option engine.
//
// Slurm classifies bytes with the C locale's isspace(); these helpers do the
// same without locale lookups, and give the edit distance used for
// "did you mean" hints and misspelled-directive detection.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace s2a::directives::detail {

/// isspace() in the "C" locale: space, \t, \n, \v, \f, \r.
[[nodiscard]] constexpr bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

[[nodiscard]] constexpr char to_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

[[nodiscard]] inline bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return to_lower(x) == to_lower(y);
         });
}

[[nodiscard]] inline bool istarts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && iequals(text.substr(0, prefix.size()), prefix);
}

/// Optimal-string-alignment distance (Levenshtein plus adjacent swaps), case
/// sensitive, capped at `limit + 1`. Words whose lengths differ by more than
/// `limit` cost nothing, so callers may pass long words.
[[nodiscard]] inline size_t edit_distance(std::string_view a, std::string_view b, size_t limit) {
  const size_t diff = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (diff > limit) return limit + 1;
  std::vector<size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    before.swap(previous);
    previous.swap(current);
  }
  return std::min(previous[b.size()], limit + 1);
}

/// `text` shortened for a message, so a 10 kB word does not flood the report.
[[nodiscard]] inline std::string excerpt(std::string_view text, size_t max = 60) {
  if (text.size() <= max) return std::string(text);
  return std::string(text.substr(0, max)) + "...";
}

}  // namespace s2a::directives::detail
