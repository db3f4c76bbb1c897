#include "edit/edits.hpp"

#include <algorithm>

namespace s2a {

std::string apply_edits(std::string_view text, Span window, std::vector<Edit> edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    return a.span.begin != b.span.begin ? a.span.begin < b.span.begin : a.span.end < b.span.end;
  });
  std::string out;
  out.reserve(window.size());
  uint32_t cursor = window.begin;
  for (const Edit& edit : edits) {
    if (edit.span.begin < cursor || edit.span.end > window.end) continue;
    out.append(text.substr(cursor, edit.span.begin - cursor));
    out.append(edit.replacement);
    cursor = edit.span.end;
  }
  out.append(text.substr(cursor, window.end - cursor));
  return out;
}

}  // namespace s2a
