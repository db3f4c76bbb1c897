// Names read and written by bash arithmetic: `$(( ))`, `(( ))`, `let`, and
// the subscript of an indexed array (`${lrs[SLURM_ARRAY_TASK_ID]}`). The
// parser keeps arithmetic as text, so the rules that follow variables read
// it here.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "grammar/ast.hpp"

namespace s2a::slurm {

struct ArithmeticName {
  std::string_view name;
  size_t at = 0;          // offset of the name (not its `$`) in the expression
  bool dollar = false;    // written `$NAME` or `${NAME}`
  bool assigned = false;  // `n = 1`, `n += 2`, `i++`, `--i`, `a[i] = 0`
};

/// The variables an arithmetic expression names, in order. Numbers
/// (`0x1f`, `2#101`), command substitutions and `${...}` with an operator
/// are skipped: their words are not arithmetic names.
[[nodiscard]] std::vector<ArithmeticName> arithmetic_names(std::string_view expression);

/// The `[...]` contents of `${NAME[...]}` (or `${#NAME[...]}`), given the
/// expansion's text between `${` and `}` as written; nullopt for any other
/// `${...}` (`${X#[ab]}` is a pattern, not a subscript).
[[nodiscard]] std::optional<std::string_view> subscript_of(std::string_view braced_inner);

}  // namespace s2a::slurm
