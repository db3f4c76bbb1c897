// Emits the workload as train.yaml: fixed key order, provenance comments.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "air/workload.hpp"
#include "source/source_file.hpp"

namespace s2a::emit {

struct YamlOptions {
  bool provenance_comments = true;
  const std::vector<Span>* redactions = nullptr;  // secret bytes: masked in provenance comments
};

/// Strings a YAML 1.1/1.2 reader would take for a number, a boolean or null
/// when written plain; they must be quoted to stay strings.
[[nodiscard]] bool yaml_plain_is_typed(std::string_view value);

[[nodiscard]] std::string emit_workload_yaml(const air::Workload& workload, const SourceFile& file,
                                             const YamlOptions& options);

}  // namespace s2a::emit
