// read_simple_yaml(): a line-based reader for the YamlWriter subset.
//
// Every check that fails returns nullopt rather than guessing: the fallback
// (YAML::Load) is always correct, only slower.
#include "emit/yaml_reader.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <tuple>
#include <vector>

#include "emit/text_scan.hpp"
#include "emit/yaml_writer.hpp"

namespace s2a::emit {
namespace {

struct Line {
  uint32_t indent = 0;
  std::string_view text;  // after the indentation
  std::string_view raw;   // the whole line
};

constexpr bool is_key_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// A table, as every key of the document is checked byte by byte.
constexpr std::array<bool, 256> kKeyChars = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 256; ++c)
    table[c] = is_key_start(static_cast<char>(c)) || (c >= '0' && c <= '9');
  return table;
}();

bool is_simple_key(std::string_view key) {
  if (key.empty() || key.size() > 100 || !is_key_start(key[0])) return false;
  return std::all_of(key.begin(), key.end(),
                     [](char c) { return kKeyChars[static_cast<unsigned char>(c)]; });
}

// Duplicates are left to yaml-cpp. Small maps (all but env_variables, as a
// rule) compare their keys pairwise; larger ones are sorted, so that
// env_variables with thousands of entries stay O(n log n).
bool has_duplicate_key(const YamlDoc& map) {
  const auto& entries = map.entries;
  constexpr size_t kPairwise = 8;
  if (entries.size() <= kPairwise) {
    for (size_t i = 1; i < entries.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (entries[i].first == entries[j].first) return true;
      }
    }
    return false;
  }
  std::vector<std::string_view> keys;
  keys.reserve(entries.size());
  for (const auto& entry : entries) keys.push_back(entry.first);
  std::sort(keys.begin(), keys.end());
  return std::adjacent_find(keys.begin(), keys.end()) != keys.end();
}

YamlDoc quoted(std::string value) {
  YamlDoc node;
  node.kind = YamlDoc::Kind::scalar;
  node.scalar = std::move(value);
  return node;
}

constexpr size_t kUsualMapSize = 8;

class Reader {
 public:
  // Lines are split as they are read: a vector of them all cost as much as
  // reading them.
  explicit Reader(std::string_view text) : text_(text) { split_line(); }

  std::optional<YamlDoc> document() {
    YamlDoc root;
    if (!read_map(0, root)) return std::nullopt;
    if (has_line()) return std::nullopt;
    return root;
  }

 private:
  // A value ends at the end of the line or at "  # comment".
  static bool rest_is_comment(std::string_view rest) {
    const size_t hash = rest.find_first_not_of(' ');
    if (hash == std::string_view::npos) return rest.empty();
    return hash >= 1 && rest[hash] == '#';
  }

  /// A scalar on one line; false if it is not in the subset.
  static bool read_scalar(std::string_view text, YamlDoc& node) {
    if (text.empty()) return false;
    std::string value;
    if (text.front() == '\'') {
      size_t i = 1;
      for (; i < text.size(); ++i) {
        if (text[i] == '\'') {
          if (i + 1 < text.size() && text[i + 1] == '\'') {
            value += '\'';
            ++i;
            continue;
          }
          break;
        }
        value += text[i];
      }
      if (i >= text.size() || !rest_is_comment(text.substr(i + 1))) return false;
      node = quoted(std::move(value));
      return true;
    }
    if (text.front() == '"') {
      size_t i = 1;
      for (; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') {
          if (i + 1 >= text.size() || (text[i + 1] != '"' && text[i + 1] != '\\')) return false;
          ++i;
        }
        value += text[i];
      }
      if (i >= text.size() || !rest_is_comment(text.substr(i + 1))) return false;
      node = quoted(std::move(value));
      return true;
    }
    const size_t comment = text.find(" #");
    std::string_view plain = text.substr(0, comment);
    if (comment != std::string_view::npos) {
      while (!plain.empty() && plain.back() == ' ') plain.remove_suffix(1);
    }
    if (!plain_scalar_allowed(plain)) return false;
    node.kind = YamlDoc::Kind::scalar;
    node.scalar = plain;
    node.plain = true;
    return true;
  }

  /// "|" then lines indented by `indent`; clip chomping (one final newline).
  /// The block's lines are cut from the text here rather than by
  /// split_line(), which measures each line's whole indentation: a block
  /// line only needs its first `indent` bytes to be spaces, and the command
  /// is most of the document's lines.
  bool read_literal(uint32_t indent, YamlDoc& node) {
    // The first line sets the indentation, which must be exactly `indent`.
    if (!has_line() || line_.indent != indent || line_.text.empty()) return false;
    std::string value;
    value.reserve(text_.size() - start_);  // at most the rest of the document
    size_t trailing_empty = 0;
    bool first = true;
    size_t start = start_;
    while (start < text_.size()) {
      size_t end = text_.find('\n', start);
      if (end == std::string_view::npos) end = text_.size();
      const std::string_view line = text_.substr(start, end - start);
      if (line.empty()) {
        ++trailing_empty;
        start = end + 1;
        continue;
      }
      if (!indented_by(line, indent)) break;           // the block has ended
      if (is_blank_after(line, indent)) return false;  // whitespace-only line
      if (!first) value += '\n';
      if (trailing_empty > 0) {
        value.append(trailing_empty, '\n');
        trailing_empty = 0;
      }
      first = false;
      value.append(line.substr(indent));
      start = end + 1;
    }
    value += '\n';
    node = quoted(std::move(value));
    start_ = start;  // the line after the block
    split_line();
    return true;
  }

  /// Whether the line starts with `indent` spaces.
  static bool indented_by(std::string_view line, uint32_t indent) {
    if (line.size() < indent) return false;
    return std::all_of(line.begin(), line.begin() + indent, [](char c) { return c == ' '; });
  }

  /// Whether a line indented by `indent` spaces holds nothing but spaces.
  static bool is_blank_after(std::string_view line, uint32_t indent) {
    return line.find_first_not_of(' ', indent) == std::string_view::npos;
  }

  bool read_sequence(uint32_t indent, YamlDoc& seq) {
    seq.kind = YamlDoc::Kind::sequence;
    while (has_line() && line_.indent == indent && !line_.raw.empty()) {
      const Line& line = line_;
      if (!line.text.starts_with("- ")) return false;
      YamlDoc& item = seq.items.emplace_back();
      if (!read_scalar(line.text.substr(2), item)) return false;
      next_line();
    }
    return !seq.items.empty();
  }

  bool read_map(uint32_t indent, YamlDoc& map) {
    map.kind = YamlDoc::Kind::map;
    // Room for a train.yaml's top level at once: each regrowth moved every
    // entry (a key and a whole node).
    map.entries.reserve(kUsualMapSize);
    while (has_line()) {
      const Line line = line_;  // a copy: the key's line is left before its value is read
      if (line.raw.empty()) return false;
      if (line.text.starts_with('#')) {  // a comment line (the array submission block)
        next_line();
        continue;
      }
      if (line.indent < indent) break;
      if (line.indent > indent) return false;
      const size_t colon = line.text.find(':');
      if (colon == std::string_view::npos) return false;
      const std::string_view key = line.text.substr(0, colon);
      if (!is_simple_key(key)) return false;
      std::string_view rest = line.text.substr(colon + 1);
      next_line();
      // Built in place: a temporary key and YamlDoc would each be moved in.
      YamlDoc& value =
          map.entries
              .emplace_back(std::piecewise_construct, std::forward_as_tuple(key), std::tuple<>())
              .second;
      if (rest.empty()) {
        // A nested map or sequence, two columns in.
        if (!has_line() || line_.indent != indent + 2) return false;
        if (line_.text.starts_with("- ")) {
          if (!read_sequence(indent + 2, value)) return false;
        } else {
          if (!read_map(indent + 2, value)) return false;
        }
      } else {
        if (rest.front() != ' ') return false;
        rest.remove_prefix(1);
        if (rest == "|") {
          if (!read_literal(indent + 2, value)) return false;
        } else if (!read_scalar(rest, value)) {
          return false;
        }
      }
    }
    return !map.entries.empty() && !has_duplicate_key(map);
  }

  /// A line starts at start_ (an empty last line is none).
  [[nodiscard]] bool has_line() const { return start_ < text_.size(); }

  void split_line() {
    if (!has_line()) return;
    size_t end = text_.find('\n', start_);
    if (end == std::string_view::npos) end = text_.size();
    line_.raw = text_.substr(start_, end - start_);
    const size_t indent = line_.raw.find_first_not_of(' ');
    line_.indent =
        static_cast<uint32_t>(indent == std::string_view::npos ? line_.raw.size() : indent);
    line_.text = line_.raw.substr(line_.indent);
    next_ = end + 1;
  }

  void next_line() {
    start_ = next_;
    split_line();
  }

  std::string_view text_;
  size_t start_ = 0;  // of line_
  size_t next_ = 0;   // of the line after it
  Line line_;         // the current line, when has_line()
};

}  // namespace

std::optional<YamlDoc> read_simple_yaml(std::string_view text) {
  if (text.empty() || text.back() != '\n') return std::nullopt;
  // Every line, checked at once: safe UTF-8 in scalars, literal blocks and
  // comments, a tab in a comment; never a control byte or a character another
  // YAML reader could take as a line break. Anything else is yaml-cpp's.
  if (!is_literal_block_text(text)) return std::nullopt;
  text.remove_suffix(1);
  return Reader(text).document();
}

YamlDoc load_yaml(const std::string& text) {
  if (std::optional<YamlDoc> doc = read_simple_yaml(text)) return std::move(*doc);
  // yaml-cpp reads characters that stricter readers (PyYAML, the CLI's)
  // refuse; the document must be one they all read.
  if (const size_t at = find_character_yaml_forbids(text); at != std::string::npos) {
    throw YAML::ParserException(YAML::Mark::null_mark(),
                                "byte " + std::to_string(static_cast<unsigned char>(text[at])) +
                                    " at offset " + std::to_string(at) +
                                    " is a character YAML does not allow");
  }
  return to_yaml_doc(YAML::Load(text));
}

}  // namespace s2a::emit
