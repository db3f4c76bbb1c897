#include "slurm/arithmetic.hpp"

#include <cctype>

namespace s2a::slurm {
namespace {

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

size_t skip_spaces(std::string_view text, size_t at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n')) ++at;
  return at;
}

/// From an opening bracket at `at`, the offset after the one that closes it
/// (or the end of the text).
size_t skip_balanced(std::string_view text, size_t at, char open, char close) {
  int depth = 0;
  for (; at < text.size(); ++at) {
    if (text[at] == open) {
      ++depth;
    } else if (text[at] == close && --depth == 0) {
      return at + 1;
    }
  }
  return at;
}

/// Whether the name that ends at `end` is the target of an assignment:
/// followed (after an optional subscript) by `=`, an `op=` or `++`/`--`.
bool assigned_after(std::string_view text, size_t end) {
  size_t at = end;
  if (at < text.size() && text[at] == '[') at = skip_balanced(text, at, '[', ']');
  at = skip_spaces(text, at);
  const std::string_view rest = text.substr(at);
  if (rest.starts_with("++") || rest.starts_with("--")) return true;
  if (rest.starts_with("<<=") || rest.starts_with(">>=")) return true;
  if (rest.size() >= 2 && rest[1] == '=' &&
      std::string_view("+-*/%&|^").find(rest[0]) != std::string_view::npos) {
    return true;
  }
  return rest.starts_with('=') && !rest.starts_with("==");
}

/// `++i`, `--i`.
bool incremented_before(std::string_view text, size_t begin) {
  size_t at = begin;
  while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t')) --at;
  return at >= 2 && ((text[at - 1] == '+' && text[at - 2] == '+') ||
                     (text[at - 1] == '-' && text[at - 2] == '-'));
}

size_t name_end(std::string_view text, size_t at) {
  while (at < text.size() && is_name_char(text[at])) ++at;
  return at;
}

}  // namespace

std::vector<ArithmeticName> arithmetic_names(std::string_view text) {
  std::vector<ArithmeticName> names;
  size_t at = 0;
  while (at < text.size()) {
    const char c = text[at];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      // 42, 0x1F, 8#17, 64#@_: the digits of any base.
      while (at < text.size() && (is_name_char(text[at]) || text[at] == '#' || text[at] == '@')) {
        ++at;
      }
    } else if (is_name_start(c)) {
      const size_t end = name_end(text, at);
      names.push_back({text.substr(at, end - at), at, false,
                       assigned_after(text, end) || incremented_before(text, at)});
      at = end;
    } else if (c == '$' && at + 1 < text.size()) {
      const char next = text[at + 1];
      if (next == '(') {
        at = skip_balanced(text, at + 1, '(', ')');
      } else if (next == '{') {
        const size_t end = name_end(text, at + 2);
        if (end > at + 2 && end < text.size() && text[end] == '}' && is_name_start(text[at + 2])) {
          names.push_back({text.substr(at + 2, end - at - 2), at + 2, true, false});
        }
        at = skip_balanced(text, at + 1, '{', '}');
      } else if (is_name_start(next)) {
        const size_t end = name_end(text, at + 1);
        names.push_back({text.substr(at + 1, end - at - 1), at + 1, true, false});
        at = end;
      } else {
        at += 2;  // $1, $#, $?
      }
    } else if (c == '`') {
      const size_t close = text.find('`', at + 1);
      at = close == std::string_view::npos ? text.size() : close + 1;
    } else {
      ++at;
    }
  }
  return names;
}

std::optional<std::string_view> subscript_of(std::string_view inner) {
  size_t at = 0;
  if (!inner.empty() && (inner[0] == '#' || inner[0] == '!') && inner.size() > 1 &&
      is_name_start(inner[1])) {
    at = 1;
  }
  if (at >= inner.size() || !is_name_start(inner[at])) return std::nullopt;
  at = name_end(inner, at);
  if (at >= inner.size() || inner[at] != '[') return std::nullopt;
  const size_t close = skip_balanced(inner, at, '[', ']');
  if (close > inner.size() || inner[close - 1] != ']') return std::nullopt;
  return inner.substr(at + 1, close - at - 2);
}

}  // namespace s2a::slurm
