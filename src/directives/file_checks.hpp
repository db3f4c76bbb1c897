// Whole-file checks made before the directive scan (spec/slurm-sbatch.md §1.1).
#pragma once

#include <optional>
#include <string_view>

#include "diag/diagnostic.hpp"

namespace s2a::directives::detail {

/// Empty/whitespace-only, missing `#!` (BOM, leading blank line), NUL, CRLF,
/// invalid UTF-8. Spans are offsets into `text`.
[[nodiscard]] Diagnostics check_whole_file(std::string_view text);

/// S2A1005 when lines end with CRLF: its span is the first such line
/// without its CR, so it holds once the CRs are removed too.
[[nodiscard]] std::optional<Diagnostic> crlf_line_endings(std::string_view text);

}  // namespace s2a::directives::detail
