// parse_script(): the border around the shell parser. Nothing thrown inside
// (syntax errors, X3, allocation failures) crosses it.
//
// Also the small helpers of the parse API that read the AST.
#include "parse/parse_script.hpp"

#include <limits>

#include "grammar/lexical.hpp"
#include "parse/parser.hpp"

namespace s2a {

ParseResult parse_script(std::string_view text, uint32_t base_offset, const ParseLimits& limits) {
  if (text.size() > std::numeric_limits<uint32_t>::max() - base_offset) {
    ParseResult result;
    result.complete = false;
    result.diagnostics.push_back(Diagnostic{Code::internal_error,
                                            {base_offset, base_offset},
                                            "the script is too large to parse (4 GiB or more)"});
    return result;
  }
  try {
    return parse_detail::Parser(text, base_offset, limits).run();
  } catch (const std::exception& error) {
    ParseResult result;
    result.complete = false;
    result.diagnostics.push_back(
        Diagnostic{Code::internal_error,
                   {base_offset, base_offset},
                   std::string("the shell parser failed: ") + error.what()});
    return result;
  } catch (...) {
    ParseResult result;
    result.complete = false;
    result.diagnostics.push_back(
        Diagnostic{Code::internal_error, {base_offset, base_offset}, "the shell parser failed"});
    return result;
  }
}

bool is_declaration_command(const ast::Command& command) {
  if (command.kind != ast::CommandKind::simple || command.words.empty()) return false;
  const ast::Word& first = command.words.front();
  if (first.parts.size() != 1 || first.parts[0].kind != ast::PartKind::literal) return false;
  const std::string& name = first.parts[0].text;
  return name == "export" || name == "declare" || name == "local" || name == "readonly" ||
         name == "typeset";
}

std::vector<ast::Assignment> declaration_assignments(const ast::Command& command) {
  std::vector<ast::Assignment> assignments;
  if (!is_declaration_command(command)) return assignments;
  for (size_t i = 1; i < command.words.size(); ++i) {
    const ast::Word& word = command.words[i];
    if (word.parts.empty() || word.parts[0].kind != ast::PartKind::literal) continue;
    const std::string& head_text = word.parts[0].text;
    grammar::Cursor first = head_text.data();
    std::string_view name;
    bool append = false;
    if (!grammar::match_assignment_head(first, head_text.data() + head_text.size(), name, append)) {
      continue;
    }
    auto head_size = static_cast<uint32_t>(first - head_text.data());
    ast::Assignment assignment;
    assignment.span = word.span;
    assignment.name = head_text.substr(0, head_size - (append ? 2 : 1));
    assignment.append = append;
    assignment.value.span = {word.span.begin + head_size, word.span.end};
    assignment.is_array = !word.array_elements.empty();
    assignment.elements = word.array_elements;
    if (head_size < head_text.size()) {
      ast::WordPart rest = word.parts[0];
      rest.text = head_text.substr(head_size);
      rest.span.begin += head_size;
      rest.inner.begin += head_size;
      assignment.value.parts.push_back(std::move(rest));
    }
    for (size_t p = 1; p < word.parts.size(); ++p) assignment.value.parts.push_back(word.parts[p]);
    if (assignment.is_array) assignment.value.span.end = assignment.value.span.begin;
    assignments.push_back(std::move(assignment));
  }
  return assignments;
}

}  // namespace s2a
