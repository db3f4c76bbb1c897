// A readable, stable text dump of the shell AST, for tests and `--dump=ast`.
//
// One node per line, indented by depth: kind, [begin,end) span, then the
// node's own text in C-style quotes.
#pragma once

#include <string>

#include "grammar/ast.hpp"

namespace s2a {

[[nodiscard]] std::string dump_ast(const ast::Script& script);
[[nodiscard]] std::string dump_ast(const ast::Command& command);

}  // namespace s2a
