// A small read-only YAML document: what the schema check needs to know about
// the train.yaml that was written (maps in order, sequences, scalars with
// whether they were plain). Building yaml-cpp nodes for that check cost more
// than the rest of emission: each node is a shared_ptr graph.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s2a::emit {

struct YamlDoc {
  enum class Kind : uint8_t { null, scalar, sequence, map };

  Kind kind = Kind::null;
  bool plain = false;  // a plain (unquoted, non-literal) scalar: YAML may type it
  std::string scalar;
  std::vector<YamlDoc> items;                            // sequence
  std::vector<std::pair<std::string, YamlDoc>> entries;  // map, in document order

  bool is_map() const { return kind == Kind::map; }
  bool is_scalar() const { return kind == Kind::scalar; }
  bool is_sequence() const { return kind == Kind::sequence; }

  /// The value of `key` in a map, or nullptr (also when this is not a map).
  const YamlDoc* find(std::string_view key) const;
  /// The scalar text, or `fallback` when this is not a scalar (or absent).
  static std::string_view text_or(const YamlDoc* node, std::string_view fallback = {});
  /// A decimal integer scalar (optional sign), or nullopt.
  static std::optional<int64_t> integer(const YamlDoc* node);

  friend bool operator==(const YamlDoc&, const YamlDoc&) = default;
};

/// The same document read from yaml-cpp's tree (the slow, general reader).
[[nodiscard]] YamlDoc to_yaml_doc(const YAML::Node& node);

}  // namespace s2a::emit
