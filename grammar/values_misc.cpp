// --mail-type, --signal, --export and --gpu-bind values (spec/slurm-sbatch.md
// §2.13–2.15, §2.5).
//
// Slurm sources followed: proc_args.c:parse_mail_type(), get_signal_opts()
// with sig_name2num(), env.c:find_quote_token() for the --export list, and
// tres_bind.c's checks of the gres/gpu binding.
#include <array>

#include "grammar/values_x3.hpp"

namespace s2a::values::detail {

struct SignalAst {
  boost::optional<std::string> flags;  // "B", "R", "BR", "RB" (any case)
  std::string signal;                  // name or number as written
  boost::optional<std::string> seconds;
};

}  // namespace s2a::values::detail

BOOST_FUSION_ADAPT_STRUCT(s2a::values::detail::SignalAst, flags, signal, seconds)

namespace s2a::values {
namespace {

using namespace detail;

// ---------------------------------------------------------------------------
// Grammars
// ---------------------------------------------------------------------------

// parse_mail_type() walks the list with strtok(","), so empty words vanish.
//   mail_list := mail_word ( "," mail_word )*        mail_word := (any byte but ",")*
auto const mail_word = x3::rule<class mail_word_r, std::string>{"mail type"} = *(x3::char_ - ',');
auto const mail_list = x3::rule<class mail_list_r, std::vector<std::string>>{"mail types"} =
    mail_word % ',';

// get_signal_opts(): an optional R/B flag prefix, the signal, then @seconds.
// No known signal name starts with R or B, so the prefix is unambiguous even
// when its ':' is left out.
//   signal_spec := [ flags [ ":" ] ] signal [ "@" number ]
//   flags       := ( "R" | "B" ) [ "R" | "B" ]      (any case)
//   signal      := ( letter | digit )+             (name, SIGname or number)
auto const signal_flags = x3::rule<class signal_flags_r, std::string>{
    "R:/B: prefix"} = x3::char_("rRbB") >> -x3::char_("rRbB") >> x3::omit[-x3::lit(':')];
auto const signal_name = x3::rule<class signal_name_r, std::string>{"signal"} =
    +x3::char_("a-zA-Z0-9");
auto const signal_spec = x3::rule<class signal_spec_r, SignalAst>{
    "signal spec"} = -signal_flags >> signal_name >> -('@' >> digits);

// find_quote_token(): items end at a ',' outside single or double quotes; an
// unterminated quote runs to the end of the value.
//   export_list := export_item ( "," export_item )*
//   export_item := ( quoted | (any byte but "," or a quote) )*
//   quoted      := '"' (any but '"')* ['"'] | "'" (any but "'")* ["'"]
auto const quoted_run =
    ('"' >> *(x3::char_ - '"') >> -x3::lit('"')) | ('\'' >> *(x3::char_ - '\'') >> -x3::lit('\''));
auto const export_item = x3::rule<class export_item_r, std::string>{"export item"} =
    x3::raw[*(quoted_run | (x3::char_ - x3::char_(",\"'")))];
auto const export_list = x3::rule<class export_list_r, std::vector<std::string>>{"export list"} =
    export_item % ',';

// ---------------------------------------------------------------------------
// Mail types
// ---------------------------------------------------------------------------

// Slurm stores the types as bit flags, so the order written does not matter:
// the output uses the order of the documented list (spec §2.13).
constexpr std::array<std::string_view, 11> kMailTypes = {
    "BEGIN",      "END",           "FAIL",          "REQUEUE",       "INVALID_DEPEND", "STAGE_OUT",
    "TIME_LIMIT", "TIME_LIMIT_90", "TIME_LIMIT_80", "TIME_LIMIT_50", "ARRAY_TASKS"};
constexpr std::array<std::string_view, 6> kMailAll = {"BEGIN",          "END",     "FAIL",
                                                      "INVALID_DEPEND", "REQUEUE", "STAGE_OUT"};

Parsed<MailTypes> parse_mail_type_impl(std::string_view text) {
  std::vector<std::string> words;
  parse_whole(text, mail_list, words);  // cannot fail: every byte but ',' is a word byte
  std::array<bool, kMailTypes.size()> chosen{};
  auto choose = [&](std::string_view name) {
    for (size_t i = 0; i < kMailTypes.size(); ++i) {
      if (kMailTypes[i] == name) chosen[i] = true;
    }
  };
  MailTypes out;
  bool none = false;
  bool any_valid = false;
  for (const std::string& word : words) {
    if (word.empty()) continue;
    const std::string upper = to_upper(word);
    if (upper == "NONE") {
      none = true;  // parse_mail_type() stops at NONE and clears everything
      any_valid = true;
      break;
    }
    if (upper == "ALL") {
      for (std::string_view name : kMailAll) choose(name);
      any_valid = true;
    } else if (std::find(kMailTypes.begin(), kMailTypes.end(), upper) != kMailTypes.end()) {
      choose(upper);
      any_valid = true;
    } else {
      out.unknown.push_back(word);
    }
  }
  if (!any_valid) {
    return failure<MailTypes>(
        "invalid mail type " + quoted(text) +
        ": no known type (NONE, BEGIN, END, FAIL, REQUEUE, ALL, INVALID_DEPEND, STAGE_OUT, "
        "TIME_LIMIT, TIME_LIMIT_90, TIME_LIMIT_80, TIME_LIMIT_50, ARRAY_TASKS)");
  }
  if (!none) {
    for (size_t i = 0; i < kMailTypes.size(); ++i) {
      if (chosen[i]) out.types.emplace_back(kMailTypes[i]);
    }
  }
  return success(std::move(out));
}

// ---------------------------------------------------------------------------
// Signals
// ---------------------------------------------------------------------------

// The names sig_name2num() knows; others (BUS, SEGV, ...) need their number.
constexpr std::array<std::string_view, 18> kSignalNames = {
    "HUP",  "INT",  "QUIT", "ABRT", "KILL", "ALRM", "TERM", "CHLD", "USR1",
    "USR2", "PIPE", "URG",  "CONT", "STOP", "TSTP", "TTIN", "TTOU", "XCPU"};

std::string signal_error(std::string_view text, std::string_view why) {
  return "invalid signal " + quoted(text) + ": " + std::string(why) +
         " (form: [B:|R:]signal[@seconds], e.g. B:USR1@300)";
}

// sig_name2num(): a number, or a known name with or without "SIG" (any case).
std::optional<std::string> canonical_signal(const std::string& written, std::string& error) {
  if (is_digits(written)) {
    auto number = to_u64(written);
    if (!number || *number < 1 || *number > 65535) {
      error = "signal number " + clip(written) + " is out of range (1-65535)";
      return std::nullopt;
    }
    return std::to_string(*number);
  }
  std::string upper = to_upper(written);
  if (upper.size() > 3 && upper.compare(0, 3, "SIG") == 0) upper.erase(0, 3);
  if (std::find(kSignalNames.begin(), kSignalNames.end(), upper) != kSignalNames.end()) {
    return upper;
  }
  error = "unknown signal name '" + clip(written) +
          "' (known: HUP INT QUIT ABRT KILL ALRM TERM CHLD USR1 USR2 PIPE URG CONT STOP TSTP "
          "TTIN TTOU XCPU; use the number for others)";
  return std::nullopt;
}

Parsed<Signal> parse_signal_impl(std::string_view text) {
  SignalAst ast;
  const Outcome outcome = parse_whole(text, signal_spec, ast);
  if (!outcome.matched) {
    const bool ends_early = text.empty() || text.back() == ':' || text.back() == '@';
    std::string why = ends_early ? "the signal or the seconds are missing"
                                 : "unexpected " + quoted_char_at(text, outcome.stop);
    return failure<Signal>(signal_error(text, why));
  }
  Signal out;
  if (ast.flags) {
    const std::string flags = to_upper(*ast.flags);
    if (flags.size() == 2 && flags[0] == flags[1]) {
      return failure<Signal>(signal_error(text, "the prefix repeats '" + flags.substr(0, 1) + "'"));
    }
    out.batch_only = flags.find('B') != std::string::npos;
    out.reservation = flags.find('R') != std::string::npos;
  }
  std::string error;
  auto name = canonical_signal(ast.signal, error);
  if (!name) return failure<Signal>(signal_error(text, error));
  out.name = *name;
  if (ast.seconds) {
    auto seconds = to_u64(*ast.seconds);
    if (!seconds || *seconds > 65535) {
      return failure<Signal>(
          signal_error(text, "@" + clip(*ast.seconds) + " is out of range (0-65535)"));
    }
    out.seconds = static_cast<uint32_t>(*seconds);
  }
  return success(std::move(out));
}

// ---------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------

Parsed<ExportSpec> parse_export_impl(std::string_view text) {
  ExportSpec out;
  if (iequals(text, "ALL")) return success(std::move(out));
  if (iequals(text, "NONE") || iequals(text, "NIL")) {
    out.mode = iequals(text, "NONE") ? ExportSpec::Mode::none : ExportSpec::Mode::nil;
    return success(std::move(out));
  }
  if (text.empty()) {
    return failure<ExportSpec>(
        "invalid --export value \"\": expected ALL, NONE, NIL or a list "
        "of NAME or NAME=value");
  }
  std::vector<std::string> items;
  parse_whole(text, export_list, items);  // cannot fail: a quote without its pair runs to the end
  out.mode = ExportSpec::Mode::list;
  for (const std::string& item : items) {
    if (item.empty()) continue;
    if (iequals(item, "ALL")) {
      out.with_all = true;
      continue;
    }
    const size_t equals = item.find('=');
    ExportSpec::Item entry;
    entry.name = item.substr(0, equals);
    if (entry.name.empty()) {
      return failure<ExportSpec>("invalid --export value " + quoted(text) + ": item " +
                                 quoted(item) + " has no variable name before '='");
    }
    if (equals != std::string::npos) entry.value = item.substr(equals + 1);
    out.items.push_back(std::move(entry));
  }
  if (out.items.empty() && !out.with_all) {
    return failure<ExportSpec>("invalid --export value " + quoted(text) + ": the list is empty");
  }
  return success(std::move(out));
}

// ---------------------------------------------------------------------------
// GPU binding
// ---------------------------------------------------------------------------

// A binding, optionally after `verbose,`. The per_task and single counts
// are positive; the map/mask lists are kept unread (the translation reports
// them, it does not carry them over).
struct GpuBindForm {
  std::string_view prefix;
  GpuBind::Kind kind;
  bool counted;  // a positive count follows, else a list
};
constexpr std::array<GpuBindForm, 6> kGpuBindForms{{
    {"per_task:", GpuBind::Kind::per_task, true},
    {"single:", GpuBind::Kind::single, true},
    {"map_gpu:", GpuBind::Kind::map, false},
    {"map:", GpuBind::Kind::map, false},
    {"mask_gpu:", GpuBind::Kind::mask, false},
    {"mask:", GpuBind::Kind::mask, false},
}};

Parsed<GpuBind> parse_gpu_bind_impl(std::string_view text) {
  const auto fail = [&](std::string_view why) {
    return failure<GpuBind>("invalid --gpu-bind value " + quoted(text) + ": " + std::string(why));
  };
  GpuBind out;
  std::string_view rest = text;
  if (rest == "verbose" || rest.starts_with("verbose,")) {
    out.verbose = true;
    rest.remove_prefix(std::min(rest.size(), std::string_view("verbose,").size()));
    if (rest.empty()) return success(out);
  }
  if (rest == "none") return success(out);
  if (rest == "closest") {
    out.kind = GpuBind::Kind::closest;
    return success(out);
  }
  for (const GpuBindForm& form : kGpuBindForms) {
    if (!rest.starts_with(form.prefix)) continue;
    rest.remove_prefix(form.prefix.size());
    out.kind = form.kind;
    if (!form.counted) {
      return rest.empty() ? fail(std::string(form.prefix) + " needs a list") : success(out);
    }
    const Parsed<uint64_t> count = parse_positive_int(rest);
    if (!count) return fail(std::string(form.prefix) + " needs a positive count");
    out.count = *count;
    return success(out);
  }
  return fail("expected closest, none, per_task:N, single:N, map_gpu:LIST or mask_gpu:LIST");
}

}  // namespace

Parsed<MailTypes> parse_mail_type(std::string_view text) {
  return detail::guarded<MailTypes>("a mail type", [&] { return parse_mail_type_impl(text); });
}

Parsed<Signal> parse_signal(std::string_view text) {
  return detail::guarded<Signal>("a signal", [&] { return parse_signal_impl(text); });
}

Parsed<ExportSpec> parse_export(std::string_view text) {
  return detail::guarded<ExportSpec>("an export list", [&] { return parse_export_impl(text); });
}

Parsed<GpuBind> parse_gpu_bind(std::string_view text) {
  return detail::guarded<GpuBind>("a GPU binding", [&] { return parse_gpu_bind_impl(text); });
}

}  // namespace s2a::values
