// A fast reader for the YAML that YamlWriter writes, building the same
// document (values, and which scalars are plain) that YAML::Load would.
//
// Re-reading train.yaml with YAML::Load took half of translate(): yaml-cpp's
// scanner tries regular expressions at every character. This reader accepts
// only the narrow block-style subset slurm2air emits (maps of simple keys,
// sequences of scalars, plain / quoted scalars of printable ASCII, "|"
// literal blocks, trailing comments) and returns nothing for anything else,
// so the caller falls back to YAML::Load. tests/emit/yaml_reader_test.cpp
// compares both readers on generated documents.
#pragma once

#include "emit/yaml_doc.hpp"

#include <optional>
#include <string_view>

namespace s2a::emit {

/// The document as YAML::Load would read it, or nullopt when it is outside
/// the subset this reader knows.
[[nodiscard]] std::optional<YamlDoc> read_simple_yaml(std::string_view text);

/// read_simple_yaml(), else YAML::Load (which may throw YAML::Exception).
[[nodiscard]] YamlDoc load_yaml(const std::string& text);

}  // namespace s2a::emit
