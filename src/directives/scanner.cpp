// scan_directives(): sbatch's _opt_batch_script() plus the diagnostics sbatch
// never prints.
//
// One linear pass over the lines collects directive words per het component
// and notes comment lines that were clearly meant as directives; then each
// component's words go through the option engine once, as sbatch does.
#include <algorithm>
#include <iterator>
#include <string>

#include "directives/directives.hpp"
#include "directives/file_checks.hpp"
#include "directives/pbs.hpp"
#include "directives/text_util.hpp"
#include "source/ascii.hpp"

namespace s2a::directives {
namespace {

using detail::is_space;
using namespace std::string_view_literals;

constexpr std::string_view kMagic = "#SBATCH";
constexpr std::string_view kLegacyMagic = "#SLURM";

struct Line {
  uint32_t number = 0;    // 1-based
  uint32_t begin = 0;     // offset of the first byte (after a BOM on line 1)
  std::string_view text;  // without "\n" and without the "\r" of a CRLF

  [[nodiscard]] Span span() const { return {begin, begin + static_cast<uint32_t>(text.size())}; }
  [[nodiscard]] Span span_from(size_t offset) const {
    return {begin + static_cast<uint32_t>(offset), span().end};
  }
};

/// A directive word and the line it came from.
struct SourcedWord {
  uint32_t line = 0;
  bool glued = false;  // first word of `#SBATCHword`: no blank after the magic word
};

struct Component {
  std::vector<Word> words;
  std::vector<SourcedWord> origins;
};

std::string quoted_line(std::string_view text) { return "`" + detail::excerpt(text, 50) + "`"; }

size_t skip_blanks(std::string_view text, size_t pos) {
  while (pos < text.size() && is_space(text[pos])) ++pos;
  return pos;
}

/// Length of a hetjob/packjob separator at the start of `text`, or 0.
size_t separator_length(std::string_view text) {
  // Asked of every directive line; nearly all start with `-`.
  if (text.empty() || (detail::to_lower(text[0]) != 'h' && detail::to_lower(text[0]) != 'p')) {
    return 0;
  }
  for (std::string_view word : {std::string_view("hetjob"), std::string_view("packjob")}) {
    if (detail::istarts_with(text, word) &&
        (text.size() == word.size() || is_space(text[word.size()]))) {
      return word.size();
    }
  }
  return 0;
}

/// After `pos`, only blanks and then an option (`-...`).
bool options_follow(std::string_view text, size_t pos) {
  pos = skip_blanks(text, pos);
  return pos < text.size() && text[pos] == '-';
}

/// True when `text` holds `#SBATCH`, `#PBS` or `#BSUB` anywhere: the only
/// markers a line after the first command is read or reported for.
bool mentions_directive_magic(std::string_view text) {
  for (size_t at = text.find('#'); at != std::string_view::npos; at = text.find('#', at + 1)) {
    const std::string_view rest = text.substr(at);
    if (rest.starts_with(kMagic) || rest.starts_with("#PBS") || rest.starts_with("#BSUB")) {
      return true;
    }
  }
  return false;
}

bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/// Remembers heredoc delimiters of command lines so that `#SBATCH` lines
/// written into another script (`cat > job.sh <<EOF`) are not reported.
class HeredocTracker {
 public:
  /// True when `line` is heredoc content (or its terminator).
  bool consume(std::string_view line) {
    if (pending_.empty()) return false;
    std::string_view candidate = line;
    if (pending_.front().strip_tabs) {
      while (!candidate.empty() && candidate.front() == '\t') candidate.remove_prefix(1);
    }
    if (candidate == pending_.front().delimiter) pending_.erase(pending_.begin());
    return true;
  }

  void scan_command(std::string_view line) {
    for (size_t pos = line.find("<<"); pos != std::string_view::npos;
         pos = line.find("<<", pos + 2)) {
      size_t p = pos + 2;
      if (p < line.size() && line[p] == '<') {  // here-string
        pos = p;
        continue;
      }
      const bool strip_tabs = p < line.size() && line[p] == '-';
      if (strip_tabs) ++p;
      while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
      std::string delimiter;
      if (p < line.size() && (line[p] == '\'' || line[p] == '"')) {
        const char quote = line[p];
        const size_t close = line.find(quote, p + 1);
        if (close == std::string_view::npos) continue;
        delimiter = line.substr(p + 1, close - p - 1);
      } else {
        if (p < line.size() && line[p] == '\\') ++p;
        if (p >= line.size() || !(is_letter(line[p]) || line[p] == '_')) continue;
        while (p < line.size() &&
               (is_letter(line[p]) || line[p] == '_' || (line[p] >= '0' && line[p] <= '9'))) {
          delimiter.push_back(line[p++]);
        }
      }
      if (!delimiter.empty()) pending_.push_back({std::move(delimiter), strip_tabs});
    }
  }

 private:
  struct Pending {
    std::string delimiter;
    bool strip_tabs = false;
  };
  std::vector<Pending> pending_;
};

class Scanner {
 public:
  explicit Scanner(const SourceFile& file) : text_(file.text()) {}

  ScanResult run() {
    result_.diagnostics = detail::check_whole_file(text_);
    result_.body_offset = static_cast<uint32_t>(text_.size());
    components_.emplace_back();
    for_each_line([this](const Line& line) { visit(line); });
    parse_components();
    translate_pbs_lines();
    result_.components = static_cast<int>(components_.size());
    result_.fatal = has_errors(result_.diagnostics);
    return std::move(result_);
  }

 private:
  template <typename Visit>
  void for_each_line(Visit visit) {
    size_t pos = text_.starts_with("\xEF\xBB\xBF") ? 3 : 0;  // reported already; read on
    uint32_t number = 0;
    while (pos < text_.size() && !scan_finished_) {
      size_t end = text_.find('\n', pos);
      const bool has_newline = end != std::string_view::npos;
      if (!has_newline) end = text_.size();
      size_t content_end = end;
      if (has_newline && content_end > pos && text_[content_end - 1] == '\r') --content_end;
      visit(Line{++number, static_cast<uint32_t>(pos), text_.substr(pos, content_end - pos)});
      pos = end + 1;
    }
  }

  void visit(const Line& line) {
    note_pbs_line(line);
    if (!in_header_) {
      check_after_header(line);
      return;
    }
    if (line.text.starts_with(kMagic)) {
      read_directive(line, kMagic.size());
      return;
    }
    if (line.text.starts_with(kLegacyMagic)) {
      result_.diagnostics.push_back(
          {Code::directive_deprecated_prefix,
           {line.begin, line.begin + 6},
           "`#SLURM` is a deprecated alias of `#SBATCH`; sbatch still applies this line but "
           "complains",
           "write `#SBATCH` instead of `#SLURM`"});
      read_directive(line, kLegacyMagic.size());
      return;
    }
    const size_t first = skip_blanks(line.text, 0);
    if (first == line.text.size()) return;  // blank line
    if (line.text[first] == '#') {
      check_comment(line, first);
      return;
    }
    in_header_ = false;
    first_command_ = line;
    result_.body_offset = line.begin;
    heredocs_.scan_command(line.text);
    // Most bodies name no directive at all: then the lines after the first
    // command can neither be reported nor translated, and need no visit.
    scan_finished_ = !mentions_directive_magic(text_.substr(line.begin));
  }

  // --- directive lines -------------------------------------------------------

  void read_directive(const Line& line, size_t magic_length) {
    result_.directive_lines.push_back(line.span());
    const std::string_view body = line.text.substr(magic_length);
    const size_t start = skip_blanks(body, 0);
    if (const size_t length = separator_length(body.substr(start))) {
      start_component(line, magic_length + start, length);
      return;
    }
    const uint32_t base = line.begin + static_cast<uint32_t>(magic_length);
    Component& component = components_.back();
    const size_t first_word = component.words.size();
    append_directive_words(body, base, result_.diagnostics, component.words);
    for (size_t k = first_word; k < component.words.size(); ++k) {
      const bool glued = k == first_word && !body.empty() && !is_space(body[0]) &&
                         component.words[k].span.begin == base;
      component.origins.push_back({line.number, glued});
    }
  }

  void start_component(const Line& line, size_t at, size_t length) {
    components_.emplace_back();
    const std::string_view word = line.text.substr(at, length);
    if (detail::iequals(word, "packjob")) {
      result_.diagnostics.push_back({Code::packjob_separator,
                                     {line.begin + static_cast<uint32_t>(at),
                                      line.begin + static_cast<uint32_t>(at + length)},
                                     "`packjob` is a deprecated alias of `hetjob`",
                                     "write `#SBATCH hetjob`"});
    }
    const size_t rest = skip_blanks(line.text, at + length);
    if (rest < line.text.size() && line.text[rest] != '#') {
      result_.diagnostics.push_back(
          {Code::hetjob_trailing_words, line.span_from(rest),
           "sbatch ignores everything after `" + std::string(word) +
               "` on the same line, so these options apply to no component",
           "move them to their own `#SBATCH` line after the `#SBATCH " + std::string(word) +
               "` line"});
    }
  }

  // --- comment lines in the header -----------------------------------------

  void check_comment(const Line& line, size_t first) {
    const std::string_view text = line.text;
    if (first > 0) {
      if (text.substr(first).starts_with(kMagic)) {
        result_.diagnostics.push_back(
            {Code::directive_indented, line.span(),
             "sbatch reads `#SBATCH` only at the start of a line; this indented one is a comment "
             "and its options are not applied",
             "remove the indentation before `#SBATCH`"});
      }
      return;
    }
    // Column 0: `#`, more `#`s or blanks, then a word.
    size_t pos = 1;
    size_t hashes = 1;
    size_t blanks = 0;
    while (pos < text.size() && (text[pos] == '#' || text[pos] == ' ' || text[pos] == '\t')) {
      (text[pos] == '#' ? hashes : blanks) += 1;
      ++pos;
    }
    if (hashes == 1 && blanks == 0 && check_burst_buffer(line)) return;
    const size_t word_begin = pos;
    while (pos < text.size() && is_letter(text[pos])) ++pos;
    const std::string_view word = text.substr(word_begin, pos - word_begin);
    const bool word_ends = pos == text.size() || is_space(text[pos]) || text[pos] == '-';
    if (word.empty() || !word_ends) return;

    if (hashes > 1 || blanks > 0) {
      if (word == "SBATCH" && options_follow(text, pos)) {
        result_.diagnostics.push_back(
            {Code::directive_commented_out, line.span(),
             quoted_line(text.substr(0, pos)) +
                 " is a comment to sbatch, so the options on this line are not applied",
             "if the line should take effect write `#SBATCH` at the start of the line; if it is "
             "disabled on purpose, nothing to do"});
      }
      return;
    }
    // `#sbatch run.sh` tells how to submit the script; only options make it
    // a directive meant for sbatch.
    if (detail::iequals(word, "SBATCH") && options_follow(text, pos)) {
      result_.diagnostics.push_back(
          {Code::directive_wrong_case, line.span(),
           "`#" + std::string(word) +
               "` is not `#SBATCH` (the prefix is case-sensitive), so sbatch reads this line as "
               "a comment",
           "write `#SBATCH` in upper case"});
      return;
    }
    if (word.size() >= 4 && word.size() <= 8 && options_follow(text, pos) &&
        detail::edit_distance(ascii_upper(word), "SBATCH", 2) <= 2) {
      result_.diagnostics.push_back(
          {Code::directive_misspelled, line.span(),
           "`#" + std::string(word) +
               "` looks like a misspelled `#SBATCH`; sbatch reads this line as a comment",
           "write `#SBATCH`"});
    }
  }

  /// `#DW` and `#BB` (Cray DataWarp) and `#BB_LUA` (the lua plugin's default)
  /// lines are read by Slurm's burst-buffer plugin up to the first command, as
  /// #SBATCH lines are: storage allocated for the job and files staged in
  /// before it starts and out after it ends. Nothing does that on AI Runtime.
  bool check_burst_buffer(const Line& line) {
    const std::string_view text = line.text;
    size_t prefix = 0;
    for (std::string_view magic : {"#BB_LUA"sv, "#DW"sv, "#BB"sv}) {
      if (text.starts_with(magic) &&
          (text.size() == magic.size() || is_space(text[magic.size()]))) {
        prefix = magic.size();
        break;
      }
    }
    if (prefix == 0) return false;
    const size_t verb_begin = skip_blanks(text, prefix);
    size_t verb_end = verb_begin;
    while (verb_end < text.size() && !is_space(text[verb_end])) ++verb_end;
    const std::string_view verb = text.substr(verb_begin, verb_end - verb_begin);
    const std::string what = "`" + std::string(text.substr(0, prefix)) + "` line";
    std::string message;
    std::string hint;
    if (verb == "stage_in") {
      message = "this " + what +
                " had Slurm's burst-buffer plugin copy files in before the job started; nothing "
                "does on AI Runtime, so the job does not find them";
      hint = "read the input from a /Volumes/... path, or copy it at the top of the command";
    } else if (verb == "stage_out") {
      message = "this " + what +
                " had Slurm's burst-buffer plugin copy results out after the job ended; nothing "
                "does on AI Runtime, so they are lost with the node";
      hint =
          "write the results to a /Volumes/... path, or copy them there at the end of the "
          "command";
    } else {
      message = "this " + what +
                " asked Slurm's burst-buffer plugin for storage (`$DW_JOB_STRIPED`, "
                "`$DW_PERSISTENT_STRIPED_*` and the like); AI Runtime has no burst buffer and "
                "sets none of its variables";
      hint =
          "use node-local disk (/local_disk0) for scratch data and a /Volumes/... path for "
          "data that must outlive the run";
    }
    result_.diagnostics.push_back(
        {Code::burst_buffer_directive, line.span(), std::move(message), std::move(hint)});
    return true;
  }

  // --- after the first command -----------------------------------------------

  void check_after_header(const Line& line) {
    if (heredocs_.consume(line.text)) return;
    const size_t first = skip_blanks(line.text, 0);
    const std::string_view rest = line.text.substr(first);
    if (rest.starts_with(kMagic) && (rest.size() == kMagic.size() ||
                                     is_space(rest[kMagic.size()]) || rest[kMagic.size()] == '-')) {
      result_.ignored_directive_lines.push_back(line.span());
      result_.diagnostics.push_back(
          {Code::directive_after_command, line.span(),
           "sbatch ignores this `#SBATCH` line: the directive scan stopped at line " +
               std::to_string(first_command_.number) + " (" + quoted_line(first_command_.text) +
               "), the first command",
           "move it above line " + std::to_string(first_command_.number) +
               ", before the first command"});
      return;
    }
    if (first < line.text.size() && line.text[first] != '#') heredocs_.scan_command(line.text);
  }

  // --- #PBS / #BSUB ------------------------------------------------------------

  /// xlate_batch_script(): column-0 prefixes anywhere, until more than 100
  /// lines not starting with `#` have been seen.
  void note_pbs_line(const Line& line) {
    if (pbs_non_comments_ > 100) return;
    if (line.text.empty() || line.text[0] != '#') {
      ++pbs_non_comments_;
      return;
    }
    if (line.text.starts_with("#BSUB")) bsub_lines_.push_back(line);
    if (line.text.starts_with("#PBS")) pbs_lines_.push_back(line);
  }

  /// Runs after the #SBATCH options are parsed: sbatch applies #BSUB or
  /// #PBS options after them, so they override #SBATCH values (spec §1.6).
  void translate_pbs_lines() {
    if (ignore_pbs_) return;
    // sbatch translates one family only: #BSUB if there is any, else #PBS.
    const bool bsub = !bsub_lines_.empty();
    const std::string family = bsub ? "#BSUB" : "#PBS";
    std::vector<Option> translated;
    for (const Line& line : bsub ? bsub_lines_ : pbs_lines_) {
      const size_t magic = family.size();
      detail::ForeignTranslation t = detail::translate_foreign_line(
          bsub ? detail::BatchFamily::bsub : detail::BatchFamily::pbs, line.text.substr(magic),
          line.begin + static_cast<uint32_t>(magic));
      std::string became;
      for (const Option& option : t.options) {
        became += (became.empty() ? "--" : " --") + std::string(option.spec->long_name);
        if (option.value) became += "=" + detail::excerpt(*option.value, 40);
      }
      std::string ignored;
      for (const std::string& word : t.unused) ignored += (ignored.empty() ? "" : " ") + word;
      std::string message =
          became.empty() ? "sbatch reads this `" + family + "` line but applies nothing from it"
                         : "sbatch translates this `" + family + "` line into `" + became +
                               "`, which overrides the same settings in `#SBATCH` lines";
      if (!ignored.empty()) message += " (it ignores " + ignored + ")";
      result_.diagnostics.push_back(
          {Code::pbs_directive, line.span(), message,
           "write these settings as `#SBATCH` options, or add `#SBATCH --ignore-pbs` to make "
           "sbatch skip the line"});
      result_.diagnostics.insert(result_.diagnostics.end(), t.diagnostics.begin(),
                                 t.diagnostics.end());
      for (Option& option : t.options) translated.push_back(std::move(option));
    }
    if (translated.empty()) return;
    // Component 0's options come first in result_.options; the foreign ones
    // join them at the end, then last-one-wins is recomputed for component 0.
    auto end_of_first = std::find_if(result_.options.begin(), result_.options.end(),
                                     [](const Option& o) { return o.component != 0; });
    const auto first_count = static_cast<size_t>(end_of_first - result_.options.begin());
    result_.options.insert(end_of_first, std::make_move_iterator(translated.begin()),
                           std::make_move_iterator(translated.end()));
    mark_overridden(std::span<Option>(result_.options.data(), first_count + translated.size()));
  }

  // --- option parsing ----------------------------------------------------------

  void parse_components() {
    for (size_t c = 0; c < components_.size(); ++c) {
      const size_t first_option = result_.options.size();
      const size_t stretches = parse_component(components_[c], static_cast<int>(c));
      std::span<Option> options(result_.options.data() + first_option,
                                result_.options.size() - first_option);
      // Last one wins within the component: parse_options() marked only
      // within each stretch of words it parsed.
      if (stretches > 1) mark_overridden(options);
      Diagnostics conflicts = check_exclusive_options(options);
      result_.diagnostics.insert(result_.diagnostics.end(), conflicts.begin(), conflicts.end());
    }
  }

  /// Returns how many stretches of words parse_options() read (stray words
  /// split the component).
  size_t parse_component(const Component& component, int index) {
    const std::span<const Word> words(component.words);
    failed_words_.assign(words.size(), false);
    size_t start = 0;
    size_t stretches = 0;
    while (start < words.size()) {
      ++stretches;
      OptionParse parse = parse_options(words.subspan(start), sbatch_options());
      const size_t options_before = result_.options.size();
      for (Option& option : parse.options) {
        option.component = index;
        if (option.spec->long_name == "ignore-pbs") ignore_pbs_ = true;
        note_early_pass(option);
      }
      take_options(std::move(parse.options));
      result_.diagnostics.insert(result_.diagnostics.end(),
                                 std::make_move_iterator(parse.diagnostics.begin()),
                                 std::make_move_iterator(parse.diagnostics.end()));
      for (size_t k : parse.error_words) failed_words_[start + k] = true;
      const size_t stray = start + parse.first_operand;
      if (stray >= words.size()) break;
      start = report_stray_words(component, stray, options_before);
    }
    return stretches;
  }

  /// The first stretch's options (usually all of them: one component, one
  /// stretch of words) become the result's vector whole; later ones are
  /// moved in after them.
  void take_options(std::vector<Option>&& options) {
    if (result_.options.empty()) {
      result_.options = std::move(options);
      return;
    }
    result_.options.insert(result_.options.end(), std::make_move_iterator(options.begin()),
                           std::make_move_iterator(options.end()));
  }

  /// sbatch's "Invalid directive found in batch script": one diagnostic per
  /// line of stray words; returns where option parsing resumes.
  size_t report_stray_words(const Component& component, size_t stray, size_t options_before) {
    const std::vector<Word>& words = component.words;
    if (stray > 0 && words[stray - 1].text == "--") {
      // getopt stopped at `--`; sbatch rejects the next word, we read on from it.
      result_.diagnostics.push_back(
          {Code::invalid_directive, words[stray].span,
           "sbatch refuses the script: `" + detail::excerpt(words[stray].text) +
               "` is not an option (\"Invalid directive found in batch script\")",
           "`--` ends option parsing, so every word after it is rejected; remove the `--`"});
      // Read on from the next option word (which may be this one); the words
      // before it go with this error. Returns past any non-option word, so the
      // caller always moves forward.
      auto is_option = [](const Word& w) { return w.text.size() >= 2 && w.text[0] == '-'; };
      size_t next = stray;
      while (next < words.size() && !is_option(words[next])) ++next;
      return next;
    }
    size_t end = stray;
    while (end < words.size() && !(words[end].text.size() >= 2 && words[end].text[0] == '-')) {
      ++end;
    }
    for (size_t k = stray; k < end;) {
      size_t line_end = k;
      while (line_end < end && component.origins[line_end].line == component.origins[k].line) {
        ++line_end;
      }
      if (!follows_failed_option(component, k)) {
        report_stray_line(component, k, line_end, options_before);
      }
      k = line_end;
    }
    return end;
  }

  bool follows_failed_option(const Component& component, size_t k) const {
    if (k == 0) return false;
    return failed_words_[k - 1] && component.origins[k - 1].line == component.origins[k].line;
  }

  void report_stray_line(const Component& component, size_t k, size_t line_end,
                         size_t options_before) {
    const Word& word = component.words[k];
    const Span span{word.span.begin, component.words[line_end - 1].span.end};
    std::string hint = "remove it, or quote it together with the value it belongs to";
    if (component.origins[k].glued) {
      hint =
          "sbatch reads every line that starts with `#SBATCH` or `#SLURM` as a directive; "
          "reword this comment (e.g. `# SBATCH...`) or put a blank after `#SBATCH`";
    } else if (const Option* previous = option_ending_at(component, k, options_before)) {
      if (previous->spec->arg == ArgKind::optional && !previous->value) {
        hint = "`--" + std::string(previous->spec->long_name) +
               "` takes its argument only when attached: write `--" +
               std::string(previous->spec->long_name) + "=" + detail::excerpt(word.text, 30) + "`";
      } else if (previous->spec->arg == ArgKind::none) {
        hint = "`" + previous->spelling + "` takes no argument; remove `" +
               detail::excerpt(word.text, 30) + "`";
      }
    }
    result_.diagnostics.push_back(
        {Code::invalid_directive, span,
         "sbatch refuses the script: `" + detail::excerpt(word.text) +
             "` is not an option (\"Invalid directive found in batch script\")",
         hint});
  }

  /// The option parsed just before stray word `k`, if it ended right there.
  const Option* option_ending_at(const Component& component, size_t k,
                                 size_t options_before) const {
    if (k == 0 || result_.options.size() <= options_before) return nullptr;
    const Option& previous = result_.options.back();
    const bool adjacent = previous.span.end == component.words[k - 1].span.end &&
                          component.origins[k - 1].line == component.origins[k].line;
    return adjacent ? &previous : nullptr;
  }

  void note_early_pass(const Option& option) {
    if (option.spec->origin != OptionOrigin::early_pass) return;
    result_.diagnostics.push_back(
        {Code::option_ignored_in_script, option.span,
         "sbatch ignores `" + option.spelling +
             "` in #SBATCH lines: it only works on the sbatch command line",
         "remove it from the script"});
  }

  std::string_view text_;
  ScanResult result_;
  std::vector<Component> components_;
  bool in_header_ = true;
  bool scan_finished_ = false;  // no later line can change the result
  Line first_command_;
  HeredocTracker heredocs_;
  std::vector<bool> failed_words_;  // per word of the component being parsed
  size_t pbs_non_comments_ = 0;
  std::vector<Line> pbs_lines_;
  std::vector<Line> bsub_lines_;
  bool ignore_pbs_ = false;
};

}  // namespace

ScanResult scan_directives(const SourceFile& file) { return Scanner(file).run(); }

}  // namespace s2a::directives
