// Word views for the mapping rules: see words.hpp.
#include "air/words.hpp"

namespace s2a::air {
namespace {

/// The one part whose text is the literal value, if the word is just that.
const std::string* single_literal_part(const ast::Word& word) {
  if (word.parts.size() != 1) return nullptr;
  const ast::WordPart& part = word.parts[0];
  const bool plain =
      part.kind == ast::PartKind::literal || part.kind == ast::PartKind::single_quoted;
  return plain ? &part.text : nullptr;
}

}  // namespace

std::optional<std::string_view> literal_view(const ast::Word& word,
                                             std::optional<std::string>& storage) {
  if (const std::string* text = single_literal_part(word)) return std::string_view(*text);
  storage = slurm::literal_value(word);
  if (!storage) return std::nullopt;
  return std::string_view(*storage);
}

bool literal_is(const ast::Word& word, std::string_view text) {
  if (const std::string* part = single_literal_part(word)) return *part == text;
  return slurm::literal_value(word) == text;
}

std::string_view program_view(const ast::Word& word, std::optional<std::string>& storage) {
  const std::optional<std::string_view> literal = literal_view(word, storage);
  if (!literal) return {};
  const size_t slash = literal->rfind('/');
  return slash == std::string_view::npos ? *literal : literal->substr(slash + 1);
}

}  // namespace s2a::air
