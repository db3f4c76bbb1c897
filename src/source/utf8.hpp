// UTF-8 facts shared by the input checks (S2A1006) and the YAML writer.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace s2a {

/// Length of the well-formed UTF-8 sequence at text[i] (1 for ASCII), or 0
/// when it is not one: Unicode's table 3-7, so no overlong forms, no
/// surrogates, nothing above U+10FFFF, no truncated sequence.
[[nodiscard]] size_t utf8_sequence_length(std::string_view text, size_t i);

/// The first byte at or after `from` that is not ASCII (text.size() if none).
[[nodiscard]] size_t next_non_ascii(std::string_view text, size_t from);

/// `text` with every byte that does not start a well-formed sequence replaced
/// by U+FFFD, as a YAML writer must; unchanged (and not copied) when valid.
[[nodiscard]] std::string with_valid_utf8(std::string text);

}  // namespace s2a
