// The lexical level of the shell grammar: token matchers built with X3.
//
// Each matcher tries one token at `first`; on success it advances `first` past
// the token and returns true, otherwise it leaves `first` alone. This header is
// free of Boost so src/parse/ can use the tokens without seeing X3; the rules
// themselves live in lexical_def.hpp and are instantiated once in lexical.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace s2a::grammar {

using Cursor = const char*;

enum class ControlOp : uint8_t {
  and_if,     // &&
  or_if,      // ||
  dsemi_and,  // ;;&
  dsemi,      // ;;
  semi_and,   // ;&
  pipe_and,   // |&
  amp,        // &
  semi,       // ;
  pipe,       // |
  lparen,     // (
  rparen,     // )
};

enum class ReservedWord : uint8_t {
  if_,
  then_,
  else_,
  elif_,
  fi_,
  do_,
  done_,
  case_,
  esac_,
  while_,
  until_,
  for_,
  in_,
  function_,
  select_,
  time_,
  lbrace,
  rbrace,
  bang,
  dlbracket,
  drbracket,
};

/// Blanks (space, tab) and backslash-newline line continuations; matches empty.
bool match_blanks(Cursor& first, Cursor last);
/// `#` up to (not including) the end of the line.
bool match_comment(Cursor& first, Cursor last);
/// A shell NAME: [A-Za-z_][A-Za-z0-9_]*.
bool match_name(Cursor& first, Cursor last);
/// One special parameter character after `$`: @ * # ? $ ! - or a digit.
bool match_special_param(Cursor& first, Cursor last);
/// A run of plain characters of an unquoted word (no quoting, expansion or metacharacter).
bool match_unquoted_run(Cursor& first, Cursor last);
/// A run of plain characters inside "..." (no `"`, `\`, `$`, backquote).
bool match_dquoted_run(Cursor& first, Cursor last);
/// A run of plain characters of a here-document body (no `\`, `$`, backquote).
bool match_heredoc_run(Cursor& first, Cursor last);
/// A run of plain characters of the word inside ${NAME op word} (also stops at `}` and quotes).
bool match_brace_word_run(Cursor& first, Cursor last);
/// '...' with its closing quote.
bool match_single_quoted(Cursor& first, Cursor last);
/// $'...' with its closing quote; `decoded` receives the content with escapes decoded.
bool match_ansi_c_quoted(Cursor& first, Cursor last, std::string& decoded);
/// A control operator, longest match first (`;;&` before `;;` before `;`).
bool match_control_op(Cursor& first, Cursor last, ControlOp& op);
/// A redirection operator, longest match first; `op` receives its spelling.
bool match_redirect_op(Cursor& first, Cursor last, std::string_view& op);
/// A file descriptor number directly followed by `<` or `>` (the `2` of `2>&1`).
bool match_fd_prefix(Cursor& first, Cursor last);
/// NAME=, NAME+= or NAME[subscript]= at the start of a word.
bool match_assignment_head(Cursor& first, Cursor last, std::string_view& name, bool& append);
/// A reserved word followed by a character that ends a word.
bool match_reserved_word(Cursor& first, Cursor last, ReservedWord& word);

/// The spelling of a reserved word, for messages.
std::string_view reserved_word_text(ReservedWord word);

}  // namespace s2a::grammar
