// ASCII case folding for names that Slurm, shells and the site profile
// compare without case (GPU models, partitions, modules, option names).
// Bytes outside ASCII are left alone, whatever the C locale says.
#pragma once

#include <algorithm>
#include <optional>
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

/// Whether `text` holds `lower_word` (lower case) in any mix of cases. The
/// places to compare are found with memchr, once for each case of the first
/// letter: some texts are whole scripts.
[[nodiscard]] inline bool ascii_contains_ignoring_case(std::string_view text,
                                                       std::string_view lower_word) {
  if (lower_word.empty()) return true;
  // std::equal passes the word's byte first.
  const auto same = [](char lower, char c) {
    return (c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) == lower;
  };
  const char first = lower_word[0];
  const char upper_first =
      first >= 'a' && first <= 'z' ? static_cast<char>(first - 'a' + 'A') : first;
  for (const char initial : {first, upper_first}) {
    for (size_t at = text.find(initial);
         at != std::string_view::npos && lower_word.size() <= text.size() - at;
         at = text.find(initial, at + 1)) {
      if (std::equal(lower_word.begin(), lower_word.end(), text.begin() + at, same)) return true;
    }
    if (upper_first == first) break;
  }
  return false;
}

/// Where `word` first occurs in `text` at or after `from` (npos if nowhere),
/// found by looking with memchr for its byte at `rare` and comparing the rest
/// around it. With the word's rarest letter (the U of SLURM, among mostly
/// lower-case shell text) there are far fewer places to compare than
/// std::string_view::find's, which stops at every occurrence of the first byte.
[[nodiscard]] inline size_t find_around(std::string_view text, std::string_view word, size_t rare,
                                        size_t from = 0) {
  if (word.empty()) return from <= text.size() ? from : std::string_view::npos;
  if (from > text.size() || word.size() > text.size() - from) return std::string_view::npos;
  rare = std::min(rare, word.size() - 1);   // a shorter word is looked for from its last byte
  const size_t after = word.size() - rare;  // the rare byte and those after it
  for (size_t at = text.find(word[rare], from + rare); at != std::string_view::npos;
       at = text.find(word[rare], at + 1)) {
    if (text.size() - at < after) break;
    if (text.substr(at - rare, word.size()) == word) return at - rare;
  }
  return std::string_view::npos;
}

/// Whether `text` holds `word`, looked for from its byte at `rare`.
[[nodiscard]] inline bool contains_around(std::string_view text, std::string_view word,
                                          size_t rare) {
  return find_around(text, word, rare) != std::string_view::npos;
}

[[nodiscard]] inline std::string ascii_upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

/// A character of a shell NAME: [A-Za-z0-9_]. Inline: scanners call it per
/// byte, so ASCII ranges rather than a call to isalnum (the same set: the
/// program never leaves the C locale).
inline bool is_variable_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// A shell NAME: [A-Za-z_][A-Za-z0-9_]*.
inline bool is_variable_name(std::string_view name) {
  return !name.empty() && !(name.front() >= '0' && name.front() <= '9') &&
         std::all_of(name.begin(), name.end(), is_variable_name_char);
}

/// Where the `$` or `${` before the name at text[at] begins, if there is one.
[[nodiscard]] inline std::optional<size_t> expansion_at(std::string_view text, size_t at) {
  if (at >= 2 && text[at - 1] == '{' && text[at - 2] == '$') return at - 2;
  if (at >= 1 && text[at - 1] == '$') return at - 1;
  return std::nullopt;
}

/// `$NAME` or `${NAME...}` anywhere in `text`, NAME whole (not `$NAMES`).
[[nodiscard]] inline bool reads_variable(std::string_view text, std::string_view name) {
  // Looked for from the name's third byte: TMPDIR's P is half as common as its T.
  for (size_t at = find_around(text, name, 2); at != std::string_view::npos;
       at = find_around(text, name, 2, at + 1)) {
    const size_t end = at + name.size();
    const bool whole = end == text.size() || !is_variable_name_char(text[end]);
    if (expansion_at(text, at) && whole) return true;
  }
  return false;
}

}  // namespace s2a
