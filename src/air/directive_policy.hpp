// The per-option mapping table: every #SBATCH option is mapped, approximated
// or reported, never dropped silently.
#pragma once

#include <vector>

#include "diag/diagnostic.hpp"
#include "directives/directives.hpp"
#include "air/outcome.hpp"

namespace s2a::air {

/// Classifies every scanned option and reports those not mapped exactly.
/// For a bundle, --array, --mail-*, --dependency and --begin are left to the
/// workflow stage (src/bundle/workflow.cpp), which reports what they become.
[[nodiscard]] std::vector<DirectiveOutcome> apply_directive_policy(
    const directives::ScanResult& scan, Diagnostics& diagnostics, bool bundle_target = false);

/// For a test: the table must stay sorted for its binary search.
[[nodiscard]] bool policy_table_is_sorted();

}  // namespace s2a::air
