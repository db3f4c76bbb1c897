// databricks.yml out of a BundleModel, and the structural schema check every
// emitted file passes before anything is written.
#pragma once

#include <string>
#include <vector>

#include "bundle/model.hpp"

namespace s2a::bundle {

/// Writes databricks.yml with yaml-cpp, keys in a fixed order.
[[nodiscard]] std::string emit_bundle_yaml(const BundleModel& bundle);

/// Re-reads databricks.yml and checks it against the bundle schema's
/// structure (spec/air-runtime.md §3): required fields, enums, task keys and
/// depends_on, the for_each_task code rule. Returns the problems, if any.
[[nodiscard]] std::vector<std::string> check_bundle_yaml(const std::string& yaml);

/// The accelerator types the bundle schema accepts (GPU_8xB300 is not one).
[[nodiscard]] bool bundle_accepts_accelerator(std::string_view type);

}  // namespace s2a::bundle
