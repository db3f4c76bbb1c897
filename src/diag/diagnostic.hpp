// Diagnostics are data: a stable code, a span and words for the user.
//
// Detection code creates Diagnostics; renderers (render.hpp) turn them into
// text, JSON or SARIF. Nothing here prints.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "source/source_file.hpp"

namespace s2a {

enum class Severity : uint8_t { error, warning, note };

enum class Code : uint16_t {
#define S2A_DIAG(name, number, severity, title, positive, negative) name,
#include "diag/codes.def"
#undef S2A_DIAG
};

/// One row of the registry in codes.def.
struct CodeInfo {
  Code code;
  std::string_view name;      // rule name, e.g. "missing_shebang"
  uint16_t number;            // 1001
  Severity severity;
  std::string_view title;
  std::string_view positive;  // a script that must trigger the code
  std::string_view negative;  // a similar script that must not
};

[[nodiscard]] const CodeInfo& code_info(Code code);
[[nodiscard]] std::span<const CodeInfo> all_codes();
/// "S2A1001"
[[nodiscard]] std::string code_id(Code code);
[[nodiscard]] std::string_view severity_name(Severity severity);

struct Diagnostic {
  Code code = Code::internal_error;
  Span span;              // where in the script; empty span = the whole file
  std::string message;    // one sentence, no trailing period
  std::string hint = {};  // what to do instead on AI Runtime; may be empty

  [[nodiscard]] Severity severity() const { return code_info(code).severity; }
};

using Diagnostics = std::vector<Diagnostic>;

[[nodiscard]] bool has_errors(const Diagnostics& diagnostics);

}  // namespace s2a
