// --array: job array index expressions (spec/slurm-sbatch.md §2.9).
//
// The controller's job_mgr.c:_valid_array_inx() and
// slurm_protocol_defs.c:slurm_parse_array_tok() read N, N-M and N-M:S tokens
// into a bitmap and take the running-task limit after the first '%'.
#include "grammar/values_x3.hpp"

namespace s2a::values::detail {

struct ArrayAst {
  std::vector<NumberRange> tokens;
  boost::optional<std::string> limit;
};

}  // namespace s2a::values::detail

BOOST_FUSION_ADAPT_STRUCT(s2a::values::detail::ArrayAst, tokens, limit)

namespace s2a::values {
namespace {

using namespace detail;

// array_spec  := array_list [ "%" number [ "%" anything ] ]
// array_list  := "[" tokens "]" | tokens
// tokens      := ","* token ( ","+ token )* ","*
// token       := number [ "-" number ] [ ":" number ]    -- ":S" only with a range (checked after)
// The controller splits the list with strtok(), which skips empty tokens
// (`0-3,` and `1,,2` are accepted), and reads the limit with atoi() after the
// first '%', so a second "%..." is ignored (`0-9%2%3` runs 2 at a time).
auto const array_token = x3::rule<class array_token_r, NumberRange>{
    "array index"} = digits >> -('-' >> digits) >> -(':' >> digits);
auto const array_tokens =
    x3::rule<class array_tokens_r, std::vector<NumberRange>>{
        "array indexes"} = x3::omit[*x3::lit(',')] >>
                           (array_token % +x3::lit(',')) >> x3::omit[*x3::lit(',')];
auto const array_list = x3::rule<class array_list_r, std::vector<NumberRange>>{"array indexes"} =
    ('[' >> array_tokens >> ']') | array_tokens;
auto const array_spec = x3::rule<class array_spec_r, ArrayAst>{
    "array spec"} = array_list >> -('%' >> digits >> x3::omit[-('%' >> *x3::char_)]);

// Task ids are uint32_t and 0xfffffffe is NO_VAL; MaxArraySize (default
// 1001) is a site setting, so the parser accepts anything below NO_VAL.
constexpr uint64_t kMaxArrayIndex = 4294967294ULL;

std::string array_error(std::string_view text, std::string_view why) {
  return "invalid array spec " + quoted(text) + ": " + std::string(why) +
         " (form: N, N-M or N-M:S separated by ',', optional %limit, e.g. 0-15%4)";
}

std::optional<uint64_t> array_index(const std::string& digits_text, std::string& error) {
  auto value = to_u64(digits_text);
  if (!value || *value > kMaxArrayIndex) {
    error = "index " + clip(digits_text) + " is too large (at most 4294967294)";
    return std::nullopt;
  }
  return value;
}

// One token to a range; returns an error message or "".
std::string to_array_range(const NumberRange& token, ArrayRange& range) {
  std::string error;
  auto first = array_index(token.lo, error);
  if (!first) return error;
  range.first = range.last = *first;
  if (token.hi) {
    auto last = array_index(*token.hi, error);
    if (!last) return error;
    if (*last < *first)
      return "range " + clip(token.lo) + "-" + clip(*token.hi) + " ends before it starts";
    range.last = *last;
  }
  if (token.step) {
    if (!token.hi) return "a step ':" + clip(*token.step) + "' needs a range N-M";
    auto step = to_u64(*token.step);
    if (!step || *step > kMaxArrayIndex) return "step " + clip(*token.step) + " is too large";
    if (*step == 0) return "the step must be positive";
    range.step = *step;
  }
  return "";
}

std::string array_mismatch_reason(std::string_view text, size_t stop) {
  if (!text.empty() && text.front() == '-') return "indexes must not be negative";
  if (stop >= text.size()) return "the value ends too early";
  if (stop + 1 == text.size() && (text[stop] == '-' || text[stop] == ':' || text[stop] == '%')) {
    return std::string("a number is missing after '") + text[stop] + "'";
  }
  if (text[stop] == '%' && text.find('%') == stop) return "the limit after '%' must be a number";
  return "unexpected " + quoted_char_at(text, stop);
}

Parsed<ArraySpec> parse_array_impl(std::string_view text) {
  if (text.empty()) return failure<ArraySpec>(array_error(text, "the value is empty"));
  ArrayAst ast;
  const Outcome outcome = parse_whole(text, array_spec, ast);
  if (!outcome.matched) {
    return failure<ArraySpec>(array_error(text, array_mismatch_reason(text, outcome.stop)));
  }
  ArraySpec spec;
  for (const NumberRange& token : ast.tokens) {
    ArrayRange range;
    if (std::string why = to_array_range(token, range); !why.empty()) {
      return failure<ArraySpec>(array_error(text, why));
    }
    spec.ranges.push_back(range);
  }
  if (ast.limit) {
    auto limit = to_u64(*ast.limit);
    if (!limit || *limit > kIntMax) {
      return failure<ArraySpec>(array_error(text, "limit %" + clip(*ast.limit) + " is too large"));
    }
    spec.max_running = *limit;
  }
  return success(std::move(spec));
}

uint64_t range_size(const ArrayRange& r) {
  if (r.last < r.first) return 0;
  return (r.last - r.first) / (r.step == 0 ? 1 : r.step) + 1;
}

uint64_t last_member(const ArrayRange& r) {
  return r.first + (range_size(r) - 1) * (r.step == 0 ? 1 : r.step);
}

// Exact size of the union of overlapping ranges. Step-1 groups merge as
// intervals; others use a bitmap over the group's span when it is small.
// Beyond that (only for adversarial input: overlapping stepped ranges
// spanning more than 2^24 indexes) the sum of the sizes is an upper bound.
uint64_t overlapping_group_size(const std::vector<ArrayRange>& group) {
  const bool all_unit_steps =
      std::all_of(group.begin(), group.end(), [](const ArrayRange& r) { return r.step <= 1; });
  if (all_unit_steps) {
    uint64_t total = 0;
    uint64_t next = 0;  // first index not counted yet (indexes are < 2^32: no overflow)
    for (const ArrayRange& r : group) {
      const uint64_t begin = std::max(r.first, next);
      if (r.last >= begin) {
        total += r.last - begin + 1;
        next = r.last + 1;
      }
    }
    return total;
  }
  constexpr uint64_t kBitmapLimit = uint64_t{1} << 24;
  uint64_t lo = group.front().first;
  uint64_t hi = 0;
  for (const ArrayRange& r : group) hi = std::max(hi, last_member(r));
  if (hi - lo >= kBitmapLimit) {
    uint64_t sum = 0;
    for (const ArrayRange& r : group) sum += range_size(r);
    return sum;
  }
  std::vector<bool> seen(hi - lo + 1, false);
  for (const ArrayRange& r : group) {
    const uint64_t step = r.step == 0 ? 1 : r.step;
    const uint64_t end = last_member(r);
    for (uint64_t i = r.first;; i += step) {
      seen[i - lo] = true;
      if (i == end) break;
    }
  }
  return static_cast<uint64_t>(std::count(seen.begin(), seen.end(), true));
}

}  // namespace

// Slurm keeps array indexes in a bitmap, so an index listed twice counts once.
// Ranges whose hulls do not overlap (the normal case) are counted by formula;
// nothing is materialised for them however large they are.
uint64_t ArraySpec::count() const {
  std::vector<ArrayRange> sorted;
  for (const ArrayRange& r : ranges) {
    if (r.last >= r.first) sorted.push_back(r);
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const ArrayRange& a, const ArrayRange& b) { return a.first < b.first; });
  uint64_t total = 0;
  size_t i = 0;
  while (i < sorted.size()) {
    std::vector<ArrayRange> group{sorted[i]};
    uint64_t group_end = last_member(sorted[i]);
    size_t j = i + 1;
    while (j < sorted.size() && sorted[j].first <= group_end) {
      group.push_back(sorted[j]);
      group_end = std::max(group_end, last_member(sorted[j]));
      ++j;
    }
    total += group.size() == 1 ? range_size(group.front()) : overlapping_group_size(group);
    i = j;
  }
  return total;
}

Parsed<ArraySpec> parse_array(std::string_view text) {
  return detail::guarded<ArraySpec>("an array spec", [&] { return parse_array_impl(text); });
}

}  // namespace s2a::values
