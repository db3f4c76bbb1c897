// Span-based edits of the user's own text, like compiler fix-its.
//
// The command in train.yaml is the script body with edits applied, so the
// formatting and comments the user wrote survive, and every change can be
// explained by the diagnostic that caused it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
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
[[nodiscard]] std::string apply_edits(std::string_view text, Span window, std::vector<Edit> edits);

/// apply_edits() for a script that goes back inside double quotes (`bash -c
/// "SCRIPT"`): the quotes must hand the inner shell the edited bytes, so `$`,
/// `` ` ``, `"` and `\` are escaped, except in `verbatim` spans of `text`
/// (sorted: the expansions left for the outer shell, as the user wrote them)
/// and in a backslash-newline, which continues the line either way.
[[nodiscard]] std::string apply_edits_double_quoted(std::string_view text, Span window,
                                                    std::vector<Edit> edits,
                                                    const std::vector<Span>& verbatim);

/// The edits of one text as they will take effect, each with the caller's
/// note (why it was made): a new edit inside an earlier one is dropped, and a
/// new edit covering earlier ones supersedes them, so no note describes an
/// edit that apply_edits() would skip. Insertions (empty spans) are always
/// kept. Replacements then never contain one another, so sorted by start
/// they are sorted by end too, and both checks are logarithmic: a script
/// with thousands of rewritten commands stays linear.
template <class Note>
class EditSet {
 public:
  /// Records the edit; false when an earlier edit already covers its span.
  bool add(Span span, std::string replacement, Note note) {
    Entry entry{{span, std::move(replacement)}, std::move(note), next_order_++};
    if (span.empty()) {
      insertions_.push_back(std::move(entry));
      return true;
    }
    if (auto after = replacements_.upper_bound(span.begin); after != replacements_.begin()) {
      const Span earlier = std::prev(after)->second.edit.span;  // the widest that may cover it
      if (earlier.end >= span.end && !(earlier == span)) return false;
    }
    auto inside = replacements_.lower_bound(span.begin);
    while (inside != replacements_.end() && inside->second.edit.span.end <= span.end) {
      inside = replacements_.erase(inside);
    }
    replacements_.emplace(span.begin, std::move(entry));
    return true;
  }

  /// The edits, in the order they were added (apply_edits breaks ties by it).
  [[nodiscard]] std::vector<Edit> edits() const {
    std::vector<Edit> out;
    for (const Entry* entry : in_order(*this)) out.push_back(entry->edit);
    return out;
  }

  /// The notes of the edits, in the order they were added, moved out of the
  /// set rather than copied: the last use of a finished set. Each note is
  /// first handed its edit, moved out too, by `finish(note, edit)`, so a note
  /// that shows the replacement takes the set's text instead of holding a
  /// copy of its own from the start.
  template <class Finish>
  [[nodiscard]] std::vector<Note> take_notes(Finish finish) && {
    std::vector<Note> out;
    out.reserve(replacements_.size() + insertions_.size());
    for (Entry* entry : in_order(*this)) {
      finish(entry->note, std::move(entry->edit));
      out.push_back(std::move(entry->note));
    }
    return out;
  }

 private:
  struct Entry {
    Edit edit;
    Note note;
    uint64_t order;
  };

  /// Pointers to the entries of `set` by order: const ones for a const set.
  template <class Set>
  static auto in_order(Set& set) {
    std::vector<decltype(&set.insertions_.front())> out;
    out.reserve(set.replacements_.size() + set.insertions_.size());
    for (auto& [begin, entry] : set.replacements_) out.push_back(&entry);
    for (auto& entry : set.insertions_) out.push_back(&entry);
    std::sort(out.begin(), out.end(),
              [](const Entry* a, const Entry* b) { return a->order < b->order; });
    return out;
  }

  std::map<uint32_t, Entry> replacements_;  // non-empty spans, by start
  std::vector<Entry> insertions_;           // empty spans
  uint64_t next_order_ = 0;
};

}  // namespace s2a
