// Cheap looks at a word's literal text for the mapping rules.
//
// slurm::literal_value() returns a fresh std::string; the mapping asks about
// thousands of words per script, nearly all of them one unquoted or
// single-quoted part whose text the AST already holds. These helpers view that
// text and only fold (and copy) the rare multi-part word.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "slurm/body.hpp"

namespace s2a::air {

/// The word's literal value (as slurm::literal_value), viewed in the AST for a
/// one-part word; other words are folded into `storage`, which must outlive
/// the view.
[[nodiscard]] std::optional<std::string_view> literal_view(const ast::Word& word,
                                                           std::optional<std::string>& storage);

/// True when the word's literal value is exactly `text` (no copy for the
/// usual one-part word).
[[nodiscard]] bool literal_is(const ast::Word& word, std::string_view text);

/// The basename of the word's literal value (as slurm::program_name), viewed
/// like literal_view().
[[nodiscard]] std::string_view program_view(const ast::Word& word,
                                            std::optional<std::string>& storage);

}  // namespace s2a::air
