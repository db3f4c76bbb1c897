// SARIF 2.1.0 for code-scanning tools (GitHub, GitLab, IDE viewers).
//
// One run per invocation; one rule per registry code, so ruleIds are the
// stable S2Axxxx ids; results carry a line-content fingerprint that survives
// edits elsewhere in the file. Suppressed diagnostics appear as results with
// an inSource suppression, as SARIF intends.
#pragma once

#include <span>
#include <string>

#include "emit/report.hpp"

namespace s2a::emit {

struct SarifFile {
  ReportInput report;
  std::string path;  // as the user names it: relative paths stay relative
};

struct SarifOptions {
  // Where docs/diagnostics.md is published; rule helpUris are this plus
  // "#<anchor>". Relative by default because the project has no fixed URL.
  std::string docs_uri = "docs/diagnostics.md";
};

[[nodiscard]] std::string render_sarif(std::span<const SarifFile> files,
                                       const SarifOptions& options = {});

/// The GitHub-style Markdown anchor of a code's heading in docs/diagnostics.md.
[[nodiscard]] std::string diagnostics_anchor(Code code);
/// A path as a URI reference: percent-encoded, `file://` when absolute.
[[nodiscard]] std::string path_to_uri(const std::string& path);

}  // namespace s2a::emit
