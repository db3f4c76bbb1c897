// Span-based edits of the user's own text, like compiler fix-its.
//
// The command in train.yaml is the script body with edits applied, so the
// formatting and comments the user wrote survive, and every change can be
// explained by the diagnostic that caused it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "source/source_file.hpp"

namespace s2a {

struct Edit {
  Span span;                // bytes to replace (empty span = insertion)
  std::string replacement;  // new text
};

/// Applies edits to the bytes [window.begin, window.end) of `text`. Edits
/// outside the window are ignored; an edit overlapping one already applied
/// (after sorting by position) is dropped, so the result is always defined.
/// Returns the edited window.
[[nodiscard]] std::string apply_edits(std::string_view text, Span window,
                                      std::vector<Edit> edits);

}  // namespace s2a
