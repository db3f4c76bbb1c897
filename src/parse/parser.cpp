// Recursive descent over the X3 token matchers: lists, pipelines, compound
// commands, words and their parts, heredocs, with error recovery.
//
// See parser.hpp for the shape. Error messages follow bash's wording where a
// user would recognise it ("syntax error near unexpected token") and name the
// unclosed construct otherwise.
#include "parse/parser.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace s2a::parse_detail {

using grammar::ControlOp;
using grammar::ReservedWord;

namespace {

// Byte classes, looked up instead of searched: the parser asks these per token.
struct ByteClasses {
  bool word_end[256] = {};        // blank, newline, metacharacter
  bool reserved_start[256] = {};  // first byte of some reserved word
  // The first two bytes of some reserved word (of `{`, `}`, `!`: the byte
  // and any other), one bit per pair: `echo`, `srun` and `cd` start with a
  // letter some reserved word starts with, but not with the first two.
  uint64_t reserved_head[256 * 256 / 64] = {};
  bool control_start[256] = {};   // first byte of a control operator
  bool redirect_start[256] = {};  // first byte of a redirection (fd digit or operator)
  bool name_start[256] = {};
  constexpr ByteClasses() {
    for (char c : std::string_view(" \t\n;&|()<>")) word_end[static_cast<unsigned char>(c)] = true;
    // The words of grammar::ReservedWord.
    for (std::string_view word : {"if",     "then", "else",  "elif",  "fi",  "do", "done",
                                  "case",   "esac", "while", "until", "for", "in", "function",
                                  "select", "time", "{",     "}",     "!",   "[[", "]]"}) {
      const auto first = static_cast<unsigned char>(word[0]);
      reserved_start[first] = true;
      for (int second = 0; second < 256; ++second) {
        if (word.size() == 1 || second == static_cast<unsigned char>(word[1])) {
          const int pair = first * 256 + second;
          reserved_head[pair / 64] |= uint64_t{1} << (pair % 64);
        }
      }
    }
    for (char c : std::string_view("&|;()")) control_start[static_cast<unsigned char>(c)] = true;
    for (char c : std::string_view("<>&0123456789"))
      redirect_start[static_cast<unsigned char>(c)] = true;
    for (int c = 'a'; c <= 'z'; ++c) name_start[c] = name_start[c - 'a' + 'A'] = true;
    name_start[static_cast<unsigned char>('_')] = true;
  }
};
constexpr ByteClasses kBytes;

bool is_word_end(char c) { return kBytes.word_end[static_cast<unsigned char>(c)]; }

bool may_start_reserved_word(char first, char second) {
  const int pair = static_cast<unsigned char>(first) * 256 + static_cast<unsigned char>(second);
  return (kBytes.reserved_head[pair / 64] >> (pair % 64) & 1) != 0;
}

// memchr jumps from line to line; std::count widened every byte to a 64-bit
// counter and cost three instructions a byte.
size_t count_lines(const char* from, const char* to) {
  size_t lines = 0;
  while (from < to) {
    const auto* newline =
        static_cast<const char*>(std::memchr(from, '\n', static_cast<size_t>(to - from)));
    if (newline == nullptr) break;
    ++lines;
    from = newline + 1;
  }
  return lines;
}

// Fills a new, empty string with [from, to). Assigning went through
// std::string's general replace (overlap checks, moving the tail), which
// cost more than the copy for the short names and texts of the tree.
void set_text(std::string& empty, const char* from, const char* to) {
  empty.append(from, static_cast<size_t>(to - from));
}

std::string quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

bool is_closer(ReservedWord word) {
  switch (word) {
    case ReservedWord::then_:
    case ReservedWord::else_:
    case ReservedWord::elif_:
    case ReservedWord::fi_:
    case ReservedWord::do_:
    case ReservedWord::done_:
    case ReservedWord::esac_:
    case ReservedWord::rbrace:
      return true;
    default:
      return false;
  }
}

bool is_declaration_command(const ast::Word& word) {
  if (word.parts.size() != 1 || word.parts[0].kind != ast::PartKind::literal) return false;
  const std::string& t = word.parts[0].text;
  // bash also reads `NAME=(...)` as one word after `let`, `eval` and `alias`.
  return t == "export" || t == "declare" || t == "local" || t == "readonly" || t == "typeset" ||
         t == "let" || t == "eval" || t == "alias";
}

}  // namespace

// Counts one level of nesting for as long as it lives; too deep is fatal.
class Parser::DepthGuard {
 public:
  DepthGuard(Parser& parser, const char* at) : parser_(parser) {
    if (++parser_.depth_ > parser_.limits_.max_depth) {
      --parser_.depth_;
      ParseError error{
          Diagnostic{Code::nesting_too_deep, parser_.span(at, at + 1),
                     "commands nest deeper than " + std::to_string(parser_.limits_.max_depth) +
                         " levels; the rest of the script is not analysed",
                     "split the nested commands into functions or separate scripts"},
          true, true};
      throw error;
    }
  }
  ~DepthGuard() { --parser_.depth_; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

 private:
  Parser& parser_;
};

Parser::Parser(std::string_view text, uint32_t base_offset, const ParseLimits& limits,
               uint32_t depth)
    : text_(text),
      begin_(text.data()),
      end_(text.data() + text.size()),
      p_(text.data()),
      base_(base_offset),
      limits_(limits),
      depth_(depth) {}

// ---------------------------------------------------------------------------
// positions and errors

uint32_t Parser::offset(const char* at) const { return base_ + static_cast<uint32_t>(at - begin_); }

Span Parser::span(const char* from, const char* to) const { return {offset(from), offset(to)}; }

void Parser::fail(Code code, const char* from, const char* to, std::string message,
                  bool to_end) const {
  throw ParseError{Diagnostic{code, span(from, to), std::move(message)}, to_end, false};
}

std::string Parser::token_text_at(const char* at) const {
  if (at >= end_) return "end of file";
  if (*at == '\n') return "newline";
  const char* it = at;
  std::string_view redirect;
  ControlOp op{};
  grammar::match_fd_prefix(it, end_);
  if (grammar::match_redirect_op(it, end_, redirect) || grammar::match_control_op(it, end_, op)) {
    return std::string(at, it);
  }
  while (it < end_ && !is_word_end(*it)) ++it;
  if (it == at) ++it;
  return std::string(at, std::min<size_t>(static_cast<size_t>(it - at), 40));
}

void Parser::fail_unexpected() const {
  if (at_end()) {
    fail(Code::shell_syntax_error, p_, p_, "syntax error: unexpected end of file", true);
  }
  std::string token = token_text_at(p_);
  fail(Code::shell_syntax_error, p_, p_ + (token == "newline" ? 1 : token.size()),
       "syntax error near unexpected token " + quoted(token));
}

void Parser::record(const ParseError& error) {
  had_error_ = had_error_ || error.diagnostic.severity() == Severity::error;
  diagnostics_.push_back(error.diagnostic);
}

// ---------------------------------------------------------------------------
// tokens

void Parser::skip_blanks() {
  // Most gaps are a space or two, skipped here; the blanks rule is called
  // only for a line continuation, which it skips with any blanks after it.
  while (p_ < end_ && (*p_ == ' ' || *p_ == '\t')) ++p_;
  if (p_ < end_ && *p_ == '\\') grammar::match_blanks(p_, end_);
}

void Parser::skip_blanks_and_comment() {
  skip_blanks();
  if (!at_end() && *p_ == '#') grammar::match_comment(p_, end_);
}

void Parser::skip_linebreaks() {
  for (;;) {
    skip_blanks_and_comment();
    if (at_end() || *p_ != '\n') return;
    consume_newline();
  }
}

void Parser::consume_newline() {
  ++p_;
  if (!pending_.empty()) read_pending_heredocs();
}

bool Parser::peek_reserved(ReservedWord& word) const {
  if (at_end() || !kBytes.reserved_start[static_cast<unsigned char>(*p_)]) return false;
  if (end_ - p_ >= 2 && !may_start_reserved_word(p_[0], p_[1])) return false;
  const char* it = p_;
  return grammar::match_reserved_word(it, end_, word);
}

bool Parser::at_reserved(ReservedWord word) const {
  ReservedWord found{};
  return peek_reserved(found) && found == word;
}

void Parser::consume_reserved(ReservedWord word) { p_ += grammar::reserved_word_text(word).size(); }

bool Parser::peek_control(ControlOp& op) const {
  if (at_end() || !kBytes.control_start[static_cast<unsigned char>(*p_)]) return false;
  const char* it = p_;
  return grammar::match_control_op(it, end_, op);
}

bool Parser::at_control(ControlOp op) const {
  ControlOp found{};
  return peek_control(found) && found == op;
}

bool Parser::at_redirect() const {
  if (at_end() || !kBytes.redirect_start[static_cast<unsigned char>(*p_)]) return false;
  const char* it = p_;
  std::string_view op;
  grammar::match_fd_prefix(it, end_);
  if (!grammar::match_redirect_op(it, end_, op)) return false;
  // <(...) and >(...) are process substitutions, i.e. words.
  return !(it == p_ + 1 && it < end_ && *it == '(');
}

bool Parser::at_word_start() const {
  if (at_end()) return false;
  if ((*p_ == '<' || *p_ == '>') && p_ + 1 < end_ && p_[1] == '(') return true;
  return !is_word_end(*p_);
}

// ---------------------------------------------------------------------------
// lists

ParseResult Parser::run() {
  ParseResult result;
  result.script.span = span(begin_, end_);
  result.script.body.span = result.script.span;
  // Growing the statement list moves every (large) command built so far; a
  // statement per line is a good upper estimate for scripts.
  constexpr size_t kMaxReserved = 4096;
  const size_t lines = count_lines(begin_, end_);
  result.script.body.items.reserve(std::min(lines / 2 + 1, kMaxReserved));
  try {
    parse_top_level(result.script.body);
  } catch (const ParseError& error) {  // only fatal errors get here
    record(error);
  }
  attach_heredocs(result.script);
  result.diagnostics = std::move(diagnostics_);
  result.complete = !had_error_;
  return result;
}

void Parser::parse_top_level(ast::List& body) {
  for (;;) {
    try {
      skip_linebreaks();
      if (at_end()) return;
      if (at_list_end()) {
        // After an error, a stray closer (the `fi` of a broken `if`) is noise.
        if (had_error_) {
          skip_to_next_line(p_);
          continue;
        }
        fail_unexpected();
      }
      const char* start = p_;
      // Built in place; a half-built item is dropped again if parsing fails.
      ast::ListItem& item = body.items.emplace_back();
      try {
        parse_and_or(item.command);
        item.span = item.command.span;
        skip_blanks();
        ControlOp op{};
        if (peek_control(op) && (op == ControlOp::semi || op == ControlOp::amp)) {
          item.background = op == ControlOp::amp;
          ++p_;
          item.span = span(start, p_);
        } else if (!at_end() && *p_ != '\n' && *p_ != '#') {
          fail_unexpected();
        }
      } catch (...) {
        body.items.pop_back();
        throw;
      }
    } catch (const ParseError& error) {
      if (error.fatal) throw;
      record(error);
      pending_.clear();
      if (error.to_end) {
        p_ = end_;
        return;
      }
      skip_to_next_line(std::max(p_, begin_ + (error.diagnostic.span.end - base_)));
    }
  }
}

void Parser::skip_to_next_line(const char* from) {
  from = std::min(from, end_);
  const char* newline =
      static_cast<const char*>(std::memchr(from, '\n', static_cast<size_t>(end_ - from)));
  p_ = newline ? newline + 1 : end_;
}

bool Parser::at_list_end() const {
  ControlOp op{};
  if (peek_control(op)) {
    return op == ControlOp::rparen || op == ControlOp::dsemi || op == ControlOp::semi_and ||
           op == ControlOp::dsemi_and;
  }
  ReservedWord word{};
  return peek_reserved(word) && is_closer(word);
}

ast::List Parser::parse_list() {
  ast::List list;
  skip_linebreaks();
  const char* list_start = p_;
  const char* list_end = p_;
  while (!at_end() && !at_list_end()) {
    const char* start = p_;
    ast::ListItem& item = list.items.emplace_back();
    parse_and_or(item.command);
    item.span = item.command.span;
    list_end = p_;
    skip_blanks();
    ControlOp op{};
    if (peek_control(op) && (op == ControlOp::semi || op == ControlOp::amp)) {
      item.background = op == ControlOp::amp;
      ++p_;
      item.span = span(start, p_);
      list_end = p_;
    } else if (!at_end() && *p_ != '\n' && *p_ != '#' && !at_list_end()) {
      fail_unexpected();
    }
    skip_linebreaks();
  }
  list.span = span(list_start, std::max(list_start, list_end));
  return list;
}

// A compound command's inner list, which bash requires to be non-empty.
ast::List Parser::parse_block(std::string_view after) {
  ast::List list = parse_list();
  if (list.items.empty()) {
    if (at_end()) fail_unexpected();
    std::string token = token_text_at(p_);
    fail(Code::shell_syntax_error, p_, p_ + token.size(),
         "syntax error near unexpected token " + quoted(token) + ": bash needs a command after " +
             quoted(after));
  }
  return list;
}

// `a && b || c`: the first pipeline is parsed into `out`; only a real and-or
// list moves it down into children.
void Parser::parse_and_or(ast::Command& out) {
  parse_pipeline(out);
  skip_blanks();
  ControlOp op{};
  if (!peek_control(op) || (op != ControlOp::and_if && op != ControlOp::or_if)) return;
  ast::Command first = std::move(out);
  out = ast::Command{};
  out.kind = ast::CommandKind::and_or;
  out.span = first.span;
  out.children.push_back(std::move(first));
  while (peek_control(op) && (op == ControlOp::and_if || op == ControlOp::or_if)) {
    out.ops.emplace_back(op == ControlOp::and_if ? "&&" : "||");
    p_ += 2;
    skip_linebreaks();
    parse_pipeline(out.children.emplace_back());
    out.span.end = out.children.back().span.end;
    skip_blanks();
  }
}

void Parser::parse_pipeline(ast::Command& out) {
  const char* start = p_;
  bool timed = false;
  bool negated = false;
  // One look at the word per prefix: most commands start with a letter of
  // some reserved word (`echo`, `srun`), and every look costs a lookup.
  for (ReservedWord word{}; peek_reserved(word);) {
    if (word == ReservedWord::time_) {
      consume_reserved(ReservedWord::time_);
      timed = true;
      skip_blanks();
      if (end_ - p_ >= 2 && p_[0] == '-' && p_[1] == 'p' &&
          (p_ + 2 == end_ || is_word_end(p_[2]))) {
        p_ += 2;
        skip_blanks();
      }
    } else if (word == ReservedWord::bang) {
      consume_reserved(ReservedWord::bang);
      negated = !negated;
      skip_blanks();
    } else {
      break;
    }
  }
  if ((timed || negated) && (at_end() || *p_ == '\n' || *p_ == '#' || at_list_end() ||
                             at_control(ControlOp::semi) || at_control(ControlOp::amp))) {
    out.timed = timed;  // `time` or `!` alone: valid, runs nothing
    out.negated = negated;
    out.span = span(start, p_);
    return;
  }
  parse_command(out);
  skip_blanks();
  ControlOp op{};
  bool is_pipe = peek_control(op) && (op == ControlOp::pipe || op == ControlOp::pipe_and);
  if (!is_pipe && !negated) {
    out.timed = out.timed || timed;
    if (timed) out.span.begin = offset(start);
    return;
  }
  ast::Command first = std::move(out);
  out = ast::Command{};
  out.kind = ast::CommandKind::pipeline;
  out.negated = negated;
  out.timed = timed;
  out.span = {offset(start), first.span.end};
  out.children.push_back(std::move(first));
  while (peek_control(op) && (op == ControlOp::pipe || op == ControlOp::pipe_and)) {
    out.ops.emplace_back(op == ControlOp::pipe ? "|" : "|&");
    p_ += op == ControlOp::pipe ? 1 : 2;
    skip_linebreaks();
    parse_command(out.children.emplace_back());
    out.span.end = out.children.back().span.end;
    skip_blanks();
  }
}

// ---------------------------------------------------------------------------
// commands

void Parser::parse_command(ast::Command& out) {
  skip_blanks();
  ReservedWord word{};
  if (peek_reserved(word)) {
    switch (word) {
      case ReservedWord::if_:
      case ReservedWord::for_:
      case ReservedWord::while_:
      case ReservedWord::until_:
      case ReservedWord::case_:
      case ReservedWord::select_:
      case ReservedWord::lbrace:
      case ReservedWord::dlbracket:
      case ReservedWord::function_: {
        out = parse_compound(word);
        if (out.kind != ast::CommandKind::function_def) parse_trailing_redirects(out);
        return;
      }
      case ReservedWord::in_:
      case ReservedWord::drbracket:
        break;  // ordinary words in command position
      default:
        fail_unexpected();
    }
  }
  if (at_control(ControlOp::lparen)) {
    DepthGuard guard(*this, p_);
    if (!try_parse_arith_command(out)) out = parse_subshell();
    parse_trailing_redirects(out);
    return;
  }
  parse_simple_command(out);
}

ast::Command Parser::parse_compound(ReservedWord word) {
  DepthGuard guard(*this, p_);
  switch (word) {
    case ReservedWord::if_:
      return parse_if();
    case ReservedWord::for_:
      return parse_for(ast::CommandKind::for_clause);
    case ReservedWord::select_:
      return parse_for(ast::CommandKind::select_clause);
    case ReservedWord::while_:
      return parse_loop(ast::CommandKind::while_clause);
    case ReservedWord::until_:
      return parse_loop(ast::CommandKind::until_clause);
    case ReservedWord::case_:
      return parse_case();
    case ReservedWord::lbrace:
      return parse_brace_group();
    case ReservedWord::dlbracket:
      return parse_cond_command();
    default:
      return parse_function_keyword();
  }
}

void Parser::parse_trailing_redirects(ast::Command& command) {
  for (;;) {
    const char* save = p_;
    skip_blanks();
    if (!at_redirect()) {
      p_ = save;
      return;
    }
    command.redirects.push_back(parse_redirect());
    command.span.end = command.redirects.back().span.end;
  }
}

void Parser::expect_reserved(ReservedWord word, const char* opener, std::string_view opener_text) {
  skip_linebreaks();
  if (peek_reserved(word)) {
    consume_reserved(word);
    return;
  }
  if (at_end()) {
    fail(Code::shell_syntax_error, opener, opener + opener_text.size(),
         "syntax error: " + quoted(opener_text) + " without matching " +
             quoted(grammar::reserved_word_text(word)),
         true);
  }
  fail_unexpected();
}

ast::Command Parser::parse_if() {
  ast::Command command;
  command.kind = ast::CommandKind::if_clause;
  const char* start = p_;
  consume_reserved(ReservedWord::if_);
  const char* keyword = start;
  std::string_view keyword_text = "if";
  for (;;) {
    command.blocks.push_back(parse_block(keyword_text));
    expect_reserved(ReservedWord::then_, keyword, keyword_text);
    command.blocks.push_back(parse_block("then"));
    skip_linebreaks();
    if (at_reserved(ReservedWord::elif_)) {
      keyword = p_;
      keyword_text = "elif";
      consume_reserved(ReservedWord::elif_);
      continue;
    }
    if (at_reserved(ReservedWord::else_)) {
      consume_reserved(ReservedWord::else_);
      command.blocks.push_back(parse_block("else"));
    }
    break;
  }
  expect_reserved(ReservedWord::fi_, start, "if");
  command.span = span(start, p_);
  return command;
}

ast::Command Parser::parse_loop(ast::CommandKind kind) {
  ast::Command command;
  command.kind = kind;
  const char* start = p_;
  std::string_view keyword = kind == ast::CommandKind::while_clause ? "while" : "until";
  p_ += keyword.size();
  command.blocks.push_back(parse_block(keyword));
  expect_reserved(ReservedWord::do_, start, keyword);
  command.blocks.push_back(parse_block("do"));
  expect_reserved(ReservedWord::done_, start, keyword);
  command.span = span(start, p_);
  return command;
}

ast::Command Parser::parse_for(ast::CommandKind kind) {
  ast::Command command;
  command.kind = kind;
  const char* start = p_;
  std::string_view keyword = kind == ast::CommandKind::for_clause ? "for" : "select";
  p_ += keyword.size();
  command.span = span(start, p_);
  skip_blanks();
  if (kind == ast::CommandKind::for_clause && end_ - p_ >= 2 && p_[0] == '(' && p_[1] == '(') {
    const char* close = find_arith_end(p_ + 2);
    if (close == nullptr) {
      fail(Code::unterminated_substitution, p_, p_ + 2,
           "unterminated arithmetic \"((\" starting here", true);
    }
    command.kind = ast::CommandKind::arith_for;
    set_text(command.text, p_ + 2, close);
    p_ = close + 2;
    skip_blanks();
    if (at_control(ControlOp::semi)) ++p_;
  } else {
    // bash checks the name when the loop runs, not when it parses it.
    const char* name_start = p_;
    if (!at_word_start()) fail_unexpected();
    ast::Word name;  // kept as written
    parse_word(name);
    set_text(command.name, name_start, p_);
    skip_linebreaks();
    if (at_reserved(ReservedWord::in_)) {
      consume_reserved(ReservedWord::in_);
      for (;;) {
        skip_blanks_and_comment();
        if (!at_word_start()) break;
        parse_word(command.words.emplace_back());
      }
      if (at_control(ControlOp::semi)) {
        ++p_;
      } else if (!at_end() && *p_ == '\n') {
        consume_newline();
      } else {
        fail_unexpected();
      }
    } else if (at_control(ControlOp::semi)) {
      ++p_;
    }
  }
  command = parse_loop_body(std::move(command));
  command.span = span(start, p_);
  return command;
}

// `do list done`, or bash's `{ list; }` alternative.
ast::Command Parser::parse_loop_body(ast::Command command) {
  skip_linebreaks();
  if (at_reserved(ReservedWord::lbrace)) {
    ast::Command group = parse_brace_group();
    ast::List body;
    body.span = group.span;
    body.items.push_back(ast::ListItem{group.span, std::move(group), false});
    command.blocks.push_back(std::move(body));
    return command;
  }
  const char* keyword = begin_ + (command.span.begin - base_);
  if (!at_reserved(ReservedWord::do_)) fail_unexpected();
  consume_reserved(ReservedWord::do_);
  command.blocks.push_back(parse_block("do"));
  expect_reserved(ReservedWord::done_, keyword, "do");
  return command;
}

ast::Command Parser::parse_case() {
  ast::Command command;
  command.kind = ast::CommandKind::case_clause;
  const char* start = p_;
  consume_reserved(ReservedWord::case_);
  skip_blanks();
  if (!at_word_start()) fail_unexpected();
  parse_word(command.words.emplace_back());
  skip_linebreaks();
  if (!at_reserved(ReservedWord::in_)) {
    if (at_end()) {
      fail(Code::shell_syntax_error, start, start + 4,
           "syntax error: \"case\" without matching \"in\"", true);
    }
    fail_unexpected();
  }
  consume_reserved(ReservedWord::in_);
  for (;;) {
    skip_linebreaks();
    if (at_reserved(ReservedWord::esac_)) {
      consume_reserved(ReservedWord::esac_);
      break;
    }
    if (at_end()) {
      fail(Code::shell_syntax_error, start, start + 4,
           "syntax error: \"case\" without matching \"esac\"", true);
    }
    ast::CaseItem item;
    const char* item_start = p_;
    if (at_control(ControlOp::lparen)) ++p_;
    for (;;) {
      skip_blanks();
      if (!at_word_start()) fail_unexpected();
      parse_word(item.patterns.emplace_back());
      skip_blanks();
      ControlOp op{};
      if (!peek_control(op)) fail_unexpected();
      if (op == ControlOp::pipe) {
        ++p_;
        continue;
      }
      if (op != ControlOp::rparen) fail_unexpected();
      ++p_;
      break;
    }
    item.body = parse_list();
    ControlOp op{};
    if (peek_control(op) &&
        (op == ControlOp::dsemi || op == ControlOp::semi_and || op == ControlOp::dsemi_and)) {
      item.terminator = op == ControlOp::dsemi ? ";;" : op == ControlOp::semi_and ? ";&" : ";;&";
      p_ += item.terminator.size();
    } else if (!at_reserved(ReservedWord::esac_)) {
      if (at_end()) {
        fail(Code::shell_syntax_error, start, start + 4,
             "syntax error: \"case\" without matching \"esac\"", true);
      }
      fail_unexpected();
    }
    item.span = span(item_start, p_);
    command.case_items.push_back(std::move(item));
  }
  command.span = span(start, p_);
  return command;
}

ast::Command Parser::parse_brace_group() {
  ast::Command command;
  command.kind = ast::CommandKind::brace_group;
  const char* start = p_;
  consume_reserved(ReservedWord::lbrace);
  command.blocks.push_back(parse_block("{"));
  expect_reserved(ReservedWord::rbrace, start, "{");
  command.span = span(start, p_);
  return command;
}

ast::Command Parser::parse_subshell() {
  ast::Command command;
  command.kind = ast::CommandKind::subshell;
  const char* start = p_;
  ++p_;
  command.blocks.push_back(parse_block("("));
  skip_linebreaks();
  if (!at_control(ControlOp::rparen)) {
    if (at_end()) {
      fail(Code::shell_syntax_error, start, start + 1, "syntax error: \"(\" without matching \")\"",
           true);
    }
    fail_unexpected();
  }
  ++p_;
  command.span = span(start, p_);
  return command;
}

// [[ ... ]]: the operands and operators as words, up to `]]`.
ast::Command Parser::parse_cond_command() {
  ast::Command command;
  command.kind = ast::CommandKind::cond_command;
  const char* start = p_;
  consume_reserved(ReservedWord::dlbracket);
  for (;;) {
    skip_blanks_and_comment();
    if (at_end()) {
      fail(Code::shell_syntax_error, start, start + 2,
           "syntax error: \"[[\" without matching \"]]\"", true);
    }
    if (*p_ == '\n') {
      consume_newline();
      continue;
    }
    if (at_reserved(ReservedWord::drbracket)) {
      consume_reserved(ReservedWord::drbracket);
      break;
    }
    if (at_word_start()) {
      parse_word(command.words.emplace_back());
      continue;
    }
    // An operator character inside [[ ]] (&&, ||, (, ), <, >) is an operand here.
    const char* op_start = p_;
    ControlOp op{};
    std::string_view redirect;
    if (!grammar::match_control_op(p_, end_, op) &&
        !grammar::match_redirect_op(p_, end_, redirect)) {
      ++p_;
    }
    ast::Word word;
    word.span = span(op_start, p_);
    add_literal(word.parts, op_start, p_,
                std::string_view(op_start, static_cast<size_t>(p_ - op_start)));
    command.words.push_back(std::move(word));
  }
  command.span = span(start, p_);
  return command;
}

ast::Command Parser::parse_function_keyword() {
  ast::Command command;
  command.kind = ast::CommandKind::function_def;
  const char* start = p_;
  consume_reserved(ReservedWord::function_);
  skip_blanks();
  if (!at_word_start()) fail_unexpected();
  const char* name_start = p_;
  ast::Word name;  // kept as written
  parse_word(name);
  set_text(command.name, name_start, p_);
  skip_blanks();
  if (at_control(ControlOp::lparen)) {
    ++p_;
    skip_blanks();
    if (!at_control(ControlOp::rparen)) fail_unexpected();
    ++p_;
  }
  command.span = span(start, p_);
  return parse_function_body(std::move(command));
}

ast::Command Parser::parse_function_body(ast::Command function) {
  skip_linebreaks();
  ReservedWord word{};
  bool compound = at_control(ControlOp::lparen);
  if (peek_reserved(word)) {
    compound = word == ReservedWord::lbrace || word == ReservedWord::if_ ||
               word == ReservedWord::for_ || word == ReservedWord::while_ ||
               word == ReservedWord::until_ || word == ReservedWord::case_ ||
               word == ReservedWord::select_ || word == ReservedWord::dlbracket;
  }
  if (!compound) fail_unexpected();
  ast::List& list = function.blocks.emplace_back();
  ast::ListItem& item = list.items.emplace_back();
  parse_command(item.command);
  item.span = list.span = item.command.span;
  function.span.end = item.command.span.end;
  return function;
}

namespace {

/// The first error of a nested parse that bash would report as a syntax
/// error; a nesting limit is the translation's own and stays fatal.
const Diagnostic* syntax_error_in(const ParseResult& result) {
  for (const Diagnostic& d : result.diagnostics) {
    if (d.severity() == Severity::error && d.code != Code::nesting_too_deep) return &d;
  }
  return nullptr;
}

}  // namespace

/// The `]` that closes a `[` opened just before `from`, nested brackets
/// counted; null when there is none.
const char* Parser::find_bracket_end(const char* from) const {
  int depth = 0;
  for (const char* it = from; it < end_; ++it) {
    const char c = *it;
    if (c == '[') {
      ++depth;
    } else if (c == ']') {
      if (depth == 0) return it;
      --depth;
    } else if (c == '\\' && it + 1 < end_) {
      ++it;
    }
  }
  return nullptr;
}

// Finds the `))` closing an arithmetic expression that starts at `from`;
// nullptr when the parentheses do not close that way (then it is a subshell).
const char* Parser::find_arith_end(const char* from) const {
  int depth = 0;
  for (const char* it = from; it < end_; ++it) {
    char c = *it;
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (depth == 0) return (it + 1 < end_ && it[1] == ')') ? it : nullptr;
      --depth;
    } else if (c == '\\' && it + 1 < end_) {
      ++it;
    }
  }
  return nullptr;
}

bool Parser::try_parse_arith_command(ast::Command& command) {
  if (end_ - p_ < 2 || p_[1] != '(') return false;
  const char* close = find_arith_end(p_ + 2);
  if (close == nullptr) return false;
  command.kind = ast::CommandKind::arith_command;
  set_text(command.text, p_ + 2, close);
  command.span = span(p_, close + 2);
  p_ = close + 2;
  return true;
}

void Parser::parse_simple_command(ast::Command& command) {
  const char* start = p_;
  const char* last_end = p_;
  for (;;) {
    skip_blanks();
    if (at_end() || *p_ == '\n' || *p_ == '#') break;
    if (at_redirect()) {
      command.redirects.push_back(parse_redirect());
    } else if (at_word_start()) {
      const char* word_start = p_;
      const char* it = p_;
      std::string_view name;
      bool append = false;
      bool assignment_like = kBytes.name_start[static_cast<unsigned char>(*p_)] &&
                             grammar::match_assignment_head(it, end_, name, append);
      if (assignment_like && command.words.empty()) {
        command.assignments.push_back(parse_assignment(it, name, append));
      } else if (assignment_like && it < end_ && *it == '(' &&
                 is_declaration_command(command.words.front())) {
        ast::Word word;
        add_literal(word.parts, word_start, it,
                    std::string_view(word_start, static_cast<size_t>(it - word_start)));
        p_ = it;
        parse_array_elements(word.array_elements);
        // The word goes on after the `)`: `let m=(t/60)%60`.
        if (at_word_start()) {
          ast::Word rest;
          parse_word(rest);
          for (ast::WordPart& part : rest.parts) word.parts.push_back(std::move(part));
        }
        word.span = span(word_start, p_);
        command.words.push_back(std::move(word));
      } else {
        // Most commands have a handful of words; growing 1, 2, 4, 8 moved them.
        if (command.words.empty()) command.words.reserve(8);
        parse_word(command.words.emplace_back());
      }
    } else if (at_control(ControlOp::lparen) && command.words.size() == 1 &&
               command.assignments.empty() && command.redirects.empty()) {
      // name() compound-command
      ++p_;
      skip_blanks();
      if (!at_control(ControlOp::rparen)) fail_unexpected();
      ++p_;
      ast::Command function;
      function.kind = ast::CommandKind::function_def;
      set_text(function.name, start, begin_ + (command.words[0].span.end - base_));
      function.span = span(start, p_);
      command = parse_function_body(std::move(function));
      return;
    } else {
      break;
    }
    last_end = p_;
  }
  if (last_end == start) fail_unexpected();
  command.span = span(start, last_end);
  p_ = last_end;
}

ast::Assignment Parser::parse_assignment(const char* value_start, std::string_view name,
                                         bool append) {
  ast::Assignment assignment;
  const char* start = p_;
  set_text(assignment.name, start, value_start - (append ? 2 : 1));
  (void)name;
  assignment.append = append;
  p_ = value_start;
  if (!at_end() && *p_ == '(') {
    assignment.is_array = true;
    parse_array_elements(assignment.elements);
    assignment.value.span = span(value_start, value_start);
  } else {
    parse_word(assignment.value);
  }
  assignment.span = span(start, p_);
  return assignment;
}

void Parser::parse_array_elements(std::vector<ast::Word>& elements) {
  const char* open = p_;
  DepthGuard guard(*this, open);
  ++p_;
  for (;;) {
    skip_linebreaks();
    if (at_end()) {
      fail(Code::shell_syntax_error, open, open + 1,
           "syntax error: array \"(\" without matching \")\"", true);
    }
    if (*p_ == ')') {
      ++p_;
      return;
    }
    if (!at_word_start()) fail_unexpected();
    parse_word(elements.emplace_back());
  }
}

ast::Redirect Parser::parse_redirect() {
  ast::Redirect redirect;
  const char* start = p_;
  const char* fd_end = p_;
  grammar::match_fd_prefix(fd_end, end_);
  set_text(redirect.fd, start, fd_end);
  p_ = fd_end;
  std::string_view op;
  grammar::match_redirect_op(p_, end_, op);
  redirect.op = op;
  skip_blanks();
  if (!at_word_start()) fail_unexpected();
  parse_word(redirect.target);
  redirect.span = span(start, p_);
  if (op == "<<" || op == "<<-") {
    PendingHeredoc pending;
    pending.key = redirect.span.begin;
    pending.redirect_span = redirect.span;
    pending.strip_tabs = op == "<<-";
    pending.quoted = false;
    // The delimiter is the word after quote removal; any quoting disables expansion.
    const char* word_begin = begin_ + (redirect.target.span.begin - base_);
    for (const char* it = word_begin; it < p_; ++it) {
      if (*it == '\'' || *it == '"') {
        pending.quoted = true;
      } else if (*it == '\\' && it + 1 < p_) {
        pending.quoted = true;
        pending.delimiter += *++it;
      } else {
        pending.delimiter += *it;
      }
    }
    redirect.heredoc_quoted = pending.quoted;
    pending_.push_back(std::move(pending));
  }
  return redirect;
}

// ---------------------------------------------------------------------------
// words

// Builds into `word`, a default-constructed word already in its final place
// (as the parts below): moving a finished word or part into its vector, and
// destroying the moved-from one, cost more than building most of them.
void Parser::parse_word(ast::Word& word) {
  const char* start = p_;
  // A word of two parts (`--out=$DIR`, `"$X"/y`) is common: growing from one
  // moved the first part into a second buffer.
  word.parts.reserve(2);
  if (at_word_start() && (*p_ == '<' || *p_ == '>')) {  // <(...) >(...)
    parse_substitution(word.parts.emplace_back(), ast::PartKind::process_subst, 2);
  }
  parse_parts(Context::unquoted, word.parts);
  word.span = span(start, p_);
  drop_trailing_continuations(word);
}

/// `--launcher="slurm"\<newline>` ends the word at the newline's far side,
/// but the continuation joins lines, not text: it is no part of the word,
/// so an edit that replaces the word keeps the line break (and a message
/// that shows the word shows no backslash).
void Parser::drop_trailing_continuations(ast::Word& word) const {
  if (word.parts.empty() || word.parts.back().kind != ast::PartKind::literal) return;
  ast::WordPart& last = word.parts.back();
  // An unquoted literal ends in backslash-newline only by a continuation: an
  // escaped backslash before a newline leaves the newline out of the word.
  uint32_t end = word.span.end;
  while (end >= last.span.begin + 2 && begin_[end - base_ - 1] == '\n' &&
         begin_[end - base_ - 2] == '\\') {
    end -= 2;
  }
  if (end == word.span.end) return;
  word.span.end = end;
  if (end == last.span.begin) {
    word.parts.pop_back();
    return;
  }
  last.span.end = end;
  last.inner.end = std::min(last.inner.end, end);
}

void Parser::add_literal(std::vector<ast::WordPart>& parts, const char* from, const char* to,
                         std::string_view text) {
  uint32_t begin = offset(from);
  if (!parts.empty() && parts.back().kind == ast::PartKind::literal &&
      parts.back().span.end == begin) {
    parts.back().span.end = offset(to);
    parts.back().text += text;
    parts.back().inner.end = offset(to);
    return;
  }
  // Built in place: most words are one literal, and a temporary WordPart
  // would be constructed, moved and destroyed for each.
  ast::WordPart& part = parts.emplace_back();
  part.kind = ast::PartKind::literal;
  part.span = span(from, to);
  part.inner = part.span;
  part.text.append(text);  // not assigned: see set_text()
}

void Parser::parse_parts(Context context, std::vector<ast::WordPart>& parts) {
  while (!at_end()) {
    const char* start = p_;
    char c = *p_;
    switch (c) {
      case '\\':
        parse_escape(context, parts);
        continue;
      case '$':
        parse_dollar(context, parts);
        continue;
      case '`':
        parse_backtick(parts.emplace_back());
        continue;
      case '\'':
        if (context == Context::unquoted || context == Context::brace_word) {
          parse_single_quoted(parts.emplace_back());
          continue;
        }
        break;
      case '"':
        if (context == Context::unquoted || context == Context::brace_word) {
          parse_double_quoted(parts.emplace_back(), p_);
          continue;
        }
        if (context == Context::dquoted) return;
        break;
      case '}':
        if (context == Context::brace_word) return;
        break;
      default:
        break;
    }
    bool matched = false;
    switch (context) {
      case Context::unquoted:
        if (is_word_end(c)) return;
        matched = grammar::match_unquoted_run(p_, end_);
        break;
      case Context::dquoted:
        matched = grammar::match_dquoted_run(p_, end_);
        break;
      case Context::heredoc:
        matched = grammar::match_heredoc_run(p_, end_);
        break;
      case Context::brace_word:
        matched = grammar::match_brace_word_run(p_, end_);
        break;
    }
    if (!matched) ++p_;  // a lone character the run rules do not take (a quote in a heredoc)
    add_literal(parts, start, p_, std::string_view(start, static_cast<size_t>(p_ - start)));
  }
}

void Parser::parse_escape(Context context, std::vector<ast::WordPart>& parts) {
  const char* start = p_;
  if (p_ + 1 >= end_) {  // a backslash at the very end stays literal
    ++p_;
    add_literal(parts, start, p_, "\\");
    return;
  }
  char next = p_[1];
  p_ += 2;
  if (next == '\n') {  // line continuation: no text
    add_literal(parts, start, p_, {});
    return;
  }
  bool special = context == Context::unquoted || context == Context::brace_word || next == '$' ||
                 next == '`' || next == '\\' || (next == '"' && context == Context::dquoted);
  if (special) {
    add_literal(parts, start, p_, std::string_view(p_ - 1, 1));
  } else {
    --p_;  // the backslash is literal; the next character is read normally
    add_literal(parts, start, p_, "\\");
  }
}

void Parser::parse_dollar(Context context, std::vector<ast::WordPart>& parts) {
  const char* start = p_;
  const char* next = p_ + 1;
  if (next < end_) {
    char c = *next;
    if (c == '(') {
      if (next + 1 < end_ && next[1] == '(') {
        if (const char* close = find_arith_end(next + 2)) {
          add_arith(parts, start, next + 2, close, 2);
          return;
        }
      }
      parse_substitution(parts.emplace_back(), ast::PartKind::command_subst, 2);
      return;
    }
    if (c == '{') {
      parse_braced_param(parts.emplace_back());
      return;
    }
    // `$[ expr ]`: arithmetic in the spelling older than `$(( ))`, which
    // bash still accepts.
    if (c == '[') {
      const char* close = find_bracket_end(next + 1);
      if (close == nullptr) {
        fail(Code::unterminated_substitution, start, start + 2,
             "unterminated arithmetic \"$[\" starting here", true);
      }
      add_arith(parts, start, next + 1, close, 1);
      return;
    }
    if (c == '\'' && (context == Context::unquoted || context == Context::brace_word)) {
      ast::WordPart& part = parts.emplace_back();
      part.kind = ast::PartKind::ansi_c_quoted;
      if (!grammar::match_ansi_c_quoted(p_, end_, part.text)) {
        fail(Code::unterminated_quote, start, start + 2, "unterminated $'...' quote starting here",
             true);
      }
      part.span = span(start, p_);
      part.inner = span(start + 2, p_ - 1);
      return;
    }
    if (c == '"' && (context == Context::unquoted || context == Context::brace_word)) {
      parse_double_quoted(parts.emplace_back(), start);  // $"..." (locale translation)
      return;
    }
    const char* it = next;
    if (grammar::match_name(it, end_) || grammar::match_special_param(it, end_)) {
      ast::WordPart& part = parts.emplace_back();  // in place, as in add_literal
      part.kind = ast::PartKind::param;
      set_text(part.text, next, it);
      part.span = span(start, it);
      part.inner = span(next, it);
      p_ = it;
      return;
    }
  }
  ++p_;  // a `$` that starts no expansion is literal
  add_literal(parts, start, p_, "$");
}

// The arithmetic expansion from `start` (its `$`) whose expression is
// [inner, close), closed by `closer_size` bytes at `close` (`))` or `]`).
void Parser::add_arith(std::vector<ast::WordPart>& parts, const char* start, const char* inner,
                       const char* close, size_t closer_size) {
  ast::WordPart& part = parts.emplace_back();
  part.kind = ast::PartKind::arith;
  set_text(part.text, inner, close);
  part.inner = span(inner, close);
  p_ = close + closer_size;
  part.span = span(start, p_);
}

void Parser::parse_single_quoted(ast::WordPart& part) {
  part.kind = ast::PartKind::single_quoted;
  const char* start = p_;
  if (!grammar::match_single_quoted(p_, end_)) {
    fail(Code::unterminated_quote, start, start + 1, "unterminated single quote starting here",
         true);
  }
  part.span = span(start, p_);
  part.inner = span(start + 1, p_ - 1);
  set_text(part.text, start + 1, p_ - 1);
}

// "..." (start at the quote) or $"..." (start at the `$`).
void Parser::parse_double_quoted(ast::WordPart& part, const char* start) {
  DepthGuard guard(*this, start);
  part.kind = ast::PartKind::double_quoted;
  const char* quote = *start == '$' ? start + 1 : start;
  p_ = quote + 1;
  parse_parts(Context::dquoted, part.parts);
  if (at_end()) {
    fail(Code::unterminated_quote, quote, quote + 1, "unterminated double quote starting here",
         true);
  }
  part.inner = span(quote + 1, p_);
  ++p_;
  part.span = span(start, p_);
}

// ${...}: text = the parameter name, op = the rest inside the braces, parts =
// the word after the operator.
void Parser::parse_braced_param(ast::WordPart& part) {
  const char* start = p_;
  DepthGuard guard(*this, start);
  part.kind = ast::PartKind::param;
  p_ += 2;
  const char* inner = p_;
  const char* op_start = p_;
  std::string prefix;
  if (!at_end() && (*p_ == '#' || *p_ == '!') && p_ + 1 < end_ && p_[1] != '}') {
    prefix = *p_;
    ++p_;
  }
  const char* name_start = p_;
  if (grammar::match_name(p_, end_)) {
  } else if (!at_end() && *p_ >= '0' && *p_ <= '9') {
    while (!at_end() && *p_ >= '0' && *p_ <= '9') ++p_;
  } else {
    grammar::match_special_param(p_, end_);
  }
  set_text(part.text, name_start, p_);
  if (!prefix.empty() && part.text.empty()) {  // ${#} or ${!}: the parameter itself
    p_ = op_start;
    grammar::match_special_param(p_, end_);
    part.text.assign(op_start, p_);
    prefix.clear();
  }
  const char* rest = p_;
  if (!at_end() && *p_ == '[') skip_subscript();
  // The operator: the longest of the spellings bash knows.
  static constexpr std::string_view kOps[] = {":-", ":=", ":+", ":?", "##", "%%", "//", "/#",
                                              "/%", "^^", ",,", "-",  "=",  "+",  "?",  "#",
                                              "%",  "/",  "^",  ",",  ":",  "@"};
  const std::string_view remaining(p_, static_cast<size_t>(end_ - p_));
  if (!remaining.starts_with('}')) {  // ${NAME}, the usual case, has none
    const auto* op = std::find_if(std::begin(kOps), std::end(kOps), [&](std::string_view spelling) {
      return remaining.starts_with(spelling);
    });
    if (op != std::end(kOps)) p_ += op->size();
  }
  parse_parts(Context::brace_word, part.parts);
  if (at_end()) {
    fail(Code::unterminated_substitution, start, start + 2,
         "unterminated parameter expansion \"${\" starting here", true);
  }
  part.op = prefix + std::string(rest, p_);
  part.inner = span(inner, p_);
  ++p_;
  part.span = span(start, p_);
}

/// `[...]` after a parameter's name, up to the `]` that matches: the
/// subscript is arithmetic and may hold brackets, `${#a[@]}` or `$(( ))`
/// (`${frac[$(( i % ${#frac[@]} ))]}`). Stops early at a `}` that closes
/// the expansion, which leaves the error to the caller.
void Parser::skip_subscript() {
  int brackets = 0;
  int braces = 0;
  for (; !at_end(); ++p_) {
    const char c = *p_;
    if (c == '\\' && p_ + 1 < end_) {
      ++p_;
    } else if (c == '[') {
      ++brackets;
    } else if (c == ']' && --brackets == 0 && braces == 0) {
      ++p_;
      return;
    } else if (c == '{') {
      ++braces;
    } else if (c == '}' && braces-- == 0) {
      return;
    }
  }
}

// $(...) and <(...) / >(...): a nested list up to the closing parenthesis.
void Parser::parse_substitution(ast::WordPart& part, ast::PartKind kind, size_t opener_size) {
  const char* start = p_;
  DepthGuard guard(*this, start);
  part.kind = kind;
  p_ += opener_size;
  const char* inner = p_;
  part.script = std::make_shared<ast::Script>();
  part.script->body = parse_list();
  skip_linebreaks();
  if (!at_control(ControlOp::rparen)) {
    if (at_end()) {
      std::string opener(start, opener_size);
      fail(Code::unterminated_substitution, start, start + opener_size,
           "unterminated " +
               std::string(kind == ast::PartKind::command_subst ? "command" : "process") +
               " substitution " + quoted(opener) + " starting here",
           true);
    }
    fail_unexpected();
  }
  part.inner = span(inner, p_);
  part.script->span = part.inner;
  ++p_;
  part.span = span(start, p_);
}

// `...`: the content, with \` \\ \$ unescaped, is parsed by a child parser.
void Parser::parse_backtick(ast::WordPart& part) {
  const char* start = p_;
  DepthGuard guard(*this, start);
  part.kind = ast::PartKind::backtick;
  const char* it = p_ + 1;
  bool escaped = false;
  while (it < end_ && *it != '`') {
    if (*it == '\\' && it + 1 < end_) {
      escaped = true;
      ++it;
    }
    ++it;
  }
  if (it >= end_) {
    fail(Code::unterminated_quote, start, start + 1, "unterminated backquote starting here", true);
  }
  std::string_view content(start + 1, static_cast<size_t>(it - start - 1));
  std::string unescaped;
  if (escaped) {
    for (size_t i = 0; i < content.size(); ++i) {
      if (content[i] == '\\' && i + 1 < content.size() &&
          (content[i + 1] == '`' || content[i + 1] == '\\' || content[i + 1] == '$')) {
        ++i;
      }
      unescaped += content[i];
    }
    content = unescaped;
  }
  // Spans inside are exact when nothing was unescaped, approximate otherwise.
  Parser child(content, offset(start + 1), limits_, depth_);
  ParseResult result = child.run();
  p_ = it + 1;
  part.span = span(start, p_);
  part.inner = span(start + 1, it);
  if (const Diagnostic* error = syntax_error_in(result)) {
    // bash parses a backquoted command only when the line runs (`bash -n`
    // accepts `seq 0 {{ (x * y)-1 }}` from a template there): kept as written.
    diagnostics_.push_back({Code::backquote_not_bash, part.span,
                            "the backquoted command is not valid bash (" + error->message +
                                "); bash reads it only when the line runs, so it is kept as "
                                "written and not translated",
                            "fix the command, or fill in the template it comes from"});
    part.script = std::make_shared<ast::Script>();
  } else {
    for (Diagnostic& diagnostic : result.diagnostics) {
      diagnostics_.push_back(std::move(diagnostic));
    }
    if (!result.complete) had_error_ = true;
    part.script = std::make_shared<ast::Script>(std::move(result.script));
  }
  part.script->span = part.inner;
}

// ---------------------------------------------------------------------------
// heredocs

// Called after the newline that ends the line holding `<<DELIM` redirects:
// their bodies follow, one after the other.
void Parser::read_pending_heredocs() {
  std::vector<PendingHeredoc> pending = std::move(pending_);
  pending_.clear();
  for (PendingHeredoc& heredoc : pending) {
    HeredocBody body;
    body.quoted = heredoc.quoted;
    const char* body_begin = p_;
    const char* body_end = end_;
    bool closed = false;
    while (p_ < end_) {
      const char* line = p_;
      const char* newline =
          static_cast<const char*>(std::memchr(p_, '\n', static_cast<size_t>(end_ - p_)));
      const char* line_end = newline ? newline : end_;
      const char* content = line;
      if (heredoc.strip_tabs) {
        while (content < line_end && *content == '\t') ++content;
      }
      p_ = newline ? newline + 1 : end_;
      if (std::string_view(content, static_cast<size_t>(line_end - content)) == heredoc.delimiter) {
        body_end = line;
        closed = true;
        break;
      }
    }
    body.body = span(body_begin, body_end);
    if (!closed) {
      diagnostics_.push_back(Diagnostic{
          Code::unterminated_heredoc, heredoc.redirect_span,
          "here-document delimited by " + quoted(heredoc.delimiter) + " is never closed",
          "end the here-document with a line holding only " + quoted(heredoc.delimiter)});
    }
    if (!heredoc.quoted) {
      const char* resume = p_;
      const char* saved_end = end_;
      p_ = body_begin;
      end_ = body_end;
      try {
        parse_parts(Context::heredoc, body.parts);
      } catch (...) {
        end_ = saved_end;
        p_ = resume;
        throw;
      }
      end_ = saved_end;
      p_ = resume;
    }
    heredocs_[heredoc.key] = std::move(body);
  }
}

namespace {

template <class Visit>
void for_each_redirect(ast::List& list, const Visit& visit);

template <class Visit>
void for_each_redirect(std::vector<ast::WordPart>& parts, const Visit& visit) {
  for (ast::WordPart& part : parts) {
    if (part.script) for_each_redirect(part.script->body, visit);
    for_each_redirect(part.parts, visit);
  }
}

template <class Visit>
void for_each_redirect(ast::Word& word, const Visit& visit) {
  for_each_redirect(word.parts, visit);
  for (ast::Word& element : word.array_elements) for_each_redirect(element, visit);
}

template <class Visit>
void for_each_redirect(ast::Command& command, const Visit& visit) {
  for (ast::Assignment& assignment : command.assignments) {
    for_each_redirect(assignment.value, visit);
    for (ast::Word& element : assignment.elements) for_each_redirect(element, visit);
  }
  for (ast::Word& word : command.words) for_each_redirect(word, visit);
  for (ast::Redirect& redirect : command.redirects) {
    visit(redirect);
    for_each_redirect(redirect.target, visit);
    for_each_redirect(redirect.heredoc_parts, visit);
  }
  for (ast::Command& child : command.children) for_each_redirect(child, visit);
  for (ast::List& block : command.blocks) for_each_redirect(block, visit);
  for (ast::CaseItem& item : command.case_items) {
    for (ast::Word& pattern : item.patterns) for_each_redirect(pattern, visit);
    for_each_redirect(item.body, visit);
  }
}

template <class Visit>
void for_each_redirect(ast::List& list, const Visit& visit) {
  for (ast::ListItem& item : list.items) for_each_redirect(item.command, visit);
}

}  // namespace

// Heredoc bodies are read when the parser reaches the end of their line, after
// the redirect was already moved into the tree; they are attached by key here.
void Parser::attach_heredocs(ast::Script& script) {
  if (heredocs_.empty()) return;
  for_each_redirect(script.body, [this](ast::Redirect& redirect) {
    auto found = heredocs_.find(redirect.span.begin);
    if (found == heredocs_.end() || (redirect.op != "<<" && redirect.op != "<<-")) return;
    redirect.heredoc_body = found->second.body;
    redirect.heredoc_parts = std::move(found->second.parts);
    heredocs_.erase(found);
  });
}

}  // namespace s2a::parse_detail
