// The shell AST: enough of bash to know what executes, with byte spans.
//
// Spans are offsets into the text that was parsed plus the base offset given
// to parse_script(), so nodes of a nested script (the argument of
// `bash -c '...'`) point straight into the user's file when the nesting is
// exact (single quotes). The tree owns its children by value; nested scripts
// (command substitutions) are held through shared_ptr because Script is
// incomplete where WordPart is declared.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "source/source_file.hpp"

namespace s2a::ast {

struct Script;

enum class PartKind : uint8_t {
  literal,        // unquoted text; `text` has backslash escapes removed
  single_quoted,  // '...'; `text` is the content
  ansi_c_quoted,  // $'...'; `text` is the content with escapes decoded
  double_quoted,  // "..."; `parts` holds the inner parts
  param,          // $NAME, $1, $@, ${NAME...}; `text` = NAME, `op` = rest inside ${};
                  // `parts` = the parsed word after the operator (${X:-$(hostname)})
  command_subst,  // $(...); `script` is the parsed inside
  backtick,       // `...`; `script` is the parsed inside
  arith,          // $((...)); `text` is the expression as written
  process_subst,  // <(...) or >(...); `script` is the parsed inside
};

struct WordPart {
  PartKind kind = PartKind::literal;
  Span span;                       // the part as written, quotes and `$` included
  std::string text;                // see PartKind
  std::string op;                  // param only: e.g. ":-8" for ${X:-8}, "#" for ${#X}
  std::vector<WordPart> parts;     // double_quoted; param: the word after the operator
  std::shared_ptr<Script> script;  // command_subst, backtick, process_subst
  Span inner;                      // content span (inside quotes / $( ) / ${ })
};

struct Word {
  Span span;
  std::vector<WordPart> parts;
  // `declare -a X=(a b)` (also local/export/readonly/typeset): bash parses the
  // NAME=(...) argument as an array; `parts` then holds only the literal
  // "NAME=" (or "NAME+=") and the elements are here.
  std::vector<Word> array_elements;
};

struct Assignment {
  Span span;          // NAME=value as written
  std::string name;
  bool append = false;  // NAME+=value
  Word value;           // may have no parts (NAME=)
  bool is_array = false;  // NAME=(a b c); elements in `elements`
  std::vector<Word> elements;
};

struct Redirect {
  Span span;
  std::string fd;     // "2" in 2>file, empty when not given
  std::string op;     // > >> < << <<- <<< >& <& &> &>> <> >|
  Word target;        // file, fd, here-string word, or heredoc delimiter word
  // Heredocs (op << or <<-): the body lines between the redirect's line and
  // the delimiter line, and whether the delimiter was quoted (no expansion).
  Span heredoc_body;
  bool heredoc_quoted = false;
  std::vector<WordPart> heredoc_parts;  // expansions inside an unquoted body
};

enum class CommandKind : uint8_t {
  simple,       // assignments, words, redirects
  pipeline,     // `children` are the stages; `negated` for `! a | b`
  and_or,       // `children` joined by `ops` ("&&" / "||")
  subshell,     // ( list ): blocks[0]
  brace_group,  // { list; }: blocks[0]
  if_clause,    // blocks: cond, then, [elif-cond, elif-then]..., [else]
  for_clause,   // name, words (the `in` list; absent = "$@"), blocks[0] body
  arith_for,    // for (( ... )): text, blocks[0] body
  while_clause, // blocks: cond, body
  until_clause, // blocks: cond, body
  case_clause,  // words[0] = subject; case_items
  select_clause,
  function_def,  // name; blocks[0] = body (as a one-item list)
  arith_command, // (( ... )): text
  cond_command,  // [[ ... ]]: words are the operands as written
};

struct List;
struct CaseItem;

struct Command {
  CommandKind kind = CommandKind::simple;
  Span span;
  // simple
  std::vector<Assignment> assignments;
  std::vector<Word> words;
  std::vector<Redirect> redirects;  // also redirects applied to a compound command
  // compound
  std::vector<Command> children;  // pipeline stages, and_or operands
  std::vector<std::string> ops;   // and_or ("&&"/"||") or pipeline ("|"/"|&") operators,
                                  // size = children.size() - 1
  bool negated = false;           // pipeline `!`
  bool timed = false;             // `time` prefix (on the pipeline or single command it times)
  std::vector<List> blocks;       // see CommandKind
  std::vector<CaseItem> case_items;
  std::string name;  // for/select variable, function name
  std::string text;  // arith_for / arith_command expression
};

/// One item of a list: an and-or chain (or a single command) with its terminator.
struct ListItem {
  Span span;
  Command command;
  bool background = false;  // terminated by `&`
};

struct List {
  Span span;
  std::vector<ListItem> items;
};

struct CaseItem {
  Span span;
  std::vector<Word> patterns;
  List body;
  std::string terminator;  // ";;", ";&", ";;&" or empty for the last item
};

struct Script {
  Span span;
  List body;
};

}  // namespace s2a::ast
