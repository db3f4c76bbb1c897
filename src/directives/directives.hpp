// #SBATCH directives, read exactly as sbatch reads them.
//
// sbatch does not read its directives as bash: it scans column-0 `#SBATCH`
// lines until the first command, splits each body with its own tokenizer
// (quotes, backslash, unquoted `#`; no expansion) and runs getopt_long once
// over all words (spec/slurm-sbatch.md §1). This module reproduces that, and
// the option engine is shared with srun lines found in the body.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.hpp"
#include "directives/name_map.hpp"

namespace s2a::directives {

enum class ArgKind : uint8_t { none, required, optional };

/// Where an option comes from, which decides what sbatch does with it.
enum class OptionOrigin : uint8_t {
  slurm,       // a real sbatch/srun option
  early_pass,  // --help, --verbose, --wrap...: silently ignored in #SBATCH lines
  plugin,      // SPANK plugin options (pyxis --container-*, shifter --image, ...):
               // rejected by a plain sbatch, accepted where the plugin is installed
  removed,     // options older Slurm had (--workdir): rejected now
};

struct OptionSpec {
  std::string_view long_name;  // canonical, without dashes: "nodes"
  char short_name = 0;         // 'N', or 0
  ArgKind arg = ArgKind::required;
  OptionOrigin origin = OptionOrigin::slurm;
  std::string_view alias_of = {};     // "ntasks-per-node" for "tasks-per-node"
  std::string_view plugin = {};       // plugin options: "pyxis", "shifter", ...
  std::string_view replacement = {};  // removed options: what to write instead ("--chdir")
  std::string_view removed_in = {};   // removed options: Slurm release that dropped it

  /// The name occurrences are grouped by (aliases share their target's name).
  [[nodiscard]] std::string_view canonical() const {
    return alias_of.empty() ? long_name : alias_of;
  }
};

/// An option table: sbatch's or srun's.
class OptionTable {
 public:
  explicit OptionTable(std::span<const OptionSpec> specs);
  [[nodiscard]] std::span<const OptionSpec> specs() const { return specs_; }
  /// The spec whose long name is exactly `long_name` (no prefixes), or null.
  [[nodiscard]] const OptionSpec* find(std::string_view long_name) const;
  /// The spec of a short option letter, or null.
  [[nodiscard]] const OptionSpec* find_short(char short_name) const;

 private:
  std::span<const OptionSpec> specs_;
  // Every directive looks up its name: a hash lookup, not a scan of ~200 specs.
  NameMap<const OptionSpec*> by_long_name_;
  std::array<const OptionSpec*, 256> by_short_name_{};  // the first spec of each letter
};

[[nodiscard]] const OptionTable& sbatch_options();
[[nodiscard]] const OptionTable& srun_options();

/// A word after tokenizing: its text with quotes and escapes removed, and the
/// span it came from in the file.
struct Word {
  std::string text;
  Span span;
  /// File offset of each byte of `text` when the word was written with quotes
  /// or escapes; empty when `text` is the source verbatim (then byte i is at
  /// span.begin + i). Lets value spans point at what the user wrote.
  std::vector<uint32_t> offsets = {};

  /// File offset of text byte `index`; `index == text.size()` gives span.end.
  [[nodiscard]] uint32_t source_offset(size_t index) const;
};

/// One option occurrence after getopt_long.
struct Option {
  const OptionSpec* spec = nullptr;  // never null in results
  std::string spelling;              // as written: "-N", "--nod", "--nodes"
  std::optional<std::string> value;  // absent for flags and bare optional-arg options
  Span span;                         // option word through value word
  Span value_span;                   // the value as written (empty if none)
  int component = 0;                 // het-job component index
  bool overridden = false;           // a later occurrence of the same option wins

  [[nodiscard]] std::string_view name() const {
    return spec->alias_of.empty() ? spec->long_name : spec->alias_of;
  }
  /// The option as a user writes it, for messages: "--nodes=2", "-N 2", "--exclusive";
  /// a value longer than `value_limit` is cut and ends in "...".
  [[nodiscard]] std::string text(size_t value_limit = std::string::npos) const;
};

struct OptionParse {
  std::vector<Option> options;
  size_t first_operand = 0;         // index of the first non-option word (== words.size() if none)
  Diagnostics diagnostics;          // unknown, ambiguous, missing argument, removed, plugin
  std::vector<size_t> error_words;  // indices of words that produced an error
};

/// getopt_long in POSIX mode ("+"): stops at the first non-option word,
/// accepts unambiguous prefixes of long options (an exact name always wins),
/// short clusters, and binds optional arguments only with `=`. Marks every
/// option but the last of its name as overridden (except options that
/// accumulate: -v, --container-mounts, --container-env). Prefixes resolve
/// against live options (Slurm + plugin) first and against removed ones only
/// when nothing live matches, so the removed entries never make a prefix that
/// real sbatch accepts ambiguous.
[[nodiscard]] OptionParse parse_options(std::span<const Word> words, const OptionTable& table);

struct ScanResult {
  std::vector<Option> options;        // all #SBATCH/#SLURM options, in file order
  std::vector<Span> directive_lines;  // every line sbatch read as a directive
  uint32_t body_offset = 0;           // start of the first line that is a command (end of scan)
  int components = 1;                 // het-job components
  std::vector<Span> ignored_directive_lines;  // #SBATCH lines sbatch never reads (after a command)
  Diagnostics diagnostics;
  bool fatal = false;  // sbatch would refuse this script outright
};

/// Whole-file checks (shebang, NUL, CRLF, ...) plus the directive scan.
[[nodiscard]] ScanResult scan_directives(const SourceFile& file);

/// Splits one directive body as sbatch's get_argument() does. `base` is the
/// body's offset in the file. Unmatched quotes are reported.
[[nodiscard]] std::vector<Word> tokenize_directive(std::string_view body, uint32_t base,
                                                   Diagnostics& diagnostics);
/// tokenize_directive() appending to `words`, which the scanner keeps for a
/// whole het component.
void append_directive_words(std::string_view body, uint32_t base, Diagnostics& diagnostics,
                            std::vector<Word>& words);

/// sbatch/srun's fatal combinations (spec §1.7: --mem/--mem-per-cpu/--mem-per-gpu,
/// --gpus-per-node with --gres=gpu, --exclusive with --oversubscribe, -c with
/// --cpus-per-gpu, --ntasks-per-gpu with --gpus-per-task/--gpus-per-socket/
/// --ntasks-per-node/--tres-per-task, --core-spec with --thread-spec) among
/// `options`, which must all belong to one component (or one srun line).
[[nodiscard]] Diagnostics check_exclusive_options(std::span<const Option> options);

/// True when repeated occurrences add up instead of replacing each other.
[[nodiscard]] bool option_accumulates(const OptionSpec& spec);

/// Last one wins: sets `overridden` on every occurrence a later one of the
/// same option replaces (not on options that accumulate), clears it elsewhere.
void mark_overridden(std::span<Option> options);

}  // namespace s2a::directives
