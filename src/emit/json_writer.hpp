// A small streaming JSON writer for reports and `inspect --json`.
//
// Output is deterministic (keys in call order) and always valid UTF-8 JSON:
// invalid bytes from user scripts are replaced by U+FFFD.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s2a {

class JsonWriter {
 public:
  explicit JsonWriter(int indent = 2) : indent_(indent) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(int64_t number);
  JsonWriter& value(uint64_t number);
  JsonWriter& value(int number) { return value(static_cast<int64_t>(number)); }
  JsonWriter& value(uint32_t number) { return value(static_cast<uint64_t>(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& null();
  template <class T>
  JsonWriter& value(const std::optional<T>& maybe) {
    return maybe ? value(*maybe) : null();
  }
  /// `"name": value` in one call.
  template <class T>
  JsonWriter& field(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }

  [[nodiscard]] std::string str() const& { return out_ + "\n"; }
  /// The text written so far, handed over (the writer keeps its place in the
  /// document): lets a large report go to a file in pieces.
  [[nodiscard]] std::string take_text() { return std::exchange(out_, std::string()); }
  [[nodiscard]] size_t pending_size() const { return out_.size(); }
  /// The document, moved out (no copy of a large report).
  [[nodiscard]] std::string str() && {
    out_ += '\n';
    return std::move(out_);
  }

 private:
  JsonWriter& close(char bracket);
  void before_value();
  void newline();

  int indent_;
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

/// Appends `text` as a JSON string literal (with quotes) to `out`.
void append_json_string(std::string& out, std::string_view text);

}  // namespace s2a
