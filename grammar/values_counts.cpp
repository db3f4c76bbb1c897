// Counts and sizes: --nodes, positive integers, GPU counts, --gres,
// --tres-per-task and memory sizes (spec/slurm-sbatch.md §2.2–2.6).
//
// Slurm sources followed: proc_args.c:verify_node_count(), parse_int(),
// str_to_mbytes(); slurm_protocol_defs.c:slurm_get_next_tres() for the GRES
// and TRES count rules (split at the last ':' or '=').
#include "grammar/values_x3.hpp"

namespace s2a::values::detail {

// A node count with an optional binary suffix: "2", "4k", "1M".
struct ScaledNumber {
  std::string number;
  boost::optional<char> suffix;
};
struct NodeRangeAst {
  boost::optional<ScaledNumber> min;
  ScaledNumber max;
};
struct TypedCountAst {
  boost::optional<std::string> type;
  std::string count;
};
struct MemoryAst {
  std::string number;
  boost::optional<std::string> unit;  // "G", "GB", "k", ...
};

}  // namespace s2a::values::detail

BOOST_FUSION_ADAPT_STRUCT(s2a::values::detail::ScaledNumber, number, suffix)
BOOST_FUSION_ADAPT_STRUCT(s2a::values::detail::NodeRangeAst, min, max)
BOOST_FUSION_ADAPT_STRUCT(s2a::values::detail::TypedCountAst, type, count)
BOOST_FUSION_ADAPT_STRUCT(s2a::values::detail::MemoryAst, number, unit)

namespace s2a::values {
namespace {

using namespace detail;

// ---------------------------------------------------------------------------
// Grammars
// ---------------------------------------------------------------------------

// verify_node_count(): the form is chosen by the characters present, so each
// form is its own grammar and the choice happens in C++ before parsing.
//   size_list   := size_item ( "," size_item )*       -- value contains ',' or ':'
//   size_item   := number [ "-" number ] [ ":" number ]
//   node_range  := [ scaled ] "-" scaled                -- value contains '-'
//   scaled      := number [ k | K | m | M ]
auto const size_item = x3::rule<class size_item_r, NumberRange>{
    "node count"} = digits >> -('-' >> digits) >> -(':' >> digits);
auto const size_list = x3::rule<class size_list_r, std::vector<NumberRange>>{"node count list"} =
    size_item % ',';
auto const scaled = x3::rule<class scaled_r, ScaledNumber>{"node count"} = digits >>
                                                                           -x3::char_("kKmM");
auto const node_range = x3::rule<class node_range_r, NodeRangeAst>{"node range"} =
    -scaled >> '-' >> scaled;

// parse_int()/str_to_mbytes() use strtol()/strtoll(), which skip leading
// white space and accept a '+' sign.
auto const strtol_prefix = x3::omit[*x3::char_(" \t\n\v\f\r") >> -x3::char_('+')];

// positive_int := [blanks] ["+"] number
auto const positive_int = x3::rule<class positive_int_r, std::string>{"positive integer"} =
    strtol_prefix >> digits;

// gpu_counts := gpu_count ( "," gpu_count )*
// gpu_count  := [ type ":" ] number
auto const gpu_type = x3::rule<class gpu_type_r, std::string>{"GPU type"} =
    +x3::char_("a-zA-Z0-9_.-");
// The and-predicate enters the optional type only when "type:" is really
// there, so a bare "8" is never half-read as a type and then given back.
auto const gpu_count = x3::rule<class gpu_count_r, TypedCountAst>{"GPU count"} =
    -(&(gpu_type >> ':') >> gpu_type >> ':') >> digits;
auto const gpu_counts = x3::rule<class gpu_counts_r, std::vector<TypedCountAst>>{"GPU counts"} =
    gpu_count % ',';

// slurm_get_next_tres() cuts each entry at its separators and decides from
// the last piece whether it is a count or a type, so the grammar only splits:
//   gres_list  := gres_entry ( "," gres_entry )*
//   gres_entry := [ "gres/" ] piece ( (":" | "=") piece )*
//   tres_list  := tres_entry ( "," tres_entry )*
//   tres_entry := tres_piece ( (":" | "=") piece )*       -- "gres/gpu:a100=2"
// Pieces may be empty so that "gpu:" reaches the check with its own message.
using Pieces = std::vector<std::string>;
auto const piece = x3::rule<class piece_r, std::string>{"name, type or count"} =
    *x3::char_("a-zA-Z0-9_.-");
auto const tres_piece = x3::rule<class tres_piece_r, std::string>{"TRES name"} =
    *x3::char_("a-zA-Z0-9_./-");
auto const separator = x3::char_(":=");
auto const gres_entry = x3::rule<class gres_entry_r, Pieces>{"GRES"} = -x3::lit("gres/") >>
                                                                       (piece % separator);
auto const gres_list = x3::rule<class gres_list_r, std::vector<Pieces>>{"GRES list"} =
    gres_entry % ',';
auto const tres_entry = x3::rule<class tres_entry_r, Pieces>{
    "TRES"} = tres_piece >> *(x3::omit[separator] >> piece);
auto const tres_list = x3::rule<class tres_list_r, std::vector<Pieces>>{"TRES list"} =
    tres_entry % ',';

// memory := [blanks] ["+"] number [ unit [ "B" | "b" ] ]     unit := K | M | G | T (any case)
auto const memory_unit = x3::rule<class memory_unit_r, std::string>{
    "memory unit"} = x3::char_("kKmMgGtT") >> -x3::char_("bB");
auto const memory_size = x3::rule<class memory_size_r, MemoryAst>{"memory size"} =
    strtol_prefix >> digits >> -memory_unit;

// ---------------------------------------------------------------------------
// Nodes
// ---------------------------------------------------------------------------

std::string node_error(std::string_view text, std::string_view why) {
  return "invalid node count " + quoted(text) + ": " + std::string(why) +
         " (forms: N, min-max, or a list such as 2,4,8 or 1-15:4)";
}

// The list form materialises every size; beyond this it is surely a typo.
constexpr uint64_t kMaxNodeSizes = 100000;

std::string_view trim_trailing_space(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' ||
                           text.back() == '\r' || text.back() == '\v' || text.back() == '\f')) {
    text.remove_suffix(1);
  }
  return text;
}

// A node count must fit the int that verify_node_count() stores it in.
std::optional<uint64_t> node_number(const std::string& digits_text, std::string& error) {
  auto value = to_u64(digits_text);
  if (!value || *value > kIntMax) {
    error = clip(digits_text) + " is too large (at most 2147483647)";
    return std::nullopt;
  }
  return value;
}

std::optional<uint64_t> scaled_node_number(const ScaledNumber& n, std::string& error) {
  auto value = node_number(n.number, error);
  if (!value) return std::nullopt;
  uint64_t factor = 1;
  if (n.suffix) factor = (*n.suffix == 'k' || *n.suffix == 'K') ? 1024 : 1048576;
  const uint64_t scaled_value = *value * factor;  // < 2^31 * 2^20: no overflow
  if (scaled_value > kIntMax) {
    error = clip(n.number) + std::string(1, *n.suffix) + " is too large (at most 2147483647)";
    return std::nullopt;
  }
  return scaled_value;
}

Parsed<NodeCount> parse_node_list(std::string_view whole, std::string_view text) {
  std::vector<NumberRange> items;
  const Outcome outcome = parse_whole(text, size_list, items);
  if (!outcome.matched) {
    return failure<NodeCount>(
        node_error(whole, "unexpected " + quoted_char_at(text, outcome.stop) +
                              " (list items are plain numbers N, N-M or N-M:S, no suffixes)"));
  }
  std::vector<uint64_t> sizes;
  std::string error;
  for (const NumberRange& item : items) {
    auto lo = node_number(item.lo, error);
    if (!lo) return failure<NodeCount>(node_error(whole, error));
    uint64_t hi = *lo;
    uint64_t step = 1;
    if (item.hi) {
      auto value = node_number(*item.hi, error);
      if (!value) return failure<NodeCount>(node_error(whole, error));
      hi = *value;
    } else if (item.step) {
      return failure<NodeCount>(
          node_error(whole, "a step ':" + clip(*item.step) + "' needs a range N-M"));
    }
    if (item.step) {
      auto value = node_number(*item.step, error);
      if (!value) return failure<NodeCount>(node_error(whole, error));
      if (*value == 0) return failure<NodeCount>(node_error(whole, "the step must be positive"));
      step = *value;
    }
    if (hi < *lo) {
      return failure<NodeCount>(node_error(
          whole, "range " + clip(item.lo) + "-" + clip(*item.hi) + " ends before it starts"));
    }
    if (sizes.size() + (hi - *lo) / step + 1 > kMaxNodeSizes) {
      return failure<NodeCount>(node_error(whole, "the list names more than 100000 node counts"));
    }
    for (uint64_t n = *lo; n <= hi; n += step) {
      sizes.push_back(n);
      if (hi - n < step) break;  // n += step would pass hi (or overflow)
    }
  }
  // Slurm keeps the sizes in a bitmap: sorted, each once.
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  NodeCount out;
  out.min = sizes.front();
  out.max = sizes.back();
  out.sizes = std::move(sizes);
  return success(std::move(out));
}

Parsed<NodeCount> parse_node_range(std::string_view whole, std::string_view text) {
  if (text.back() == '-') {
    return failure<NodeCount>(node_error(whole, "the maximum after '-' is missing"));
  }
  NodeRangeAst range;
  const Outcome outcome = parse_whole(text, node_range, range);
  if (!outcome.matched) {
    return failure<NodeCount>(
        node_error(whole, "unexpected " + quoted_char_at(text, outcome.stop)));
  }
  std::string error;
  uint64_t min = 1;  // "-4" means 1-4
  if (range.min) {
    auto value = scaled_node_number(*range.min, error);
    if (!value) return failure<NodeCount>(node_error(whole, error));
    min = *value;
  }
  auto max = scaled_node_number(range.max, error);
  if (!max) return failure<NodeCount>(node_error(whole, error));
  if (*max < min) {
    return failure<NodeCount>(node_error(whole, "the maximum is smaller than the minimum"));
  }
  NodeCount out;
  out.min = min;
  out.max = *max;
  return success(std::move(out));
}

Parsed<NodeCount> parse_node_single(std::string_view whole, std::string_view text) {
  ScaledNumber number;
  const Outcome outcome = parse_whole(text, scaled, number);
  if (!outcome.matched) {
    return failure<NodeCount>(
        node_error(whole, "unexpected " + quoted_char_at(text, outcome.stop)));
  }
  std::string error;
  auto value = scaled_node_number(number, error);
  if (!value) return failure<NodeCount>(node_error(whole, error));
  NodeCount out;
  out.min = *value;
  out.max = *value;
  return success(std::move(out));
}

Parsed<NodeCount> parse_nodes_impl(std::string_view whole) {
  const std::string_view text = trim_trailing_space(whole);
  if (text.empty()) return failure<NodeCount>(node_error(whole, "the value is empty"));
  if (text.find_first_of(",:") != std::string_view::npos) return parse_node_list(whole, text);
  if (text.find('-') != std::string_view::npos) return parse_node_range(whole, text);
  return parse_node_single(whole, text);
}

// ---------------------------------------------------------------------------
// Positive integers
// ---------------------------------------------------------------------------

Parsed<uint64_t> parse_positive_int_impl(std::string_view text) {
  std::string number;
  if (!parse_whole(text, positive_int, number).matched) {
    const bool negative =
        text.find('-') != std::string_view::npos && !text.empty() &&
        text.find_first_not_of(" \t\n\v\f\r-0123456789") == std::string_view::npos;
    return failure<uint64_t>("invalid number " + quoted(text) +
                             (negative ? ": must be positive" : ": expected a positive integer"));
  }
  auto value = to_u64(number);
  if (!value || *value > kIntMax) {
    return failure<uint64_t>("invalid number " + quoted(text) + ": too large (at most 2147483647)");
  }
  if (*value == 0)
    return failure<uint64_t>("invalid number " + quoted(text) + ": must be positive");
  return success(*value);
}

// ---------------------------------------------------------------------------
// GPU counts
// ---------------------------------------------------------------------------

Parsed<std::vector<TypedCount>> parse_gpu_counts_impl(std::string_view text) {
  std::vector<TypedCountAst> items;
  const Outcome outcome = parse_whole(text, gpu_counts, items);
  if (!outcome.matched) {
    return failure<std::vector<TypedCount>>("invalid GPU count " + quoted(text) +
                                            ": expected [type:]count[,[type:]count...] " +
                                            "such as 8, a100:8 or volta:3,kepler:1");
  }
  std::vector<TypedCount> out;
  for (const TypedCountAst& item : items) {
    auto count = to_u64(item.count);
    if (!count || *count > kIntMax) {
      return failure<std::vector<TypedCount>>("invalid GPU count " + quoted(text) + ": " +
                                              clip(item.count) + " is too large");
    }
    out.push_back(TypedCount{item.type.value_or(""), *count});
  }
  return success(std::move(out));
}

// ---------------------------------------------------------------------------
// GRES and TRES
// ---------------------------------------------------------------------------

// slurm_get_next_tres(): a count is a decimal with an optional k/m/g/t/p
// (powers of 1024) suffix. Returns nullopt when `piece` is not a count at
// all; sets `overflow` when it is one but does not fit in 64 bits.
std::optional<uint64_t> gres_count(std::string_view text, bool& overflow) {
  overflow = false;
  if (text.empty() || !(text.front() >= '0' && text.front() <= '9')) return std::nullopt;
  std::string_view number = text;
  uint64_t factor = 1;
  const char last = ascii_lower(text.back());
  if (!(last >= '0' && last <= '9')) {
    const std::string_view units = "kmgtp";
    const size_t power = units.find(last);
    if (power == std::string_view::npos) return std::nullopt;
    for (size_t i = 0; i <= power; ++i) factor *= 1024;
    number.remove_suffix(1);
  }
  if (!is_digits(number)) return std::nullopt;
  auto value = to_u64(number);
  auto scaled_value = value ? checked_mul(*value, factor) : std::nullopt;
  if (!scaled_value) overflow = true;
  return scaled_value ? scaled_value : std::optional<uint64_t>{0};
}

std::string gres_error(std::string_view text, std::string_view why) {
  return "invalid GRES " + quoted(text) + ": " + std::string(why) +
         " (form: name[[:type]:count][,...], e.g. gpu:a100:4)";
}

// Splits name[:type][:count] pieces by the last-piece rule of slurm_get_next_tres().
// Returns an error message, or "" on success.
std::string split_gres_pieces(const Pieces& pieces, GresEntry& entry) {
  if (pieces.empty() || pieces.front().empty()) return "a GRES name is missing";
  entry.name = pieces.front();
  if (pieces.size() == 1) return "";
  const std::string& last = pieces.back();
  if (last.empty()) return "the count after '" + clip(entry.name) + ":' is missing";
  bool overflow = false;
  auto count = gres_count(last, overflow);
  if (overflow) return clip(last) + " is too large";
  if (count) {
    entry.count = *count;
    if (pieces.size() == 3) entry.type = pieces[1];
    if (pieces.size() > 3) return "too many ':' after '" + clip(entry.name) + "'";
    if (pieces.size() == 3 && entry.type.empty()) return "the type between ':' is empty";
    return "";
  }
  if (pieces.size() > 2) return "'" + clip(last) + "' is not a count";
  entry.type = last;  // name:type means one of that type
  entry.count = 1;
  return "";
}

Parsed<std::vector<GresEntry>> parse_gres_impl(std::string_view text) {
  if (iequals(text, "none")) return success(std::vector<GresEntry>{});
  if (iequals(text, "help") || iequals(text, "list")) {
    return failure<std::vector<GresEntry>>("--gres=" + std::string(text) +
                                           " only lists the available GRES; it requests nothing");
  }
  std::vector<Pieces> entries;
  const Outcome outcome = parse_whole(text, gres_list, entries);
  if (!outcome.matched) {
    return failure<std::vector<GresEntry>>(
        gres_error(text, "unexpected " + quoted_char_at(text, outcome.stop)));
  }
  std::vector<GresEntry> out;
  for (const Pieces& pieces : entries) {
    GresEntry entry;
    if (std::string why = split_gres_pieces(pieces, entry); !why.empty()) {
      return failure<std::vector<GresEntry>>(gres_error(text, why));
    }
    if (entry.count > 0) out.push_back(std::move(entry));  // count 0 entries are dropped
  }
  return success(std::move(out));
}

std::string tres_error(std::string_view text, std::string_view why) {
  return "invalid TRES " + quoted(text) + ": " + std::string(why) +
         " (form: type[/name[:subtype]]=count[,...], e.g. cpu=4,gres/gpu:a100=2)";
}

// One TRES entry: "cpu=4", "mem=16G", "gres/gpu:a100=2", "license/x=1".
std::string split_tres_pieces(const Pieces& pieces, TresEntry& entry) {
  const std::string& head = pieces.front();
  const size_t slash = head.find('/');
  entry.type = head.substr(0, slash);
  if (slash != std::string::npos) entry.name = head.substr(slash + 1);
  if (entry.type.empty()) return "the TRES type is missing";
  if (slash != std::string::npos && entry.name.empty()) return "the name after '/' is missing";
  if (entry.name.find('/') != std::string::npos) return "only one '/' is allowed";
  if (entry.type == "gres") {
    // The part after "gres/" follows the --gres rules, count defaulting to 1.
    Pieces gres_pieces = pieces;
    gres_pieces.front() = entry.name;
    GresEntry gres;
    if (std::string why = split_gres_pieces(gres_pieces, gres); !why.empty()) return why;
    entry.subtype = gres.type;
    entry.count = gres.count;
    return "";
  }
  if (pieces.size() == 1) return "the count for '" + clip(head) + "' is missing";
  if (pieces.size() > 2) return "too many ':' or '=' after '" + clip(head) + "'";
  const std::string& count_text = pieces.back();
  if (entry.type == "mem") {
    Parsed<uint64_t> mib = parse_memory_mib(count_text);
    if (!mib) return mib.error;
    entry.count = *mib;
    return "";
  }
  bool overflow = false;
  auto count = gres_count(count_text, overflow);
  if (overflow) return clip(count_text) + " is too large";
  if (!count) return "'" + clip(count_text) + "' is not a count";
  entry.count = *count;
  return "";
}

Parsed<std::vector<TresEntry>> parse_tres_impl(std::string_view text) {
  std::vector<Pieces> entries;
  const Outcome outcome = parse_whole(text, tres_list, entries);
  if (!outcome.matched) {
    return failure<std::vector<TresEntry>>(
        tres_error(text, "unexpected " + quoted_char_at(text, outcome.stop)));
  }
  std::vector<TresEntry> out;
  for (const Pieces& pieces : entries) {
    TresEntry entry;
    if (std::string why = split_tres_pieces(pieces, entry); !why.empty()) {
      return failure<std::vector<TresEntry>>(tres_error(text, why));
    }
    out.push_back(std::move(entry));
  }
  return success(std::move(out));
}

// ---------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------

std::string memory_error(std::string_view text, std::string_view why) {
  return "invalid memory size " + quoted(text) + ": " + std::string(why) +
         " (form: integer with optional K, M, G or T, default M, e.g. 4000, 16G, 512M)";
}

std::string memory_mismatch_reason(std::string_view text, size_t stop) {
  const size_t first = text.find_first_not_of(" \t\n\v\f\r+");
  if (first != std::string_view::npos && text[first] == '-') return "must not be negative";
  if (stop < text.size() && text[stop] == '.') {
    return "only whole numbers are allowed (use a smaller unit, e.g. 1536M for 1.5G)";
  }
  if (stop < text.size() && (text[stop] == 'p' || text[stop] == 'P')) {
    return "there is no P unit (use T: 1P = 1024T)";
  }
  if (stop >= text.size()) return "a number is needed";
  return "unexpected " + quoted_char_at(text, stop);
}

Parsed<uint64_t> parse_memory_mib_impl(std::string_view text) {
  MemoryAst memory;
  const Outcome outcome = parse_whole(text, memory_size, memory);
  if (!outcome.matched) {
    return failure<uint64_t>(memory_error(text, memory_mismatch_reason(text, outcome.stop)));
  }
  auto value = to_u64(memory.number);
  if (!value) return failure<uint64_t>(memory_error(text, "the number is too large"));
  const char unit = memory.unit ? ascii_lower(memory.unit->front()) : 'm';
  std::optional<uint64_t> mib;
  switch (unit) {
    case 'k':  // str_to_mbytes() rounds KiB up to whole MiB
      mib = *value / 1024 + (*value % 1024 != 0 ? 1 : 0);
      break;
    case 'g':
      mib = checked_mul(*value, 1024);
      break;
    case 't':
      mib = checked_mul(*value, 1048576);
      break;
    default:
      mib = value;
  }
  if (!mib) return failure<uint64_t>(memory_error(text, "the size is too large"));
  return success(*mib);
}

}  // namespace

Parsed<NodeCount> parse_nodes(std::string_view text) {
  return detail::guarded<NodeCount>("a node count", [&] { return parse_nodes_impl(text); });
}

Parsed<uint64_t> parse_positive_int(std::string_view text) {
  return detail::guarded<uint64_t>("a number", [&] { return parse_positive_int_impl(text); });
}

Parsed<std::vector<TypedCount>> parse_gpu_counts(std::string_view text) {
  return detail::guarded<std::vector<TypedCount>>("a GPU count",
                                                  [&] { return parse_gpu_counts_impl(text); });
}

Parsed<std::vector<GresEntry>> parse_gres(std::string_view text) {
  return detail::guarded<std::vector<GresEntry>>("a GRES list",
                                                 [&] { return parse_gres_impl(text); });
}

Parsed<std::vector<TresEntry>> parse_tres(std::string_view text) {
  return detail::guarded<std::vector<TresEntry>>("a TRES list",
                                                 [&] { return parse_tres_impl(text); });
}

Parsed<uint64_t> parse_memory_mib(std::string_view text) {
  return detail::guarded<uint64_t>("a memory size", [&] { return parse_memory_mib_impl(text); });
}

}  // namespace s2a::values
