// Byte checks over whole documents (the command, the emitted YAML).
//
// Each loop has no early exit and no branch per byte, so the compiler
// vectorizes it: 16 bytes per step instead of one. The rare failing input
// pays for the full scan, which is fine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace s2a::emit {

/// True when the byte is outside ' '..'~' (as one comparison on the offset).
inline bool outside_printable_ascii(char c) {
  return static_cast<unsigned char>(static_cast<unsigned char>(c) - 0x20) > 0x7E - 0x20;
}

/// Every byte is ASCII (below 0x80).
inline bool is_ascii(std::string_view text) {
  unsigned char all = 0;
  for (char c : text) all |= static_cast<unsigned char>(c);
  return all < 0x80;
}

/// Every byte is printable ASCII (' ' to '~').
inline bool is_printable_ascii(std::string_view text) {
  unsigned char bad = 0;
  for (char c : text) bad |= outside_printable_ascii(c) ? 1 : 0;
  return bad == 0;
}

/// Every byte is printable ASCII, or one of `extra1`, `extra2` ('\n', '\t').
inline bool is_printable_ascii_or(std::string_view text, char extra1, char extra2) {
  unsigned char bad = 0;
  for (char c : text) bad |= (outside_printable_ascii(c) && c != extra1 && c != extra2) ? 1 : 0;
  return bad == 0;
}

/// The length of the UTF-8 character starting at `text[at]` (a lead byte of
/// 0xC2 or more) when YAML readers all read it back as itself inside a literal
/// block, else 0. Refused: invalid or overlong UTF-8 (yaml-cpp substitutes
/// U+FFFD), C1 controls (PyYAML rejects them, and reads U+0085 as a line
/// break), U+2028 and U+2029 (line breaks to YAML 1.1) and U+FEFF (a byte
/// order mark).
size_t literal_safe_utf8_length(std::string_view text, size_t at);

/// Text a literal block carries unchanged: printable ASCII, tab, newline and
/// the UTF-8 characters literal_safe_utf8_length accepts.
bool is_literal_block_text(std::string_view text);

/// Text a plain or single-quoted scalar carries unchanged: printable ASCII and
/// the UTF-8 characters literal_safe_utf8_length accepts (no tab, no newline).
bool is_safe_line_text(std::string_view text);

/// Where the first character YAML does not allow in a document is (a C0
/// control other than tab and newline — a raw CR is a line break YAML
/// readers disagree on —, DEL, a C1 control other than NEL), or npos. PyYAML and other strict
/// readers refuse the document; yaml-cpp reads it.
size_t find_character_yaml_forbids(std::string_view text);

/// Each byte of `text` that may not stand in a comment as itself (controls,
/// line breaks, a C1 control, U+2028/U+2029, a byte order mark, invalid
/// UTF-8) becomes '?', in place: a comment quotes the user's line.
void replace_unsafe_comment_bytes(std::span<char> text);

/// Counted a block at a time in a byte-wide counter: a size_t counter made
/// the vectorized loop widen every byte to 64 bits (35 instructions per 16
/// bytes instead of 4). A block of 240 bytes cannot overflow the counter and
/// is a whole number of vector steps.
inline size_t count_newlines(std::string_view text) {
  constexpr size_t kBlock = 240;
  size_t count = 0;
  const char* p = text.data();
  size_t left = text.size();
  for (; left >= kBlock; p += kBlock, left -= kBlock) {
    uint8_t in_block = 0;
    for (size_t i = 0; i < kBlock; ++i) in_block += p[i] == '\n' ? 1 : 0;
    count += in_block;
  }
  uint8_t in_rest = 0;
  for (size_t i = 0; i < left; ++i) in_rest += p[i] == '\n' ? 1 : 0;
  return count + in_rest;
}

}  // namespace s2a::emit
