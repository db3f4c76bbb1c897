// The one border between Boost.Spirit X3 and the rest of slurm2air.
//
// parse_script() runs the shell grammar of grammar/ over a text and returns
// the AST plus diagnostics; X3 errors never cross this function. It never
// throws and never crashes: a script it cannot parse yields a diagnostic with
// a span and as much of the AST as could be recovered.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

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

/// True for a simple command run by export, declare, local, readonly or typeset.
[[nodiscard]] bool is_declaration_command(const ast::Command& command);

/// The NAME=value (NAME+=value, NAME=(a b)) arguments of a declaration command
/// (`export A=1 B=$(hostname)`), as Assignments whose spans point into the
/// words; options (-x) and bare names (export PATH) are skipped. Empty for any
/// other command. The words themselves stay in Command::words.
[[nodiscard]] std::vector<ast::Assignment> declaration_assignments(const ast::Command& command);

}  // namespace s2a
