// The bytes of one script and the positions into them.
//
// Every stage speaks in byte offsets (Span); line and column exist only when a
// diagnostic is rendered, so the line-start table is built lazily.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace s2a {

/// Half-open byte range [begin, end) into a SourceFile's text.
struct Span {
  uint32_t begin = 0;
  uint32_t end = 0;

  [[nodiscard]] uint32_t size() const { return end - begin; }
  [[nodiscard]] bool empty() const { return begin == end; }
  friend bool operator==(const Span&, const Span&) = default;
};

/// `at` lies inside one of `spans`, which are disjoint and sorted by start:
/// a binary search, so asking it of every command of a script stays linear.
[[nodiscard]] inline bool covered(std::span<const Span> spans, Span at) {
  const auto after =
      std::upper_bound(spans.begin(), spans.end(), at.begin,
                       [](uint32_t offset, Span span) { return offset < span.begin; });
  return after != spans.begin() && at.end <= std::prev(after)->end;
}

/// 1-based line, 1-based column counted in bytes.
struct LineCol {
  uint32_t line = 1;
  uint32_t col = 1;
};

class SourceFile {
 public:
  SourceFile(std::string name, std::string text);

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] std::string_view text() const { return text_; }
  [[nodiscard]] std::string_view slice(Span span) const;

  /// Position of a byte offset; offsets past the end clamp to the end.
  [[nodiscard]] LineCol line_col(uint32_t offset) const;
  /// The text of a 1-based line without its line terminator.
  [[nodiscard]] std::string_view line_text(uint32_t line) const;
  [[nodiscard]] uint32_t line_count() const;
  /// Span of the whole 1-based line, without its terminator.
  [[nodiscard]] Span line_span(uint32_t line) const;

 private:
  void build_line_starts() const;

  std::string name_;
  std::string text_;
  mutable std::vector<uint32_t> line_starts_;
};

}  // namespace s2a
