// Private X3 plumbing shared by the option-value grammars (grammar/values_*.cpp).
//
// The one place that spells the X3 namespace, the iterator type, the ASCII
// character classes, the whole-input parse helper, checked arithmetic and the
// quoting used in error messages. Not part of the public interface.
#pragma once

#include <algorithm>
#include <boost/fusion/include/adapt_struct.hpp>
#include <boost/optional.hpp>
#include <boost/spirit/home/x3.hpp>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "grammar/values.hpp"

namespace s2a::values::detail {

namespace x3 = boost::spirit::x3;
using Iterator = const char*;

// Slurm reads most numbers with strtol()/sscanf("%d") into an int.
inline constexpr uint64_t kIntMax = std::numeric_limits<int32_t>::max();

// Character classes are explicit ASCII sets rather than x3::digit/x3::alpha:
// those call <cctype>, which is undefined for negative chars, and every value
// here is untrusted bytes.
inline auto const digit = x3::char_('0', '9');
inline auto const word_char = x3::char_("a-zA-Z0-9_");

// number := digit+   (kept as text; converted with an overflow check afterwards
// so that "99999999999999999999" gets its own message instead of a parse error)
inline auto const digits = x3::rule<struct digits_r, std::string>{"number"} = +digit;

// N | N-M | N-M:S, the building block of node-size lists and job arrays.
struct NumberRange {
  std::string lo;
  boost::optional<std::string> hi;
  boost::optional<std::string> step;
};

// Where a whole-input parse stopped: `matched` only when every byte was used.
struct Outcome {
  bool matched = false;
  size_t stop = 0;  // offset of the first byte not consumed
};

// Runs `parser` over all of `text`. A failed expect[] becomes a plain
// mismatch so that no X3 exception ever leaves a public function.
template <class Parser, class Attr>
Outcome parse_whole(std::string_view text, const Parser& parser, Attr& attr) {
  const Iterator begin = text.data();
  Iterator first = begin;
  const Iterator last = begin + text.size();
  try {
    const bool ok = x3::parse(first, last, parser, attr);
    return {ok && first == last, static_cast<size_t>(first - begin)};
  } catch (const x3::expectation_failure<Iterator>& failure) {
    return {false, static_cast<size_t>(failure.where() - begin)};
  }
}

// "text" for messages: printable ASCII kept, the rest escaped, long input cut.
inline std::string quoted(std::string_view text) {
  constexpr size_t kMaxShown = 80;
  std::string out = "\"";
  for (size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
  }
  if (text.size() > kMaxShown) out += "...";
  out += '"';
  return out;
}

// A piece of the input inside a message: escaped like quoted(), cut at 40 bytes.
inline std::string clip(std::string_view text) {
  constexpr size_t kMaxShown = 40;
  std::string shown = quoted(text.substr(0, kMaxShown));
  shown = shown.substr(1, shown.size() - 2);
  if (text.size() > kMaxShown) shown += "...";
  return shown;
}

// The character at `offset` quoted for "unexpected ..." messages.
inline std::string quoted_char_at(std::string_view text, size_t offset) {
  if (offset >= text.size()) return "end of value";
  return quoted(text.substr(offset, 1));
}

inline char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}
inline char ascii_upper(char c) {
  return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
}

inline std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

inline std::string to_upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_upper(c);
  return out;
}

inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

inline bool is_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Decimal digits to uint64_t; nullopt when empty, not digits, or too large.
inline std::optional<uint64_t> to_u64(std::string_view text) {
  if (!is_digits(text)) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (__builtin_mul_overflow(value, uint64_t{10}, &value) ||
        __builtin_add_overflow(value, static_cast<uint64_t>(c - '0'), &value)) {
      return std::nullopt;
    }
  }
  return value;
}

inline std::optional<uint64_t> checked_mul(uint64_t a, uint64_t b) {
  uint64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

inline std::optional<uint64_t> checked_add(uint64_t a, uint64_t b) {
  uint64_t out = 0;
  if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
  return out;
}

template <class T>
Parsed<T> success(T value) {
  Parsed<T> out;
  out.value = std::move(value);
  return out;
}

template <class T>
Parsed<T> failure(std::string message) {
  Parsed<T> out;
  out.error = std::move(message);
  return out;
}

// The public functions promise never to throw: anything unexpected (in
// practice only std::bad_alloc) becomes an error result.
template <class T, class Body>
Parsed<T> guarded(std::string_view what, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::exception& error) {
    return failure<T>("internal error while reading " + std::string(what) + ": " + error.what());
  } catch (...) {
    return failure<T>("internal error while reading " + std::string(what));
  }
}

}  // namespace s2a::values::detail

BOOST_FUSION_ADAPT_STRUCT(s2a::values::detail::NumberRange, lo, hi, step)
