// The diagnostics catalog in Markdown (docs/diagnostics.md is this text;
// a test keeps the file in step with the registry).
#pragma once

#include <string>

namespace s2a {

[[nodiscard]] std::string diagnostics_markdown();

}  // namespace s2a
