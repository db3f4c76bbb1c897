// The one translation unit that instantiates the lexical X3 rules, and the
// Boost-free matcher functions of lexical.hpp that wrap them.
//
// Every matcher restores `first` on failure so callers can try alternatives.
#include "grammar/lexical.hpp"

#include "grammar/lexical_def.hpp"

namespace s2a::grammar {

namespace {

template <class Parser>
bool match(const Parser& parser, Cursor& first, Cursor last) {
  Cursor it = first;
  if (!x3::parse(it, last, parser)) return false;
  first = it;
  return true;
}

template <class Parser, class Attribute>
bool match(const Parser& parser, Cursor& first, Cursor last, Attribute& attribute) {
  Cursor it = first;
  if (!x3::parse(it, last, parser, attribute)) return false;
  first = it;
  return true;
}

}  // namespace

bool match_blanks(Cursor& first, Cursor last) { return match(lexical::blanks, first, last); }
bool match_comment(Cursor& first, Cursor last) { return match(lexical::comment, first, last); }
bool match_name(Cursor& first, Cursor last) { return match(lexical::name, first, last); }
bool match_special_param(Cursor& first, Cursor last) {
  return match(lexical::special_param, first, last);
}
bool match_unquoted_run(Cursor& first, Cursor last) {
  return match(lexical::unquoted_run, first, last);
}
bool match_dquoted_run(Cursor& first, Cursor last) {
  return match(lexical::dquoted_run, first, last);
}
bool match_heredoc_run(Cursor& first, Cursor last) {
  return match(lexical::heredoc_run, first, last);
}
bool match_brace_word_run(Cursor& first, Cursor last) {
  return match(lexical::brace_word_run, first, last);
}
bool match_single_quoted(Cursor& first, Cursor last) {
  return match(lexical::single_quoted, first, last);
}
bool match_ansi_c_quoted(Cursor& first, Cursor last, std::string& decoded) {
  decoded.clear();
  return match(lexical::ansi_c_quoted, first, last, decoded);
}
bool match_control_op(Cursor& first, Cursor last, ControlOp& op) {
  return match(lexical::control_ops, first, last, op);
}
bool match_redirect_op(Cursor& first, Cursor last, std::string_view& op) {
  return match(lexical::redirect_ops, first, last, op);
}
bool match_fd_prefix(Cursor& first, Cursor last) { return match(lexical::fd_prefix, first, last); }

bool match_assignment_head(Cursor& first, Cursor last, std::string_view& name, bool& append) {
  Cursor it = first;
  if (!match(lexical::name, it, last)) return false;
  Cursor name_end = it;
  if (!match(lexical::assignment_tail, it, last)) return false;
  name = std::string_view(first, static_cast<size_t>(name_end - first));
  append = it - first >= 2 && it[-2] == '+';
  first = it;
  return true;
}

bool match_reserved_word(Cursor& first, Cursor last, ReservedWord& word) {
  return match(lexical::reserved_word, first, last, word);
}

std::string_view reserved_word_text(ReservedWord word) {
  static constexpr std::string_view kText[] = {
      "if",  "then", "else",     "elif",   "fi",   "do", "done", "case", "esac", "while", "until",
      "for", "in",   "function", "select", "time", "{",  "}",    "!",    "[[",   "]]"};
  return kText[static_cast<size_t>(word)];
}

}  // namespace s2a::grammar
