// A getopt_long work-alike for Slurm's option tables, in POSIX ("+") mode.
//
// It reproduces what glibc does with the table slurm_option_table_create()
// builds: exact long names beat prefixes, prefixes that name one option (or
// several rows of one option) are accepted, optional arguments bind only when
// attached, and parsing stops at the first word that is not an option.
#include <algorithm>
#include <string>

#include "directives/directives.hpp"
#include "directives/text_util.hpp"

namespace s2a::directives {
namespace {

bool is_live(const OptionSpec& spec) { return spec.origin != OptionOrigin::removed; }

/// glibc treats prefix matches with the same flag, val and has_arg as one
/// option; in our tables that is "same canonical name and argument kind".
bool same_option(const OptionSpec& a, const OptionSpec& b) {
  return a.canonical() == b.canonical() && a.arg == b.arg;
}

struct LongMatch {
  const OptionSpec* spec = nullptr;
  std::vector<const OptionSpec*> candidates;  // distinct options; >1: ambiguous
  std::vector<std::string_view> names;        // every matching long name, for messages
};

LongMatch match_long(const OptionTable& table, std::string_view name) {
  LongMatch match;
  if (const OptionSpec* exact = table.find(name)) {
    match.spec = exact;
    return match;
  }
  // Live options first; removed ones only when no live option has the prefix,
  // so a removed entry never makes a prefix ambiguous that sbatch accepts.
  for (bool live : {true, false}) {
    for (const OptionSpec& spec : table.specs()) {
      if (is_live(spec) != live || !spec.long_name.starts_with(name)) continue;
      match.names.push_back(spec.long_name);
      const bool seen = std::any_of(match.candidates.begin(), match.candidates.end(),
                                    [&](const OptionSpec* c) { return same_option(*c, spec); });
      if (!seen) match.candidates.push_back(&spec);
    }
    if (!match.candidates.empty()) break;
  }
  if (match.candidates.size() == 1) match.spec = match.candidates.front();
  return match;
}

std::string dashed(std::string_view long_name) { return "--" + std::string(long_name); }

std::string join_names(const std::vector<std::string_view>& long_names) {
  std::vector<std::string> names;
  for (std::string_view name : long_names) names.push_back(dashed(name));
  std::sort(names.begin(), names.end());
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += (i + 1 == names.size()) ? " or " : ", ";
    text += names[i];
  }
  return text;
}

/// The closest live long option, for "did you mean"; empty if none is close.
std::string closest_option(const OptionTable& table, std::string_view name) {
  const size_t limit = name.size() <= 4 ? 1 : (name.size() <= 8 ? 2 : 3);
  size_t best = limit + 1;
  std::string_view best_name;
  for (const OptionSpec& spec : table.specs()) {
    const size_t distance = detail::edit_distance(name, spec.long_name, limit);
    if (distance < best) {
      best = distance;
      best_name = spec.long_name;
    }
  }
  return best_name.empty() ? std::string() : dashed(best_name);
}

class Parser {
 public:
  Parser(std::span<const Word> words, const OptionTable& table) : words_(words), table_(table) {}

  OptionParse run() {
    result_.options.reserve(words_.size());  // about one option per word
    size_t i = 0;
    while (i < words_.size()) {
      const std::string& text = words_[i].text;
      if (text == "--") {
        ++i;
        break;
      }
      if (text.size() < 2 || text[0] != '-') break;
      i = text[1] == '-' ? parse_long(i) : parse_short_cluster(i);
    }
    result_.first_operand = std::min(i, words_.size());
    mark_overridden(result_.options);
    return std::move(result_);
  }

 private:
  size_t parse_long(size_t i) {
    const Word& word = words_[i];
    const std::string_view body = std::string_view(word.text).substr(2);
    const size_t eq = body.find('=');
    const std::string_view name = body.substr(0, eq);
    const bool attached = eq != std::string_view::npos;
    const Span name_span{word.span.begin, attached ? word.source_offset(2 + eq) : word.span.end};
    std::string spelling;
    spelling.reserve(2 + name.size());
    spelling.append("--").append(name);

    const LongMatch match = match_long(table_, name);
    if (match.spec == nullptr) {
      fail(i, match.candidates.empty() ? unknown_long(name, name_span)
                                       : ambiguous_long(spelling, match, name_span));
      return i + 1;
    }
    const OptionSpec& spec = *match.spec;
    Option option{&spec, spelling, std::nullopt, word.span, {}};
    if (attached) {
      if (spec.arg == ArgKind::none) {
        fail(i, {Code::unexpected_argument, word.span,
                 "`" + spelling + "` does not take an argument (\"option '--" +
                     std::string(spec.long_name) + "' doesn't allow an argument\")",
                 "write `" + dashed(spec.long_name) + "` alone"});
        return i + 1;
      }
      const size_t value_at = 2 + eq + 1;
      option.value = word.text.substr(value_at);
      option.value_span = {word.source_offset(value_at - 1) + 1, word.span.end};
      record(std::move(option));
      return i + 1;
    }
    if (spec.arg == ArgKind::required) {
      if (i + 1 >= words_.size()) {
        fail(i, missing_argument(spelling, spec, word.span));
        return i + 1;
      }
      const Word& value = words_[i + 1];
      option.value = value.text;
      option.value_span = value.span;
      option.span.end = value.span.end;
      record(std::move(option));
      return i + 2;
    }
    record(std::move(option));
    return i + 1;
  }

  size_t parse_short_cluster(size_t i) {
    const Word& word = words_[i];
    for (size_t j = 1; j < word.text.size(); ++j) {
      const char letter = word.text[j];
      const uint32_t begin = j == 1 ? word.span.begin : word.source_offset(j);
      const Span letter_span{begin, word.source_offset(j + 1)};
      const std::string spelling = std::string("-") + letter;
      const OptionSpec* spec = table_.find_short(letter);
      if (spec == nullptr) {
        fail(i, unknown_short(letter, letter_span));
        continue;
      }
      Option option{spec, spelling, std::nullopt, letter_span, {}};
      if (spec->arg == ArgKind::none) {
        record(std::move(option));
        continue;
      }
      if (j + 1 < word.text.size()) {  // the rest of the cluster is the argument
        option.value = word.text.substr(j + 1);
        option.value_span = {word.source_offset(j + 1), word.span.end};
        option.span.end = word.span.end;
        record(std::move(option));
        return i + 1;
      }
      if (spec->arg == ArgKind::required) {
        if (i + 1 >= words_.size()) {
          fail(i, missing_argument(spelling, *spec, letter_span));
          return i + 1;
        }
        const Word& value = words_[i + 1];
        option.value = value.text;
        option.value_span = value.span;
        option.span.end = value.span.end;
        record(std::move(option));
        return i + 2;
      }
      record(std::move(option));
      return i + 1;
    }
    return i + 1;
  }

  void record(Option&& option) {
    describe_origin(option);
    result_.options.push_back(std::move(option));
  }

  /// Removed and plugin options are rejected by a stock Slurm: say so.
  void describe_origin(const Option& option) {
    const OptionSpec& spec = *option.spec;
    if (spec.origin == OptionOrigin::removed) {
      std::string message = "`" + option.spelling + "` was removed in Slurm " +
                            std::string(spec.removed_in) +
                            "; current Slurm rejects it as an unknown option";
      std::string hint = spec.replacement.empty()
                             ? "remove it; Slurm has no replacement"
                             : "use `" + std::string(spec.replacement) + "` instead";
      result_.diagnostics.push_back({Code::removed_option, option.span, message, hint});
    } else if (spec.origin == OptionOrigin::plugin) {
      result_.diagnostics.push_back(
          {Code::plugin_option, option.span,
           "`" + option.spelling + "` comes from the " + std::string(spec.plugin) +
               " SPANK plugin; Slurm without that plugin rejects it as an unknown option",
           "make sure the cluster loads " + std::string(spec.plugin) +
               " (plugstack.conf), or drop the option"});
    }
  }

  void fail(size_t word_index, Diagnostic diagnostic) {
    result_.diagnostics.push_back(std::move(diagnostic));
    if (result_.error_words.empty() || result_.error_words.back() != word_index) {
      result_.error_words.push_back(word_index);
    }
  }

  Diagnostic unknown_long(std::string_view name, Span span) const {
    const std::string suggestion = closest_option(table_, name);
    return {Code::unknown_option, span,
            "unknown option `--" + detail::excerpt(name) + "` (\"unrecognized option\")",
            suggestion.empty() ? "remove it, or check the option name in the sbatch/srun manual"
                               : "did you mean `" + suggestion + "`?"};
  }

  static Diagnostic unknown_short(char letter, Span span) {
    std::string shown = (letter >= 0x21 && letter <= 0x7e) ? std::string(1, letter) : "?";
    return {Code::unknown_option, span, "unknown option `-" + shown + "` (\"invalid option\")",
            "check the option letter in the sbatch/srun manual, or use the long form"};
  }

  static Diagnostic ambiguous_long(const std::string& spelling, const LongMatch& match, Span span) {
    return {Code::ambiguous_option, span,
            "`" + detail::excerpt(spelling) + "` is ambiguous: it abbreviates " +
                join_names(match.names),
            "write the full option name"};
  }

  static Diagnostic missing_argument(const std::string& spelling, const OptionSpec& spec,
                                     Span span) {
    return {Code::missing_argument, span, "`" + spelling + "` needs an argument and none follows",
            "write `" + dashed(spec.long_name) + "=VALUE`"};
  }

  std::span<const Word> words_;
  const OptionTable& table_;
  OptionParse result_;
};

}  // namespace

void mark_overridden(std::span<Option> options) {
  // From the end back, an option is overridden when its name was seen
  // already. `seen` holds distinct names, at most one per row of the option
  // table, so the linear search stays bounded; for the few options of a
  // script it is much cheaper than hashing every name into a map.
  std::vector<std::string_view> seen;
  seen.reserve(options.size());
  for (auto option = options.rbegin(); option != options.rend(); ++option) {
    option->overridden = false;
    if (option_accumulates(*option->spec)) continue;
    const std::string_view name = option->name();
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      option->overridden = true;
    } else {
      seen.push_back(name);
    }
  }
}

OptionParse parse_options(std::span<const Word> words, const OptionTable& table) {
  return Parser(words, table).run();
}

}  // namespace s2a::directives
