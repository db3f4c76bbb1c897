// What the script body runs, and where: every simple command with its context.
//
// Slurm runs the body once, on the first node, and starts tasks with srun; AI
// Runtime runs the command on every node. So the translator must know, for
// each command, whether it ran inside an srun step, in a loop, a function, a
// branch or the background. analyze_body() parses the body (and the scripts
// given to `bash -c` under srun) and records each simple command as a Site.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "directives/directives.hpp"
#include "parse/parse_script.hpp"
#include "slurm/nounset.hpp"

namespace s2a::slurm {

/// The text a site's spans index into. For the file and for single-quoted
/// `bash -c '...'` scripts that is the file itself (exact); for a
/// double-quoted script it is the unescaped string, and diagnostics fall back
/// to the span of the quoted word.
struct TextView {
  std::string_view text;
  Span window;        // the part of `text` this script occupies
  bool exact = true;  // spans are file offsets
  Span fallback;      // where to point diagnostics when not exact
  // Not exact: the file offset of each byte of `text` (a script rebuilt from
  // a double-quoted word, whose quotes and escapes are gone).
  std::span<const uint32_t> file_offsets{};

  /// Where `span` of this view stands in the file.
  [[nodiscard]] Span file_span(Span span) const {
    if (exact) return span;
    if (span.begin >= file_offsets.size() || span.end > file_offsets.size()) return fallback;
    const uint32_t begin = file_offsets[span.begin];
    const uint32_t end = span.empty() ? begin : file_offsets[span.end - 1] + 1;
    return Span{begin, std::max(begin, end)};
  }
};

struct Context {
  bool in_srun = false;  // inside an srun step (runs per task)
  bool in_function = false;
  bool in_loop = false;
  bool in_branch = false;        // if/case branch or && / || operand
  bool background = false;       // in a statement ended by &
  bool in_substitution = false;  // inside $(...) or `...`
  uint32_t depth = 0;
};

enum class Launcher : uint8_t {
  none,
  torchrun,                  // torchrun, python -m torch.distributed.run
  torch_distributed_launch,  // python -m torch.distributed.launch
  accelerate,                // accelerate launch
  deepspeed,
  mpirun,  // mpirun, mpiexec
  horovodrun,
  python,  // python script.py (one process)
};

struct LauncherCall {
  Launcher kind = Launcher::none;
  size_t program_word = 0;    // index of the launcher's first word
  size_t first_argument = 0;  // index of the first word after "torchrun" / "-m mod" / "launch"
};

struct Site {
  const ast::Command* command = nullptr;     // a simple command
  const ast::ListItem* statement = nullptr;  // the statement it makes up alone, if any
  Context context;
  uint32_t view = 0;      // index into Body::views
  std::string program;    // first word's literal basename ("srun", "python3"); "srun"
                          // also for a step under a wrapper (`stdbuf -oL srun ...`)
  LauncherCall launcher;  // the launcher this command runs, directly or under srun
  // srun only
  size_t srun_word = 0;  // index of `srun`: after `stdbuf -oL`, `timeout 1h`, `nohup`...
  std::optional<directives::OptionParse> srun;  // srun's own options
  size_t srun_operand = 0;                      // index of the first word after srun's options
  // The program is inside a variable that also holds srun options
  // (ARGS="-l python"; srun $ARGS t.py): srun cannot be taken off the line.
  bool srun_operand_in_variable = false;
  // ... and what stands there is an expansion in the variable's value
  // (SRUN_ARGS="-l ${EXTRA[@]} --wait=60"), not a program the script names.
  bool srun_operand_unread = false;
  // index of a `$NAME` the script never sets, standing before the program
  // among srun's options (`srun $SRUN_ARGS -u bash -c ...`): under Slurm it
  // held the submitting shell's srun options, if any; it goes with srun.
  // SIZE_MAX when there is none.
  size_t srun_unset_options = SIZE_MAX;
  // index into Body::nested for `srun bash -c SCRIPT`, and for a batch-script
  // line `bash -c 'SCRIPT'` (or `singularity exec IMG bash -c "SCRIPT"`)
  int nested_script = -1;
};

struct NestedScript {
  std::string text;  // owned copy for double-quoted scripts (empty when exact)
  // In `text`: the expansions the batch shell filled in, as written; and
  // the same expansions where they stand in the batch script (view 0).
  std::vector<Span> outer_expansions;
  std::vector<Span> outer_sources;
  std::vector<uint32_t> file_offsets;  // of each byte of `text` (TextView::file_offsets)
  ParseResult parse;
  uint32_t view = 0;
  Span word;  // the command word handing it over: the script, or "$NAME" holding it
};

struct Body {
  ParseResult parse;
  std::vector<std::unique_ptr<NestedScript>> nested;
  std::vector<TextView> views;  // views[0] is the file
  std::vector<Site> sites;      // in source order, nested scripts where they occur
  // What compound commands expand themselves, each as a Site with no
  // program: the words of `[[ ... ]]`, `case WORD in`, `for NAME in WORDS`,
  // the arithmetic of `(( ... ))` and `for (( ... ))` (Command::text), and
  // the redirections after any of them (`done < "$FILE"`). Apart from
  // `sites` because the rules about programs must not see them.
  std::vector<Site> compound_heads;
  // Words of a singularity/apptainer call that expand to its options
  // (`singularity exec ${BIND} $SIF ...`, BIND="-B /data"), for
  // find_container_call; by command, as few have any.
  std::unordered_map<const ast::Command*, std::vector<size_t>> container_option_words;
  // Where `set -u` is on in the batch script (S2A4037).
  NounsetScopes nounset;

  /// Where to point a diagnostic about `span` of the site's view: the span
  /// itself in the file, or where a rebuilt script's bytes came from.
  [[nodiscard]] Span file_span(uint32_t view, Span span) const {
    return views[view].file_span(span);
  }
  [[nodiscard]] Span file_span(const Site& site, Span span) const {
    return file_span(site.view, span);
  }
  /// Whether a nested script was read from these bytes of the file (a
  /// variable's value run by `bash -c "$CMD"`): its rules have mapped them.
  [[nodiscard]] bool read_as_nested_script(Span file_span) const {
    return std::ranges::any_of(nested, [&](const std::unique_ptr<NestedScript>& script) {
      const TextView& view = views[script->view];
      const Span whole = view.file_span(view.window);
      return whole.begin < file_span.end && file_span.begin < whole.end;
    });
  }

  [[nodiscard]] std::span<const size_t> container_options_of(const Site& site) const {
    // Asked for every container call; nearly every script has no such words.
    if (container_option_words.empty()) return {};
    const auto it = container_option_words.find(site.command);
    return it == container_option_words.end() ? std::span<const size_t>{} : it->second;
  }
};

/// Parses the body that starts at `body_offset` and records every simple
/// command. Parse errors go to `diagnostics`.
[[nodiscard]] Body analyze_body(const SourceFile& file, uint32_t body_offset,
                                Diagnostics& diagnostics);

/// The value of a word when it has no expansions (quotes removed), else empty.
[[nodiscard]] std::optional<std::string> literal_value(const ast::Word& word);
/// NAME when `written` is a plain expansion: `$NAME`, `${NAME}`, `"$NAME"`.
[[nodiscard]] std::optional<std::string_view> variable_of(std::string_view written);

struct LeadingVariable {
  std::string_view name;
  std::string_view rest;  // what `written` has after the expansion, as written
};
/// NAME and the text after it when `written` starts with a plain expansion:
/// `$OUT/sub`, `${OUT}/sub`, `"$OUT/sub"`, `"${OUT}"/sub` (not `'$OUT'`).
[[nodiscard]] std::optional<LeadingVariable> leading_variable(std::string_view written);

/// The batch script's assignments by name (`NAME=...` alone on its line,
/// `export`/`readonly`/`declare NAME=...`), indexed as far as they are asked
/// about: each site is read once, however many uses are looked up.
class BatchAssignments {
 public:
  explicit BatchAssignments(const Body& body) : body_(body) {}
  /// The value of the only assignment to NAME among the first `before`
  /// sites, as a word; nullopt when there is none, more than one, or an
  /// append (`+=`) or array.
  [[nodiscard]] std::optional<ast::Word> sole(std::string_view name, size_t before);

  struct Assigned {
    ast::Word value;
    size_t site = 0;  // index into Body::sites of the command that assigns it
  };
  /// sole() with where the assignment is, for rules that must know whether
  /// it always runs (not in a branch, loop or function).
  [[nodiscard]] std::optional<Assigned> sole_assignment(std::string_view name, size_t before);

 private:
  struct Entry {
    size_t site = 0;
    const ast::Word* word = nullptr;  // the value, or the whole `NAME=value` word
    bool declared = false;            // word is `NAME=value`: the value follows the `=`
    bool unusable = false;            // `+=` or an array
  };
  void index_up_to(size_t before);

  const Body& body_;
  size_t indexed_ = 0;
  std::unordered_map<std::string_view, std::vector<Entry>> by_name_;
};

/// The literal the batch script gives the variable `written` names (`$NAME`,
/// `${NAME}`, `"$NAME"`) when it assigns it exactly once, as a literal, among
/// its first `before` sites (`IMAGE=nvcr.io/...` ... `--container-image="$IMAGE"`).
[[nodiscard]] std::optional<std::string> sole_literal(BatchAssignments& assignments, size_t before,
                                                      std::string_view written);
/// The fields an unquoted expansion of `text` splits into (default IFS).
[[nodiscard]] std::vector<std::string> split_fields(std::string_view text);
/// The program name of a command word: basename of its literal value.
[[nodiscard]] std::string program_name(const ast::Word& word);

// Cheap looks at a word's literal text. The mapping asks about thousands of
// words per script, nearly all one unquoted or single-quoted part whose text
// the AST already holds: these view it, and fold (copy) only the rare word
// of several parts.

/// literal_value() as a view into the AST for a one-part word; other words
/// are folded into `storage`, which must outlive the view.
[[nodiscard]] std::optional<std::string_view> literal_view(const ast::Word& word,
                                                           std::optional<std::string>& storage);
/// What an expansion stands for in a fold, given the text before it, or
/// nullopt to stop there.
using ExpansionText = std::optional<std::string_view> (*)(const ast::WordPart& part,
                                                          std::string_view so_far);
/// The text a word starts with, quotes removed, up to its first expansion
/// `expansion` does not render (without one: the first expansion). A view of
/// the AST for a one-part literal word, else folded into `storage`.
[[nodiscard]] std::string_view literal_prefix(const ast::Word& word, std::string& storage,
                                              ExpansionText expansion = nullptr);
/// Whether the word's literal value is exactly `text`.
[[nodiscard]] bool literal_is(const ast::Word& word, std::string_view text);
/// program_name() viewed like literal_view().
[[nodiscard]] std::string_view program_view(const ast::Word& word,
                                            std::optional<std::string>& storage);
/// Programs that may run their arguments as a command (`conda` and friends
/// only with `run`). Asked of every command: the length rules out most at once.
[[nodiscard]] bool may_wrap_a_command(std::string_view program);
/// The index of the command that `time`, `exec`, `nohup`, `stdbuf`,
/// `timeout`, `nice`, `env`, `sudo`, `command`, `numactl` or `conda|mamba|micromamba
/// run` (with their options) starting at words[from] runs: `from` itself when
/// the word there is none of them, the end when the command is missing or
/// computed.
[[nodiscard]] size_t skip_command_wrappers(const std::vector<ast::Word>& words, size_t from);
/// Where the program a container step runs starts: srun's operand for an
/// srun step (else the first word), past the command wrappers there and
/// their options (`srun sudo -E docker run`, `timeout 2h docker run`,
/// `env A=1 nvidia-docker run`). The one place the container rules find
/// an engine behind a wrapper, so image, unwrapping and reports do not
/// depend on one.
[[nodiscard]] size_t container_step_start(const Site& site);
/// Finds a distributed launcher in words[from...], past any wrappers.
[[nodiscard]] LauncherCall detect_launcher(const std::vector<ast::Word>& words, size_t from);
[[nodiscard]] std::string_view launcher_name(Launcher launcher);
/// bash, sh, zsh, dash: interpreters whose `-c SCRIPT` is parsed again.
[[nodiscard]] bool is_shell_program(std::string_view program);
/// export, declare, typeset, local, readonly: builtins whose `NAME=value`
/// words are assignments.
[[nodiscard]] bool is_declaration_builtin(std::string_view program);
/// A part the shell expands (`$X`, `${X:-8}`, `$(...)`, `$((...))`), not
/// literal or quoted text; a double-quoted part is not one, its parts may be.
[[nodiscard]] bool is_expansion(const ast::WordPart& part);

}  // namespace s2a::slurm
