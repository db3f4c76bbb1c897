#include "edit/edits.hpp"

#include <algorithm>

namespace s2a {

namespace {

/// Walks `window` with the edits in position order (one overlapping an edit
/// already taken is skipped): `keep(from, to)` appends the original bytes
/// between edits, `replace(edit)` an edit's text.
template <class Keep, class Replace>
void for_each_piece(Span window, std::vector<Edit>& edits, Keep&& keep, Replace&& replace) {
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    return a.span.begin != b.span.begin ? a.span.begin < b.span.begin : a.span.end < b.span.end;
  });
  uint32_t cursor = window.begin;
  for (const Edit& edit : edits) {
    if (edit.span.begin < cursor || edit.span.end > window.end) continue;
    keep(cursor, edit.span.begin);
    replace(edit);
    cursor = edit.span.end;
  }
  keep(cursor, window.end);
}

/// Appends text[from, to) for a double-quoted context. `next_verbatim`
/// walks `verbatim` forward: the pieces come in position order.
void append_double_quoted(std::string& out, std::string_view text, uint32_t from, uint32_t to,
                          const std::vector<Span>& verbatim, size_t& next_verbatim) {
  for (uint32_t i = from; i < to; ++i) {
    while (next_verbatim < verbatim.size() && verbatim[next_verbatim].end <= i) ++next_verbatim;
    const bool kept = next_verbatim < verbatim.size() && verbatim[next_verbatim].begin <= i;
    const char c = text[i];
    const bool continuation = c == '\\' && i + 1 < to && text[i + 1] == '\n';
    if (!kept && !continuation && (c == '$' || c == '`' || c == '"' || c == '\\')) {
      out.push_back('\\');
    }
    out.push_back(c);
  }
}

}  // namespace

std::string apply_edits(std::string_view text, Span window, std::vector<Edit> edits) {
  std::string out;
  out.reserve(window.size());
  for_each_piece(
      window, edits, [&](uint32_t from, uint32_t to) { out.append(text.substr(from, to - from)); },
      [&](const Edit& edit) { out.append(edit.replacement); });
  return out;
}

std::string apply_edits_double_quoted(std::string_view text, Span window, std::vector<Edit> edits,
                                      const std::vector<Span>& verbatim) {
  static const std::vector<Span> kNoVerbatim;
  std::string out;
  out.reserve(window.size() + window.size() / 8);
  size_t next_verbatim = 0;
  for_each_piece(
      window, edits,
      [&](uint32_t from, uint32_t to) {
        append_double_quoted(out, text, from, to, verbatim, next_verbatim);
      },
      [&](const Edit& edit) {
        size_t none = 0;
        append_double_quoted(out, edit.replacement, 0,
                             static_cast<uint32_t>(edit.replacement.size()), kNoVerbatim, none);
      });
  return out;
}

}  // namespace s2a
