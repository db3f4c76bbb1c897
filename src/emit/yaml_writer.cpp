// YamlWriter: yaml-cpp 0.7's block layout rules, written out directly.
//
// The rules mirrored here (and checked against yaml-cpp by
// tests/emit/yaml_writer_test.cpp): a map key goes on a new line at the
// group's indent; ": " before a scalar value, a newline before a nested
// group; nested groups indent by 2; "- " before sequence items; comments are
// "  # text" and force a newline before the next node; literal blocks are
// "|" with every non-empty line indented to the value's indent.
#include "emit/yaml_writer.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "emit/text_scan.hpp"

namespace s2a::emit {
namespace {

constexpr uint32_t kIndent = 2;        // yaml-cpp's default group indent
constexpr size_t kMaxSimpleKey = 100;  // far below yaml-cpp's long-key switch (1024)
// The command's literal block is near the end of the document: what follows
// it (two keys and their comments) should not regrow the whole buffer.
constexpr size_t kRoomAfterCommand = 256;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool is_null_spelling(std::string_view text) {
  return text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL";
}

// A table: the first byte of every scalar written is looked up.
constexpr std::array<bool, 256> kIndicators = [] {
  std::array<bool, 256> table{};
  for (char c : std::string_view(",[]{}#&*!|>'\"%@`")) table[static_cast<unsigned char>(c)] = true;
  return table;
}();

bool is_indicator(char c) { return kIndicators[static_cast<unsigned char>(c)]; }

/// plain_scalar_allowed() for text already known to be safe line text.
bool plain_shape_allowed(std::string_view value) {
  if (is_null_spelling(value)) return false;
  const char first = value.front();
  if (is_blank(first) || is_indicator(first)) return false;
  if ((first == '-' || first == '?' || first == ':') && (value.size() == 1 || is_blank(value[1]))) {
    return false;
  }
  if (value.back() == ' ') return false;
  // Only ": " and " #" end a plain scalar early, and most values (paths,
  // names) hold neither byte: two memchr calls instead of a loop per byte.
  const auto holds = [value](char c) { return value.find(c) != std::string_view::npos; };
  if (!holds(':') && !holds('#')) return true;
  for (size_t i = 0; i < value.size(); ++i) {
    const bool last = i + 1 == value.size();
    if (value[i] == ':' && (last || is_blank(value[i + 1]))) return false;  // "key: value"
    if (is_blank(value[i]) && !last && value[i + 1] == '#') return false;   // a comment
  }
  return true;
}

}  // namespace

bool plain_scalar_allowed(std::string_view value) {
  return is_safe_line_text(value) && plain_shape_allowed(value);
}

void YamlWriter::newline_and_indent(uint32_t indent) {
  out_ += '\n';
  out_.append(indent, ' ');
}

void YamlWriter::group_manipulator(YAML::EMITTER_MANIP manip) {
  switch (manip) {
    case YAML::BeginMap:
    case YAML::BeginSeq: {
      const bool nested = !groups_.empty();
      if (nested) {
        // Only as a map value (the only nesting slurm2air writes): "key:\n".
        if (!groups_.back().is_map || !expect_value_) {
          unsupported();
          break;
        }
        out_ += ":";
        expect_value_ = false;
      }
      const uint32_t indent = nested ? groups_.back().indent + kIndent : 0;
      groups_.push_back({manip == YAML::BeginMap, indent, 0});
      break;
    }
    case YAML::EndMap:
    case YAML::EndSeq:
      if (groups_.empty() || groups_.back().is_map != (manip == YAML::EndMap) || expect_key_ ||
          expect_value_) {
        unsupported();
        break;
      }
      groups_.pop_back();
      if (!groups_.empty()) ++groups_.back().children;  // the group was a map value
      break;
    default:
      unsupported();
      break;  // flow style, anchors, other charsets...
  }
}

YamlWriter& YamlWriter::operator<<(const YAML::_Comment& comment) {
  // yaml-cpp writes a comment's characters as they are (a tab, UTF-8);
  // multi-line and leading comments are left to it.
  if (!is_literal_block_text(comment.content) || comment.content.find('\n') != std::string::npos ||
      out_.empty() || out_.back() == '\n') {
    unsupported();
    return *this;
  }
  out_ += "  # ";
  out_ += comment.content;
  return *this;
}

template <class Integer>
YamlWriter& YamlWriter::write_integer(Integer value) {
  char digits[24];
  auto [end, error] = std::to_chars(digits, digits + sizeof digits, value);
  format_ = Format::automatic;
  prepare_node();
  out_.append(digits, end);
  return *this;
}

YamlWriter& YamlWriter::operator<<(uint64_t value) { return write_integer(value); }
YamlWriter& YamlWriter::operator<<(int64_t value) { return write_integer(value); }

// Before a scalar: a key starts a new line at the map's indent; a value
// follows "key: "; a sequence item is "- " at the sequence's indent.
void YamlWriter::prepare_node() {
  if (groups_.empty()) {
    unsupported();  // a bare scalar document
    return;
  }
  Group& group = groups_.back();
  if (group.is_map) {
    if (expect_key_) {
      if (!out_.empty()) {
        newline_and_indent(group.indent);
      } else {
        out_.append(group.indent, ' ');
      }
      expect_key_ = false;
    } else if (expect_value_) {
      out_ += ": ";
      expect_value_ = false;
      ++group.children;
    } else {
      unsupported();  // a scalar without Key/Value
    }
  } else {
    if (!out_.empty()) {
      newline_and_indent(group.indent);
    } else {
      out_.append(group.indent, ' ');
    }
    out_ += "- ";
    ++group.children;
  }
}

YamlWriter& YamlWriter::scalar(std::string_view value) {
  const Format format = format_;
  format_ = Format::automatic;
  if (expect_key_ && (value.size() > kMaxSimpleKey || format == Format::literal)) {
    unsupported();
    return *this;
  }
  if (format == Format::literal) {
    if (groups_.empty() || !groups_.back().is_map || !expect_value_) {
      unsupported();
      return *this;
    }
    const uint32_t indent = groups_.back().indent + kIndent;
    prepare_node();
    out_.pop_back();  // "key: " -> "key:" + " |"
    out_ += " |";
    write_literal_at(value, indent);
    return *this;
  }
  prepare_node();
  write_scalar(value, format);
  return *this;
}

void YamlWriter::write_scalar(std::string_view value, Format format) {
  // Plain and single-quoted scalars carry safe UTF-8 as it is, like yaml-cpp;
  // double quotes escape some of it (U+00A0): yaml-cpp's business.
  const bool ascii = is_printable_ascii(value);
  if (!ascii && !is_safe_line_text(value)) {
    unsupported();
    return;
  }
  const bool plain = format == Format::automatic && plain_shape_allowed(value);
  if (!ascii && !plain && format != Format::single_quoted) {
    unsupported();
    return;
  }
  if (plain) {
    out_ += value;
  } else if (format == Format::single_quoted) {
    out_ += '\'';
    for (char c : value) {
      if (c == '\'') out_ += '\'';
      out_ += c;
    }
    out_ += '\'';
  } else {  // double-quoted (also what yaml-cpp falls back to for Auto)
    out_ += '"';
    for (char c : value) {
      if (c == '"' || c == '\\') out_ += '\\';
      out_ += c;
    }
    out_ += '"';
  }
}

void YamlWriter::write_literal_at(std::string_view value, uint32_t indent) {
  if (!is_literal_block_text(value)) {
    unsupported();
    return;
  }
  // yaml-cpp indents a line when its first character is written, so empty
  // lines stay empty. Written in place over spaces, with room for every line
  // indented: the indentation is skipped over, and each line is one copy
  // (appending both cost more than the copying).
  const size_t at = out_.size();
  const size_t room = 1 + value.size() + (count_newlines(value) + 1) * indent;
  out_.reserve(at + room + kRoomAfterCommand);
  out_.append(room, ' ');
  char* out = out_.data() + at;
  *out++ = '\n';
  size_t start = 0;
  while (true) {
    const size_t newline = value.find('\n', start);
    const std::string_view line = value.substr(
        start, newline == std::string_view::npos ? std::string_view::npos : newline - start);
    if (!line.empty()) {
      out += indent;
      out = std::copy(line.begin(), line.end(), out);
    }
    if (newline == std::string_view::npos) break;
    *out++ = '\n';
    start = newline + 1;
  }
  out_.resize(static_cast<size_t>(out - out_.data()));
}

}  // namespace s2a::emit
