// X3 definitions of the shell tokens declared in lexical.hpp.
//
// Included only by lexical.cpp, which instantiates the rules once for the
// types of config.hpp. Character classes are spelled as explicit sets rather
// than x3::alpha & co. so bytes >= 0x80 never reach <cctype> (undefined for
// negative chars) and the grammar does not depend on the locale.
#pragma once

#include <cstring>
#include <string>
#include <string_view>

#include "grammar/config.hpp"
#include "grammar/lexical.hpp"

namespace s2a::grammar::lexical {

using x3::char_;
using x3::lit;

/// One flag per byte value.
struct ByteSet {
  bool has[256] = {};
  constexpr explicit ByteSet(std::string_view members) {
    for (char c : members) has[static_cast<unsigned char>(c)] = true;
  }
  [[nodiscard]] constexpr bool contains(char c) const { return has[static_cast<unsigned char>(c)]; }
};

/// One or more bytes in `set` (`inside`) or not in it: the same as
/// +char_(set) or +~char_(set), but one table load per byte where X3's
/// character set tests a bit (shift, mask, test): these runs are most of the
/// bytes the parser reads.
struct byte_run_parser : x3::parser<byte_run_parser> {
  using attribute_type = x3::unused_type;
  static constexpr bool has_attribute = false;

  constexpr byte_run_parser(std::string_view members, bool take_members)
      : set(members), inside(take_members) {}

  template <class Iterator, class Context, class RContext, class Attribute>
  bool parse(Iterator& first, const Iterator& last, const Context&, RContext&, Attribute&) const {
    Iterator it = first;
    while (it != last && set.contains(*it) == inside) ++it;
    if (it == first) return false;
    first = it;
    return true;
  }

  ByteSet set;
  bool inside;
};

constexpr byte_run_parser run_inside(std::string_view set) { return {set, true}; }
constexpr byte_run_parser run_outside(std::string_view stop) { return {stop, false}; }

/// Everything up to (not including) `c` or the end: *~char_(c), by memchr.
struct skip_to_parser : x3::parser<skip_to_parser> {
  using attribute_type = x3::unused_type;
  static constexpr bool has_attribute = false;

  constexpr explicit skip_to_parser(char stop) : c(stop) {}

  template <class Iterator, class Context, class RContext, class Attribute>
  bool parse(Iterator& first, const Iterator& last, const Context&, RContext&, Attribute&) const {
    const void* found = std::memchr(first, c, static_cast<size_t>(last - first));
    first = found != nullptr ? static_cast<Iterator>(found) : last;
    return true;
  }

  char c;
};

constexpr skip_to_parser skip_to(char c) { return skip_to_parser(c); }

struct blanks_class;
struct comment_class;
struct name_class;
struct special_param_class;
struct unquoted_run_class;
struct dquoted_run_class;
struct heredoc_run_class;
struct brace_word_run_class;
struct single_quoted_class;
struct ansi_c_quoted_class;
struct fd_prefix_class;
struct assignment_tail_class;

const x3::rule<blanks_class> blanks = "blanks";
const x3::rule<comment_class> comment = "comment";
const x3::rule<name_class> name = "name";
const x3::rule<special_param_class> special_param = "special parameter";
const x3::rule<unquoted_run_class> unquoted_run = "unquoted text";
const x3::rule<dquoted_run_class> dquoted_run = "double-quoted text";
const x3::rule<heredoc_run_class> heredoc_run = "here-document text";
const x3::rule<brace_word_run_class> brace_word_run = "parameter expansion word";
const x3::rule<single_quoted_class> single_quoted = "single-quoted string";
const x3::rule<ansi_c_quoted_class, std::string> ansi_c_quoted = "$'...' string";
const x3::rule<fd_prefix_class> fd_prefix = "file descriptor";
const x3::rule<assignment_tail_class> assignment_tail = "assignment";

const auto blanks_def = *(char_(" \t") | lit("\\\n"));
const auto comment_def = '#' >> skip_to('\n');
const auto name_def =
    char_("a-zA-Z_") >>
    -run_inside("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
const auto special_param_def = char_("@*#?$!0-9-");
const auto unquoted_run_def = run_outside(" \t\n;&|()<>'\"\\$`");
const auto dquoted_run_def = run_outside("\"\\$`");
const auto heredoc_run_def = run_outside("\\$`");
const auto brace_word_run_def = run_outside("}\\$`'\"");
const auto single_quoted_def = '\'' >> *~char_('\'') >> '\'';
const auto fd_prefix_def = +char_("0-9") >> &char_("<>");
const auto assignment_tail_def = -('[' >> *~char_("]\n") >> ']') >> -lit('+') >> '=';

// $'...': the escapes bash decodes (see bash(1), QUOTING). Unknown escapes keep
// their backslash, as bash does.
struct simple_escapes_table : x3::symbols<char> {
  simple_escapes_table() {
    add("n", '\n')("t", '\t')("r", '\r')("a", '\a')("b", '\b')("e", '\x1b')("E", '\x1b')("f", '\f')(
        "v", '\v')("\\", '\\')("'", '\'')("\"", '"')("?", '?');
  }
};
const simple_escapes_table simple_escapes;

const auto append_char = [](auto& ctx) { x3::_val(ctx) += static_cast<char>(x3::_attr(ctx)); };
const auto append_escaped = [](auto& ctx) {
  x3::_val(ctx) += '\\';
  x3::_val(ctx) += x3::_attr(ctx);
};
const auto octal_byte = x3::uint_parser<unsigned, 8, 1, 3>();
const auto hex_byte = x3::uint_parser<unsigned, 16, 1, 2>();

const auto ansi_c_quoted_def = lit("$'") >>
                               *(('\\' >>
                                  (simple_escapes[append_char] | octal_byte[append_char] |
                                   ('x' >> hex_byte[append_char]) | char_[append_escaped])) |
                                 (~char_("'\\"))[append_char]) >>
                               '\'';

BOOST_SPIRIT_DEFINE(blanks, comment, name, special_param, unquoted_run, dquoted_run, heredoc_run,
                    brace_word_run, single_quoted, ansi_c_quoted, fd_prefix, assignment_tail)

struct control_ops_table : x3::symbols<ControlOp> {
  control_ops_table() {
    add("&&", ControlOp::and_if)("||", ControlOp::or_if)(";;&", ControlOp::dsemi_and)(
        ";;", ControlOp::dsemi)(";&", ControlOp::semi_and)("|&", ControlOp::pipe_and)(
        "&", ControlOp::amp)(";", ControlOp::semi)("|", ControlOp::pipe)("(", ControlOp::lparen)(
        ")", ControlOp::rparen);
  }
};

struct redirect_ops_table : x3::symbols<std::string_view> {
  redirect_ops_table() {
    for (std::string_view op :
         {"<<<", "<<-", "<<", "<&", "<>", "<", ">>", ">&", ">|", ">", "&>>", "&>"}) {
      add(op, op);
    }
  }
};

struct reserved_words_table : x3::symbols<ReservedWord> {
  reserved_words_table() {
    add("if", ReservedWord::if_)("then", ReservedWord::then_)("else", ReservedWord::else_)(
        "elif", ReservedWord::elif_)("fi", ReservedWord::fi_)("do", ReservedWord::do_)(
        "done", ReservedWord::done_)("case", ReservedWord::case_)("esac", ReservedWord::esac_)(
        "while", ReservedWord::while_)("until", ReservedWord::until_)("for", ReservedWord::for_)(
        "in", ReservedWord::in_)("function", ReservedWord::function_)(
        "select", ReservedWord::select_)("time", ReservedWord::time_)("{", ReservedWord::lbrace)(
        "}", ReservedWord::rbrace)("!", ReservedWord::bang)("[[", ReservedWord::dlbracket)(
        "]]", ReservedWord::drbracket);
  }
};

const control_ops_table control_ops;
const redirect_ops_table redirect_ops;
const reserved_words_table reserved_words;

// A reserved word counts only as a whole word.
const auto reserved_word = reserved_words >> &(char_(" \t\n;&|()<>") | x3::eoi);

}  // namespace s2a::grammar::lexical
