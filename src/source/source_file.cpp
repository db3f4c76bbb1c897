#include "source/source_file.hpp"

#include <algorithm>
#include <cstring>

namespace s2a {

SourceFile::SourceFile(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)) {}

std::string_view SourceFile::slice(Span span) const {
  const auto size = static_cast<uint32_t>(text_.size());
  const uint32_t begin = std::min(span.begin, size);
  const uint32_t end = std::clamp(span.end, begin, size);
  return std::string_view(text_).substr(begin, end - begin);
}

void SourceFile::build_line_starts() const {
  if (!line_starts_.empty()) return;
  line_starts_.push_back(0);
  const char* const begin = text_.data();
  const char* const end = begin + text_.size();
  for (const char* p = begin; (p = static_cast<const char*>(
                                   std::memchr(p, '\n', static_cast<size_t>(end - p)))) != nullptr;) {
    ++p;
    line_starts_.push_back(static_cast<uint32_t>(p - begin));
  }
}

uint32_t SourceFile::line_count() const {
  build_line_starts();
  return static_cast<uint32_t>(line_starts_.size());
}

LineCol SourceFile::line_col(uint32_t offset) const {
  build_line_starts();
  offset = std::min(offset, static_cast<uint32_t>(text_.size()));
  const auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const auto line = static_cast<uint32_t>(it - line_starts_.begin());
  return {line, offset - line_starts_[line - 1] + 1};
}

Span SourceFile::line_span(uint32_t line) const {
  build_line_starts();
  if (line == 0 || line > line_starts_.size()) return {};
  const uint32_t begin = line_starts_[line - 1];
  uint32_t end = line < line_starts_.size() ? line_starts_[line] - 1
                                            : static_cast<uint32_t>(text_.size());
  if (end > begin && text_[end - 1] == '\r') --end;
  return {begin, end};
}

std::string_view SourceFile::line_text(uint32_t line) const { return slice(line_span(line)); }

}  // namespace s2a
