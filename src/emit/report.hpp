// Renderers for the report: gcc-style text with the source line and a caret,
// and JSON for machines. Detection lives elsewhere; these only format.
#pragma once

#include <string>
#include <vector>

#include "diag/diagnostic.hpp"
#include "source/source_file.hpp"

namespace s2a::emit {

struct ReportInput {
  const SourceFile& file;
  const Diagnostics& diagnostics;
  const std::vector<Span>& redactions;  // bytes never to print (secret values)
  const Diagnostics* suppressed = nullptr;  // silenced ones: counted in JSON, never printed
};

/// `file:line:col: severity: message [S2A1234]`, the line, a caret, a hint.
[[nodiscard]] std::string render_text(const ReportInput& input);
/// `file:line:col: severity: message [S2A1234]`, one line per diagnostic
/// (for editors and CI log matchers).
[[nodiscard]] std::string render_gcc(const ReportInput& input);
/// One JSON document for one script.
[[nodiscard]] std::string render_json(const ReportInput& input, int exit_code);
/// A source line with the redacted bytes replaced by '*'.
[[nodiscard]] std::string redacted_line(const ReportInput& input, uint32_t line);

}  // namespace s2a::emit
