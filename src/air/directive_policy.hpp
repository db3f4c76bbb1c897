// The per-option mapping table: every #SBATCH option is mapped, approximated
// or reported, never dropped silently.
#pragma once

#include <vector>

#include "diag/diagnostic.hpp"
#include "directives/directives.hpp"
#include "air/outcome.hpp"

namespace s2a::air {

/// Classifies every scanned option and reports those not mapped exactly.
[[nodiscard]] std::vector<DirectiveOutcome> apply_directive_policy(
    const directives::ScanResult& scan, Diagnostics& diagnostics);

/// For a test: the table must stay sorted for its binary search.
[[nodiscard]] bool policy_table_is_sorted();

}  // namespace s2a::air
