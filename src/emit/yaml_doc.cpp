// YamlDoc lookups, and the conversion from yaml-cpp's tree used when the fast
// reader declines a document.
#include "emit/yaml_doc.hpp"

#include <charconv>

namespace s2a::emit {

const YamlDoc* YamlDoc::find(std::string_view key) const {
  if (kind != Kind::map) return nullptr;
  for (const auto& [name, value] : entries) {
    if (name == key) return &value;
  }
  return nullptr;
}

std::string_view YamlDoc::text_or(const YamlDoc* node, std::string_view fallback) {
  return node != nullptr && node->is_scalar() ? std::string_view(node->scalar) : fallback;
}

std::optional<int64_t> YamlDoc::integer(const YamlDoc* node) {
  if (node == nullptr || !node->is_scalar()) return std::nullopt;
  std::string_view text = node->scalar;
  if (text.starts_with('+')) text.remove_prefix(1);
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    return std::nullopt;
  }
  return value;
}

YamlDoc to_yaml_doc(const YAML::Node& node) {
  YamlDoc doc;
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      doc.kind = YamlDoc::Kind::scalar;
      doc.scalar = node.Scalar();
      doc.plain = node.Tag() == "?";
      break;
    case YAML::NodeType::Sequence:
      doc.kind = YamlDoc::Kind::sequence;
      for (const auto& item : node) doc.items.push_back(to_yaml_doc(item));
      break;
    case YAML::NodeType::Map:
      doc.kind = YamlDoc::Kind::map;
      for (const auto& entry : node) {
        // Keys that are not scalars never pass the schema; keep them visible.
        std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "<non-scalar key>";
        doc.entries.emplace_back(std::move(key), to_yaml_doc(entry.second));
      }
      break;
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      break;
  }
  return doc;
}

}  // namespace s2a::emit
