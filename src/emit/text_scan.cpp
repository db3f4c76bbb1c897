#include "emit/text_scan.hpp"

namespace s2a::emit {
namespace {

bool is_continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

/// The code point of the well-formed UTF-8 sequence at `at`, or -1.
/// Well-formed as in Unicode's table 3-7: no overlongs, no surrogates,
/// nothing above U+10FFFF.
long decode_utf8(std::string_view text, size_t at, size_t& length) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[at + k]); };
  const unsigned char lead = byte(0);
  unsigned char low = 0x80;
  unsigned char high = 0xBF;  // allowed range of the second byte
  long code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0F;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return -1;
  }
  if (at + length > text.size() || byte(1) < low || byte(1) > high) return -1;
  for (size_t k = 1; k < length; ++k) {
    if (!is_continuation(byte(k))) return -1;
    code = (code << 6) | (byte(k) & 0x3F);
  }
  return code;
}

}  // namespace

size_t literal_safe_utf8_length(std::string_view text, size_t at) {
  size_t length = 0;
  const long code = decode_utf8(text, at, length);
  if (code < 0) return 0;
  const bool c1_control = code >= 0x80 && code <= 0x9F;
  const bool yaml_break = code == 0x2028 || code == 0x2029;
  return c1_control || yaml_break || code == 0xFEFF ? 0 : length;
}

bool is_literal_block_text(std::string_view text) {
  if (is_printable_ascii_or(text, '\n', '\t')) return true;  // the common case, vectorized
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (!outside_printable_ascii(c) || c == '\n' || c == '\t') {
      ++i;
      continue;
    }
    const size_t length = literal_safe_utf8_length(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

}  // namespace s2a::emit
