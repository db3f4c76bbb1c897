// The one border between Boost.Spirit X3 and the rest of slurm2air.
//
// parse_script() runs the shell grammar of grammar/ over a text and returns
// the AST plus diagnostics; X3 errors never cross this function. It never
// throws and never crashes: a script it cannot parse yields a diagnostic with
// a span and as much of the AST as could be recovered.
#pragma once

#include <cstdint>
#include <string_view>

#include "diag/diagnostic.hpp"
#include "grammar/ast.hpp"

namespace s2a {

struct ParseLimits {
  uint32_t max_depth = 200;  // nesting of compound commands and substitutions
};

struct ParseResult {
  ast::Script script;
  Diagnostics diagnostics;
  bool complete = true;  // false when the parser had to give up part of the text
};

/// Parses `text` as bash. Spans in the result are offsets into `text` plus
/// `base_offset`, so a nested script taken verbatim from the file (the
/// content of a single-quoted `bash -c '...'`) reports positions in the file.
[[nodiscard]] ParseResult parse_script(std::string_view text, uint32_t base_offset = 0,
                                       const ParseLimits& limits = {});

}  // namespace s2a
