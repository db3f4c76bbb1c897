// Suppressions: comments that silence chosen diagnostics, and site-wide lists.
//
//   cmd  # slurm2air: disable=S2A3101,directive_approximated   this line
//   # slurm2air: disable=S2A4006                                 the next line
//   # slurm2air: disable-file=S2A3006                            the whole file
//
// Errors cannot be suppressed (a script with an error was not translated);
// unknown codes and attempts to suppress errors are reported (S2A7001/7002).
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "diag/diagnostic.hpp"

namespace s2a {

/// A code by id ("S2A3102", case-insensitive) or rule name ("directive_approximated").
[[nodiscard]] std::optional<Code> find_code(std::string_view id_or_name);

struct LineSuppression {
  uint32_t line = 0;  // 1-based line whose diagnostics are suppressed
  Code code = Code::internal_error;
};

struct Suppressions {
  std::vector<LineSuppression> lines;
  std::vector<Code> file_wide;
  Diagnostics problems;  // unknown codes, errors named in a suppression
};

/// Every `# slurm2air: disable[-file]=...` comment in the file.
[[nodiscard]] Suppressions find_suppressions(const SourceFile& file);

/// Moves the suppressed diagnostics from `diagnostics` to the returned list,
/// keeping the order of both. `site_wide` codes (a site profile) are
/// suppressed everywhere; errors never are. The comments' own problems are
/// added to `diagnostics` (they are never suppressed).
Diagnostics apply_suppressions(const SourceFile& file, std::span<const Code> site_wide,
                               Diagnostics& diagnostics);

}  // namespace s2a
