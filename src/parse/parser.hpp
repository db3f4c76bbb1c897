// The command-structure layer of the shell parser: recursive descent over the
// X3 token matchers of grammar/lexical.hpp.
//
// Private to src/parse/. One Parser reads one text; command substitutions are
// parsed by the same Parser in place (so spans are exact and heredocs pending
// on an outer line are found), backquoted commands by a child Parser on the
// unescaped text. Recursion happens only where the input nests, and every
// nesting step passes a depth guard; sequences (lists, pipelines, and-or
// chains, words) are loops.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "grammar/ast.hpp"
#include "grammar/lexical.hpp"
#include "parse/parse_script.hpp"

namespace s2a::parse_detail {

/// A syntax error, thrown inside the parser and caught at its border.
struct ParseError {
  Diagnostic diagnostic;
  bool to_end = false;  // the construct runs to the end of the text: no recovery
  bool fatal = false;   // stop parsing altogether (nesting too deep)
};

class Parser {
 public:
  Parser(std::string_view text, uint32_t base_offset, const ParseLimits& limits,
         uint32_t depth = 0);

  ParseResult run();

 private:
  enum class Context : uint8_t { unquoted, dquoted, heredoc, brace_word };

  struct PendingHeredoc {
    uint32_t key;  // span.begin of the redirect
    Span redirect_span;
    std::string delimiter;
    bool strip_tabs;
    bool quoted;
  };
  struct HeredocBody {
    Span body;
    bool quoted = false;
    std::vector<ast::WordPart> parts;
  };
  class DepthGuard;

  // positions
  [[nodiscard]] uint32_t offset(const char* at) const;
  [[nodiscard]] Span span(const char* from, const char* to) const;
  [[nodiscard]] bool at_end() const { return p_ >= end_; }

  // errors
  [[noreturn]] void fail(Code code, const char* from, const char* to, std::string message,
                         bool to_end = false) const;
  [[noreturn]] void fail_unexpected() const;
  [[nodiscard]] std::string token_text_at(const char* at) const;
  void record(const ParseError& error);

  // tokens
  void skip_blanks();
  void skip_blanks_and_comment();
  void skip_linebreaks();
  void consume_newline();
  bool peek_reserved(grammar::ReservedWord& word) const;
  bool at_reserved(grammar::ReservedWord word) const;
  void consume_reserved(grammar::ReservedWord word);
  bool peek_control(grammar::ControlOp& op) const;
  bool at_control(grammar::ControlOp op) const;
  [[nodiscard]] bool at_redirect() const;
  [[nodiscard]] bool at_word_start() const;

  // structure
  void parse_top_level(ast::List& body);
  void skip_to_next_line(const char* from);
  ast::List parse_list();
  bool at_list_end() const;
  ast::List parse_block(std::string_view after);
  // These four build into `out`, a default-constructed command already in its
  // final place: a Command is large, and moving it up through every level
  // cost more than parsing most commands.
  void parse_and_or(ast::Command& out);
  void parse_pipeline(ast::Command& out);
  void parse_command(ast::Command& out);
  void parse_simple_command(ast::Command& out);
  ast::Command parse_compound(grammar::ReservedWord word);
  void parse_trailing_redirects(ast::Command& command);
  void expect_reserved(grammar::ReservedWord word, const char* opener,
                       std::string_view opener_text);
  ast::Command parse_if();
  ast::Command parse_loop(ast::CommandKind kind);
  ast::Command parse_for(ast::CommandKind kind);
  ast::Command parse_loop_body(ast::Command command);
  ast::Command parse_case();
  ast::Command parse_brace_group();
  ast::Command parse_subshell();
  ast::Command parse_cond_command();
  ast::Command parse_function_keyword();
  ast::Command parse_function_body(ast::Command function);
  bool try_parse_arith_command(ast::Command& command);
  const char* find_arith_end(const char* from) const;
  const char* find_bracket_end(const char* from) const;
  void add_arith(std::vector<ast::WordPart>& parts, const char* start, const char* inner,
                 const char* close, size_t closer_size);
  void skip_subscript();
  ast::Redirect parse_redirect();
  ast::Assignment parse_assignment(const char* value_start, std::string_view name, bool append);
  void parse_array_elements(std::vector<ast::Word>& elements);

  // words
  // Words and parts are built into a default-constructed node already in its
  // final place (`parts.emplace_back()`), as commands are.
  void parse_word(ast::Word& word);
  void drop_trailing_continuations(ast::Word& word) const;
  void parse_parts(Context context, std::vector<ast::WordPart>& parts);
  void add_literal(std::vector<ast::WordPart>& parts, const char* from, const char* to,
                   std::string_view text);
  void parse_escape(Context context, std::vector<ast::WordPart>& parts);
  void parse_dollar(Context context, std::vector<ast::WordPart>& parts);
  void parse_single_quoted(ast::WordPart& part);
  void parse_double_quoted(ast::WordPart& part, const char* start);
  void parse_braced_param(ast::WordPart& part);
  void parse_substitution(ast::WordPart& part, ast::PartKind kind, size_t opener_size);
  void parse_backtick(ast::WordPart& part);

  // heredocs
  void read_pending_heredocs();
  void attach_heredocs(ast::Script& script);

  std::string_view text_;
  const char* begin_;
  const char* end_;
  const char* p_;
  uint32_t base_;
  ParseLimits limits_;
  uint32_t depth_;
  Diagnostics diagnostics_;
  bool had_error_ = false;
  std::vector<PendingHeredoc> pending_;
  std::unordered_map<uint32_t, HeredocBody> heredocs_;
};

}  // namespace s2a::parse_detail
