#include "source/utf8.hpp"

#include <cstdint>
#include <cstring>

namespace s2a {

size_t utf8_sequence_length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

// Scripts are almost all ASCII, so sixteen bytes are tested at a time: two
// words or'd together, one test and one branch per sixteen bytes.
size_t next_non_ascii(std::string_view text, size_t from) {
  constexpr uint64_t kHighBits = 0x8080808080808080ULL;
  uint64_t low = 0;
  uint64_t high = 0;
  for (; from + sizeof low + sizeof high <= text.size(); from += sizeof low + sizeof high) {
    std::memcpy(&low, text.data() + from, sizeof low);
    std::memcpy(&high, text.data() + from + sizeof low, sizeof high);
    if (((low | high) & kHighBits) != 0) break;
  }
  while (from < text.size() && static_cast<unsigned char>(text[from]) < 0x80) ++from;
  return from;
}

std::string with_valid_utf8(std::string text) {
  size_t i = next_non_ascii(text, 0);
  while (i < text.size() && utf8_sequence_length(text, i) != 0) {
    i = next_non_ascii(text, i + utf8_sequence_length(text, i));
  }
  if (i == text.size()) return text;
  std::string out(text, 0, i);
  while (i < text.size()) {
    const size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(text, i, length);
      i += length;
    }
  }
  return out;
}

}  // namespace s2a
