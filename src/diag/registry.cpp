#include "diag/diagnostic.hpp"

#include <algorithm>
#include <array>

namespace s2a {
namespace {

// sizeof keeps examples whole even when they contain a NUL byte.
constexpr std::array kCodes = {
#define S2A_DIAG(name, number, severity, title, positive, negative) \
  CodeInfo{Code::name,                                                  \
           #name,                                                       \
           number,                                                      \
           Severity::severity,                                          \
           title,                                                       \
           std::string_view(positive, sizeof(positive) - 1),            \
           std::string_view(negative, sizeof(negative) - 1)},
#include "diag/codes.def"
#undef S2A_DIAG
};

}  // namespace

const CodeInfo& code_info(Code code) { return kCodes.at(static_cast<size_t>(code)); }

std::span<const CodeInfo> all_codes() { return kCodes; }

std::string code_id(Code code) { return "S2A" + std::to_string(code_info(code).number); }

std::string_view severity_name(Severity severity) {
  switch (severity) {
    case Severity::error:
      return "error";
    case Severity::warning:
      return "warning";
    case Severity::note:
      return "note";
  }
  return "note";
}

bool has_errors(const Diagnostics& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity() == Severity::error; });
}

}  // namespace s2a
