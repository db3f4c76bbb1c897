// Hostlist expressions: node[01-04,07],gpu-a[1-2] (spec/slurm-sbatch.md §6).
//
// Follows src/common/hostlist.c: items separated by ',', blank, tab or
// newline outside brackets (hostlist_create(), _next_tok()); zero padding
// from the width of LO; several bracket groups form a cartesian product.
#include "grammar/values_x3.hpp"

namespace s2a::values::detail {

struct HostGroup {
  std::vector<NumberRange> ranges;  // step never set: the grammar has no ':'
  std::string suffix;               // literal text after ']'
};
struct HostItem {
  std::string prefix;
  std::vector<HostGroup> groups;
};

}  // namespace s2a::values::detail

BOOST_FUSION_ADAPT_STRUCT(s2a::values::detail::HostGroup, ranges, suffix)
BOOST_FUSION_ADAPT_STRUCT(s2a::values::detail::HostItem, prefix, groups)

namespace s2a::values {
namespace {

using namespace detail;

// hostlist   := sep* [ host ( sep+ host )* ] sep*
// host       := &literal_char literal* ( "[" range ( "," range )* "]" literal* )*
//             | "[" ... (a host may also start with a bracket)
// range      := number [ "-" number ]
// literal    := any byte but "[", "]", ",", blank, tab, newline
// sep        := "," | " " | "\t" | "\n"
auto const host_separator = x3::char_(", \t\n");
auto const literal_text = x3::rule<class literal_text_r, std::string>{"host name"} =
    *(x3::char_ - x3::char_("[], \t\n"));
auto const host_range = x3::rule<class host_range_r, NumberRange>{
    "host range"} = digits >> -('-' >> digits) >> x3::attr(boost::optional<std::string>());
auto const host_group = x3::rule<class host_group_r, HostGroup>{
    "bracket group"} = '[' >> (host_range % ',') >> ']' >> literal_text;
// The and-predicate keeps an empty host from matching, so the list cannot loop.
auto const host_item = x3::rule<class host_item_r, HostItem>{"host"} =
    &(x3::char_ - host_separator) >> literal_text >> *host_group;
auto const hostlist = x3::rule<class hostlist_r, std::vector<HostItem>>{"hostlist"} =
    x3::omit[*host_separator] >>
    -(host_item % x3::omit[+host_separator]) >> x3::omit[*host_separator];

std::string hostlist_error(std::string_view text, std::string_view why) {
  return "invalid hostlist " + quoted(text) + ": " + std::string(why) +
         " (form: name, prefix[1-4,7]suffix, separated by ',')";
}

// One bracket group as its expanded numbers, each already zero padded.
struct ExpandedGroup {
  struct Range {
    uint64_t lo, hi;
    size_t width;
  };
  std::vector<Range> ranges;
  uint64_t count = 0;
  std::string suffix;
};

std::string expand_group(const HostGroup& group, size_t max_hosts, ExpandedGroup& out) {
  out.suffix = group.suffix;
  for (const NumberRange& range : group.ranges) {
    auto lo = to_u64(range.lo);
    auto hi = range.hi ? to_u64(*range.hi) : lo;
    if (!lo || !hi)
      return "number too large in [" + clip(range.lo) + (range.hi ? "-" + clip(*range.hi) : "") +
             "]";
    if (*hi < *lo)
      return "range " + clip(range.lo) + "-" + clip(*range.hi) + " ends before it starts";
    const uint64_t size = *hi - *lo + 1;  // cannot overflow unless lo == 0 && hi == max
    if (size == 0 || size > max_hosts || out.count + size > max_hosts) {
      return "expands to more than " + std::to_string(max_hosts) + " hosts";
    }
    out.count += size;
    out.ranges.push_back({*lo, *hi, range.lo.size()});
  }
  return "";
}

std::string padded(uint64_t value, size_t width) {
  std::string digits_text = std::to_string(value);
  if (digits_text.size() < width) digits_text.insert(0, width - digits_text.size(), '0');
  return digits_text;
}

// The i-th number of a group, counting across its ranges.
std::string group_member(const ExpandedGroup& group, uint64_t index) {
  for (const ExpandedGroup::Range& range : group.ranges) {
    const uint64_t size = range.hi - range.lo + 1;
    if (index < size) return padded(range.lo + index, range.width);
    index -= size;
  }
  return "";
}

// Cartesian product with an odometer (last group varies fastest), no recursion.
void emit_product(const std::string& prefix, const std::vector<ExpandedGroup>& groups,
                  std::vector<std::string>& hosts) {
  std::vector<uint64_t> position(groups.size(), 0);
  while (true) {
    std::string host = prefix;
    for (size_t g = 0; g < groups.size(); ++g) {
      host += group_member(groups[g], position[g]);
      host += groups[g].suffix;
    }
    hosts.push_back(std::move(host));
    size_t g = groups.size();
    while (g > 0) {
      --g;
      if (++position[g] < groups[g].count) break;
      position[g] = 0;
      if (g == 0) return;
    }
    if (groups.empty()) return;
  }
}

Parsed<std::vector<std::string>> expand_hostlist_impl(std::string_view text, size_t max_hosts) {
  using Hosts = std::vector<std::string>;
  std::vector<HostItem> items;
  const Outcome outcome = parse_whole(text, hostlist, items);
  if (!outcome.matched) {
    std::string why = "unexpected " + quoted_char_at(text, outcome.stop);
    if (outcome.stop < text.size() && text[outcome.stop] == '[') {
      why = "bad bracket group at offset " + std::to_string(outcome.stop + 1) +
            " (expected [N], [LO-HI] or a ',' list of them, closed by ']')";
    }
    return failure<Hosts>(hostlist_error(text, why));
  }
  Hosts hosts;
  for (const HostItem& item : items) {
    std::vector<ExpandedGroup> groups;
    uint64_t product = 1;
    for (const HostGroup& group : item.groups) {
      ExpandedGroup expanded;
      if (std::string why = expand_group(group, max_hosts, expanded); !why.empty()) {
        return failure<Hosts>(hostlist_error(text, why));
      }
      auto next = checked_mul(product, expanded.count);
      if (!next || *next > max_hosts) {
        return failure<Hosts>(
            hostlist_error(text, "expands to more than " + std::to_string(max_hosts) + " hosts"));
      }
      product = *next;
      groups.push_back(std::move(expanded));
    }
    if (hosts.size() + product > max_hosts) {
      return failure<Hosts>(
          hostlist_error(text, "expands to more than " + std::to_string(max_hosts) + " hosts"));
    }
    emit_product(item.prefix, groups, hosts);
  }
  return success(std::move(hosts));
}

}  // namespace

Parsed<std::vector<std::string>> expand_hostlist(std::string_view text, size_t max_hosts) {
  return detail::guarded<std::vector<std::string>>(
      "a hostlist", [&] { return expand_hostlist_impl(text, max_hosts); });
}

}  // namespace s2a::values
