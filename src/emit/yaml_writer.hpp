// A fast, allocation-light stand-in for YAML::Emitter, byte-identical to
// yaml-cpp 0.7 for the block-style documents slurm2air writes.
//
// yaml-cpp's emitter matches every character against regular expressions and
// took a third of translate(). This writer takes the same `<<` stream of
// manipulators, but only knows the common case: block maps and sequences,
// printable ASCII scalars (plain, single- or double-quoted), literal blocks,
// integers and comments. Literal blocks, plain and single-quoted scalars and
// comments may also carry UTF-8, written as is (not C1 controls, U+2028/2029
// or a byte order mark: see literal_safe_utf8_length).
// Anything else (other non-ASCII or control bytes, flow style, long keys, ...)
// clears good(), and the caller emits the document with yaml-cpp instead, so
// the output never depends on which writer ran.
#pragma once

#include <yaml-cpp/emittermanip.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s2a::emit {

class YamlWriter {
 public:
  // Key, Value and the formats are most of the manipulators written, and only
  // set a flag: inline, unlike the group manipulators.
  YamlWriter& operator<<(YAML::EMITTER_MANIP manip) {
    switch (manip) {
      case YAML::Key:
        if (groups_.empty() || !groups_.back().is_map || expect_value_) unsupported();
        expect_key_ = true;
        break;
      case YAML::Value:
        if (groups_.empty() || !groups_.back().is_map || expect_key_) unsupported();
        expect_value_ = true;
        break;
      case YAML::Auto:
        format_ = Format::automatic;
        break;
      case YAML::SingleQuoted:
        format_ = Format::single_quoted;
        break;
      case YAML::DoubleQuoted:
        format_ = Format::double_quoted;
        break;
      case YAML::Literal:
        format_ = Format::literal;
        break;
      default:
        group_manipulator(manip);
        break;
    }
    return *this;
  }
  YamlWriter& operator<<(const YAML::_Comment& comment);
  YamlWriter& operator<<(const std::string& value) { return scalar(value); }
  YamlWriter& operator<<(const char* value) { return scalar(value); }
  YamlWriter& operator<<(std::string_view value) { return scalar(value); }
  YamlWriter& operator<<(uint64_t value);
  YamlWriter& operator<<(int64_t value);
  YamlWriter& operator<<(uint32_t value) { return *this << uint64_t{value}; }
  YamlWriter& operator<<(int value) { return *this << int64_t{value}; }

  /// False when the document used something this writer does not produce.
  [[nodiscard]] bool good() const { return good_; }
  [[nodiscard]] const char* c_str() const { return out_.c_str(); }
  /// The document written, ending in a newline; the writer is left empty.
  [[nodiscard]] std::string take_document() {
    out_ += '\n';
    return std::move(out_);
  }

 private:
  template <class Integer>
  YamlWriter& write_integer(Integer value);
  enum class Format : uint8_t { automatic, single_quoted, double_quoted, literal };
  struct Group {
    bool is_map = true;
    uint32_t indent = 0;    // column of this group's keys / dashes
    uint32_t children = 0;  // keys (map) or items (seq) written so far
  };

  void group_manipulator(YAML::EMITTER_MANIP manip);  // Begin/End Map/Seq, or unsupported
  YamlWriter& scalar(std::string_view value);
  void prepare_node();  // writes what precedes a node: newline, indent, "- "
  void write_scalar(std::string_view value, Format format);
  void write_literal_at(std::string_view value, uint32_t indent);
  void unsupported() { good_ = false; }
  void newline_and_indent(uint32_t indent);

  std::string out_;
  std::vector<Group> groups_;
  Format format_ = Format::automatic;  // for the next scalar only
  bool expect_key_ = false;            // a Key manipulator was seen
  bool expect_value_ = false;          // a Value manipulator was seen
  bool good_ = true;
};

/// yaml-cpp's rule for writing `value` as a plain scalar in block context,
/// for printable ASCII and safe UTF-8 (is_safe_line_text). Exposed for tests.
[[nodiscard]] bool plain_scalar_allowed(std::string_view value);

}  // namespace s2a::emit
