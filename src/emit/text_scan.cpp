#include "emit/text_scan.hpp"

#include <algorithm>

#include "source/utf8.hpp"

namespace s2a::emit {

size_t literal_safe_utf8_length(std::string_view text, size_t at) {
  const size_t length = utf8_sequence_length(text, at);
  if (length < 2) return 0;
  const std::string_view c = text.substr(at, length);
  const bool c1_control = c[0] == '\xC2' && static_cast<unsigned char>(c[1]) <= 0x9F;
  const bool yaml_break = c == "\xE2\x80\xA8" || c == "\xE2\x80\xA9";  // U+2028, U+2029
  const bool byte_order_mark = c == "\xEF\xBB\xBF";
  return c1_control || yaml_break || byte_order_mark ? 0 : length;
}

namespace {

/// The slow path of the checks below: byte by byte, decoding UTF-8.
bool is_safe_utf8_text(std::string_view text, bool tab_and_newline) {
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (!outside_printable_ascii(c) || (tab_and_newline && (c == '\n' || c == '\t'))) {
      ++i;
      continue;
    }
    const size_t length = literal_safe_utf8_length(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

}  // namespace

bool is_literal_block_text(std::string_view text) {
  if (is_printable_ascii_or(text, '\n', '\t')) return true;  // the common case, vectorized
  return is_safe_utf8_text(text, true);
}

bool is_safe_line_text(std::string_view text) {
  if (is_printable_ascii(text)) return true;  // the common case, vectorized
  return is_safe_utf8_text(text, false);
}

size_t find_character_yaml_forbids(std::string_view text) {
  if (is_printable_ascii_or(text, '\n', '\t')) return std::string_view::npos;  // the common case
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    // A raw CR is a line break to YAML; nothing slurm2air writes holds one.
    if (byte == 0x7F || (byte < 0x20 && byte != '\t' && byte != '\n')) return i;
    const bool c1 = byte == 0xC2 && i + 1 < text.size() &&
                    static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) <= 0x9F && text[i + 1] != '\x85';
    if (c1) return i;
  }
  return std::string_view::npos;
}

void replace_unsafe_comment_bytes(std::span<char> text) {
  const std::string_view view(text.data(), text.size());
  if (is_printable_ascii_or(view, '\t', '\t')) return;  // the common case
  for (size_t i = 0; i < text.size();) {
    if (!outside_printable_ascii(text[i]) || text[i] == '\t') {
      ++i;
      continue;
    }
    const size_t length =
        static_cast<unsigned char>(text[i]) < 0x80 ? 0 : literal_safe_utf8_length(view, i);
    if (length > 0) {
      i += length;
      continue;
    }
    // A bad sequence is replaced byte by byte, so offsets into the text stay.
    const size_t bad = std::max<size_t>(utf8_sequence_length(view, i), 1);
    for (size_t k = i; k < i + bad && k < text.size(); ++k) text[k] = '?';
    i += bad;
  }
}

}  // namespace s2a::emit
