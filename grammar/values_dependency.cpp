// --dependency: the dependency list grammar (spec/slurm-sbatch.md §2.10).
//
// Follows the controller's job_scheduler.c:_parse_dependency_str(). Because
// these values usually come from `sbatch` lines in driver scripts, a job id
// may also be an unexpanded shell parameter ($jid, ${JOB1}, $(...)); it is
// kept verbatim.
#include "grammar/values_x3.hpp"

namespace s2a::values::detail {

struct DepSpecAst {
  std::string job;
  boost::optional<std::string> task;
  boost::optional<std::string> plus;
  boost::optional<std::string> state;
};
struct DepItemAst {
  std::string word;  // the type ("afterok", "singleton"); empty for a bare job id
  std::vector<DepSpecAst> specs;
};
struct DepTailAst {
  char separator = ',';
  DepItemAst item;
};
struct DependencyAst {
  DepItemAst first;
  std::vector<DepTailAst> rest;
};

// Matches `open`, then everything up to the `close` that balances it, counting
// nesting in a loop (no recursion): ${a:-${b}}, $(cat "$f"). Unbalanced input
// does not match.
struct balanced_parser : x3::parser<balanced_parser> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;

  char open;
  char close;
  constexpr balanced_parser(char open_char, char close_char) : open(open_char), close(close_char) {}

  template <class It, class Context, class RContext, class Attribute>
  bool parse(It& first, const It& last, const Context&, RContext&, Attribute&) const {
    if (first == last || *first != open) return false;
    size_t depth = 0;
    for (It it = first; it != last; ++it) {
      if (*it == open) {
        ++depth;
      } else if (*it == close && --depth == 0) {
        first = ++it;
        return true;
      }
    }
    return false;
  }
};

}  // namespace s2a::values::detail

BOOST_FUSION_ADAPT_STRUCT(s2a::values::detail::DepSpecAst, job, task, plus, state)
BOOST_FUSION_ADAPT_STRUCT(s2a::values::detail::DepItemAst, word, specs)
BOOST_FUSION_ADAPT_STRUCT(s2a::values::detail::DepTailAst, separator, item)
BOOST_FUSION_ADAPT_STRUCT(s2a::values::detail::DependencyAst, first, rest)

namespace s2a::values {
namespace {

using namespace detail;

// expansion := "$" ( name | digit | "{" ... "}" | "(" ... ")" )    -- bash, kept verbatim
// job_id    := ( number | expansion )+
// task      := "*" | "[" ( digit | "," | "-" | ":" | "%" )+ "]" | ( number | expansion )+
// spec      := job_id [ "_" task ] [ "+" number ] [ "(" state ")" ]
// item      := word [ ":" spec ( ":" spec )* ]     -- type:specs, or "singleton"
//            | spec                                 -- old form: afterany
// list      := item ( ( "," | "?" ) item )*         -- one separator kind only (checked after)
auto const shell_name = x3::char_("a-zA-Z_") >> *word_char;
auto const expansion = x3::lit('$') >>
                       (shell_name | digit | balanced_parser('{', '}') | balanced_parser('(', ')'));
auto const job_id = x3::rule<class job_id_r, std::string>{"job id"} =
    x3::raw[+(+digit | expansion)];
auto const task_id = x3::rule<class task_id_r, std::string>{"array task"} =
    x3::raw[x3::lit('*') | ('[' >> +x3::char_("0-9,:%-") >> ']') | +(+digit | expansion)];
auto const dep_state = x3::rule<class dep_state_r, std::string>{"state"} = +word_char;
auto const dep_spec = x3::rule<class dep_spec_r, DepSpecAst>{"dependency job"} =
    job_id >> -('_' >> task_id) >> -('+' >> digits) >> -('(' >> dep_state >> ')');
auto const dep_word = x3::rule<class dep_word_r, std::string>{"dependency type"} =
    +x3::char_("a-zA-Z");
// A bare job id yields an item with an empty word, so both alternatives share
// one attribute type; the first fails before consuming anything when the
// item starts with a digit or '$'.
auto const dep_item = x3::rule<class dep_item_r, DepItemAst>{"dependency"} =
    (dep_word >> -(':' >> (dep_spec % ':'))) | (x3::attr(std::string()) >> x3::repeat(1)[dep_spec]);
auto const dep_tail = x3::rule<class dep_tail_r, DepTailAst>{"dependency"} =
    x3::char_(",?") >> dep_item;
auto const dependency = x3::rule<class dependency_r, DependencyAst>{"dependency list"} =
    dep_item >> *dep_tail;

constexpr std::string_view kDependencyTypes[] = {
    "after", "afterany", "afterok", "afternotok", "aftercorr", "afterburstbuffer", "expand"};

std::string dependency_error(std::string_view text, std::string_view why) {
  return "invalid dependency " + quoted(text) + ": " + std::string(why) +
         " (form: type:jobid[:jobid...][,type:jobid...] with type after, afterany, afterok, "
         "afternotok, aftercorr, afterburstbuffer or expand; or singleton)";
}

bool is_known_type(const std::string& lower) {
  for (std::string_view type : kDependencyTypes) {
    if (lower == type) return true;
  }
  return false;
}

// A literal job id must be a positive uint32_t; shell expansions pass as written.
std::string check_job_id(const std::string& job) {
  if (!is_digits(job)) return "";
  auto value = to_u64(job);
  if (!value || *value > 0xffffffffULL) return "job id " + clip(job) + " is too large";
  if (*value == 0) return "job id " + clip(job) + " is not valid";
  return "";
}

std::string to_target(const DepSpecAst& spec, DependencyTarget& target) {
  if (std::string why = check_job_id(spec.job); !why.empty()) return why;
  target.job = spec.job;
  target.task = spec.task.value_or("");
  if (spec.plus) {
    auto minutes = to_u64(*spec.plus);
    if (!minutes || *minutes > kIntMax) return "delay +" + clip(*spec.plus) + " is too large";
    target.plus_minutes = *minutes;
  }
  target.state = spec.state.value_or("");
  return "";
}

std::string to_item(const DepItemAst& ast, DependencyItem& item) {
  const std::string type = to_lower(ast.word);
  if (ast.word.empty()) {
    item.type = "afterany";  // a bare job id is the old spelling of afterany
  } else if (type == "singleton") {
    if (!ast.specs.empty()) return "singleton takes no job ids";
    item.type = type;
    return "";
  } else if (!is_known_type(type)) {
    return "unknown dependency type '" + clip(ast.word) + "'";
  } else if (ast.specs.empty()) {
    return "'" + clip(ast.word) + "' needs at least one job id after ':'";
  } else {
    item.type = type;
  }
  for (const DepSpecAst& spec : ast.specs) {
    DependencyTarget target;
    if (std::string why = to_target(spec, target); !why.empty()) return why;
    item.targets.push_back(std::move(target));
  }
  return "";
}

// Where the parse stopped says what went wrong. A failed spec leaves the
// position on the ':' or ',' before it, so the byte after that is the culprit.
std::string dependency_mismatch_reason(std::string_view text, size_t stop) {
  auto is_separator = [&](size_t at) {
    return at >= text.size() || text[at] == ':' || text[at] == ',' || text[at] == '?';
  };
  if (stop >= text.size()) return "the value ends too early";
  if (is_separator(stop)) {
    if (stop == 0 || is_separator(stop + 1)) {
      return "a job id or dependency is missing at offset " + std::to_string(stop + 1);
    }
    return "unexpected " + quoted_char_at(text, stop + 1);
  }
  return "unexpected " + quoted_char_at(text, stop);
}

Parsed<Dependency> parse_dependency_impl(std::string_view text) {
  if (text.empty() || text == "0") return success(Dependency{});  // clears dependencies
  DependencyAst ast;
  const Outcome outcome = parse_whole(text, dependency, ast);
  if (!outcome.matched) {
    return failure<Dependency>(
        dependency_error(text, dependency_mismatch_reason(text, outcome.stop)));
  }
  Dependency out;
  out.any = !ast.rest.empty() && ast.rest.front().separator == '?';
  for (const DepTailAst& tail : ast.rest) {
    if ((tail.separator == '?') != out.any) {
      return failure<Dependency>(dependency_error(text, "',' (all) and '?' (any) cannot be mixed"));
    }
  }
  std::vector<const DepItemAst*> items{&ast.first};
  for (const DepTailAst& tail : ast.rest) items.push_back(&tail.item);
  for (const DepItemAst* item_ast : items) {
    DependencyItem item;
    if (std::string why = to_item(*item_ast, item); !why.empty()) {
      return failure<Dependency>(dependency_error(text, why));
    }
    out.items.push_back(std::move(item));
  }
  return success(std::move(out));
}

}  // namespace

Parsed<Dependency> parse_dependency(std::string_view text) {
  return detail::guarded<Dependency>("a dependency", [&] { return parse_dependency_impl(text); });
}

}  // namespace s2a::values
