// read_simple_yaml(): a line-based reader for the YamlWriter subset.
//
// Every check that fails returns nullopt rather than guessing: the fallback
// (YAML::Load) is always correct, only slower.
#include "emit/yaml_reader.hpp"

#include <algorithm>
#include <string>
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

bool is_key_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

bool is_simple_key(std::string_view key) {
  if (key.empty() || key.size() > 100 || !is_key_start(key[0])) return false;
  return std::all_of(key.begin(), key.end(),
                     [](char c) { return is_key_start(c) || (c >= '0' && c <= '9'); });
}

// Duplicates are left to yaml-cpp. Sorted, so that env_variables with
// thousands of entries stay O(n log n).
bool has_duplicate_key(const YamlDoc& map) {
  std::vector<std::string_view> keys;
  keys.reserve(map.entries.size());
  for (const auto& entry : map.entries) keys.push_back(entry.first);
  std::sort(keys.begin(), keys.end());
  return std::adjacent_find(keys.begin(), keys.end()) != keys.end();
}

YamlDoc quoted(std::string value) {
  YamlDoc node;
  node.kind = YamlDoc::Kind::scalar;
  node.scalar = std::move(value);
  return node;
}

class Reader {
 public:
  explicit Reader(std::string_view text) {
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view raw = text.substr(start, end - start);
      const size_t indent = raw.find_first_not_of(' ');
      Line line;
      line.raw = raw;
      line.indent = static_cast<uint32_t>(indent == std::string_view::npos ? raw.size() : indent);
      line.text = raw.substr(line.indent);
      lines_.push_back(line);
      start = end + 1;
    }
  }

  std::optional<YamlDoc> document() {
    YamlDoc root;
    if (!read_map(0, root)) return std::nullopt;
    if (i_ != lines_.size()) return std::nullopt;
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
  bool read_literal(uint32_t indent, YamlDoc& node) {
    std::string value;
    size_t trailing_empty = 0;
    bool first = true;
    while (i_ < lines_.size()) {
      const Line& line = lines_[i_];
      if (line.raw.empty()) {
        if (first) return false;  // indentation would come from a later line
        ++trailing_empty;
        ++i_;
        continue;
      }
      if (line.indent < indent) break;
      if (first && line.indent != indent) return false;
      if (line.text.empty()) return false;  // whitespace-only line
      value.append(first ? 0 : trailing_empty + 1, '\n');
      trailing_empty = 0;
      value += line.raw.substr(indent);
      first = false;
      ++i_;
    }
    if (first) return false;
    value += '\n';
    node = quoted(std::move(value));
    return true;
  }

  bool read_sequence(uint32_t indent, YamlDoc& seq) {
    seq.kind = YamlDoc::Kind::sequence;
    while (i_ < lines_.size() && lines_[i_].indent == indent && !lines_[i_].raw.empty()) {
      const Line& line = lines_[i_];
      if (!line.text.starts_with("- ")) return false;
      YamlDoc& item = seq.items.emplace_back();
      if (!read_scalar(line.text.substr(2), item)) return false;
      ++i_;
    }
    return !seq.items.empty();
  }

  bool read_map(uint32_t indent, YamlDoc& map) {
    map.kind = YamlDoc::Kind::map;
    while (i_ < lines_.size()) {
      const Line& line = lines_[i_];
      if (line.raw.empty()) return false;
      if (line.text.starts_with('#')) {  // a comment line (the array submission block)
        ++i_;
        continue;
      }
      if (line.indent < indent) break;
      if (line.indent > indent) return false;
      const size_t colon = line.text.find(':');
      if (colon == std::string_view::npos) return false;
      const std::string_view key = line.text.substr(0, colon);
      if (!is_simple_key(key)) return false;
      std::string_view rest = line.text.substr(colon + 1);
      ++i_;
      YamlDoc& value = map.entries.emplace_back(std::string(key), YamlDoc()).second;
      if (rest.empty()) {
        // A nested map or sequence, two columns in.
        if (i_ >= lines_.size() || lines_[i_].indent != indent + 2) return false;
        if (lines_[i_].text.starts_with("- ")) {
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

  std::vector<Line> lines_;
  size_t i_ = 0;
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
