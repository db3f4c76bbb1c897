// Schema check of an emitted workload YAML (what `databricks air run` checks
// locally), plus a round-trip check against the workload it came from.
#pragma once

#include <string>
#include <vector>

#include "air/workload.hpp"

namespace s2a::emit {

/// Returns the problems found; empty when the YAML is valid.
[[nodiscard]] std::vector<std::string> validate_workload_yaml(const std::string& yaml,
                                                              const air::Workload& expected);

}  // namespace s2a::emit
