#include "air/command.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include "air/cluster_paths.hpp"
#include "air/code_root_outputs.hpp"
#include "air/compute.hpp"
#include "air/jax_job.hpp"
#include "air/keyword_list.hpp"
#include "air/launch.hpp"
#include "air/private_addresses.hpp"
#include "air/process_counts.hpp"
#include "air/remote_shells.hpp"
#include "air/setup.hpp"
#include "air/variables.hpp"
#include "slurm/arithmetic.hpp"
#include "slurm/container_call.hpp"
#include "source/ascii.hpp"
#include "source/shebang.hpp"

namespace s2a::air {
namespace {

using std::string_view_literals::operator""sv;

using slurm::Launcher;
using slurm::Site;

bool is_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Every site asks these lists: a hashed set answers in one lookup, and
// every client's name starts with `s`, so most programs are not hashed.
bool is_slurm_client(std::string_view program) {
  if (!program.starts_with('s')) return false;
  static const std::unordered_set<std::string_view> kClients = {
      "scontrol", "squeue", "sbcast", "sbatch", "scancel", "sacct",    "sinfo", "salloc",
      "sattach",  "sstat",  "sprio",  "sshare", "sreport", "sacctmgr", "seff"};
  return kClients.count(program) != 0;
}

/// MPI launchers of particular sites, which read the Slurm allocation: whose
/// they are, or empty.
std::string_view site_mpi_launcher(std::string_view program) {
  if (program == "ibrun") return "TACC's";
  if (program == "aprun") return "Cray ALPS's";
  if (program == "jsrun") return "IBM's (LSF)";
  return {};
}

/// Where a command stands in the pipeline holding it.
struct PipelinePlace {
  const ast::Command* pipeline = nullptr;
  const ast::ListItem* statement = nullptr;  // when the pipeline is the statement
  size_t stage = 0;                          // the command's index in pipeline->children
};

std::optional<PipelinePlace> find_pipeline(const ast::List& list, const ast::Command& stage,
                                           bool tested);

/// An `if`, `elif`, `while` or `until` condition: what its statements
/// return is tested.
bool is_condition(const ast::Command& command, size_t block) {
  if (command.kind == ast::CommandKind::if_clause) {
    return block % 2 == 0 && block + 1 < command.blocks.size();
  }
  return block == 0 && (command.kind == ast::CommandKind::while_clause ||
                        command.kind == ast::CommandKind::until_clause);
}

/// `tested`: what `command` returns is read (an `if` condition, a stage of
/// an `&&` list); statements nested in it are then not ones of their own
/// either (`if { conda env list | grep -q x; }; then`).
std::optional<PipelinePlace> find_pipeline(const ast::Command& command,
                                           const ast::ListItem* statement,
                                           const ast::Command& stage, bool tested) {
  if (command.kind == ast::CommandKind::simple) return std::nullopt;
  if (command.kind == ast::CommandKind::pipeline) {
    for (size_t i = 0; i < command.children.size(); ++i) {
      if (&command.children[i] == &stage) return PipelinePlace{&command, statement, i};
    }
  }
  for (const ast::Command& child : command.children) {
    if (auto found = find_pipeline(child, nullptr, stage, true)) return found;
  }
  for (size_t b = 0; b < command.blocks.size(); ++b) {
    if (auto found = find_pipeline(command.blocks[b], stage, tested || is_condition(command, b))) {
      return found;
    }
  }
  for (const ast::CaseItem& item : command.case_items) {
    if (auto found = find_pipeline(item.body, stage, tested)) return found;
  }
  return std::nullopt;
}

/// Only the items whose span holds the stage are walked into. A statement
/// of a condition is not one of its own: the test reads what it returns.
std::optional<PipelinePlace> find_pipeline(const ast::List& list, const ast::Command& stage,
                                           bool tested) {
  for (const ast::ListItem& item : list.items) {
    if (item.span.begin > stage.span.begin || stage.span.end > item.span.end) continue;
    if (auto found = find_pipeline(item.command, tested ? nullptr : &item, stage, tested)) {
      return found;
    }
  }
  return std::nullopt;
}

/// `squeue -u me | grep "$2"` then `[[ $? == 0 ]] && exit`, or a bare
/// `exit`/`return`: the line after `span` (or the rest of its own) reads
/// the status it leaves.
bool status_read_after(std::string_view text, Span span) {
  size_t end = text.find('\n', span.end);
  std::string_view next_line;
  while (end != std::string_view::npos && end + 1 < text.size()) {
    const size_t next = text.find('\n', end + 1);
    next_line = text.substr(end + 1, next - end - 1);
    end = next;
    if (next_line.find_first_not_of(" \t") != std::string_view::npos) break;
  }
  const std::string_view rest = text.substr(span.end, std::min(end, text.size()) - span.end);
  if (rest.find("$?") != std::string_view::npos || rest.find("${?}") != std::string_view::npos ||
      rest.find("PIPESTATUS") != std::string_view::npos) {
    return true;
  }
  const size_t first = next_line.find_first_not_of(" \t");
  const size_t last = next_line.find_last_not_of(" \t;");
  if (first == std::string_view::npos || last == std::string_view::npos) return false;
  const std::string_view word = next_line.substr(first, last + 1 - first);
  return word == "exit" || word == "return";
}

/// `< file`, `<<<"$PAT"`, `2>/dev/null`, `2>&1`: a redirection that writes
/// no file.
bool writes_no_file(const ast::Redirect& redirect) {
  const std::string& op = redirect.op;
  if (op == "<" || op == "<<" || op == "<<-" || op == "<<<") return true;
  std::optional<std::string> storage;
  const auto target = slurm::literal_view(redirect.target, storage);
  if (!target) return false;
  if (*target == "/dev/null") return true;
  return (op == ">&" || op == "<&") && (is_digits(*target) || *target == "-");
}

/// `echo "$PAT"`, `printf '%s' X`, `cat token.txt`, `cat <<EOF`: a stage
/// whose only effect is what it writes into the pipe.
bool only_feeds_the_pipe(const ast::Command& stage) {
  if (stage.kind != ast::CommandKind::simple || stage.words.empty()) return false;
  std::optional<std::string> storage;
  const std::string_view program = slurm::program_view(stage.words.front(), storage);
  return contains({"echo"sv, "printf"sv, "cat"sv}, program) &&
         std::all_of(stage.redirects.begin(), stage.redirects.end(), writes_no_file);
}

/// `grep torch`, `sort -u`, `tail -n +2`, `sed -e 's/^/# /'`: a stage that
/// only filters what it reads into the job's log (no file written).
bool only_prints_its_input(const ast::Command& stage) {
  if (stage.kind != ast::CommandKind::simple || stage.words.empty()) return false;
  std::optional<std::string> storage;
  const std::string_view program = slurm::program_view(stage.words.front(), storage);
  if (!contains(
          {"grep"sv, "egrep"sv, "fgrep"sv, "head"sv, "tail"sv, "sort"sv, "uniq"sv, "wc"sv, "cut"sv,
           "tr"sv, "sed"sv, "awk"sv, "gawk"sv, "column"sv, "cat"sv, "less"sv, "more"sv},
          program)) {
    return false;
  }
  // `sed -i` edits files.
  const bool edits_files =
      program == "sed"sv &&
      std::any_of(stage.words.begin() + 1, stage.words.end(), [](const ast::Word& w) {
        std::optional<std::string> copy;
        const auto arg = slurm::literal_view(w, copy);
        return arg && (arg->starts_with("-i") || arg->starts_with("--in-place"));
      });
  return !edits_files &&
         std::all_of(stage.redirects.begin(), stage.redirects.end(), writes_no_file);
}

/// `grep x`, `egrep -v y`: a stage whose status is 1 when it reads no
/// input (it selected no line).
bool fails_on_no_input(const ast::Command& stage) {
  if (stage.kind != ast::CommandKind::simple || stage.words.empty()) return false;
  std::optional<std::string> storage;
  const std::string_view program = slurm::program_view(stage.words.front(), storage);
  return contains({"grep"sv, "egrep"sv, "fgrep"sv}, program);
}

/// Slurm commands that only print something about the job or the cluster
/// (`seff $SLURM_JOB_ID`, `sacct -j ...`, `scontrol show job ...`), and
/// sites' job-statistics reports built on them: Princeton's `jobstats`,
/// `jobinfo`, Melbourne's `my-job-stats`, MSU's powertools `js -j ID`.
bool only_reports_on_slurm(std::string_view program, const ast::Command& command) {
  // Every site asks: the first letter rules out most programs before the
  // names (a switch: a find in "sjmr" was a memchr call per site).
  switch (program.empty() ? '\0' : program.front()) {
    case 's':
    case 'j':
    case 'm':
    case 'r':
      break;
    default:
      return false;
  }
  if (program == "scontrol") {  // not `show hostnames`: it has a translation
    return command.words.size() >= 2 && slurm::literal_is(command.words[1], "show") &&
           !is_host_list_command(command);
  }
  if (program == "js") {  // also a JavaScript shell: only with a job id
    return std::any_of(command.words.begin(), command.words.end(),
                       [](const ast::Word& w) { return slurm::literal_is(w, "-j"); });
  }
  if (program == "jobstats" || program == "jobinfo" || program == "my-job-stats" ||
      program == "seff-array" || program == "reportseff") {
    return true;
  }
  return program == "seff" || program == "sacct" || program == "sstat" || program == "squeue" ||
         program == "sinfo" || program == "sprio" || program == "sshare" || program == "sreport";
}

/// The Slurm command a stored command line starts with (`"srun -n 4 ..."`,
/// `'scontrol show ...'`, `(srun python t.py)`), as written, or empty.
/// Every assignment value is looked at, so the scan is by hand: find_first_of
/// with a set calls memchr once per byte.
std::string_view slurm_command_at_start(std::string_view value) {
  const auto opens = [](char c) {
    return c == '"' || c == '\'' || c == '(' || c == ' ' || c == '\t';
  };
  const auto ends = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'' || c == ')';
  };
  size_t begin = 0;
  while (begin < value.size() && opens(value[begin])) ++begin;
  // Every Slurm command starts with `s`: most values end here.
  if (begin == value.size() || value[begin] != 's') return {};
  size_t end = begin;
  while (end < value.size() && !ends(value[end])) ++end;
  const std::string_view word = value.substr(begin, end - begin);
  return word == "srun" || is_slurm_client(word) ? word : std::string_view();
}

/// Commands that are harmless when every node runs them.
bool is_idempotent(std::string_view program) {
  static const std::unordered_set<std::string_view> kIdempotent = {
      "", "echo", "printf", "date", "hostname", "nvidia-smi", "set", "cd", "mkdir", "export",
      "unset", "source", ".", "ulimit", "umask", "sleep", "true", "false", ":", "env", "printenv",
      "which", "type", "command", "test", "[", "[[", "pwd", "ls", "cat", "head", "tail", "wc",
      "grep", "exit", "return", "shift", "wait", "trap", "local", "declare", "readonly", "typeset",
      "let", "nproc", "free", "df", "uname", "id", "whoami", "lscpu", "module", "ml", "pip", "pip3",
      "nvcc", "srun", "basename", "dirname", "realpath", "readlink", "seq", "sort", "read",
      "mapfile", "readarray", "chmod", "touch", "awk", "sed", "cut", "tr", "tee", "xargs",
      // Shell state and read-only looks at the node.
      "pushd", "popd", "dirs", "clear", "alias", "unalias", "shopt", "hash", "getopts", "tput",
      "du", "stat", "file", "md5sum", "sha256sum", "uniq", "ps", "uptime", "lsblk", "ip",
      "ifconfig", "ibstat", "ibv_devinfo", "ldd", "locale", "groups",
      // Loop control: what the loop runs is judged on its own.
      "break", "continue"};
  return kIdempotent.count(program) != 0;
}

/// A script may open or end with `\` and a newline (`CMD="\` with the
/// commands on the next lines, or a last `--flag \` before the closing
/// quote): the pair joins nothing there, but written out where the script
/// was, or inside `{ }`, it would join the next line. So it goes.
std::string_view trim_continuations(std::string_view text) {
  for (;;) {
    const size_t first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos || text.substr(first, 2) != "\\\n") break;
    text.remove_prefix(first + 2);
  }
  for (;;) {
    const size_t last = text.find_last_not_of(" \t\n");
    if (last == std::string_view::npos || text.substr(last, 2) != "\\\n") return text;
    size_t backslashes = 0;
    while (backslashes <= last && text[last - backslashes] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return text;  // `\\`: an escaped backslash, kept
    text = text.substr(0, last);
  }
}

struct IndentedLine {
  std::string_view text;
  size_t indent = 0;  // leading blanks
  bool blank = true;  // only blanks and carriage returns
};

IndentedLine indented_line(std::string_view text) {
  IndentedLine line{text};
  while (line.indent < text.size() && (text[line.indent] == ' ' || text[line.indent] == '\t')) {
    ++line.indent;
  }
  for (size_t i = line.indent; i < text.size() && line.blank; ++i) {
    line.blank = text[i] == ' ' || text[i] == '\t' || text[i] == '\r';
  }
  return line;
}

/// Where the line starting at `start` ends (its newline, or the end of the text).
size_t line_end_at(std::string_view text, size_t start) {
  if (start >= text.size()) return text.size();
  const void* newline = std::memchr(text.data() + start, '\n', text.size() - start);
  return newline == nullptr ? text.size()
                            : static_cast<size_t>(static_cast<const char*>(newline) - text.data());
}

/// What dedent() needs to know of the lines of a text.
struct LineShape {
  size_t indent = std::string_view::npos;  // shared by the non-blank lines
  size_t first = std::string_view::npos;   // where the first non-blank line starts
  size_t last_end = 0;                     // where the last non-blank line ends
  bool blanks_to_drop = false;  // a blank line after the first holds blanks (it is written empty)
};

/// One pass over the lines of the whole command. Most lines start with
/// neither a blank nor a carriage return: non-blank and unindented, told
/// by their first byte.
LineShape measure_lines(std::string_view text) {
  LineShape shape;
  for (size_t start = 0; start <= text.size();) {
    const size_t end = line_end_at(text, start);
    if (start < end) {
      const char c = text[start];
      const IndentedLine line = c == ' ' || c == '\t' || c == '\r'
                                    ? indented_line(text.substr(start, end - start))
                                    : IndentedLine{text.substr(start, end - start), 0, false};
      if (!line.blank) {
        shape.indent = std::min(shape.indent, line.indent);
        if (shape.first == std::string_view::npos) shape.first = start;
        shape.last_end = end;
      } else if (shape.first != std::string_view::npos) {
        shape.blanks_to_drop = true;
      }
    }
    start = end + 1;
  }
  return shape;
}

/// The lines of `text` that `shape` spans, without their shared indentation;
/// blank lines are written empty.
std::string dedented_lines(std::string_view text, const LineShape& shape) {
  std::string out;
  out.reserve(shape.last_end - shape.first + 1);
  for (size_t start = shape.first; start <= shape.last_end;) {
    const size_t end = line_end_at(text, start);
    const IndentedLine line = indented_line(text.substr(start, end - start));
    if (!line.blank) out.append(line.text.substr(shape.indent));
    out.push_back('\n');
    start = end + 1;
  }
  return out;
}

/// Removes the indentation shared by all non-blank lines and the blank lines
/// around the text: a `bash -c '...'` script is usually indented inside quotes.
/// It runs on the whole command: one pass measures the lines; a command with no
/// shared indentation is then copied whole, any other line by line.
std::string dedent(std::string_view text) {
  const LineShape shape = measure_lines(text);
  if (shape.first == std::string_view::npos) return {};
  if (shape.indent != 0 || shape.blanks_to_drop) return dedented_lines(text, shape);
  std::string out;
  out.reserve(shape.last_end - shape.first + 1);
  out.append(text.substr(shape.first, shape.last_end - shape.first));
  out.push_back('\n');
  return out;
}

/// dedent() of a text the caller is done with: the usual command, which has
/// no shared indentation, is trimmed where it is instead of copied.
std::string dedent(std::string&& text) {
  const LineShape shape = measure_lines(text);
  if (shape.first == std::string_view::npos) return {};
  if (shape.indent != 0 || shape.blanks_to_drop) return dedented_lines(text, shape);
  text.erase(shape.last_end);
  text.erase(0, shape.first);
  text.push_back('\n');
  return std::move(text);
}

/// "\r\n" -> "\n" in one pass (erasing in place would be quadratic).
std::string without_carriage_returns(std::string text) {
  if (text.find("\r\n") == std::string::npos) return text;
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (!(text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) out.push_back(text[i]);
  }
  return out;
}

/// Whether `text` has `$(`. Looked for from the `(`, found with memchr: most
/// commands have many `$` and no `(`.
bool has_dollar_paren(std::string_view text) {
  for (size_t at = text.find('('); at != std::string_view::npos; at = text.find('(', at + 1)) {
    if (at > 0 && text[at - 1] == '$') return true;
  }
  return false;
}

/// Launcher flags that take no value; every other `--name` takes one (the
/// next word unless written `--name=value`).
bool is_valueless_flag(Launcher launcher, std::string_view name) {
  switch (launcher) {
    case Launcher::torchrun:
    case Launcher::torch_distributed_launch:
      return contains({"standalone", "no_python", "module", "m", "run_path", "use_env"}, name);
    case Launcher::accelerate:
      return contains({"multi_gpu", "cpu", "use_deepspeed", "use_fsdp", "use_megatron_lm",
                       "same_network", "debug", "quiet", "q", "module", "m", "no_python", "tpu",
                       "use_xpu", "enable_cpu_affinity", "downcast_bf16"},
                      name);
    case Launcher::deepspeed:
      return contains(
          {"no_ssh", "no_python", "no_local_rank", "force_multi", "save_pid", "bind_cores_to_rank",
           "elastic_training", "no_ssh_check", "module", "enable_each_rank_log"},
          name);
    default:
      return true;
  }
}

struct LauncherOption {
  std::string name;       // normalized: no dashes, '_' for '-'
  size_t word = 0;        // index of the word holding the option name
  size_t value_word = 0;  // index of the word holding the value
  Span span;              // the option and its value as written
  Span value_span;        // the value as written (empty for flags)
};

/// `DISTRIBUTED_ARGS="--nproc_per_node $GPUS --nnodes $NNODES ..."` or
/// `ARGS=(--nnodes 2 ...)`: launcher options kept in a variable, as written.
struct OptionVariable {
  Span span;                        // the assignment
  std::vector<std::string> fields;  // the words it splits into, quotes removed
};

/// What a program given `--launcher slurm` (mmcv, mmengine, BasicSR) reads.
constexpr std::string_view kSlurmTaskVariables =
    "Slurm's task variables (SLURM_PROCID, SLURM_NTASKS, and SLURM_NODELIST through scontrol)";

/// How step_mpi() names a Python step whose ranks are Horovod's.
constexpr std::string_view kUsesHorovod = "the script uses Horovod";

/// `${NAME:-word}` and the other operators that give NAME's own value when it is set and
/// not empty.
constexpr std::array kDefaultOperators = {":-"sv, ":="sv, ":?"sv, "-"sv, "="sv, "?"sv};

/// A SLURM* name the script itself sets, from where its assignment ends.
struct OwnName {
  static constexpr uint32_t kEveryView = UINT32_MAX;  // a name Slurm never sets
  uint32_t view = 0;
  std::string name;
  uint32_t from = 0;
};

class CommandMapper final : public CommandEditor {
 public:
  CommandMapper(const SourceFile& file, const slurm::Body& body, const slurm::Job& job,
                const Compute& compute, const std::string& job_name, Diagnostics& diagnostics,
                const SetupOptions& setup_options)
      : file_(file),
        body_(body),
        job_(job),
        compute_(compute),
        job_name_(job_name),
        diagnostics_(diagnostics),
        mount_targets_(setup_options.mount_targets),
        edits_(body.views.size()),
        replaced_(body.views.size()),
        writes_pbs_(contains_around(file.text(), "PBS_", 1)),
        script_functions_(top_level_functions(body.parse.script)),
        launches_in_view_(views_with_launchers(body)),
        setup_(*this, body, setup_options, setup_result_) {}

  CommandMapping run() {
    track_variables();
    record_own_slurm_names();
    make_process_counts_portable();
    for (const Site& site : body_.sites) {
      report_slurm_command_in_variable(site);
      remove_statement_if_replaced_by_runtime(site);
      if (site.launcher.kind != Launcher::none || site.program == "srun"sv)
        first_launch_seen_ = true;
      if (is_distributed_launcher(site.launcher.kind) || site.program == "srun"sv)
        starts_work_on_nodes_ = true;
      if (meets_in_a_rendezvous(site)) last_rendezvous_ = &site;
    }
    for (const Site& site : body_.sites) replace_first_host_idiom(site);
    for (const Site& site : body_.sites) {
      if (!is_replaced(site.view, site.command->span)) map_site(site);
    }
    for (const Site& site : body_.sites) replace_environment_interpreter(site);
    for (const Site& site : body_.sites) {
      if (fills_double_quoted_script(site) && !is_replaced(site.view, site.command->span)) {
        read_batch_expansions(site);
      }
    }
    for (const Site& head : body_.compound_heads) rewrite_compound_head(head);
    keep_blocks_non_empty();
    // Inner scripts first: an outer one is written with their rewrites.
    for (auto site = body_.sites.rbegin(); site != body_.sites.rend(); ++site) {
      unwrap_nested_script(*site);
    }
    setup_.redact_tokens_in_comments();
    report_cluster_paths();
    report_outputs_under_code_root();
    report_private_addresses();
    for (const Site& site : body_.sites) {
      report_software_setup_under_opt(site);
      report_file_sourced_in_step(site);
      report_remote_shell(site);
    }
    report_idle_nodes();
    withdraw_reports_gone_with_srun();
    const slurm::TextView& top = body_.views[0];
    // sbatch refuses CRLF scripts (reported by the scanner); the translation
    // keeps the user's intent: Unix line ends.
    const std::string text =
        without_carriage_returns(dedent(apply_edits(top.text, top.window, edits_[0].edits())));
    result_.command = "cd \"$CODE_SOURCE_PATH\"\n" + shebang_set_line() + tmpdir_line() + text;
    result_.dependencies = std::move(setup_result_.dependencies);
    result_.env_variables = std::move(setup_result_.env_variables);
    result_.secrets = std::move(setup_result_.secrets);
    result_.redactions = std::move(setup_result_.redactions);
    for (EditSet<LoggedEdit>& edits : edits_) {
      std::vector<LoggedEdit> notes = std::move(edits).take_notes(
          [](LoggedEdit& note, Edit&& edit) { note.replacement = std::move(edit.replacement); });
      result_.edits.insert(result_.edits.end(), std::make_move_iterator(notes.begin()),
                           std::make_move_iterator(notes.end()));
    }
    std::stable_sort(
        result_.edits.begin(), result_.edits.end(),
        [](const LoggedEdit& a, const LoggedEdit& b) { return a.span.begin < b.span.begin; });
    return std::move(result_);
  }

 private:
  /// `#!/bin/bash -ex` turned errexit and xtrace on for the whole job;
  /// command.sh has no `#!` line of its own, so they are set first thing.
  std::string shebang_set_line() const {
    const std::optional<Shebang> shebang = read_shebang(file_.text());
    const std::string letters = shebang ? set_options_of(*shebang) : std::string();
    if (letters.empty()) return {};
    return "set -" + letters + "  # " + std::string(shebang->argument) + " on the #! line\n";
  }

  /// Slurm sites give each job a TMPDIR (often a per-job directory on the
  /// node's disk); AI Runtime may not set it, and then `cp data $TMPDIR/`
  /// writes to `/`. A script that reads it and never sets it gets the
  /// node's temporary directory when nothing else does.
  std::string tmpdir_line() const {
    // Comments count too: the line added for it is harmless.
    if (!reads_variable(file_.text(), "TMPDIR")) return {};
    const auto writes = count_variable_writes(body_);
    if (writes.find("TMPDIR") != writes.end()) return {};
    return "export TMPDIR=\"${TMPDIR:-/tmp}\"  # the job's TMPDIR came from the Slurm site\n";
  }

  // --- edits and reports ----------------------------------------------------

  Span file_span(uint32_t view, Span span) const override { return body_.file_span(view, span); }

  /// Records an edit and its reason. Edits never overlap in effect
  /// (apply_edits keeps the first by position), so the log must not show one
  /// that will not happen: a new edit inside an earlier one is dropped, and a
  /// new edit covering earlier ones supersedes them.
  void edit(uint32_t view, Span span, std::string replacement, std::string reason) override {
    // The note's replacement is the edit's own, moved in by take_notes().
    LoggedEdit note{file_span(view, span), {}, std::move(reason)};
    edits_[view].add(span, std::move(replacement), std::move(note));
  }

  void replace(uint32_t view, Span span, std::string replacement, std::string reason) override {
    mark_replaced(view, span);
    edit(view, span, std::move(replacement), std::move(reason));
  }

  /// replace(), unless an earlier edit already covers the span; false then.
  bool replace_if_free(uint32_t view, Span span, const std::string& replacement,
                       std::string reason) {
    LoggedEdit note{file_span(view, span), {}, std::move(reason)};
    if (!edits_[view].add(span, replacement, std::move(note))) return false;
    mark_replaced(view, span);
    return true;
  }

  /// The text gone from a view, as disjoint intervals (begin -> end): a span
  /// is gone when one interval covers it. Logarithmic, so scripts with many
  /// rewrites stay linear overall.
  void mark_replaced(uint32_t view, Span span) {
    std::map<uint32_t, uint32_t>& gone = replaced_[view];
    uint32_t begin = span.begin;
    uint32_t end = span.end;
    auto it = gone.upper_bound(begin);
    if (it != gone.begin() && std::prev(it)->second >= begin) --it;
    while (it != gone.end() && it->first <= end) {
      begin = std::min(begin, it->first);
      end = std::max(end, it->second);
      it = gone.erase(it);
    }
    gone.emplace(begin, end);
  }

  bool is_replaced(uint32_t view, Span span) const {
    const std::map<uint32_t, uint32_t>& gone = replaced_[view];
    if (gone.empty()) return false;
    auto it = gone.upper_bound(span.begin);
    if (it == gone.begin()) return false;
    --it;
    return it->first <= span.begin && span.end <= it->second;
  }

  void report(Code code, uint32_t view, Span span, std::string message, std::string hint) override {
    diagnostics_.push_back({code, file_span(view, span), std::move(message), std::move(hint)});
  }

  std::string_view source(uint32_t view, Span span) const override {
    return body_.views[view].text.substr(span.begin, span.size());
  }

  /// Takes a whole statement out of the command. A statement alone on its
  /// lines becomes a comment, so the reader sees what went; one sharing its
  /// line with other code becomes `:` so the syntax around it stays valid.
  /// `shown`, when given, is put in the comment instead of the source text.
  /// A stage of a pipeline goes through remove_pipeline_stage().
  void remove_statement(const Site& site, std::string reason, std::string_view shown) override {
    if (site.statement == nullptr) {
      if (const std::optional<PipelinePlace> place = pipeline_of(site)) {
        remove_pipeline_stage(site, *place, std::move(reason), shown);
        return;
      }
    }
    remove_text(site.view, site.statement, site.command->span, std::move(reason), shown);
  }

  /// Takes `command` (the statement's, when it is one) out of the view:
  /// commented out when the statement is alone on its lines, else `:`.
  void remove_text(uint32_t view, const ast::ListItem* statement, Span command, std::string reason,
                   std::string_view shown) {
    const Span span = statement ? statement->span : command;
    const std::string_view text = body_.views[view].text;
    const size_t line_begin = text.rfind('\n', span.begin == 0 ? 0 : span.begin - 1);
    const size_t from = line_begin == std::string_view::npos ? 0 : line_begin + 1;
    const bool alone_before =
        text.substr(from, span.begin - from).find_first_not_of(" \t") == std::string_view::npos;
    size_t line_end = text.find('\n', span.end);
    if (line_end == std::string_view::npos) line_end = text.size();
    const std::string_view after = text.substr(span.end, line_end - span.end);
    const size_t after_code = after.find_first_not_of(" \t;");
    const bool alone_after = after_code == std::string_view::npos || after[after_code] == '#';
    if (statement && alone_before && alone_after && !statement->background) {
      replace(view, span, as_comment(shown.empty() ? source(view, span) : shown),
              std::move(reason));
      commented_out_.emplace(view, span.begin);
      result_.removed.push_back(file_span(view, span));
    } else {
      // A comment would end the line for the statements beside it; a quoted
      // `:` argument is inert (no expansion) and says what was here.
      const std::string_view removed = shown.empty() ? source(view, command) : shown;
      replace(view, command, ": " + single_quote("[slurm2air] " + std::string(removed)),
              std::move(reason));
      result_.removed.push_back(file_span(view, command));
    }
  }

  // --- a removed command that is one stage of a pipeline ---------------------

  /// `echo $PAT | docker login --password-stdin`, `conda list | grep torch`:
  /// `:` in place of the stage would not read the pipe (its writer may die
  /// of SIGPIPE, which fails the line under `set -o pipefail`) and the
  /// commands reading the stage would read nothing. So: a pipeline whose
  /// other stages only feed the stage (echo, printf, cat) or only filter
  /// what it printed to the log (grep, sort, tail, ...) goes whole; else the
  /// stage becomes `:` when it is the first (its readers get no input) or
  /// a `cat >/dev/null` that drains its writer. The reports just made for
  /// the stage say which (restate_removal()).
  void remove_pipeline_stage(const Site& site, const PipelinePlace& place, std::string reason,
                             std::string_view shown) {
    const ast::Command& pipeline = *place.pipeline;
    const auto& stages = pipeline.children;
    const auto before = std::span(stages).first(place.stage);
    const auto after = std::span(stages).subspan(place.stage + 1);
    const bool fed_only = std::all_of(before.begin(), before.end(), only_feeds_the_pipe);
    // Readers change what a test of the pipeline finds: only a statement of
    // its own, not negated, whose status the next line does not read
    // (`$?`), loses nothing when they go.
    const bool statement = place.statement != nullptr && !pipeline.negated &&
                           !status_read_after(body_.views[site.view].text, place.statement->span);
    const bool read_only_to_log =
        after.empty() ||
        (statement && std::all_of(after.begin(), after.end(), only_prints_its_input));
    const std::string stage_shown(shown.empty() ? source(site.view, site.command->span) : shown);
    if (fed_only && read_only_to_log) {
      for (const ast::Command& feeder : before) {
        if (const Site* fed = site_of(feeder)) setup_.report_credential_removed_with_pipeline(*fed);
      }
      const Span whole{stages.front().span.begin, stages.back().span.end};
      const std::string others = programs_of(before.empty() ? after : before);
      const std::string fate =
          std::string(statement && place.statement->command.kind == ast::CommandKind::pipeline
                          ? "the whole pipeline is removed"
                          : "the whole pipeline is replaced by `:`") +
          " (" + others + (before.empty() ? " only filtered what it printed)" : " only fed it)");
      restate_removal(site, fate, file_span(site.view, whole));
      remove_text(site.view, statement ? place.statement : nullptr, whole,
                  std::move(reason) + "; " + fate,
                  shown.empty() ? std::string()
                                : pipeline_shown(site.view, pipeline, place.stage, stage_shown));
      return;
    }
    std::string fate;
    std::string replacement = ": " + single_quote("[slurm2air] " + stage_shown);
    if (!before.empty()) {
      // Drained, the writer runs to its end as it did under Slurm.
      replacement = "{ " + replacement + "; cat >/dev/null; }";
      fate = "it is replaced in its pipeline by a `cat >/dev/null` that drains what " +
             programs_of(before) + " writes (so it does not die of SIGPIPE)";
    } else {
      fate = "it is replaced in its pipeline by `:`, which prints nothing";
    }
    if (!after.empty()) fate += ", and " + programs_of(after) + " reads no input";
    // `ml 2>&1 | grep 1 >> info.txt`: the file is written (empty) as the
    // readers run, but grep, selecting nothing, would fail the line and end
    // a `set -e` script. A test of the pipeline (`if conda env list | grep
    // -q env`) keeps its status: false is the answer on AI Runtime.
    const auto grep = std::find_if(after.begin(), after.end(), fails_on_no_input);
    const bool guard = statement && grep != after.end();
    if (grep != after.end() && !guard) {
      fate += ", so the pipeline's status is that of `" + slurm::program_name(grep->words.front()) +
              "` selecting nothing";
    }
    if (guard) {
      fate += "; `|| :` after the pipeline keeps `" + slurm::program_name(grep->words.front()) +
              "`, which then selects nothing, from failing the line (and ending a `set -e` "
              "script)";
    }
    restate_removal(site, fate, std::nullopt);
    replace(site.view, site.command->span, std::move(replacement), reason + "; " + fate);
    result_.removed.push_back(file_span(site.view, site.command->span));
    if (guard) {
      edit(site.view, Span{pipeline.span.end, pipeline.span.end}, " || :",
           std::move(reason) + "; `|| :` after a pipeline whose " +
               slurm::program_name(grep->words.front()) + " reads no input");
    }
  }

  /// The reports the rule removing `site` just made (since site_reports_begin_,
  /// inside its command) say what happened: `fate` takes the place of
  /// kLineRemoved, or follows the message; `covering` widens their span to
  /// the pipeline removed with the stage.
  void restate_removal(const Site& site, const std::string& fate, std::optional<Span> covering) {
    const Span stage = file_span(site.view, site.command->span);
    Diagnostic* first = nullptr;
    bool restated = false;
    for (size_t i = site_reports_begin_; i < diagnostics_.size(); ++i) {
      Diagnostic& d = diagnostics_[i];
      if (d.span.begin < stage.begin || d.span.end > stage.end) continue;
      if (first == nullptr) first = &d;
      if (covering) d.span = *covering;
      if (const size_t at = d.message.find(kLineRemoved); at != std::string::npos) {
        d.message.replace(at, kLineRemoved.size(), fate);
        restated = true;
      } else if (const size_t and_at = d.message.find(kAndIsRemoved); and_at != std::string::npos) {
        d.message.replace(and_at, kAndIsRemoved.size(), "; " + fate);
        restated = true;
      }
    }
    if (!restated && first != nullptr) first->message += "; " + fate;
  }

  /// The pipeline as the comment shows it when the rule showed the stage
  /// without its arguments (they may hold a password): the stage as
  /// `shown`, the others by their program only.
  std::string pipeline_shown(uint32_t view, const ast::Command& pipeline, size_t stage,
                             const std::string& shown) const {
    std::string text;
    for (size_t i = 0; i < pipeline.children.size(); ++i) {
      const ast::Command& command = pipeline.children[i];
      if (i > 0) text += " " + pipeline.ops[i - 1] + " ";
      if (i == stage) {
        text += shown;
      } else if (command.kind == ast::CommandKind::simple && !command.words.empty()) {
        text += std::string(source(view, command.words.front().span)) + " ...";
      } else {
        text += source(view, command.span);
      }
    }
    return text;
  }

  /// "`echo`", "`grep`, `sort`": the programs of some stages, as written.
  static std::string programs_of(std::span<const ast::Command> stages) {
    std::vector<std::string> names;
    for (const ast::Command& stage : stages) {
      std::string name = stage.kind == ast::CommandKind::simple && !stage.words.empty()
                             ? "`" + slurm::program_name(stage.words.front()) + "`"
                             : std::string("a compound command");
      if (std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(std::move(name));
    }
    std::string text;
    for (size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : ", ") + names[i];
    return text;
  }

  /// The site of a simple command (rare: a linear search).
  const Site* site_of(const ast::Command& command) const {
    for (const Site& site : body_.sites) {
      if (site.command == &command) return &site;
    }
    return nullptr;
  }

  /// The pipeline `site` is a stage of, if any (asked only of a removed
  /// command that is not a statement of its own: a walk of its script).
  std::optional<PipelinePlace> pipeline_of(const Site& site) const {
    const ast::Script* script = site.view == 0 ? &body_.parse.script : nullptr;
    for (const auto& nested : body_.nested) {
      if (script == nullptr && nested->view == site.view) script = &nested->parse.script;
    }
    if (script == nullptr) return std::nullopt;
    return find_pipeline(script->body, *site.command, false);
  }

  /// `text` as a comment of the translation: each of its lines after `# `.
  /// Appended a line at a time: a removed statement may span many lines.
  static std::string as_comment(std::string_view text) {
    std::string commented = "# [slurm2air] ";
    commented.reserve(commented.size() + text.size());
    for (size_t start = 0; start < text.size();) {
      const size_t newline = text.find('\n', start);
      if (newline == std::string_view::npos) {
        commented.append(text.substr(start));
        break;
      }
      commented.append(text.substr(start, newline + 1 - start));
      commented += "# ";
      start = newline + 1;
    }
    return commented;
  }

  /// `then`, `else`, `do` and `{` need a command: a block whose every
  /// statement became a comment (`if [ -f env.sh ]; then source env.sh; fi`
  /// with the source removed) gets `:` in front of its first one.
  void keep_blocks_non_empty() {
    if (commented_out_.empty()) return;
    keep_non_empty(0, body_.parse.script.body);
    for (const auto& nested : body_.nested) keep_non_empty(nested->view, nested->parse.script.body);
  }

  void keep_non_empty(uint32_t view, const ast::List& list) {
    for (const ast::ListItem& item : list.items) keep_non_empty(view, item.command);
  }

  void keep_non_empty(uint32_t view, const ast::Command& command) {
    for (const ast::Command& child : command.children) keep_non_empty(view, child);
    for (const ast::List& block : command.blocks) {
      const bool all_commented =
          !block.items.empty() &&
          std::all_of(block.items.begin(), block.items.end(), [&](const ast::ListItem& item) {
            return commented_out_.count({view, item.span.begin}) != 0;
          });
      if (all_commented) {
        const uint32_t at = block.items.front().span.begin;
        edit(view, Span{at, at}, ": ", "a block needs a command; `:` does nothing");
      }
      keep_non_empty(view, block);
    }
    // An empty case branch (`x) ;;`) is valid: nothing to keep there.
    for (const ast::CaseItem& item : command.case_items) keep_non_empty(view, item.body);
  }

  // --- last: paths on the cluster's storage -----------------------------------

  /// Paths in statements other rules removed were reported with them; a
  /// moved assignment (export X=/scratch/... -> env_variables) still applies.
  void report_cluster_paths() {
    std::vector<ClusterPath> paths = find_cluster_paths(body_, mount_targets_);
    std::erase_if(
        paths, [&](const ClusterPath& p) { return !p.assignment && is_replaced(p.view, p.span); });
    for (const size_t cd : cds_to_remove(paths)) {
      remove_statement(*paths[cd].site, "the directory is not on AI Runtime nodes", {});
      paths[cd].removed = true;
    }
    for (ClusterPathReport& r : describe_cluster_paths(paths)) {
      report(r.code, r.view, r.span, std::move(r.message), std::move(r.hint));
    }
  }

  /// `--output_dir checkpoints`: once per script, at the first option that
  /// stays in the command, with the number of the others.
  void report_outputs_under_code_root() {
    std::vector<CodeRootOutput> outputs = find_code_root_outputs(body_, batch_assignments_);
    std::erase_if(outputs, [&](const CodeRootOutput& o) { return is_replaced(o.view, o.span); });
    if (outputs.empty()) return;
    const CodeRootOutput& first = outputs.front();
    const std::string more = outputs.size() > 1 ? " (" + std::to_string(outputs.size() - 1) +
                                                      " more output option(s) in the script)"
                                                : "";
    report(Code::output_under_code_root, first.view, first.span,
           "`" + first.shown +
               "` writes under the code root: on AI Runtime that is the node's own copy of the "
               "code ($CODE_SOURCE_PATH), not the shared file system beside the script, and it "
               "goes with the node when the run ends" +
               more,
           "write results to a Unity Catalog volume (/Volumes/<catalog>/<schema>/<volume>/...) "
           "or log them to the run's MLflow artifacts");
  }

  /// `--coordinator-server-ip 10.6.7.244`, `http_proxy=http://10.10.2.1:8123`,
  /// `--mca btl_tcp_if_include 10.200.0.0/16`: the cluster's own network.
  /// Once per address, in words that stay in the command.
  void report_private_addresses() {
    if (!find_private_address(file_.text())) return;  // nearly every script
    std::vector<std::string_view> reported;
    const auto check = [&](const Site& site, Span span) {
      const std::string_view text = source(site.view, span);
      if (text.starts_with("SSH_")) return;  // export SSH_CONNECTION=...: see below
      for (auto found = find_private_address(text); found;
           found = find_private_address(text, found->at + found->written.size())) {
        const auto begin = static_cast<uint32_t>(span.begin + found->at);
        const Span at{begin, static_cast<uint32_t>(begin + found->written.size())};
        if (is_replaced(site.view, at) ||
            std::find(reported.begin(), reported.end(), found->written) != reported.end()) {
          continue;
        }
        reported.push_back(found->written);
        report(Code::private_network_address, site.view, at,
               "`" + std::string(found->written) + "` is on the cluster's private network (" +
                   std::string(found->network) +
                   "): AI Runtime nodes are on another network and cannot reach it",
               "the workload's first node is $MASTER_ADDR; a service the cluster ran (a "
               "coordinator, proxy, database or dashboard) must be reachable from Databricks by a "
               "name or public address, or run inside the workload");
      }
    };
    for (const Site& site : body_.sites) {
      const ast::Command& command = *site.command;
      for (const ast::Word& word : command.words) check(site, word.span);
      for (const ast::Assignment& a : command.assignments) {
        // SSH_CONNECTION="10.1.2.3 ...": a dump of the login session, not used.
        if (!a.name.starts_with("SSH_")) check(site, a.value.span);
      }
      for (const ast::Redirect& redirect : command.redirects) check(site, redirect.target.span);
    }
  }

  // --- pass 1: statements AI Runtime makes unnecessary ---------------------

  /// `export WORLD_SIZE=$SLURM_NTASKS` with one task per node counts nodes,
  /// not AI Runtime's GPUs: a count the script sets to something else than
  /// AI Runtime's value stays, so the program reads what it read under
  /// Slurm. True (and reported) when such a count is kept.
  bool keeps_a_count_of_its_own(const Site& site, const std::vector<Assignment>& assignments) {
    if (site.view != 0) return false;
    for (const Assignment& a : assignments) {
      const std::optional<uint64_t> runtime = runtime_count(a.name);
      if (!runtime) continue;
      const ShellValue value = variables_.lookup(a.name, site.command->span.end);
      const Meaning same = a.name == "WORLD_SIZE"         ? Meaning::total_gpus
                           : a.name == "LOCAL_WORLD_SIZE" ? Meaning::gpus_per_node
                                                          : Meaning::node_count;
      if (value.meaning == same || (value.number && *value.number == *runtime)) continue;
      const std::string written(source(site.view, a.value_span));
      if (becomes_runtime_variable(written, a.name)) continue;
      std::string was = "`" + written + "`";
      if (value.number && std::to_string(*value.number) != written) {
        was += " (" + std::to_string(*value.number) + " here)";
      }
      report(Code::runtime_count_kept, site.view, site.command->span,
             "the script sets " + a.name + " to " + was + ", not AI Runtime's " + a.name + " (" +
                 std::to_string(*runtime) + ", " + runtime_count_meaning(a.name) +
                 "); the assignment is kept, so the program reads the script's value as it did "
                 "under Slurm",
             "if the program means AI Runtime's count, remove the assignment");
      return true;
    }
    return false;
  }

  /// `$SLURM_NPROCS` with one task per GPU is renamed to `$WORLD_SIZE` on
  /// the line: `export WORLD_SIZE=$WORLD_SIZE` keeps AI Runtime's count.
  bool becomes_runtime_variable(std::string_view written, std::string_view runtime_name) const {
    const std::string_view name = expanded_name(written);
    if (name.empty() ||
        (written.size() != name.size() + 1 && written != "${" + std::string(name) + "}")) {
      return false;
    }
    const VariableRule rule = rule_for(name, job_, compute_, job_name_);
    return rule.action == VariableAction::rename && rule.exact && rule.replacement == runtime_name;
  }

  std::optional<uint64_t> runtime_count(std::string_view name) const {
    if (name == "WORLD_SIZE") return compute_.nodes * compute_.gpus_per_node;
    if (name == "LOCAL_WORLD_SIZE") return compute_.gpus_per_node;
    if (name == "NUM_NODES") return compute_.nodes;
    return std::nullopt;
  }

  static std::string runtime_count_meaning(std::string_view name) {
    if (name == "WORLD_SIZE") return "the GPUs of all nodes";
    if (name == "LOCAL_WORLD_SIZE") return "the GPUs of a node";
    return "the nodes";
  }

  void remove_statement_if_replaced_by_runtime(const Site& site) {
    site_reports_begin_ = diagnostics_.size();
    if (site.context.in_substitution) {
      report_setup_tool_output(site);
      return;
    }
    if (is_replaced(site.view, site.command->span)) return;
    const ast::Command& command = *site.command;
    if (setup_.map_setup_command(site) || remove_slurm_report(site) ||
        remove_terminal_control(site)) {
      return;
    }
    auto assignments = assignments_of(command, site, body_.views[site.view].text);
    if (assignments.empty()) return;
    for (Assignment& a : assignments) {
      // `GPUS_PER_NODE=$LOCAL_WORLD_SIZE` now: expanded on each node, not a literal.
      if (std::find(portable_counts_.begin(), portable_counts_.end(), a.value_span) !=
          portable_counts_.end()) {
        a.literal.reset();
      }
    }
    if (assignments.size() == 1 && sets_devices_from_slurm(assignments.front(), site)) {
      remove_statement(site, "every GPU of an AI Runtime node is the job's", {});
      report(Code::visible_devices_from_slurm, site.view, command.span,
             assignments.front().name +
                 " is set to Slurm's list of the job's GPUs, which AI Runtime does not set: it "
                 "would be empty and hide every GPU; the node's GPUs are all the job's, so the "
                 "assignment is removed",
             "to use fewer GPUs than the node has, set CUDA_VISIBLE_DEVICES=0,1,... to that "
             "many");
      return;
    }
    if (std::all_of(assignments.begin(), assignments.end(),
                    [](const Assignment& a) { return is_runtime_variable(a.name); })) {
      if (keeps_a_count_of_its_own(site, assignments)) return;
      remove_statement(site, "AI Runtime sets this variable on every node", {});
      report(Code::provided_variable_removed, site.view, command.span,
             "AI Runtime sets " + assignments.front().name +
                 " on every node; the script's own assignment is removed",
             "");
      return;
    }
    if (setup_.unwrap_held_containers(site)) return;
    setup_.move_exports_to_env(site, assignments, first_launch_seen_);
  }

  /// `$(spack location -i amr-wind)`, `$(conda info --base)`: a setup tool
  /// asked for a path inside a command that stays. The tool does not exist
  /// on AI Runtime nodes, so the substitution is empty ("/bin/amr_wind") and
  /// fails (a `set -e` script ends there). An assignment of nothing else
  /// (`CONDA_BASE=$(conda info --base)`, read by the conda.sh line removed as
  /// setup) goes with the setup; anything else stays and is reported.
  void report_setup_tool_output(const Site& site) {
    if (!is_setup_tool(site.program)) return;
    const Site* outer = enclosing_site(site);
    if (outer == nullptr || is_replaced(outer->view, outer->command->span) ||
        is_setup_command(*outer->command, outer->program, body_.views[outer->view].text)) {
      return;  // the line holding it is removed as setup itself
    }
    if (outer->program == "eval"sv && outer->statement != nullptr &&
        outer->command->words.size() == 2 &&
        is_only_substitution_of(outer->command->words[1].parts, site)) {
      setup_.map_evaluated_setup(*outer, site);  // `eval $(spack load --sh X)` is a load
      return;
    }
    const std::string call(source(site.view, site.command->span));
    if (const std::string* name = sole_assigned_name(*outer, site)) {
      remove_statement(*outer, "a setup tool's answer, with the setup that read it", {});
      report(Code::setup_command_removed, outer->view, outer->command->span,
             "`" + call + "` asks " + site.program +
                 ", which AI Runtime nodes do not have; the assignment is removed with the "
                 "setup, so $" +
                 *name + " is empty where a kept command still reads it",
             "if a kept command reads $" + *name +
                 ", set it to the path AI Runtime's environment has (or add the package with "
                 "--dependency)");
      return;
    }
    const bool assignment = outer->command->words.empty();
    report(Code::setup_tool_output_used, site.view, site.command->span,
           "`" + call + "` asks " + site.program +
               ", which AI Runtime nodes do not have: the substitution is empty, so the command "
               "around it gets the wrong value" +
               (assignment ? "; the assignment also fails, which ends a `set -e` script" : ""),
           "write the value it gave on the cluster's equivalent on AI Runtime (a path in the "
           "environment, or a package added with --dependency)");
  }

  /// The command a substitution's site runs inside: the first later site of
  /// the same view, outside substitutions, whose span holds it.
  const Site* enclosing_site(const Site& inner) const {
    const auto from = static_cast<size_t>(&inner - body_.sites.data()) + 1;
    for (size_t k = from; k < body_.sites.size(); ++k) {
      const Site& candidate = body_.sites[k];
      if (candidate.view != inner.view || candidate.context.in_substitution) continue;
      const Span outer = candidate.command->span;
      if (outer.begin <= inner.command->span.begin && inner.command->span.end <= outer.end) {
        return &candidate;
      }
      if (outer.begin > inner.command->span.end) break;
    }
    return nullptr;
  }

  /// NAME when `outer` is a statement of one assignment (`NAME=$(...)`,
  /// `NAME="$(...)"`) whose value is exactly the substitution `inner`.
  const std::string* sole_assigned_name(const Site& outer, const Site& inner) const {
    const ast::Command& command = *outer.command;
    if (outer.statement == nullptr || outer.statement->command.kind != ast::CommandKind::simple ||
        command.assignments.size() != 1 || !command.words.empty() || !command.redirects.empty()) {
      return nullptr;
    }
    const ast::Assignment& assignment = command.assignments.front();
    if (assignment.append || assignment.is_array) return nullptr;
    return is_only_substitution_of(assignment.value.parts, inner) ? &assignment.name : nullptr;
  }

  /// Whether a word (its parts) is one substitution, bare or double-quoted,
  /// that runs `inner`.
  static bool is_only_substitution_of(const std::vector<ast::WordPart>& word, const Site& inner) {
    const std::vector<ast::WordPart>* parts = &word;
    if (parts->size() == 1 && parts->front().kind == ast::PartKind::double_quoted) {
      parts = &parts->front().parts;
    }
    if (parts->size() != 1 || !parts->front().script) return false;
    const Span substitution = parts->front().inner;
    const Span call = inner.command->span;
    return substitution.begin <= call.begin && call.end <= substitution.end;
  }

  /// `venv/bin/python train.py`, `~/miniconda3/envs/ml/bin/python`: a
  /// virtual or conda environment's interpreter, run without activating it.
  /// Like `source venv/bin/activate` (removed as setup), it is the cluster's:
  /// a venv links to the cluster's Python, and neither exists on the node.
  /// The workload's environment has the interpreter, as `python`.
  void replace_environment_interpreter(const Site& site) {
    const size_t index = interpreter_word(site);
    const auto& words = site.command->words;
    if (index >= words.size()) return;
    const Span span = words[index].span;
    std::string_view path = source(site.view, span);
    // Every name looked for ends in `n` (python, torchrun), a digit or a
    // quote: nearly every command word stops here.
    if (path.size() < 6 ||
        (path.back() != 'n' && path.back() != '"' && (path.back() < '0' || path.back() > '9'))) {
      return;
    }
    if (path.size() > 2 && path.front() == '"' && path.back() == '"') {
      path = path.substr(1, path.size() - 2);
    }
    if (path.find('/') == std::string_view::npos || path.starts_with("/usr/bin/") ||
        path.starts_with("/usr/local/bin/")) {
      replace_missing_python_version(site, span, path.substr(path.rfind('/') + 1), path);
      return;
    }
    const std::optional<std::string_view> program = environment_interpreter(path);
    if (!program || is_replaced(site.view, span)) return;
    if (!replace_if_free(site.view, span, std::string(*program),
                         "the workload's environment has the interpreter")) {
      return;
    }
    const bool conda = path.find("/envs/") != std::string_view::npos ||
                       path.find("conda") != std::string_view::npos;
    const std::string_view prefix = path.substr(0, path.rfind("/bin/"));
    report(Code::setup_command_removed, site.view, span,
           "`" + std::string(path) + "` runs from the " + (conda ? "conda" : "virtual") +
               " environment " + std::string(prefix) + ", which AI Runtime nodes do not have; `" +
               std::string(*program) + "` of the workload's environment runs instead",
           conda ? "export the environment's packages (`pip freeze > requirements.txt` with it "
                   "active) and pass --requirements requirements.txt, or map it under "
                   "conda_envs in the site profile"
                 : "export its packages (`" + std::string(prefix) +
                       "/bin/pip freeze > requirements.txt`) and pass --requirements "
                       "requirements.txt" +
                       (is_relative_path(prefix) ? "; leave the environment out of the code root"
                                                 : ""));
  }

  /// `python3.6 train.py`: AI Runtime's environment has one Python 3
  /// (3.12 in environment 5), as `python3` and `python`; another minor
  /// version's name is not found, so the line runs `python3`. Python 2 is
  /// not there at all, and its programs rarely run under 3: reported only.
  void replace_missing_python_version(const Site& site, Span span, std::string_view name,
                                      std::string_view written) {
    const bool python2 = name == "python2"sv || name.starts_with("python2.");
    const bool other3 = is_python3_minor(name) && name != "python3.12"sv;
    if ((!python2 && !other3) || is_replaced(site.view, span)) return;
    const std::string shown(written);
    if (python2) {
      report(Code::python_version_missing, site.view, span,
             "`" + shown +
                 "` is Python 2, which AI Runtime's environment does not have (it has Python "
                 "3.12 in environment 5): the line fails with \"command not found\"",
             "port the program to Python 3 and run it with `python`");
      return;
    }
    if (!replace_if_free(site.view, span, "python3", "the environment's Python 3")) return;
    report(Code::python_version_missing, site.view, span,
           "`" + shown +
               "` does not exist in AI Runtime's environment, whose Python 3 is 3.12 (environment "
               "5); `python3` runs instead",
           "check that the program and its pinned packages work on Python 3.12");
  }

  static bool is_relative_path(std::string_view path) {
    return !path.starts_with('/') && !path.starts_with('~') && !path.starts_with('$');
  }

  /// The word that names the program: the launcher's, srun's operand, or
  /// the first (`$VENV/bin/python` has no literal name to detect a launcher by).
  static size_t interpreter_word(const Site& site) {
    if (site.launcher.kind != Launcher::none) return site.launcher.program_word;
    if (site.program == "srun"sv) return site.srun ? site.srun_operand : SIZE_MAX;
    return 0;
  }

  /// `PREFIX/bin/python[3[.N]]` or `PREFIX/bin/torchrun` of an environment
  /// (not /usr's or /usr/local's): the program to run in its place.
  static std::optional<std::string_view> environment_interpreter(std::string_view path) {
    const size_t bin = path.rfind("/bin/");
    if (bin == std::string_view::npos || bin == 0) return std::nullopt;
    const std::string_view prefix = path.substr(0, bin);
    const std::string_view name = path.substr(bin + 5);
    // `./bin/python` is the project's own (a wrapper script, a buildout).
    if (prefix == "/usr" || prefix == "/usr/local" || prefix == "/opt/conda" || prefix == ".") {
      return std::nullopt;
    }
    if (name == "python" || name == "python3" || name == "torchrun") return name;
    if (is_python3_minor(name)) return "python3"sv;
    return std::nullopt;
  }

  /// `python3.N`, a minor version's interpreter name.
  static bool is_python3_minor(std::string_view name) {
    return name.starts_with("python3.") && name.size() > 8 &&
           std::all_of(name.begin() + 8, name.end(), [](char c) { return c >= '0' && c <= '9'; });
  }

  /// A command that only prints about the Slurm job (often the script's
  /// last line, `seff $SLURM_JOB_ID`) is removed: left in, "command not
  /// found" would be the script's exit status and fail the run. Its output
  /// read by the script (in `$(...)`), and commands that act, stay and are
  /// reported where the site is mapped.
  bool remove_slurm_report(const Site& site) {
    if (!only_reports_on_slurm(site.program, *site.command)) return false;
    report(Code::slurm_command_in_body, site.view, site.command->span,
           "`" + site.program +
               "` reports on the Slurm job, which does not exist on AI Runtime, and its "
               "\"command not found\" would fail the run as the last command; " +
               std::string(kLineRemoved),
           "the run's state, duration and logs are shown by `databricks air get` and in the "
           "MLflow run");
    remove_statement(site, "a Slurm command with no job to report on", {});
    return true;
  }

  /// `clear` or `tput sgr0` worked under Slurm with the TERM that sbatch
  /// passed on from the submitting terminal. TERM is not among the variables
  /// AI Runtime documents for its nodes; without it both print an error and
  /// fail, ending a `set -e` script before its launch line (`clear; srun ...`
  /// in the BigScience templates). In a log they only ever wrote escape codes.
  bool remove_terminal_control(const Site& site) {
    // Asked of every command: the first letter rules out most (srun, echo,
    // sleep) before a comparison.
    const std::string& program = site.program;
    if (!program.starts_with('c') && !program.starts_with('t')) return false;
    if (program != "clear"sv && program != "tput"sv) return false;
    if (script_sets_terminal_type()) return false;
    const auto& words = site.command->words;
    const bool names_type = std::any_of(words.begin() + 1, words.end(), [&](const ast::Word& w) {
      return source(site.view, w.span).starts_with("-T");
    });
    if (names_type) return false;
    report(Code::terminal_control_removed, site.view, site.command->span,
           "`" + site.program +
               "` needs the terminal type in TERM, which sbatch passed on from the submitting "
               "shell; TERM is not among the variables AI Runtime sets, and without it `" +
               site.program + "` prints an error and fails (ending a `set -e` script); " +
               std::string(kLineRemoved),
           "a run's log has no screen to control; set TERM in the command if the program "
           "needs one");
    remove_statement(site, "terminal control with no terminal", {});
    return true;
  }

  /// `export TERM=xterm`, `TERM=dumb tput ...`: the script gives the type.
  bool script_sets_terminal_type() const {
    const std::string_view text = body_.views[0].text;
    for (size_t at = text.find("TERM="); at != std::string_view::npos;
         at = text.find("TERM=", at + 1)) {
      const char before = at == 0 ? ' ' : text[at - 1];
      if (!std::isalnum(static_cast<unsigned char>(before)) && before != '_') return true;
    }
    return false;
  }

  /// `export CUDA_VISIBLE_DEVICES=${SLURM_STEP_GPUS:-$SLURM_JOB_GPUS}`: the
  /// value is nothing but Slurm's lists of the job's GPUs (quotes and
  /// `${A:-$B}` around them).
  bool sets_devices_from_slurm(const Assignment& a, const Site& site) const {
    return a.name == "CUDA_VISIBLE_DEVICES"sv && is_slurm_gpu_list(source(site.view, a.value_span));
  }

  // --- SLURM* names the script sets itself -----------------------------------

  /// `SLURM_DIR="$3/logs"`, `declare -xr SLURM_JOB_SCRIPT=...`: a name Slurm
  /// never sets is the script's own wherever it is assigned. A name Slurm
  /// sets (`export SLURM_JOB_ID="$DATESTAMP"`) holds the script's value after
  /// an assignment that always runs; after `[ -z "$SLURM_NTASKS" ] &&
  /// SLURM_NTASKS=1` it is still Slurm's wherever Slurm set one. The script's
  /// own values are computed on the node too, so their uses are neither
  /// renamed nor reported.
  void record_own_slurm_names() {
    for (const Site& site : body_.sites) {
      const slurm::Context& c = site.context;
      const bool always_runs =
          !(c.in_function || c.in_loop || c.in_branch || c.in_substitution || c.in_srun);
      const ast::Command& command = *site.command;
      if (command.words.empty()) {
        for (const ast::Assignment& a : command.assignments) {
          record_own_slurm_name(site.view, a.name, a.span.end, always_runs);
        }
      } else if (command.words.size() > 1 && slurm::is_declaration_builtin(site.program)) {
        for (size_t i = 1; i < command.words.size(); ++i) {
          const Span span = command.words[i].span;
          const std::string_view written = source(site.view, span);
          const size_t eq = written.find('=');
          if (eq != std::string_view::npos) {
            record_own_slurm_name(site.view, written.substr(0, eq), span.end, always_runs);
          }
        }
      }
    }
  }

  void record_own_slurm_name(uint32_t view, std::string_view name, uint32_t from,
                             bool always_runs) {
    if (!name.starts_with("SLURM") || !is_variable_name(name)) return;
    if (!is_set_by_slurm(name)) {
      own_slurm_names_.push_back({OwnName::kEveryView, std::string(name), 0});
    } else if (always_runs) {
      own_slurm_names_.push_back({view, std::string(name), from});
    }
  }

  [[nodiscard]] bool is_own_value(uint32_t view, std::string_view name, uint32_t at) const {
    return std::any_of(own_slurm_names_.begin(), own_slurm_names_.end(), [&](const OwnName& own) {
      return (own.view == view || own.view == OwnName::kEveryView) && own.from <= at &&
             own.name == name;
    });
  }

  // --- shell variables the launch lines refer to -----------------------------

  /// Records the batch script's simple assignments so launch flags written
  /// with variables (`--nproc_per_node=$GPUS_PER_NODE`) can be understood.
  void track_variables() {
    track_shell_variables(
        body_, ValueReader(variables_, compute_), variables_,
        [this](uint32_t view, const ast::Assignment& a) { record_option_variable(view, a); });
  }

  /// Remembers an assignment whose value starts with an option (`-`): the
  /// words a launcher gets from `$NAME` or `${NAME[@]}`.
  void record_option_variable(uint32_t view, const ast::Assignment& a) {
    // Most assignments hold no options: decided on the first bytes, no copy.
    const Span first =
        a.is_array ? (a.elements.empty() ? Span{} : a.elements.front().span) : a.value.span;
    const std::string_view written = source(view, first);
    const size_t start = written.find_first_not_of("\"' \t\n\\");  // `"\<newline>  --nnodes`
    if (start == std::string_view::npos || written[start] != '-') return;
    OptionVariable held{a.span, {}};
    if (a.is_array) {
      for (const ast::Word& element : a.elements) {
        held.fields.push_back(unquoted(source(view, element.span)));
      }
    } else {
      std::string text = unquoted(source(view, a.value.span));
      for (size_t at = text.find("\\\n"); at != std::string::npos; at = text.find("\\\n", at)) {
        text.replace(at, 2, " ");
      }
      held.fields = slurm::split_fields(text);
    }
    if (!held.fields.empty() && held.fields.front().starts_with('-')) {
      option_variables_.add(a.name, a.span.begin, std::move(held));
    }
  }

  /// The options of the torchrun call in `written` (`"torchrun --nnodes 2
  /// ..."`, also `python -m torch.distributed.run`), or nullopt.
  static std::optional<std::vector<std::string>> torchrun_call_options(std::string_view written) {
    // Most values start with no launcher: decided on the first bytes, no copy.
    const size_t start = written.find_first_not_of("\"' \t\n\\");
    if (start == std::string_view::npos ||
        (written[start] != 't' && written[start] != 'p' && written[start] != '/')) {
      return std::nullopt;
    }
    std::string text = unquoted(written);
    for (size_t at = text.find("\\\n"); at != std::string::npos; at = text.find("\\\n", at)) {
      text.replace(at, 2, " ");
    }
    std::vector<std::string> fields = slurm::split_fields(text);
    const size_t options = torchrun_options_start(fields);
    if (options == 0) return std::nullopt;
    fields.erase(fields.begin(), fields.begin() + static_cast<std::ptrdiff_t>(options));
    return fields;
  }

  /// Where the options start in `torchrun ...`, `python [-u] -m
  /// torch.distributed.run ...`; 0 when the fields start no torchrun.
  static size_t torchrun_options_start(const std::vector<std::string>& fields) {
    if (fields.empty()) return 0;
    const std::string_view program = std::string_view(fields[0]).substr(fields[0].rfind('/') + 1);
    if (program == "torchrun"sv) return 1;
    if (!program.starts_with("python"sv)) return 0;
    for (size_t i = 1; i + 1 < fields.size() && fields[i].starts_with('-'); ++i) {
      if (fields[i] != "-m"sv) continue;
      const std::string& module = fields[i + 1];
      return module == "torch.distributed.run" || module == "torch.distributed.launch" ? i + 2 : 0;
    }
    return 0;
  }

  /// `"text"` or `'text'` without its quotes.
  static std::string unquoted(std::string_view text) {
    if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
        text.back() == text.front()) {
      text = text.substr(1, text.size() - 2);
    }
    return std::string(text);
  }

  /// A launcher option held in a variable: `--nnodes $NNODES` in `$DISTRIBUTED_ARGS`.
  struct HeldOption {
    std::string name;   // normalized like LauncherOption::name
    std::string value;  // as written ("" for a flag)
    std::string variable;
    Span assignment;
    bool missing = false;  // not given, and a multi-node run needs it
  };

  /// The options the launcher's `$NAME` / `${NAME[@]}` words bring in.
  std::vector<HeldOption> held_options(const Site& site) const {
    std::vector<HeldOption> out;
    const auto& words = site.command->words;
    for (size_t i = site.launcher.first_argument; i < words.size(); ++i) {
      const ast::Word& word = words[i];
      const ast::WordPart* param = whole_word_expansion(word);
      if (param == nullptr) continue;
      const OptionVariable* held = option_variables_.last_before(param->text, word.span.begin);
      if (held == nullptr) continue;
      for (HeldOption& option :
           options_of_fields(held->fields, param->text, held->span, Operands::skip)) {
        out.push_back(std::move(option));
      }
    }
    return out;
  }

  /// `$NAME`, `${NAME}`, `"$NAME"`, `${NAME[@]}`, `"${NAME[@]}"` as a whole word.
  static const ast::WordPart* whole_word_expansion(const ast::Word& word) {
    const ast::WordPart* only = nullptr;
    for (const ast::WordPart& part : word.parts) {
      const ast::WordPart& inner =
          part.kind == ast::PartKind::double_quoted && part.parts.size() == 1 ? part.parts[0]
                                                                              : part;
      if (only != nullptr || inner.kind != ast::PartKind::param) return nullptr;
      if (!inner.op.empty() && inner.op != "[@]" && inner.op != "[*]") return nullptr;
      only = &inner;
    }
    return only;
  }

  /// What a value written in an option variable stands for: a number, or a
  /// variable. AI Runtime's own names mean what AI Runtime sets (the
  /// script's assignments of them are removed).
  ShellValue held_value(const Site& site, std::string_view text) const {
    const std::string value = unquoted(text);
    if (is_digits(value)) {
      return {Meaning::number, std::stoull(value.substr(0, 18))};
    }
    std::string_view name = value;
    if (name.starts_with("${") && name.ends_with('}')) {
      name = name.substr(2, name.size() - 3);
    } else if (name.starts_with('$')) {
      name.remove_prefix(1);
    } else {
      return {};
    }
    if (!is_variable_name(name)) return {};
    // `$SLURM_PROCID` (one task per node) is renamed on the line: judge the name it becomes.
    const VariableRule rule = rule_for(name, job_, compute_, job_name_);
    if (rule.action == VariableAction::rename && rule.exact) name = rule.replacement;
    if (name == "MASTER_PORT") return {Meaning::port, std::nullopt};
    if (name == "MASTER_ADDR") return {Meaning::node0_address, std::nullopt};
    ast::WordPart param;
    param.kind = ast::PartKind::param;
    param.text = std::string(name);
    param.span = Span{site.command->span.begin, site.command->span.begin};
    return reader_for(site.view).variable(param);
  }

  /// What is wrong with a torchrun option held in a variable, or empty.
  std::string held_option_problem(const Site& site, const HeldOption& option) const {
    const ShellValue value = held_value(site, option.value);
    const std::string& name = option.name;
    const bool multi_node = compute_.nodes > 1;
    if (name == "nnodes" && value.meaning != Meaning::node_count &&
        value.number != compute_.nodes) {
      return "\"$NUM_NODES\" (" + std::to_string(compute_.nodes) + " node(s))";
    }
    if (name == "nproc_per_node" && value.meaning != Meaning::gpus_per_node &&
        value.number != compute_.gpus_per_node && option.value != "gpu" && option.value != "auto") {
      return "\"$LOCAL_WORLD_SIZE\" (" + std::to_string(compute_.gpus_per_node) + " GPU(s) a node)";
    }
    if (!multi_node) return "";
    if (name == "standalone") return "a rendezvous on node 0: the workload has several nodes";
    if (name == "node_rank" && value.meaning != Meaning::node_rank) return "\"$NODE_RANK\"";
    if (name == "master_addr" && value.meaning != Meaning::node0_address) {
      return "\"$MASTER_ADDR\"";
    }
    if (name == "master_port" && value.meaning != Meaning::port) return "\"$MASTER_PORT\"";
    if (name == "rdzv_endpoint") {
      const std::string endpoint = unquoted(option.value);
      const ShellValue host = held_value(site, endpoint.substr(0, endpoint.rfind(':')));
      if (host.meaning != Meaning::node0_address) return "\"$MASTER_ADDR:$MASTER_PORT\"";
    }
    return "";
  }

  /// Options in `$DISTRIBUTED_ARGS` are the script's text, not this line's:
  /// they are checked, and what AI Runtime needs is reported, one report
  /// per variable.
  void report_held_options(const Site& site, const std::vector<HeldOption>& held) {
    std::map<std::string, std::string> problems;  // variable -> its options' problems
    std::map<std::string, Span> assignment;
    for (const HeldOption& option : held) {
      const std::string problem = held_option_problem(site, option);
      if (problem.empty()) continue;
      std::string& text = problems[option.variable];
      if (!text.empty()) text += "; ";
      text += "--" + option.name +
              (option.missing ? " is missing: it should be "
                              : (option.value.empty() ? "" : " " + option.value) + " should be ") +
              problem;
      assignment[option.variable] = option.assignment;
    }
    for (const auto& [variable, text] : problems) {
      const uint32_t line = file_.line_col(file_span(site.view, assignment[variable]).begin).line;
      report(Code::launcher_options_in_variable, site.view, site.command->span,
             "launcher options in $" + variable + " (line " + std::to_string(line) +
                 ") are not rewritten, and do not fit AI Runtime: " + text,
             "write those values in " + variable + " on line " + std::to_string(line));
    }
  }

  static bool held(const std::vector<HeldOption>& options, std::string_view name) {
    return std::any_of(options.begin(), options.end(),
                       [&](const HeldOption& o) { return o.name == name; });
  }

  /// `$LAUNCHER ...` where the script set LAUNCHER once, before this line,
  /// to a torchrun call (`LAUNCHER="python -m torch.distributed.run ..."`):
  /// the variable's name, its value and the call's options.
  struct HeldLauncher {
    const ast::WordPart* param = nullptr;
    Span assignment;
    std::vector<std::string> fields;
  };
  std::optional<HeldLauncher> launcher_in_variable(const Site& site) {
    if (site.launcher.kind != Launcher::none) return std::nullopt;
    const auto& words = site.command->words;
    const size_t program = site.srun ? site.srun_operand : 0;
    if (program >= words.size()) return std::nullopt;
    const ast::WordPart* param = whole_word_expansion(words[program]);
    if (param == nullptr) return std::nullopt;
    // Set once before this line, as a literal the batch shell expands once.
    const auto index = static_cast<size_t>(&site - body_.sites.data());
    const std::optional<ast::Word> value = batch_assignments_.sole(param->text, index);
    if (!value) return std::nullopt;
    std::optional<std::vector<std::string>> fields = torchrun_call_options(source(0, value->span));
    if (!fields) return std::nullopt;
    return HeldLauncher{param, value->span, std::move(*fields)};
  }

  /// `$LAUNCHER train.py`, `srun $LAUNCHER train.py` with LAUNCHER set to a
  /// torchrun call: the launcher is not on the line and is passed on as
  /// written; its options (the variable's, then the line's) are checked like
  /// options kept in a variable (S2A4020), and so are the ones a multi-node
  /// run cannot do without.
  void report_launcher_in_variable(const Site& site) {
    const std::optional<HeldLauncher> launcher = launcher_in_variable(site);
    if (!launcher) return;
    const auto& words = site.command->words;
    const size_t program = site.srun ? site.srun_operand : 0;
    const ast::WordPart* param = launcher->param;
    const Span assignment = launcher->assignment;
    std::vector<HeldOption> held =
        options_of_fields(launcher->fields, param->text, assignment, Operands::end);
    std::vector<std::string> line;
    for (size_t i = program + 1; i < words.size(); ++i) {
      line.emplace_back(unquoted(source(site.view, words[i].span)));
    }
    for (HeldOption& option : options_of_fields(line, param->text, assignment, Operands::end)) {
      held.push_back(std::move(option));
    }
    if (compute_.nodes > 1 && !held_any(held, {"standalone", "rdzv_endpoint"})) {
      for (const char* needed : {"nnodes", "node_rank", "master_addr", "master_port"}) {
        if (!held_any(held, {needed})) {
          held.push_back({needed, "", param->text, assignment, true});
        }
      }
    } else if (compute_.nodes > 1 && !held_any(held, {"nnodes"})) {
      held.push_back({"nnodes", "", param->text, assignment, true});
    }
    report_held_options(site, held);
  }

  static bool held_any(const std::vector<HeldOption>& options,
                       std::initializer_list<std::string_view> names) {
    return std::any_of(names.begin(), names.end(),
                       [&](std::string_view name) { return held(options, name); });
  }

  /// What a field that is no option is: a word to pass over (a variable of
  /// options), or where the options end (a launcher's training script).
  enum class Operands : uint8_t { skip, end };

  /// `--nnodes 2 --node_rank=$R` as held options of `variable`.
  static std::vector<HeldOption> options_of_fields(const std::vector<std::string>& fields,
                                                   const std::string& variable, Span assignment,
                                                   Operands operands) {
    std::vector<HeldOption> out;
    for (size_t f = 0; f < fields.size(); ++f) {
      const std::string& field = fields[f];
      if (!field.starts_with('-')) {
        if (operands == Operands::end) break;
        continue;
      }
      const size_t dashes = field.starts_with("--") ? 2 : 1;
      const size_t eq = field.find('=');
      std::string name =
          field.substr(dashes, eq == std::string::npos ? std::string::npos : eq - dashes);
      std::replace(name.begin(), name.end(), '-', '_');
      std::string value;
      if (eq != std::string::npos) {
        value = field.substr(eq + 1);
      } else if (f + 1 < fields.size() && !fields[f + 1].starts_with('-') &&
                 !is_torchrun_flag(name)) {
        value = fields[++f];
      }
      out.push_back({name, value, variable, assignment});
    }
    return out;
  }

  /// torchrun options that take no value.
  static bool is_torchrun_flag(std::string_view name) {
    return name == "standalone" || name == "no_python" || name == "module" || name == "m" ||
           name == "use_env";
  }

  // --- process counts written as script variables ------------------------------

  /// `GPUS_PER_NODE=8` that feeds `--nproc_per_node` (or `$((NNODES *
  /// GPUS_PER_NODE))` for `--num_processes`) becomes `$LOCAL_WORLD_SIZE`:
  /// the same number on the target, and right on any other node shape (a
  /// rehearsal on 2 processes, another accelerator type). A count that
  /// disagrees with the request stays as written and is reported.
  void make_process_counts_portable() {
    const uint64_t gpus = compute_.gpus_per_node;
    const uint64_t total = compute_.nodes * gpus;
    if (gpus == 0) return;
    const ValueReader reader(variables_, compute_);
    // Most scripts have no option that names a variable: the literal counts
    // (a walk over every top-level assignment) are found on first need.
    std::optional<LiteralCounts> counts;
    std::set<const LiteralCount*> done;
    for (const ProcessCountOption& option : find_process_count_options(body_, reader)) {
      const uint32_t at = option.span.begin;
      std::string fed_by;
      for (const CountReference& ref : option.references) {
        if (!counts) counts.emplace(find_literal_counts(body_));
        const LiteralCount* count = counts->at(ref.name, at);
        if (count == nullptr || variables_.lookup(ref.name, at).number != count->number) continue;
        fed_by += (fed_by.empty() ? "" : ", ") + ref.name + "=" + std::to_string(*count->number);
        if (is_runtime_variable(ref.name) || !done.insert(count).second) continue;
        const std::string replacement = portable_count(option, ref, *count->number, at);
        if (replacement.empty()) continue;
        portable_counts_.push_back(count->value);
        replace(0, count->value, replacement,
                ref.name + " feeds " + option_name(option) + ": " + replacement.substr(1) +
                    " is the same count on every AI Runtime node");
        report(Code::launch_value_replaced, 0, count->value,
               ref.name + "=" + std::to_string(*count->number) + " feeds " + option_name(option) +
                   "; it becomes " + replacement + ", the same " + std::to_string(*count->number) +
                   " on this workload, and right on any other node shape",
               "");
      }
      const uint64_t expected = option.total ? total : gpus;
      if (option.in_launcher_site || !option.after_launcher_word || !option.number ||
          *option.number == expected) {
        continue;  // the launcher mapper checks the options of the lines it reads
      }
      const std::string value(source(0, option.value));
      const std::string number = std::to_string(*option.number);
      report(Code::launcher_count_mismatch, 0, option.span,
             option.written + value + (value == number ? "" : " is " + number) +
                 (fed_by.empty() ? "" : " (" + fed_by + ")") + " but the workload has " +
                 std::to_string(expected) + " GPU(s)" + (option.total ? " in total" : " per node"),
             "use " + option.written +
                 (option.total ? "\"$WORLD_SIZE\"" : "\"$LOCAL_WORLD_SIZE\"") +
                 " to start one process per GPU");
    }
  }

  static std::string option_name(const ProcessCountOption& option) {
    return option.written.substr(0, option.written.size() - 1);
  }

  /// What a literal count feeding `option` becomes, or "" to keep it.
  std::string portable_count(const ProcessCountOption& option, const CountReference& ref,
                             uint64_t number, uint32_t at) const {
    const uint64_t gpus = compute_.gpus_per_node;
    const uint64_t nodes = compute_.nodes;
    if (!option.total) return number == gpus ? "$LOCAL_WORLD_SIZE" : "";
    if (!ref.in_arithmetic) return number == nodes * gpus ? "$WORLD_SIZE" : "";
    // In `$((NNODES * GPUS_PER_NODE))` the per-node factor is the one equal to
    // the node's GPUs; when nodes == GPUs only a named node count tells them apart.
    if (number != gpus) return "";
    if (nodes != gpus) return "$LOCAL_WORLD_SIZE";
    const bool other_is_node_count =
        std::any_of(option.references.begin(), option.references.end(), [&](const auto& other) {
          return other.name != ref.name && other.in_arithmetic && is_node_count(other.name, at);
        });
    return other_is_node_count ? "$LOCAL_WORLD_SIZE" : "";
  }

  bool is_node_count(const std::string& name, uint32_t at) const {
    return name == "SLURM_NNODES" || name == "SLURM_JOB_NUM_NODES" ||
           name == "SLURM_STEP_NUM_NODES" || name == "NUM_NODES" ||
           variables_.lookup(name, at).meaning == Meaning::node_count;
  }

  // --- pass 1b: node-list idioms ------------------------------------------------

  void replace_first_host_idiom(const Site& site) {
    const bool substitutes = may_substitute(site);
    if (substitutes) {
      for (const ast::Word& word : site.command->words) replace_idiom_in(site.view, word.parts);
      if (slurm::is_declaration_builtin(site.program)) replace_declared_own_host_names(site);
    }
    for (const auto& a : site.command->assignments) {
      replace_node_name_cut(site.view, a);
      if (!substitutes) continue;
      if (!a.is_array && !a.append) replace_own_host_name(site, a.name, a.value.parts);
      replace_idiom_in(site.view, a.value.parts);
      for (const ast::Word& element : a.elements) replace_idiom_in(site.view, element.parts);
    }
  }

  /// The idioms are command substitutions, written `$(` or with a backquote
  /// inside the command's text: most commands have neither, and their parts
  /// need no walk.
  bool may_substitute(const Site& site) const {
    const std::string_view written = source(site.view, site.command->span);
    return written.find('`') != std::string_view::npos || has_dollar_paren(written);
  }

  void replace_idiom_in(uint32_t view, const std::vector<ast::WordPart>& parts) {
    for (const ast::WordPart& part : parts) {
      const bool substitution =
          part.kind == ast::PartKind::command_subst || part.kind == ast::PartKind::backtick;
      if (substitution && part.script && !is_replaced(view, part.span)) {
        if (is_first_host_idiom(*part.script)) {
          replace(view, part.span, "$MASTER_ADDR",
                  "AI Runtime sets MASTER_ADDR to the address of node 0");
        } else if (const ast::Command* query = node0_query(*part.script);
                   query != nullptr && slurm::program_name(query->words[0]) == "srun") {
          replace(view, part.span, "$MASTER_ADDR",
                  "an srun step on the first node asked for its address: AI Runtime's MASTER_ADDR");
        }
      }
      replace_idiom_in(view, part.parts);
    }
  }

  /// `export MASTER=`hostname``: replace_own_host_name() for each `NAME=VALUE`.
  void replace_declared_own_host_names(const Site& site) {
    const auto& words = site.command->words;
    for (size_t i = 1; i < words.size(); ++i) {
      const auto& parts = words[i].parts;
      if (parts.size() < 2 || parts[0].kind != ast::PartKind::literal ||
          !parts[0].text.ends_with('=')) {
        continue;
      }
      const std::string_view name(parts[0].text.data(), parts[0].text.size() - 1);
      replace_own_host_name(site, name, std::span(parts).subspan(1));
    }
  }

  /// `MASTER=`/bin/hostname -s``, `MAIN_HOST=$(hostname)` (pritamqu's and
  /// MedSAM's launchers, then `--dist-url tcp://$MASTER:$PORT`): the batch
  /// shell ran on node 0, so a name that says it is the master's, the head's
  /// or the main host's held node 0's name. Every AI Runtime node runs the
  /// command, and `hostname` there names the node itself. Not in an srun
  /// step, where each task asked for its own.
  void replace_own_host_name(const Site& site, std::string_view name,
                             std::span<const ast::WordPart> value) {
    // MASTER_ADDR's own assignment goes whole (S2A4008).
    if (site.context.in_srun || name == "MASTER_ADDR" || !says_first_node(name) ||
        value.size() != 1) {
      return;
    }
    const ast::WordPart* part = &value[0];
    if (part->kind == ast::PartKind::double_quoted && part->parts.size() == 1) {
      part = &part->parts[0];
    }
    const bool substitution =
        part->kind == ast::PartKind::command_subst || part->kind == ast::PartKind::backtick;
    if (!substitution || !part->script || is_replaced(site.view, part->span)) return;
    const ast::Command* query = node0_query(*part->script);
    if (query == nullptr || slurm::program_name(query->words[0]) != "hostname") return;
    replace(site.view, part->span, "$MASTER_ADDR",
            "AI Runtime sets MASTER_ADDR to the address of node 0");
    // Shown as `$(...)` also when written in backquotes, which the message quotes with.
    report(Code::launch_value_replaced, site.view, part->span,
           "`$(" + std::string(source(site.view, part->inner)) +
               ")` ran in the batch shell, on node 0, so " + std::string(name) +
               " held node 0's name; every AI Runtime node runs the command and would name "
               "itself: it becomes $MASTER_ADDR, node 0's address",
           "");
  }

  static bool says_first_node(std::string_view name) {
    return ascii_contains_ignoring_case(name, "master") ||
           ascii_contains_ignoring_case(name, "head") || ascii_lower(name.substr(0, 5)) == "main_";
  }

  /// `master_node=${SLURM_NODELIST:0:9}${SLURM_NODELIST:10:4}` (SwAV, DINO and
  /// their forks): the first node's name cut out of the compressed node list
  /// (`learnfair[0123-0124]`) for a `tcp://` rendezvous address. With the node
  /// list unset it is empty, and the program's own rendezvous fails; the
  /// variable's name says it means node 0.
  void replace_node_name_cut(uint32_t view, const ast::Assignment& a) {
    if (a.is_array || a.append) return;
    const std::string_view value = source(view, a.value.span);
    if (!value.starts_with("${SLURM_") || !is_node_list_cut(value)) return;
    if (is_replaced(view, a.value.span)) return;
    if (!ascii_contains_ignoring_case(a.name, "master") &&
        !ascii_contains_ignoring_case(a.name, "head")) {
      return;
    }
    replace(view, a.value.span, "$MASTER_ADDR",
            "AI Runtime sets MASTER_ADDR to the address of node 0");
    report(Code::launch_value_replaced, view, a.value.span,
           "`" + std::string(value) +
               "` cuts the first node's name out of Slurm's node list, which AI Runtime does not "
               "set; it becomes $MASTER_ADDR, node 0's address",
           "");
  }

  /// `${SLURM_NODELIST:0:9}${SLURM_NODELIST:10:4}`: substrings of the node
  /// list only, the first from its start.
  static bool is_node_list_cut(std::string_view value) {
    bool first = true;
    while (!value.empty()) {
      bool matched = false;
      for (const std::string_view list : {"${SLURM_NODELIST:"sv, "${SLURM_JOB_NODELIST:"sv}) {
        if (!value.starts_with(list)) continue;
        const size_t close = value.find('}');
        if (close == std::string_view::npos) return false;
        const std::string_view range = value.substr(list.size(), close - list.size());
        if (range.empty() || range.find_first_not_of("0123456789:") != std::string_view::npos ||
            (first && !range.starts_with("0"))) {
          return false;
        }
        value.remove_prefix(close + 1);
        matched = true;
        break;
      }
      if (!matched) return false;
      first = false;
    }
    return !first;
  }

  /// `scontrol show hostnames` listing every node: AI Runtime lists no nodes,
  /// so a stand-in prints node 0's address and a placeholder per other node.
  void replace_host_list(const Site& site) {
    const ast::Command& command = *site.command;
    if (!is_host_list_command(command) || is_replaced(site.view, command.span)) return;
    // Only the words are replaced: `> hosts.txt` must still write the file.
    const Span words{command.words.front().span.begin, command.words.back().span.end};
    std::string stand_in = node_list_stand_in();
    for (const ast::Redirect& r : command.redirects) {
      if (r.span.begin > words.begin && r.span.end < words.end) {
        stand_in += ' ';
        stand_in += source(site.view, r.span);
      }
    }
    replace(site.view, words, stand_in,
            "node 0's address, then one placeholder name per other node");
    report(Code::node_list_emulated, site.view, site.command->span,
           "AI Runtime does not list a workload's nodes; the node list becomes $MASTER_ADDR "
           "followed by the placeholders node-1 ... node-N",
           "only node 0's address and the node count are real: use $MASTER_ADDR, $NUM_NODES "
           "and $NODE_RANK instead of host names");
  }

  // --- pass 2: every other command ------------------------------------------

  void map_site(const Site& site) {
    site_reports_begin_ = diagnostics_.size();
    setup_.hide_inline_secrets(site);
    replace_host_list(site);
    if (is_replaced(site.view, site.command->span)) return;
    step_start_ = StepStart::as_written;
    if (site.program == "srun"sv && site.srun) unwrap_srun(site);
    setup_.unwrap_conda_run(site);
    setup_.unwrap_container(site);
    switch (site.launcher.kind) {
      case Launcher::torchrun:
      case Launcher::torch_distributed_launch:
        map_torch_launcher(site);
        break;
      case Launcher::accelerate:
        map_accelerate(site);
        break;
      case Launcher::deepspeed:
        map_deepspeed(site);
        break;
      case Launcher::mpirun:
      case Launcher::horovodrun:
        report_mpi_launcher(site);
        break;
      case Launcher::none:
      case Launcher::python:
        break;
    }
    report_launcher_in_variable(site);
    map_slurm_launcher_choice(site);
    // Expansions the batch shell fills into a double-quoted `bash -c` script
    // are read once that script is mapped: what its mapping replaced
    // (`--rdzv_id=$SLURM_JOB_ID`) is not a variable left behind.
    if (!fills_double_quoted_script(site)) read_batch_expansions(site);
    check_runs_on_every_node(site);
  }

  void read_batch_expansions(const Site& site) {
    report_values_drawn_per_node(site);
    rewrite_variables(site);
  }

  bool fills_double_quoted_script(const Site& site) const {
    return site.nested_script >= 0 && !body_.views[nested_of(site).view].exact;
  }

  const slurm::NestedScript& nested_of(const Site& site) const {
    return *body_.nested[static_cast<size_t>(site.nested_script)];
  }

  /// Whether `span` of a double-quoted `bash -c` script's view is an
  /// expansion the batch shell filled in.
  bool is_filled_in(uint32_t view, Span span) const {
    if (body_.views[view].exact) return false;
    for (const auto& nested : body_.nested) {
      if (nested->view != view) continue;
      const auto& filled = nested->outer_expansions;
      return std::any_of(filled.begin(), filled.end(), [&](Span expansion) {
        return expansion.begin <= span.begin && span.end <= expansion.end;
      });
    }
    return false;
  }

  /// Whether the mapping of a double-quoted `bash -c` script replaced what
  /// `span`, an expansion of the batch script filled into it, became there.
  bool is_replaced_in_nested_script(const Site& site, Span span) const {
    if (!fills_double_quoted_script(site)) return false;
    const slurm::NestedScript& nested = nested_of(site);
    for (size_t k = 0; k < nested.outer_sources.size(); ++k) {
      const Span from = nested.outer_sources[k];
      if (span.begin < from.begin || span.end > from.end) continue;
      const uint32_t at = nested.outer_expansions[k].begin + (span.begin - from.begin);
      return is_replaced(nested.view, Span{at, at + span.size()});
    }
    return false;
  }

  /// `SEED=$RANDOM` ... `srun torchrun ... --seed $SEED`: the batch shell drew
  /// the value once and every node's step got it; now every node runs the
  /// script and draws its own, so the nodes disagree (seeds, ids, ports,
  /// output directories). Reported where a multi-node step or launcher reads
  /// it, once per name; values the launch mapping replaced are not.
  void report_values_drawn_per_node(const Site& site) {
    if (compute_.nodes <= 1) return;
    const bool step = site.program == "srun"sv || site.context.in_srun ||
                      is_distributed_launcher(site.launcher.kind);
    if (!step) return;
    const ValueReader reader = reader_for(site.view);
    for (const ast::Word& word : site.command->words) {
      report_random_parts(site, reader, word.parts);
    }
  }

  void report_random_parts(const Site& site, const ValueReader& reader,
                           const std::vector<ast::WordPart>& parts) {
    for (const ast::WordPart& part : parts) {
      if (part.kind == ast::PartKind::double_quoted) {
        report_random_parts(site, reader, part.parts);
        continue;
      }
      // An expansion the batch shell filled into a double-quoted script is
      // reported where the batch script writes it, by the outer command.
      if (part.kind != ast::PartKind::param || is_replaced(site.view, part.span) ||
          is_replaced_in_nested_script(site, part.span) || is_filled_in(site.view, part.span)) {
        continue;
      }
      if (reader.variable(part).meaning != Meaning::random) continue;
      if (std::find(drawn_reported_.begin(), drawn_reported_.end(), part.text) !=
          drawn_reported_.end()) {
        continue;
      }
      drawn_reported_.push_back(part.text);
      const std::string shown =
          part.text == "RANDOM" ? "$RANDOM" : "$" + part.text + ", drawn at random in the script,";
      report(Code::value_drawn_per_node, site.view, part.span,
             shown +
                 " was drawn once by the batch shell under Slurm, and every node's step got "
                 "the same value; on AI Runtime each node runs the script and draws its own, "
                 "so the nodes disagree",
             "use a fixed value, or derive one from $MLFLOW_RUN_ID, which every node of the run "
             "shares");
    }
  }

  bool starts_tasks_per_gpu(const Site& site) const {
    if (srun_tasks_per_node(site) <= 1) return false;
    if (site.nested_script >= 0) return !launches_in_view_[nested_of(site).view];
    return !is_distributed_launcher(site.launcher.kind);
  }

  /// For each text view, whether a distributed launcher runs in it: asked
  /// for each srun step's nested script, so a scan of all sites each time
  /// made scripts with many steps quadratic.
  static std::vector<bool> views_with_launchers(const slurm::Body& body) {
    std::vector<bool> out(body.views.size());
    for (const Site& site : body.sites) {
      if (is_distributed_launcher(site.launcher.kind)) out[site.view] = true;
    }
    return out;
  }

  /// A launch whose processes on every node meet before they start work:
  /// torchrun (also the one an srun step of one task per GPU becomes, and
  /// one kept in a variable), accelerate, deepspeed. Not `srun ray start`,
  /// nor an MPI launcher, which AI Runtime does not run across nodes.
  bool meets_in_a_rendezvous(const Site& site) {
    switch (site.launcher.kind) {
      case Launcher::torchrun:
      case Launcher::torch_distributed_launch:
      case Launcher::accelerate:
      case Launcher::deepspeed:
        return true;
      default:
        return (site.program == "srun"sv && site.srun && starts_tasks_per_gpu(site)) ||
               launcher_in_variable(site).has_value();
    }
  }

  static bool is_distributed_launcher(Launcher kind) {
    return kind != Launcher::none && kind != Launcher::python;
  }

  void unwrap_srun(const Site& site) {
    const auto& words = site.command->words;
    const uint64_t step_tasks_per_node = srun_tasks_per_node(site);
    report_step_gpu_subset(site);
    report_dropped_srun_options(site);
    report_unread_task_count(site);
    step_start_ = StepStart::other;
    if (site.srun_operand >= words.size()) {
      report(Code::slurm_command_in_body, site.view, site.command->span,
             "srun without a program to run", "remove the line");
      return;
    }
    if (site.srun_operand_in_variable) {
      const std::string variable(source(site.view, words[site.srun_operand].span));
      report(Code::slurm_command_in_body, site.view, words[site.srun_operand].span,
             "`" + variable +
                 (site.srun_operand_unread
                      ? "` holds srun options and an expansion the translation cannot read "
                        "where the program could begin"
                      : "` holds srun options and the program together") +
                 ", so srun cannot be taken off this line, and it does not exist on AI Runtime",
             "keep srun's options and the program in separate variables");
      return;
    }
    report_mpi_plugin(site);
    const Span prefix{words[site.srun_word].span.begin, words[site.srun_operand].span.begin};
    // Every way on takes srun and its options off the line (a nested script
    // is replaced whole later): what the options name is gone, not translated.
    mark_replaced(site.view, prefix);
    const std::optional<std::string> rank = single_node_rank(site);
    const bool per_gpu = starts_tasks_per_gpu(site);
    // One task per node on several nodes was MPI's too: each node's own
    // process is then a one-rank MPI job.
    const std::string mpi = per_gpu || compute_.nodes > 1 ? step_mpi(site) : std::string();
    if (!mpi.empty() && per_gpu && (compute_.nodes <= 1 || rank) && !site.context.in_substitution) {
      if (mpi == kUsesHorovod) {
        start_horovod_ranks(site, step_tasks_per_node, prefix, rank);
      } else {
        start_mpi_ranks(site, step_tasks_per_node, prefix, mpi, rank);
      }
      return;
    }
    // On several nodes an --mpi plugin is already reported (report_mpi_plugin);
    // Horovod's report still comes, for its own hint.
    if (!mpi.empty() && !mpi.starts_with("--mpi") &&
        (compute_.nodes <= 1 || mpi_plugin(site) == nullptr || mpi == kUsesHorovod)) {
      report_inferred_mpi(site, mpi);
    }
    if (starts_tasks_per_gpu(site) && !rank) {
      start_tasks_with_torchrun(site, step_tasks_per_node, prefix);
      return;
    }
    if (starts_tasks_per_gpu(site) && compute_.nodes > 1 && site.nested_script < 0 &&
        !site.context.in_substitution) {
      start_tasks_on_one_node(site, step_tasks_per_node, prefix, *rank);
      return;
    }
    if (starts_tasks_per_gpu(site) && compute_.nodes <= 1) {
      start_tasks_with_torchrun(site, step_tasks_per_node, prefix);
      return;
    }
    if (step_tasks_per_node > 1) {
      report(Code::one_task_per_gpu, site.view, site.command->span,
             "srun starts " + std::to_string(step_tasks_per_node) + " `" +
                 std::string(slurm::launcher_name(site.launcher.kind)) +
                 "` launchers per node here, each starting its own processes; AI Runtime runs "
                 "the command once per node",
             "give the step --ntasks-per-node=1 on Slurm: one launcher per node is what runs "
             "on AI Runtime");
    }
    report_read_step_output(site, step_tasks_per_node * (rank ? 1 : compute_.nodes));
    if (!rank && compute_.nodes > 1 && step_tasks_per_node <= 1 && mpi.empty() &&
        !site.context.in_substitution && srun_tasks(site).unread == nullptr) {
      report_task_variables_missing(site);
    }
    if (site.nested_script >= 0) return;  // replaced whole by unwrap_nested_script()
    step_start_ = rank || compute_.nodes <= 1 ? StepStart::alone : StepStart::once_per_node;
    if (rank && compute_.nodes > 1 && !site.context.in_substitution) {
      report_steps_side_by_side(site);
      report_per_node_loop(site, *rank);
      guard_on_node(site, *rank, "this srun step ran on one node: keep it on node " + *rank);
      remove_srun(site, prefix, "srun is not needed on the node");
      return;
    }
    remove_srun(site, prefix, "AI Runtime already runs the command once on every node");
  }

  /// srun looks for a program named without a `/` in the working directory
  /// before PATH (search_path with the cwd first); bash looks in PATH only.
  /// `srun train.sh`, `srun a.out` ran the file beside the script, which
  /// without srun is "command not found": it becomes `./train.sh`.
  /// Where the script may put programs on PATH (a module, conda, `source`,
  /// PATH=...), `start-worker.sh` may be a module's; there it is reported.
  void remove_srun(const Site& site, Span prefix, std::string reason) {
    if (runs_local_program(site)) {
      if (!script_may_extend_path()) {
        edit(site.view, prefix, "./",
             reason + "; srun found the program in the working directory, bash looks in PATH");
        return;
      }
      const std::string name(source(site.view, site.command->words[site.srun_operand].span));
      report(Code::program_from_working_directory, site.view,
             site.command->words[site.srun_operand].span,
             "srun looked for `" + name +
                 "` in the working directory before PATH; without srun bash looks in PATH only",
             "if the file is beside the script write ./" + name +
                 "; if the setup above puts it on PATH, nothing to do");
    }
    edit(site.view, prefix, "", std::move(reason));
  }

  bool script_may_extend_path() {
    if (!may_extend_path_) {
      may_extend_path_ = std::any_of(body_.sites.begin(), body_.sites.end(), [&](const Site& s) {
        if (is_setup_tool(s.program) || s.program == "source" || s.program == ".") return true;
        const auto assignments = assignments_of(*s.command, s, body_.views[s.view].text);
        return std::any_of(assignments.begin(), assignments.end(),
                           [](const Assignment& a) { return a.name == "PATH"; });
      });
    }
    return *may_extend_path_;
  }

  bool runs_local_program(const Site& site) const {
    const auto name = slurm::literal_value(site.command->words[site.srun_operand]);
    if (!name || name->find('/') != std::string::npos) return false;
    static constexpr std::array<std::string_view, 6> kLocalSuffixes = {".sh",  ".py",  ".out",
                                                                       ".exe", ".bin", ".pl"};
    return *name == "a.out" ||
           std::any_of(kLocalSuffixes.begin(), kLocalSuffixes.end(), [&](std::string_view suffix) {
             return name->size() > suffix.size() && name->ends_with(suffix);
           });
  }

  /// A launcher or a Python program, directly or in the step's `bash -c` script.
  bool step_runs_a_program(const Site& site) const {
    if (site.launcher.kind != Launcher::none) return true;
    if (site.nested_script < 0) return false;
    const uint32_t view = body_.nested[static_cast<size_t>(site.nested_script)]->view;
    return std::any_of(body_.sites.begin(), body_.sites.end(), [&](const Site& inner) {
      return inner.view == view && inner.launcher.kind != Launcher::none;
    });
  }

  /// `NPROCS=$(srun hostname | wc -l)`, `srun -l hostname | sort`, `srun
  /// hostname > hosts`: under Slurm the batch shell read one line per task
  /// of every node (labelled `N: ` with -l); now each node runs the command
  /// once and reads only its own line.
  void report_read_step_output(const Site& site, uint64_t tasks) {
    const ast::Command& command = *site.command;
    const bool labelled =
        std::any_of(site.srun->options.begin(), site.srun->options.end(),
                    [](const directives::Option& option) { return option.name() == "label"; });
    if (tasks <= 1 && !labelled) return;
    const std::string_view text = body_.views[site.view].text;
    size_t after = command.span.end;
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
    const bool piped = after < text.size() && text[after] == '|' &&
                       (after + 1 == text.size() || text[after + 1] != '|');
    const bool to_file =
        std::any_of(command.redirects.begin(), command.redirects.end(), [](const ast::Redirect& r) {
          return (r.fd.empty() || r.fd == "1") &&
                 (r.op == ">" || r.op == ">>" || r.op == ">|" || r.op == "&>" || r.op == "&>>");
        });
    // A program's own output piped to tee or a log (`srun python t.py >
    // log`) is kept, not read; what a script reads back is a host name,
    // a count, a device list. A pipe into a plain `tee [-a] FILE` only
    // keeps the lines, whatever the step runs (`srun $LAUNCHER ... | tee -a
    // log`): the script reads none of them.
    const bool consumed = piped && !ends_in_plain_tee(site);
    const bool read_back =
        site.context.in_substitution || ((consumed || to_file) && !step_runs_a_program(site));
    if (!read_back) return;
    report(Code::step_output_per_node, site.view, command.span,
           "the script reads this srun step's output, which under Slurm held a line from each "
           "of its " +
               std::to_string(tasks) + " tasks" +
               (labelled ? ", labelled with the task number (-l)" : "") +
               "; on AI Runtime each node runs the command once and reads only its own" +
               (labelled ? ", unlabelled" : ""),
           "count with $WORLD_SIZE, $NUM_NODES or $LOCAL_WORLD_SIZE, and name nodes with "
           "$MASTER_ADDR and $NODE_RANK, instead of reading srun's output");
  }

  /// `srun ... 2>&1 | tee -a log`: the step's pipe goes into a tee that
  /// ends the pipeline, with no options but -a/-i/-p and no redirections,
  /// so its copies go to the files it names and the job's output only.
  bool ends_in_plain_tee(const Site& site) const {
    const std::optional<PipelinePlace> place = pipeline_of(site);
    if (!place || place->stage + 2 != place->pipeline->children.size()) return false;
    const ast::Command& tee = place->pipeline->children.back();
    if (tee.kind != ast::CommandKind::simple || tee.words.empty() || !tee.redirects.empty() ||
        !tee.assignments.empty() || slurm::program_name(tee.words.front()) != "tee") {
      return false;
    }
    return std::all_of(tee.words.begin() + 1, tee.words.end(), [](const ast::Word& word) {
      const std::optional<std::string> written = slurm::literal_value(word);
      if (!written || !written->starts_with('-')) return true;  // a file
      if (*written == "--append" || *written == "--ignore-interrupts") return true;
      return written->size() > 1 &&
             written->find_first_not_of("aip", 1) == std::string::npos;  // -a, -ai
    });
  }

  /// `python tools/train.py CFG --launcher=slurm` (OpenMMLab, BasicSR): the
  /// program started torch.distributed from Slurm's task variables, which
  /// AI Runtime does not set, so it would stop at once. Under torchrun it
  /// takes `--launcher=pytorch`; a program srun or the batch shell started
  /// alone gets a torchrun of one process, so it still runs as a process
  /// group (SyncBN, distributed samplers) as it did under Slurm.
  void map_slurm_launcher_choice(const Site& site) {
    const Launcher kind = site.launcher.kind;
    if ((kind != Launcher::python && !is_torch_launcher(kind)) || site.context.in_substitution) {
      return;
    }
    const auto choice = slurm_launcher_choice(site.command->words, site.launcher.first_argument);
    if (!choice || is_replaced(site.view, choice->word)) return;
    std::string start;  // the torchrun that now starts a program started alone
    std::string setter = "the launcher on the line";
    if (kind == Launcher::python) {
      const bool under_shim =
          std::find(shim_views_.begin(), shim_views_.end(), site.view) != shim_views_.end();
      if (under_shim || step_start_ == StepStart::by_torchrun) {
        setter = "torchrun, which now starts the tasks srun started";
      } else if (step_start_ == StepStart::once_per_node) {
        start = per_node_torchrun("1");
        setter =
            "a torchrun of one process per node, which now starts it as srun started one "
            "task per node";
      } else if (step_start_ == StepStart::alone ||
                 (step_start_ == StepStart::as_written && !site.context.in_srun)) {
        start = one_node_torchrun("1");
        setter =
            "a torchrun of one process, which now starts it so that it still runs as a "
            "process group of one";
      } else {
        report_slurm_launcher_kept(site, choice->word);
        return;
      }
    }
    const Span program = site.command->words[site.launcher.program_word].span;
    if (!start.empty()) {
      edit(site.view, Span{program.begin, program.begin}, start,
           "the program's process group, started by torchrun instead of srun");
    }
    edit(site.view, choice->word, std::string(choice->replacement),
         "torch.distributed from torchrun's variables instead of Slurm's");
    std::string port_removed;
    if (const auto port =
            slurm_launcher_port_setting(site.command->words, site.launcher.first_argument)) {
      port_removed = "; `" + std::string(source(site.view, *port)) +
                     "`, which only the slurm choice reads (init_process_group refuses a port), "
                     "is removed";
      edit(site.view, *port, "", "the port torchrun's MASTER_PORT replaces");
    }
    report(Code::slurm_launcher_to_pytorch, site.view, choice->word,
           "`--launcher slurm` made the program start torch.distributed from " +
               std::string(kSlurmTaskVariables) +
               ", which AI Runtime does not set; it now passes `--launcher pytorch`, which reads "
               "the RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT set by " +
               setter + port_removed,
           "`pytorch` is what OpenMMLab's tools (mmcv, mmengine) and BasicSR call it; a "
           "program that names it otherwise needs the choice that reads torchrun's variables");
  }

  void report_slurm_launcher_kept(const Site& site, Span word) {
    report(Code::slurm_launcher_kept, site.view, word,
           "`--launcher slurm` makes the program start torch.distributed from " +
               std::string(kSlurmTaskVariables) +
               ", which AI Runtime does not set: it stops as it "
               "starts",
           "start the program with torchrun (one process per GPU) and pass --launcher pytorch");
  }

  static bool is_torch_launcher(Launcher kind) {
    return kind == Launcher::torchrun || kind == Launcher::torch_distributed_launch;
  }

  /// srun started one task per GPU: torchrun starts them now, and a shim
  /// gives each worker the SLURM_* task variables the program reads.
  void start_tasks_with_torchrun(const Site& site, uint64_t tasks_per_node, Span prefix) {
    const uint64_t gpus = compute_.gpus_per_node;
    const StepGpuBinding binding = step_gpu_binding(site, tasks_per_node);
    report_lost_gpu_binding(site, binding);
    const std::string procs = tasks_per_node == gpus ? std::string("\"$LOCAL_WORLD_SIZE\"")
                                                     : std::to_string(tasks_per_node);
    report_uneven_tasks(site, tasks_per_node);
    const uint64_t used =
        binding.carried ? gpus_used(*binding.carried, tasks_per_node) : tasks_per_node;
    if (used != gpus) {
      report(Code::launcher_count_mismatch, site.view, site.command->span,
             "srun starts " + std::to_string(tasks_per_node) +
                 " tasks per node but each AI Runtime node has " + std::to_string(gpus) +
                 " GPU(s); the translation keeps " + std::to_string(tasks_per_node) +
                 " processes per node",
             "make the program use one process per GPU and pass "
             "--nproc_per_node=\"$LOCAL_WORLD_SIZE\"");
    }
    const SlurmTaskEnv env = task_env(site, tasks_per_node, binding, "\"$NUM_NODES\"");
    report(Code::tasks_started_by_torchrun, site.view, site.command->span,
           "srun started " + std::to_string(tasks_per_node) +
               " tasks per node; torchrun now starts them on every node, and each sets "
               "SLURM_PROCID, SLURM_LOCALID, SLURM_NTASKS, SLURM_NTASKS_PER_NODE and "
               "SLURM_NODEID from torchrun's RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE "
               "and GROUP_RANK" +
               job_shape_note(env) + bound_devices_note(binding),
           "a program that reads RANK/LOCAL_RANK/WORLD_SIZE needs no shim; Lightning users "
           "can drop it and let Lightning use its torchrun environment");
    report_jax_initialize(site, true);
    if (site.nested_script >= 0) {
      per_gpu_nested_.push_back(&site);
      shim_views_.push_back(nested_of(site).view);
      edit(site.view, prefix, per_node_torchrun(procs),
           "one process per GPU, started on every node by torchrun");
      return;
    }
    step_start_ = StepStart::by_torchrun;
    edit(site.view, prefix, per_node_torchrun(procs) + slurm_task_shim(env),
         "one process per GPU, started on every node by torchrun, with SLURM_* task variables");
  }

  /// `srun -N1 python t.py` with several tasks per node: the tasks of one
  /// node, started by a one-node torchrun on that node only.
  void start_tasks_on_one_node(const Site& site, uint64_t tasks, Span prefix,
                               const std::string& rank) {
    const StepGpuBinding binding = step_gpu_binding(site, tasks);
    report_lost_gpu_binding(site, binding);
    const SlurmTaskEnv env = task_env(site, tasks, binding, "1");
    report(Code::tasks_started_by_torchrun, site.view, site.command->span,
           "this srun step started " + std::to_string(tasks) +
               " tasks on one node; a one-node torchrun now starts them on node " + rank +
               ", and each sets SLURM_PROCID, "
               "SLURM_LOCALID, SLURM_NTASKS, SLURM_NTASKS_PER_NODE and SLURM_NODEID from "
               "torchrun's RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE and GROUP_RANK" +
               job_shape_note(env) + bound_devices_note(binding),
           "a program that reads RANK/LOCAL_RANK/WORLD_SIZE needs no shim");
    report_jax_initialize(site, true);
    const std::string procs = tasks == compute_.gpus_per_node ? std::string("\"$LOCAL_WORLD_SIZE\"")
                                                              : std::to_string(tasks);
    guard_on_node(site, rank, "the step ran on one node: keep it on node " + rank);
    step_start_ = StepStart::by_torchrun;
    edit(site.view, prefix, one_node_torchrun(procs) + slurm_task_shim(env),
         "the step's " + std::to_string(tasks) + " tasks, started on node " + rank +
             " only by torchrun, with SLURM_* task variables");
  }

  /// The Python program an srun step runs: the step's own (`srun python
  /// t.py`, also in a container or NERSC's `shifter`), or the first of its
  /// `bash -c` script when nothing in the script launches processes of its
  /// own; else nullopt.
  struct StepProgram {
    const ast::Command* command = nullptr;
    slurm::LauncherCall launcher;
  };
  std::optional<StepProgram> python_program_of_step(const Site& site) const {
    if (site.launcher.kind == Launcher::python) return StepProgram{site.command, site.launcher};
    if (site.nested_script < 0) return past_shifter(site);
    const uint32_t view = nested_of(site).view;
    if (launches_in_view_[view]) return std::nullopt;
    // The script's commands are walked right after the step that runs it.
    for (const Site* inner = &site + 1;
         inner != body_.sites.data() + body_.sites.size() && inner->view == view; ++inner) {
      if (inner->launcher.kind == Launcher::python) {
        return StepProgram{inner->command, inner->launcher};
      }
    }
    return std::nullopt;
  }

  /// A Python program, or one the translation cannot see: `srun $TRAIN`,
  /// `srun bash -c "${cmd}"` with the script made when the job runs (JAX
  /// Toolbox's templates read it from a here-document).
  bool step_may_run_python(const Site& site) const {
    if (python_program_of_step(site)) return true;
    const auto& words = site.command->words;
    if (site.nested_script >= 0 || site.srun_operand >= words.size()) return false;
    const ast::Word& program = words[site.srun_operand];
    if (!slurm::literal_value(program)) return true;
    return slurm::is_shell_program(slurm::program_name(program));
  }

  /// `srun shifter --module=gpu python3 t.py`: the body's launchers are
  /// not read past shifter, whose options are its own.
  std::optional<StepProgram> past_shifter(const Site& site) const {
    if (site.launcher.kind != Launcher::none || site.srun_operand >= site.command->words.size()) {
      return std::nullopt;
    }
    const auto& words = site.command->words;
    const auto call =
        slurm::find_shifter_call(words, site.srun_operand, body_.views[site.view].text);
    if (!call || call->program >= words.size()) return std::nullopt;
    const slurm::LauncherCall launcher = slurm::detect_launcher(words, call->program);
    if (launcher.kind != Launcher::python) return std::nullopt;
    return StepProgram{site.command, launcher};
  }

  /// `srun python train.py` with one task on each of several nodes: under
  /// Slurm each node's task had its place in the step in SLURM_PROCID,
  /// SLURM_NTASKS, SLURM_LOCALID and the node list, which IDRIS's idr_torch
  /// and many DDP templates read. AI Runtime runs the program once per node
  /// without them. The shim of one-task-per-GPU steps is not given here:
  /// with SLURM_NTASKS set, Lightning takes the job for Slurm-managed and
  /// wants as many tasks per node as devices, where today it spawns its
  /// GPUs from NODE_RANK and MASTER_ADDR and runs.
  void report_task_variables_missing(const Site& site) {
    // One report at the step: the JAX one names what JAX reads instead.
    if (script_uses_jax() && step_may_run_python(site)) {
      report_jax_initialize(site, false);
      return;
    }
    const std::optional<StepProgram> program = python_program_of_step(site);
    if (!program) return;
    // `--launcher slurm` is S2A4039's (started by torchrun) or S2A4040's.
    if (slurm_launcher_choice(program->command->words, program->launcher.first_argument)) return;
    report(Code::task_variables_missing, site.view, site.command->span,
           "srun started this program as one task on each of the step's nodes and gave each "
           "task its place in the step (SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, "
           "SLURM_NODEID, SLURM_JOB_NODELIST); AI Runtime runs it once per node without them: "
           "a program that reads them stops (KeyError), or, reading them with a default, runs "
           "every node as rank 0 of 1",
           "read AI Runtime's variables instead: NODE_RANK is the task's rank, NUM_NODES the "
           "task count, MASTER_ADDR and MASTER_PORT node 0's address and a free port (WORLD_SIZE "
           "counts GPUs, not these tasks); or set what it reads on its line: "
           "SLURM_PROCID=\"$NODE_RANK\" SLURM_NTASKS=\"$NUM_NODES\" SLURM_LOCALID=0 python ...");
  }

  /// JAX named by the job's setup (jax_job.hpp), asked once.
  bool script_uses_jax() {
    if (!uses_jax_) uses_jax_ = job_uses_jax(body_, job_);
    return *uses_jax_;
  }

  /// A JAX step's processes: jax.distributed.initialize() without arguments
  /// finds them through SLURM_JOB_ID and SLURM_STEP_NODELIST, which neither
  /// the shim (`by_torchrun`) nor AI Runtime sets. Not emulated: other
  /// programs (Open MPI, submitit) would take those for a Slurm job too.
  void report_jax_initialize(const Site& site, bool by_torchrun) {
    if (!script_uses_jax() || !step_may_run_python(site)) return;
    const std::string started =
        by_torchrun ? "the torchrun workers that now start the step's tasks get SLURM_PROCID, "
                      "SLURM_NTASKS and SLURM_LOCALID from the shim, but not SLURM_JOB_ID or "
                      "SLURM_STEP_NODELIST"
                    : "AI Runtime now runs the program once on each node, with none of them";
    const std::string arguments =
        by_torchrun
            ? "coordinator_address=f\"{os.environ['MASTER_ADDR']}:PORT\" (a port other than "
              "$MASTER_PORT, which torchrun's store holds on node 0), "
              "num_processes=int(os.environ['WORLD_SIZE']), process_id=int(os.environ['RANK']), "
              "local_device_ids=[int(os.environ['LOCAL_RANK'])]"
            : "coordinator_address=f\"{os.environ['MASTER_ADDR']}:{os.environ['MASTER_PORT']}\", "
              "num_processes=int(os.environ['NUM_NODES']), "
              "process_id=int(os.environ['NODE_RANK']) (each process then uses all of its "
              "node's GPUs)";
    report(Code::jax_cluster_not_found, site.view, site.command->span,
           "the job runs JAX, whose jax.distributed.initialize() without arguments finds its "
           "processes through Slurm (SLURM_JOB_ID, SLURM_STEP_NODELIST, SLURM_PROCID, "
           "SLURM_NTASKS, SLURM_LOCALID); " +
               started + ", so it stops with \"coordinator_address should be defined\"",
           "pass the cluster to jax.distributed.initialize(): " + arguments);
  }

  /// How the step's tasks were bound to GPUs: the step's own --gpu-bind and
  /// --gpus-per-task, else the job's, which srun inherits (SLURM_GPU_BIND,
  /// SLURM_GPUS_PER_TASK) unless the step asks for GPUs its own way.
  struct StepGpuBinding {
    std::optional<TaskGpuBinding> carried;     // into each worker's CUDA_VISIBLE_DEVICES
    const directives::Option* lost = nullptr;  // a binding the workers cannot get
    bool closest = false;                      // --gpu-bind=closest, taken as one GPU a task
  };

  StepGpuBinding step_gpu_binding(const Site& site, uint64_t tasks_per_node) const {
    const directives::Option* bind = nullptr;
    const directives::Option* per_task = nullptr;
    bool own_gpus = false;
    std::optional<uint64_t> gpus_per_node = job_.gpus_per_node();
    for (const auto& option : site.srun->options) {
      const std::string_view name = option.name();
      if (name == "gpu-bind") bind = &option;
      if (name == "gpus-per-task") per_task = &option;
      own_gpus = own_gpus || name == "gpus-per-node" || name == "gres" || name == "gpus";
      if (name == "gpus-per-node") {
        const auto counts = values::parse_gpu_counts(option.value.value_or(""));
        if (counts && counts->size() == 1) gpus_per_node = counts->front().count;
      }
    }
    if (bind == nullptr) bind = job_.final_option("gpu-bind");
    if (bind != nullptr && bind->value) {
      using Kind = values::GpuBind::Kind;
      const auto parsed = values::parse_gpu_bind(*bind->value);
      if (!parsed) return {std::nullopt, bind};
      switch (parsed->kind) {
        case Kind::per_task:
          return fitting(TaskGpuBinding{parsed->count, 0}, bind, tasks_per_node);
        case Kind::single:
          return fitting(TaskGpuBinding{0, parsed->count}, bind, tasks_per_node);
        case Kind::closest:
          // Each task got the GPUs nearest its CPUs: one apiece when a node
          // has as many tasks as GPUs; otherwise it depends on the topology.
          if (tasks_per_node != gpus_per_node.value_or(compute_.gpus_per_node)) {
            return {std::nullopt, bind};
          } else {
            StepGpuBinding one_each = fitting(TaskGpuBinding{1, 0}, bind, tasks_per_node);
            one_each.closest = one_each.carried.has_value();
            return one_each;
          }
        case Kind::map:
        case Kind::mask:
          return {std::nullopt, bind};
        case Kind::none:
          if (!parsed->verbose) return {};
          break;  // `verbose` alone keeps the binding --gpus-per-task implies
      }
    }
    if (per_task != nullptr) {
      const auto counts = values::parse_gpu_counts(per_task->value.value_or(""));
      if (!counts || counts->empty()) return {std::nullopt, per_task};
      if (counts->front().count == 0) return {};
      return fitting(TaskGpuBinding{counts->front().count, 0}, per_task, tasks_per_node);
    }
    if (own_gpus || !job_.gpus || job_.gpus->scope != slurm::GpuScope::per_task ||
        job_.gpus->count == 0) {
      return {};
    }
    return fitting(TaskGpuBinding{job_.gpus->count, 0}, job_.gpus->from, tasks_per_node);
  }

  /// A binding to devices the AI Runtime node does not have is not carried
  /// (the count mismatch is reported on its own).
  StepGpuBinding fitting(TaskGpuBinding binding, const directives::Option* from,
                         uint64_t tasks_per_node) const {
    if (gpus_used(binding, tasks_per_node) > compute_.gpus_per_node) return {std::nullopt, from};
    return {binding};
  }

  void report_lost_gpu_binding(const Site& site, const StepGpuBinding& binding) {
    if (binding.lost != nullptr) {
      const auto& step_options = site.srun->options;
      const bool from_step =
          std::any_of(step_options.begin(), step_options.end(),
                      [&](const directives::Option& option) { return &option == binding.lost; });
      report(Code::gpu_binding_lost, site.view, site.command->span,
             "under Slurm each task of this step saw only the GPUs that `" + binding.lost->text() +
                 "`" + (from_step ? "" : " (a job directive)") +
                 " bound it to; the torchrun workers that now start the tasks see every GPU of "
                 "the node",
             "pick each worker's GPU from $LOCAL_RANK (torch.cuda.set_device(local_rank)), or "
             "set CUDA_VISIBLE_DEVICES for each worker in the command");
    }
  }

  static std::string visible_devices(const StepGpuBinding& binding) {
    return binding.carried ? visible_devices_for(*binding.carried) : std::string();
  }

  /// What the shim sets for the step's tasks: their GPU binding, and the
  /// job's shape as Slurm put it in every task's environment, which
  /// programs read with os.environ[...] and would find missing on AI Runtime.
  SlurmTaskEnv task_env(const Site& site, uint64_t tasks_per_node, const StepGpuBinding& binding,
                        std::string step_nodes) const {
    SlurmTaskEnv env;
    env.visible_devices = visible_devices(binding);
    env.step_nodes = std::move(step_nodes);
    env.gpus_on_node = std::min<uint64_t>(step_gpus_on_node(site, tasks_per_node, binding),
                                          compute_.gpus_per_node);
    env.cpus_per_task = step_cpus_per_task(site);
    return env;
  }

  /// SLURM_GPUS_ON_NODE in the step's tasks: the GPUs the step (or else the
  /// job) has on each node, or, when neither names a count per node, the
  /// GPUs its tasks use.
  uint64_t step_gpus_on_node(const Site& site, uint64_t tasks_per_node,
                             const StepGpuBinding& binding) const {
    for (const auto& option : site.srun->options) {
      if (option.name() != "gpus-per-node") continue;
      const auto counts = values::parse_gpu_counts(option.value.value_or(""));
      if (counts && counts->size() == 1) return counts->front().count;
    }
    if (const auto job_gpus = job_.gpus_per_node()) return *job_gpus;
    return binding.carried ? gpus_used(*binding.carried, tasks_per_node) : tasks_per_node;
  }

  /// SLURM_CPUS_PER_TASK in the step's tasks: the step's own -c, else the
  /// job's; 0 when neither asked (Slurm then sets none).
  uint64_t step_cpus_per_task(const Site& site) const {
    for (const auto& option : site.srun->options) {
      if (option.name() != "cpus-per-task") continue;
      const auto count = values::parse_positive_int(option.value.value_or(""));
      return count ? *count : 0;
    }
    return job_.cpus_per_task ? job_.cpus_per_task->value : 0;
  }

  /// What the S2A4012 note adds for the job's shape the shim sets.
  static std::string job_shape_note(const SlurmTaskEnv& env) {
    std::vector<std::string> names = {"SLURM_NPROCS", "SLURM_NNODES", "SLURM_JOB_NUM_NODES"};
    if (env.gpus_on_node > 0) {
      names.push_back("SLURM_GPUS_ON_NODE=" + std::to_string(env.gpus_on_node));
    }
    if (env.cpus_per_task > 0) {
      names.push_back("SLURM_CPUS_PER_TASK=" + std::to_string(env.cpus_per_task));
    }
    std::string note = ", and ";
    for (size_t i = 0; i < names.size(); ++i) {
      if (i > 0) note += i + 1 == names.size() ? " and " : ", ";
      note += names[i];
    }
    return note + " as Slurm set them in every task";
  }

  /// What the S2A4012 note adds when the workers get the tasks' binding.
  static std::string bound_devices_note(const StepGpuBinding& binding) {
    if (!binding.carried) return "";
    return ", and CUDA_VISIBLE_DEVICES=" + visible_devices(binding) +
           (binding.closest
                ? " so that each sees one GPU, as --gpu-bind=closest gave one apiece to a "
                  "node's tasks, one per GPU (each GPU's nearness to its task's CPUs is "
                  "not kept)"
                : " so that each sees only its own GPUs, numbered from 0, as Slurm's "
                  "per-task binding gave them");
  }

  /// How srun wired the step's tasks up as MPI ranks, as the reports name
  /// it, or empty. Only for a compiled program (not Python, a shell or a
  /// launcher): its --mpi plugin (not none), or the MPI library the script
  /// loads, which srun's default plugin wires up (`module load openmpi` ...
  /// `srun ./solver`).
  std::string step_mpi(const Site& site) {
    if (site.nested_script >= 0 || site.srun_operand >= site.command->words.size()) return {};
    // Python programs keep the per-task start: frameworks such as NeMo and
    // Lightning, started with `srun --mpi=pmix python`, read SLURM_*. One
    // that uses mpi4py or Horovod is MPI's.
    if (site.launcher.kind == Launcher::python) {
      if (script_uses_mpi4py()) return "the script uses mpi4py";
      if (script_uses_horovod()) return std::string(kUsesHorovod);
      const std::string_view file = python_file(site);
      // `mpi_learn.py`, `imglss-mpi-select-objects.py`: mpi4py imported inside.
      return ascii_contains_ignoring_case(file, "mpi")
                 ? "`" + std::string(file) + "` is written for MPI"
                 : std::string();
    }
    if (site.launcher.kind != Launcher::none) return {};
    // A program in a variable (`srun --mpi=pmix $EXE`) is judged by --mpi alone.
    const std::string program = slurm::program_name(site.command->words[site.srun_operand]);
    if (is_not_an_mpi_program(program)) return {};
    if (const directives::Option* option = mpi_plugin(site)) {
      return std::string(source(site.view, option->span));
    }
    if (program.empty()) return {};
    // `lmp_mpi`, `gmx_mpi`, `grad3d.gnu.MPI.ex`: built for MPI, whose
    // library may come with the cluster's default environment (Cray).
    if (ascii_lower(program).find("mpi") != std::string::npos) {
      return "`" + program + "` is built for MPI";
    }
    const std::string_view library = loaded_mpi_library();
    return library.empty() ? std::string() : "the script loads `" + std::string(library) + "`";
  }

  /// The file name of the `.py` a Python step runs (`python -u ../x/t.py`
  /// → t.py), or empty (`python -m pkg`, a file in a variable).
  std::string_view python_file(const Site& site) const {
    const auto& words = site.command->words;
    for (size_t i = site.launcher.first_argument; i < words.size(); ++i) {
      const std::string_view word = source(site.view, words[i].span);
      if (word.ends_with(".py")) return word.substr(word.rfind('/') + 1);
      if (!word.starts_with('-')) return {};
    }
    return {};
  }

  /// Programs a multi-task step runs that are not MPI ones: shells and
  /// interpreters (whose script is not known), containers (reported on
  /// their own) and utilities.
  static bool is_not_an_mpi_program(std::string_view program) {
    static const std::unordered_set<std::string_view> kNot = {
        "bash",       "sh",          "zsh",       "env",     "python",   "python3", "julia",
        "Rscript",    "singularity", "apptainer", "shifter", "hostname", "echo",    "date",
        "nvidia-smi", "sleep",       "true",      "cat",     "ls",       "mkdir",   "cp",
        "rm",         "printenv",    "time",      "numactl", "taskset",  "uname"};
    return kNot.count(program) != 0 || program.starts_with("python");
  }

  /// The first `module load` (or `ml`) argument naming an MPI library;
  /// found once per script, as every srun step asks.
  std::string_view loaded_mpi_library() {
    if (loaded_mpi_library_) return *loaded_mpi_library_;
    loaded_mpi_library_.emplace();
    for (const Site& site : body_.sites) {
      if (site.program != "module"sv && site.program != "ml"sv) continue;
      for (const ast::Word& word : site.command->words) {
        const std::string_view name = source(site.view, word.span);
        if (names_mpi_library(name)) {
          loaded_mpi_library_ = name;
          return name;
        }
      }
    }
    return {};
  }

  /// mpi4py loaded, installed or run (`module load py-mpi4py`, `pip install
  /// mpi4py`, `python -m mpi4py`): its Python steps are MPI ranks.
  bool script_uses_mpi4py() {
    if (!uses_mpi4py_) uses_mpi4py_ = body_.views[0].text.find("mpi4py") != std::string_view::npos;
    return *uses_mpi4py_;
  }

  /// Horovod named in a command's word (`module load tensorflow/1.13-hvd`,
  /// `conda activate horovod`, `--horovod`, `train_hvd.py`), not in a
  /// comment: hvd.init() takes its ranks from MPI, or from the variables
  /// horovodrun sets, never from SLURM_* or torchrun's RANK, so each torchrun
  /// worker would be a one-process Horovod job training alone.
  bool script_uses_horovod() {
    if (!uses_horovod_) {
      uses_horovod_ = names_horovod(body_.views[0].text) &&
                      std::any_of(body_.sites.begin(), body_.sites.end(), [this](const Site& site) {
                        return std::any_of(site.command->words.begin(), site.command->words.end(),
                                           [&](const ast::Word& word) {
                                             return names_horovod(source(site.view, word.span));
                                           });
                      });
    }
    return *uses_horovod_;
  }

  static bool names_horovod(std::string_view text) {
    return ascii_contains_ignoring_case(text, "horovod") ||
           ascii_contains_ignoring_case(text, "hvd");
  }

  static bool names_mpi_library(std::string_view module) {
    const std::string lower = ascii_lower(module);
    if (lower.find("mpi4py") != std::string::npos) return false;  // Python's binding
    for (const std::string_view library : {"openmpi", "mpich", "intel-mpi", "intelmpi", "impi",
                                           "mvapich", "hpcx", "spectrum-mpi", "cray-mpich"}) {
      if (lower.find(library) != std::string::npos) return true;
    }
    return lower == "mpi" || lower.starts_with("mpi/");
  }

  /// One node's MPI ranks: torchrun's workers would each be a one-rank MPI
  /// job (no PMI), so mpirun starts them, as many as srun did.
  void start_mpi_ranks(const Site& site, uint64_t tasks, Span prefix, const std::string& mpi,
                       const std::optional<std::string>& rank) {
    const std::string count = std::to_string(tasks);
    report(Code::mpi_step_to_mpirun, site.view, site.command->span,
           "srun started these " + count + " tasks as MPI ranks (" + mpi + "); `mpirun -np " +
               count + "` starts them now" + on_node_suffix(rank) +
               ": torchrun's workers would each run as a one-rank MPI job",
           "the AI Runtime environment must provide mpirun from the MPI the program was built "
           "with (a custom image); Open MPI run as root also needs --allow-run-as-root");
    launch_ranks_on_one_node(site, prefix, rank, "mpirun -np " + count,
                             "the step's " + count + " MPI ranks, started by mpirun");
  }

  /// One node's Horovod ranks: horovodrun, which comes with Horovod, starts
  /// them over MPI or Gloo, whichever Horovod was built with.
  void start_horovod_ranks(const Site& site, uint64_t tasks, Span prefix,
                           const std::optional<std::string>& rank) {
    const std::string count = std::to_string(tasks);
    const std::string launch = "horovodrun -np " + count + " -H localhost:" + count;
    report(Code::horovod_step_to_horovodrun, site.view, site.command->span,
           "srun started these " + count + " tasks as Horovod's ranks (" +
               std::string(kUsesHorovod) + "); `" + launch + "` starts them now" +
               on_node_suffix(rank) +
               ": hvd.init() does not read torchrun's RANK, so each worker would train alone",
           "Horovod must be in the AI Runtime environment (horovod in the requirements, built "
           "for the framework, or a custom image)");
    launch_ranks_on_one_node(site, prefix, rank, launch,
                             "the step's " + count + " Horovod ranks, started by horovodrun");
  }

  /// srun's prefix becomes `launch`; on a job of several nodes the step stays
  /// on the node it ran on.
  void launch_ranks_on_one_node(const Site& site, Span prefix,
                                const std::optional<std::string>& rank, const std::string& launch,
                                std::string reason) {
    if (rank && compute_.nodes > 1) {
      guard_on_node(site, *rank, "the step ran on one node: keep it on node " + *rank);
    }
    edit(site.view, prefix, launch + " ", std::move(reason));
  }

  /// " on node N" when a one-node step of a multi-node job is kept to its node.
  std::string on_node_suffix(const std::optional<std::string>& rank) const {
    return rank && compute_.nodes > 1 ? " on node " + *rank : std::string();
  }

  /// A compiled program of an MPI-loading script, started on every node:
  /// its ranks are not wired up across nodes.
  void report_inferred_mpi(const Site& site, const std::string& mpi) {
    report(Code::mpi_launch_unsupported, site.view, site.command->span,
           "srun wired these tasks up as MPI ranks (" + mpi +
               "); AI Runtime has no MPI launcher across nodes, so each process it starts "
               "runs as a one-rank MPI job",
           mpi == kUsesHorovod
               ? "Horovod reaches other nodes through horovodrun or mpirun over ssh, which AI "
                 "Runtime nodes do not offer: run on one node, or move to torch.distributed "
                 "(RANK, WORLD_SIZE, MASTER_ADDR are set)"
               : "initialise torch.distributed from RANK/WORLD_SIZE instead of MPI_Init; or run "
                 "on one node");
  }

  /// `if [ "$NODE_RANK" = N ]; then COMMAND; fi` around the whole simple
  /// command, its assignments included (`PYTHONPATH=x srun -N1 ...`).
  void guard_on_node(const Site& site, const std::string& rank, const std::string& reason) {
    const Span span = site.command->span;
    edit(site.view, Span{span.begin, span.begin}, "if [ \"$NODE_RANK\" = " + rank + " ]; then ",
         reason);
    edit(site.view, Span{span.end, span.end}, "; fi", "end of the node guard");
  }

  /// A task or node count given to srun, as the batch shell knew it.
  struct StepCount {
    std::optional<uint64_t> value;  // unset: the job's own count, or unread
    bool unread = false;            // an expansion whose value the script does not give
  };

  /// `-n 8`, or an expansion the batch shell knew: `$SLURM_GPUS_PER_NODE`,
  /// `$((SLURM_NNODES * 8))`, `$NGPU` assigned earlier. `$SLURM_NTASKS` and
  /// its kin repeat the job's count, which the step inherits anyway.
  StepCount srun_count(const Site& site, const directives::Option& option) const {
    if (!option.value) return {};
    if (const auto number = values::parse_positive_int(*option.value)) return {*number};
    const ast::Word* word = word_at(site, option.value_span);
    if (word == nullptr || option.value_span.empty()) return {std::nullopt, true};
    const ShellValue value = value_in_word(site, *word, option.value_span);
    if (value.number) return {value.number};
    if (repeats_job_task_count(site, option)) return {};
    return {std::nullopt, true};
  }

  bool repeats_job_task_count(const Site& site, const directives::Option& option) const {
    const auto name = slurm::variable_of(source(site.view, option.value_span));
    return name && (*name == "SLURM_NTASKS" || *name == "SLURM_NPROCS" ||
                    *name == "SLURM_NTASKS_PER_NODE" || *name == "SLURM_TASKS_PER_NODE");
  }

  /// The tasks per node the step starts, and the count option it could not
  /// read (`--ntasks-per-node=${DGXNGPU}` with DGXNGPU set in a file the
  /// script sources), in which case the step's other counts or the job's
  /// stand in.
  struct StepTasks {
    uint64_t per_node = 1;
    const directives::Option* unread = nullptr;
    uint64_t uneven_total = 0;  // `-n 900` on 64 nodes: Slurm's total, which per_node rounds up
  };

  StepTasks srun_tasks(const Site& site) const {
    StepCount tasks, per_node, nodes;
    const directives::Option* unread_tasks = nullptr;
    const directives::Option* unread_per_node = nullptr;
    for (const auto& option : site.srun->options) {
      const std::string_view name = option.name();
      if (name != "ntasks" && name != "ntasks-per-node" && name != "nodes") continue;
      const StepCount count = srun_count(site, option);
      const directives::Option* unread = count.unread ? &option : nullptr;
      if (name == "ntasks") {
        tasks = count;
        unread_tasks = unread;
      } else if (name == "ntasks-per-node") {
        per_node = count;
        unread_per_node = unread;
      } else {
        nodes = count;
      }
    }
    if (per_node.value) return {*per_node.value};
    if (tasks.value) {
      const uint64_t n = nodes.value.value_or(compute_.nodes);
      if (n == 0) return {*tasks.value, unread_per_node};
      return {(*tasks.value + n - 1) / n, unread_per_node,
              *tasks.value % n == 0 ? 0 : *tasks.value};
    }
    return {tasks_per_node(job_, compute_),
            unread_per_node != nullptr ? unread_per_node : unread_tasks};
  }

  uint64_t srun_tasks_per_node(const Site& site) const { return srun_tasks(site).per_node; }

  /// `srun -n 900` on 64 nodes: Slurm gave some nodes one task more than
  /// others; torchrun starts as many on every node, so the total grows.
  void report_uneven_tasks(const Site& site, uint64_t tasks_per_node) {
    const uint64_t total = srun_tasks(site).uneven_total;
    if (total == 0) return;
    const uint64_t nodes = compute_.nodes;
    report(Code::launcher_count_mismatch, site.view, site.command->span,
           "srun spread " + std::to_string(total) + " tasks over " + std::to_string(nodes) +
               " nodes, some with " + std::to_string(tasks_per_node - 1) + " and some with " +
               std::to_string(tasks_per_node) + "; torchrun starts " +
               std::to_string(tasks_per_node) + " on every node, " +
               std::to_string(tasks_per_node * nodes) +
               " in all, and each worker's SLURM_NTASKS/WORLD_SIZE says so",
           "use a task count that divides by the node count (--ntasks-per-node)");
  }

  /// An srun option as the user wrote it; one from a variable's value (srun
  /// $SRUN_ARGS) as parsed, each expansion in it shown as `...` (the parsed
  /// value has `$?` for it), with its origin: `--nodelist=... (from $SRUN_ARGS)`.
  std::string srun_option_as_written(const Site& site, const directives::Option& option) const {
    const std::string_view written = source(site.view, option.span);
    if (written.starts_with('-')) return std::string(written);
    std::string parsed = option.text();
    for (size_t at = parsed.find("$?"); at != std::string::npos; at = parsed.find("$?", at + 3)) {
      parsed.replace(at, 2, "...");
    }
    return parsed + " (from " + std::string(written) + ")";
  }

  /// A task count the translation cannot read decides how many processes
  /// each node starts: say which count stood in for it.
  void report_unread_task_count(const Site& site) {
    const StepTasks step = srun_tasks(site);
    if (step.unread == nullptr) return;
    const std::string per_node = std::to_string(step.per_node);
    report(Code::srun_task_count_unread, site.view, step.unread->span,
           "`" + srun_option_as_written(site, *step.unread) +
               "`: the translation cannot read this count from the script, so it cannot tell "
               "how many tasks the step started; it starts " +
               per_node + (step.per_node == 1 ? " process" : " processes") +
               " per node, as the step's other counts or the job's say",
           "set the variable in the script (for example the value its sourced config file "
           "gives), or write the count as a number, and convert again");
  }

  /// The node a one-node srun step ran on: `-N1`/`-n1` (the first node),
  /// `-w` naming node 0 or node K of the job's node list (`-w
  /// ${nodes[$i]}`), `-r N` (the N-th node of the job).
  std::optional<std::string> single_node_rank(const Site& site) const {
    bool one_node = false;
    std::optional<std::string> rank;
    for (const auto& option : site.srun->options) {
      if (!option.value) continue;
      if ((option.name() == "nodes" || option.name() == "ntasks") && *option.value == "1") {
        one_node = true;
      }
      if (option.name() == "relative" && is_digits(*option.value)) rank = *option.value;
      if (option.name() == "relative" && !rank) rank = loop_index(site, option.value_span);
      if (option.name() == "nodelist" && !rank) rank = named_node_rank(site, option.value_span);
    }
    if (rank) return rank;
    if (one_node) return loop_index(site, node_rank_value(site)).value_or("0");
    return std::nullopt;
  }

  /// The rank of the node a `-w` value names, when it is one the translation
  /// knows: node 0's address, or an element of the node list by a number or
  /// by a loop's variable (the Ray template's `-w "${nodes_array[$i]}"`,
  /// often through `node_i=${nodes_array[$i]}`).
  std::optional<std::string> named_node_rank(const Site& site, Span value) const {
    const ast::Word* word = word_at(site, value);
    if (word == nullptr) return std::nullopt;
    const ShellValue node = reader_for(site.view).word(*word);
    if (node.meaning == Meaning::node0_address) return "0";
    if (node.meaning != Meaning::node_at_index) return std::nullopt;
    if (is_digits(node.index)) return std::string(node.index);
    if (!site.context.in_loop || node.index.starts_with("SLURM_")) return std::nullopt;
    return "\"$" + std::string(node.index) + "\"";
  }

  /// A `-w` the node guard stands for: a node the translation knows, or the
  /// node of a per-node loop's iteration (`for node in $HOSTS; do srun -N1
  /// -w $node torchrun --node_rank=$RANK ...`). Any other is reported as
  /// dropped: the step now runs on node 0.
  bool is_translated_node_list(const Site& site, Span value) const {
    if (named_node_rank(site, value)) return true;
    const std::optional<std::string> rank = single_node_rank(site);
    return rank && rank->starts_with('"');
  }

  void report_per_node_loop(const Site& site, const std::string& rank) {
    if (!rank.starts_with('"')) return;  // a node number, not a loop's index
    const std::string index = rank.substr(1, rank.size() - 2);
    report(Code::per_node_loop, site.view, site.command->span,
           "the loop started this one-node step once per node, on node " + index +
               "; every AI Runtime node now runs the loop and starts the step only in the "
               "iteration where " +
               index + " is its NODE_RANK",
           "check that the loop counts the nodes from 0 in the order of the job's node list");
  }

  /// The value of a `--node_rank`/`--node-rank`/`--machine_rank` flag of the
  /// step's command (a launcher's, also inside a container or wrapper).
  Span node_rank_value(const Site& site) const {
    const auto& words = site.command->words;
    for (size_t i = site.srun_operand; i < words.size(); ++i) {
      const std::string_view written = source(site.view, words[i].span);
      for (std::string_view flag : {"--node_rank"sv, "--node-rank"sv, "--machine_rank"sv}) {
        if (!written.starts_with(flag)) continue;
        if (written.size() == flag.size() && i + 1 < words.size()) return words[i + 1].span;
        if (written.size() > flag.size() && written[flag.size()] == '=') {
          return Span{static_cast<uint32_t>(words[i].span.begin + flag.size() + 1),
                      words[i].span.end};
        }
      }
    }
    return {};
  }

  /// The per-node launch loop (`for i in ...; do srun -N1 -n1 -r $i ...
  /// --node_rank=$i ... & done`): in a loop, a one-node step's `-r $i` or
  /// its launcher's node rank `$i` says which node the iteration is for,
  /// as `"$i"`. Slurm's own rank variables are not a loop's index.
  std::optional<std::string> loop_index(const Site& site, Span value) const {
    if (!site.context.in_loop || value.empty()) return std::nullopt;
    std::string_view written = source(site.view, value);
    const std::optional<std::string_view> name = slurm::variable_of(written);
    if (!name || name->starts_with("SLURM_") || *name == "NODE_RANK") return std::nullopt;
    if (written.starts_with('"')) written = written.substr(1, written.size() - 2);
    return "\"" + std::string(written) + "\"";
  }

  /// One-node steps started in the background (`srun -n1 prog &`, several or
  /// in a loop) ran side by side, each where Slurm found free resources —
  /// often on different nodes. Kept on node 0 they share it: reported once.
  void report_steps_side_by_side(const Site& site) {
    if (side_by_side_reported_ || !is_unplaced_background_step(site)) return;
    std::vector<uint32_t> lines;
    for (const Site& other : body_.sites) {
      if (other.program == "srun"sv && other.srun && is_unplaced_background_step(other)) {
        lines.push_back(file_.line_col(file_span(other.view, other.command->span).begin).line);
      }
    }
    if (lines.size() < 2 && !site.context.in_loop) return;
    side_by_side_reported_ = true;
    std::string where;
    for (uint32_t line : lines) where += (where.empty() ? "" : ", ") + std::to_string(line);
    report(Code::steps_side_by_side, site.view, site.command->span,
           (site.context.in_loop && lines.size() == 1
                ? "one-node srun steps started in the background in a loop"
                : std::to_string(lines.size()) +
                      " one-node srun steps started in the background (lines " + where + ")") +
               " ran side by side, each where Slurm found free resources; here all of them run "
               "on node 0 and share its GPUs",
           "place each on a node of its own with `if [ \"$NODE_RANK\" = K ]; then ...; fi`, or "
           "give each its GPUs with CUDA_VISIBLE_DEVICES");
  }

  /// `srun -n1 prog &` with no node named (-w, -r): Slurm chose the node.
  bool is_unplaced_background_step(const Site& site) const {
    const bool background =
        site.context.background || (site.statement != nullptr && site.statement->background);
    if (!background || site.context.in_substitution) return false;
    const bool placed = std::any_of(
        site.srun->options.begin(), site.srun->options.end(), [](const directives::Option& option) {
          return option.name() == "relative" || option.name() == "nodelist";
        });
    return !placed && single_node_rank(site) == std::optional<std::string>("0");
  }

  const ast::Word* word_at(const Site& site, Span span) const {
    for (const ast::Word& word : site.command->words) {
      if (word.span.begin <= span.begin && span.end <= word.span.end) return &word;
    }
    return nullptr;
  }

  void report_dropped_srun_options(const Site& site) {
    std::string dropped;
    if (site.srun_unset_options < site.command->words.size()) {
      dropped = "`" +
                std::string(source(site.view, site.command->words[site.srun_unset_options].span)) +
                "` (set nowhere in the script: whatever srun options the submitting shell gave "
                "it)";
    }
    bool sets_variables = false;  // --export=ALL,NAME=value or a list of names
    for (const auto& option : site.srun->options) {
      const std::string_view name = option.name();
      if (contains({"label", "unbuffered", "kill-on-bad-exit", "exact", "overlap", "nodes",
                    "ntasks", "ntasks-per-node", "cpus-per-task", "gpus-per-node", "gres", "gpus",
                    "gpus-per-task", "mpi", "wait", "jobid", "distribution", "relative"},
                   name)) {
        continue;
      }
      if ((name == "cpu-bind" || name == "gpu-bind") && !binds_by_hand(site, option)) continue;
      if (name == "nodelist" && is_translated_node_list(site, option.value_span)) continue;
      // AI Runtime's command has the batch shell's variables, as ALL gave the step.
      if (name == "export" && option.value && ascii_upper(*option.value) == "ALL") continue;
      sets_variables = sets_variables || name == "export";
      if (!dropped.empty()) dropped += ", ";
      dropped += srun_option_as_written(site, option);
      if (name == "cpu-bind" || name == "gpu-bind") {
        dropped += " (each task was bound to the ";
        dropped += name == "cpu-bind" ? "CPUs" : "GPUs";
        dropped +=
            " listed for it, a layout of the cluster's nodes; AI Runtime's launcher places "
            "the processes)";
      }
    }
    if (dropped.empty()) return;
    report(Code::srun_options_dropped, site.view, site.command->span,
           "srun options with no AI Runtime equivalent are dropped: " + dropped,
           sets_variables ? "the step no longer gets what --export gave it: set those variables "
                            "(NAME=value) in front of the program, and check that it does not "
                            "depend on the other options"
                          : "check that the program does not depend on them");
  }

  /// `--cpu-bind=v,mask_cpu=$MASKS`, `--cpu-bind=map_ldom:0,1`,
  /// `--gpu-bind=map_gpu:0,1,2,3`: a placement of each task written for the
  /// cluster's node layout, which the processes AI Runtime's launcher starts
  /// no longer get. A policy (`cores`, `sockets`, `rank`, `closest`, `none`,
  /// `verbose`) names no CPU or GPU and is what a launcher decides for
  /// itself. A --gpu-bind of tasks torchrun now starts one per GPU is
  /// carried into their CUDA_VISIBLE_DEVICES or reported there (S2A4030).
  bool binds_by_hand(const Site& site, const directives::Option& option) const {
    if (!option.value) return false;
    // map_cpu:, mask_cpu:, map_ldom:, mask_ldom:; map_gpu:, mask_gpu:, map:,
    // mask: (also with a variable's list, which the value parser cannot read).
    const bool by_hand = ascii_contains_ignoring_case(*option.value, "map") ||
                         ascii_contains_ignoring_case(*option.value, "mask");
    return by_hand && (option.name() == "cpu-bind" || !starts_tasks_per_gpu(site));
  }

  /// `srun --gres=gpu:2` in a job with 8 GPUs a node: the step saw 2 of
  /// them, the command now sees every GPU of the node. (A job that itself
  /// asked for fewer GPUs than the node shape is S2A3004's.)
  void report_step_gpu_subset(const Site& site) {
    if (starts_tasks_per_gpu(site)) return;  // each task gets its GPU from torchrun
    uint64_t job_gpus = compute_.gpus_per_node;
    if (job_.gpus && job_.gpus->scope == slurm::GpuScope::per_node && job_.gpus->count > 0) {
      job_gpus = std::min(job_gpus, job_.gpus->count);
    }
    for (const auto& option : site.srun->options) {
      if (!option.value) continue;
      const std::optional<uint64_t> step_gpus = step_gpus_per_node(option);
      if (!step_gpus || *step_gpus == 0 || *step_gpus >= job_gpus) continue;
      report(Code::srun_options_dropped, site.view, site.command->span,
             "srun " + std::string(source(site.view, option.span)) + ": the step saw " +
                 std::to_string(*step_gpus) + " of the node's GPUs; the command now sees all " +
                 std::to_string(compute_.gpus_per_node),
             "if the program uses every GPU it sees, give it its share with CUDA_VISIBLE_DEVICES "
             "(e.g. CUDA_VISIBLE_DEVICES=" +
                 first_devices(*step_gpus) + ")");
      return;
    }
  }

  static std::optional<uint64_t> step_gpus_per_node(const directives::Option& option) {
    uint64_t count = 0;
    if (option.name() == "gres") {
      const auto entries = values::parse_gres(*option.value);
      if (!entries.value) return std::nullopt;
      for (const auto& entry : *entries.value) {
        if (entry.name == "gpu") count += entry.count;
      }
      return count;
    }
    if (option.name() == "gpus-per-node") {
      const auto counts = values::parse_gpu_counts(*option.value);
      if (!counts.value) return std::nullopt;
      for (const auto& entry : *counts.value) count += entry.count;
      return count;
    }
    return std::nullopt;
  }

  /// "0,1" for 2.
  static std::string first_devices(uint64_t count) {
    std::string out;
    for (uint64_t i = 0; i < count && i < 64; ++i) out += (i ? "," : "") + std::to_string(i);
    return out;
  }

  /// srun's --mpi plugin option for the step, unless `none`.
  static const directives::Option* mpi_plugin(const Site& site) {
    for (const auto& option : site.srun->options) {
      if (option.name() == "mpi" && option.value && *option.value != "none") return &option;
    }
    return nullptr;
  }

  void report_mpi_plugin(const Site& site) {
    if (compute_.nodes <= 1) return;  // one node: the ranks start with mpirun (start_mpi_ranks)
    if (const directives::Option* option = mpi_plugin(site)) {
      report(Code::mpi_launch_unsupported, site.view, site.command->span,
             "srun " + std::string(source(site.view, option->span)) +
                 " wires the tasks up as MPI ranks; AI Runtime has no MPI launcher across nodes",
             "initialise torch.distributed from RANK/WORLD_SIZE (or the SLURM_* variables the "
             "translation sets) instead of MPI_Init; MPI inside one node still works");
    }
  }

  void report_mpi_launcher(const Site& site) {
    if (compute_.nodes <= 1) {
      if (site.launcher.kind == Launcher::mpirun) count_ranks_of_single_node_mpi(site);
      return;
    }
    // mpirun and mpiexec are one launcher kind: name the one written.
    const std::string name =
        site.launcher.kind == Launcher::mpirun && !site.srun
            ? std::string(source(site.view, site.command->words[site.launcher.program_word].span))
            : std::string(slurm::launcher_name(site.launcher.kind));
    report(Code::mpi_launch_unsupported, site.view, site.command->span,
           "`" + name +
               "` starts ranks on other nodes through Slurm or ssh; AI Runtime has no "
               "MPI launcher across nodes",
           "start one process per GPU on every node with `torchrun --nnodes=$NUM_NODES "
           "--node_rank=$NODE_RANK --nproc_per_node=$LOCAL_WORLD_SIZE --master_addr=$MASTER_ADDR "
           "--master_port=$MASTER_PORT --no_python PROGRAM` and read RANK/LOCAL_RANK/WORLD_SIZE "
           "instead of OMPI_COMM_WORLD_*/PMI_*; or run on one node");
  }

  /// Inside a Slurm job, mpirun (Open MPI, Intel MPI) starts as many ranks
  /// as the job has tasks when it is given no count; outside one, Open MPI
  /// starts one per core and MPICH one. The job's count is written in.
  void count_ranks_of_single_node_mpi(const Site& site) {
    const auto& words = site.command->words;
    for (size_t i = site.launcher.program_word + 1; i < words.size(); ++i) {
      const std::string_view word = source(site.view, words[i].span);
      // `mpirun --version` starts nothing.
      if (word == "--version" || word == "-V" || word == "--help" || word == "-h") return;
      for (std::string_view flag :
           {"-np", "-n", "-c", "--np", "--n", "-N", "--npernode", "-npernode", "-ppn", "--hostfile",
            "-hostfile", "-f", "-machinefile", "--host", "-H", "-host"}) {
        if (word == flag || (word.starts_with(flag) && word.size() > flag.size() &&
                             (word[flag.size()] == '=' || flag.size() == 2))) {
          return;
        }
      }
    }
    const uint64_t ranks = job_.total_tasks().value_or(tasks_per_node(job_, compute_));
    const ast::Word& launcher = words[site.launcher.program_word];
    const std::string count = " -np " + std::to_string(ranks);
    edit(site.view, Span{launcher.span.end, launcher.span.end}, count,
         "the rank count Slurm gave mpirun");
    report(Code::mpi_rank_count_written, site.view, launcher.span,
           "`" + std::string(source(site.view, launcher.span)) +
               "` with no rank count started one rank per Slurm task (" + std::to_string(ranks) +
               "); outside Slurm Open MPI starts one per core and MPICH one, so `" +
               count.substr(1) + "` is written in",
           "check the count: one rank per GPU is usual for GPU programs");
  }

  /// The step's script for each torchrun worker: the shim's exports, then
  /// the script, quoted as the user quoted it. A double-quoted script stays
  /// double-quoted, so `${DIR}` and `$*` still take the batch shell's values
  /// (DIR=`pwd`, not exported, would be empty in the worker's own shell).
  std::string per_worker_script(const slurm::NestedScript& nested, const SlurmTaskEnv& env) {
    const slurm::TextView& view = body_.views[nested.view];
    const std::vector<Edit> edits = edits_[nested.view].edits();
    const std::string exports = "\n" + slurm_task_exports(env) + "\n";
    if (view.exact) {
      return single_quote(exports +
                          dedent(trim_continuations(apply_edits(view.text, view.window, edits))));
    }
    const auto whole = [](std::string_view text) {
      return Span{0, static_cast<uint32_t>(text.size())};
    };
    // `--rank $SLURM_PROCID` unescaped was the batch shell's 0 in every task
    // (the script's bug); it goes to the worker, whose shim sets it.
    std::vector<Span> batch_shell;
    for (const Span expansion : nested.outer_expansions) {
      const std::string_view written = view.text.substr(expansion.begin, expansion.size());
      if (!is_shim_variable(expanded_name(written))) batch_shell.push_back(expansion);
    }
    return "\"" + apply_edits_double_quoted(exports, whole(exports), {}, {}) +
           apply_edits_double_quoted(view.text, view.window, edits, batch_shell) + "\"";
  }

  /// NAME of an expansion written `$NAME` or `${NAME...}`; empty for others.
  static std::string_view expanded_name(std::string_view written) {
    if (!written.starts_with('$')) return {};
    written.remove_prefix(written.starts_with("${") ? 2 : 1);
    size_t end = 0;
    while (end < written.size() &&
           (std::isalnum(static_cast<unsigned char>(written[end])) != 0 || written[end] == '_')) {
      ++end;
    }
    return written.substr(0, end);
  }

  /// `srun bash -c 'SCRIPT'` becomes SCRIPT itself (rewritten), in braces
  /// when something around it (redirects, `&`, a pipeline) still applies.
  void unwrap_nested_script(const Site& site) {
    if (site.nested_script < 0 || is_replaced(site.view, site.command->span)) return;
    const slurm::NestedScript& nested = nested_of(site);
    const slurm::TextView& view = body_.views[nested.view];
    if (!site.srun) {
      requote_line_script(site, nested);
      return;
    }
    const auto& words = site.command->words;
    size_t script_word = 0;
    for (size_t i = 0; i < words.size(); ++i) {
      if (words[i].span == nested.word) script_word = i;
    }
    if (std::find(per_gpu_nested_.begin(), per_gpu_nested_.end(), &site) != per_gpu_nested_.end()) {
      // Each torchrun worker runs the script with the SLURM_* task variables set.
      const uint64_t tasks = srun_tasks_per_node(site);
      const SlurmTaskEnv env =
          task_env(site, tasks, step_gpu_binding(site, tasks), "\"$NUM_NODES\"");
      edit(site.view, words[script_word].span, per_worker_script(nested, env),
           "the srun step's script runs in every worker, with SLURM_* task variables");
      return;
    }
    std::string inner = dedent(
        trim_continuations(apply_edits(view.text, view.window, edits_[nested.view].edits())));
    if (script_word + 1 < words.size()) {
      report(Code::srun_options_dropped, site.view, words[script_word + 1].span,
             "arguments after the `bash -c` script are dropped",
             "use variables inside the script instead of positional parameters");
    }
    const std::optional<std::string> rank = site.srun ? single_node_rank(site) : std::nullopt;
    const std::string exports = container_exports(site, script_word);
    if (!exports.empty()) inner = "export " + exports + "\n" + inner;
    if (!site.command->assignments.empty()) {
      unwrap_nested_script_with_prefix(site, inner, rank);
      return;
    }
    const bool alone =
        site.statement != nullptr && !site.statement->background && site.command->redirects.empty();
    if (!exports.empty()) {
      end_line(inner);
      inner = "(\n" + inner + ")";
    } else if (!alone) {
      end_line(inner);
      inner = "{\n" + inner + "}";
    }
    if (rank && compute_.nodes > 1) {
      report_per_node_loop(site, *rank);
      end_line(inner);
      inner = "if [ \"$NODE_RANK\" = " + *rank + " ]; then\n" + inner + "fi";
    }
    if (alone && !inner.empty() && inner.back() == '\n') inner.pop_back();
    const Span span{words[0].span.begin, words.back().span.end};
    edit(site.view, span, inner, "the srun step's script runs directly on every node");
  }

  /// `srun docker run -e A=1 IMG bash -c 'SCRIPT'`: the container's variables
  /// were carried onto the command as `env A=1 ` in place of the call
  /// (setup.cpp), which the inlined script replaces; they are exported to it
  /// instead. "A=1" (the words after `env`), or empty when the step's words
  /// before its shell became nothing else.
  std::string container_exports(const Site& site, size_t script_word) {
    const auto& words = site.command->words;
    size_t shell = script_word;
    const size_t operand = site.srun_operand;
    while (shell > operand && !slurm::is_shell_program(slurm::program_name(words[shell]))) --shell;
    if (shell <= operand) return {};
    const std::string before = apply_edits(body_.views[site.view].text,
                                           Span{words[operand].span.begin, words[shell].span.begin},
                                           edits_[site.view].edits());
    constexpr std::string_view kBlanks = " \t\\\n";  // and line continuations
    const size_t first = before.find_first_not_of(kBlanks);
    if (first == std::string::npos || before.compare(first, 4, "env ") != 0) return {};
    const size_t begin = before.find_first_not_of(kBlanks, first + 4);
    const size_t end = before.find_last_not_of(kBlanks);
    if (begin == std::string::npos) return {};
    std::string items = before.substr(begin, end + 1 - begin);
    // `${X+"A=$X"}` may expand to nothing, and a bare `export` lists the
    // environment: only NAME=value words are exported, the rest reported.
    if (all_assignments(items)) return items;
    report(Code::container_option_dropped, site.view,
           Span{words[operand].span.begin, words[shell - 1].span.end},
           "the container's variables (`env " + items +
               "`) are not set in the step's script, which now runs inlined: some are passed "
               "only when set at run time, which an export of the script cannot say",
           "export the ones the script needs at its top (`export NAME=value`)");
    return {};
  }

  /// `A=1 "B=$X" 'C=d e'`: words that each begin with NAME=, quoted or not.
  static bool all_assignments(std::string_view words) {
    bool at_word = true;
    char quote = '\0';
    for (size_t i = 0; i < words.size(); ++i) {
      const char c = words[i];
      if (quote != '\0') {
        if (c == quote) quote = '\0';
      } else if (c == ' ' || c == '\t') {
        at_word = true;
        continue;
      }
      if (!at_word) {
        if (quote == '\0' && (c == '"' || c == '\'')) quote = c;
        continue;
      }
      at_word = false;
      size_t name = i + ((c == '"' || c == '\'') ? 1 : 0);
      if (name > i) quote = c;
      const size_t start = name;
      while (name < words.size() && is_variable_name_char(words[name])) ++name;
      if (name == start || name >= words.size() || words[name] != '=' ||
          std::isdigit(static_cast<unsigned char>(words[start])) != 0) {
        return false;
      }
      i = name;
    }
    return true;
  }

  /// `CUDA_VISIBLE_DEVICES=$i srun bash -c "$CMD"`: the assignments set the
  /// step's environment, so they move into a subshell that exports them to
  /// the inlined script (`A=1 { ...; }` is not shell). They stay in place,
  /// with any rewrite of their values; the subshell opens before them.
  void unwrap_nested_script_with_prefix(const Site& site, std::string inner,
                                        const std::optional<std::string>& rank) {
    const ast::Command& command = *site.command;
    std::string opening = "( export ";
    std::string closing = ")";
    if (rank && compute_.nodes > 1) {
      report_per_node_loop(site, *rank);
      opening = "if [ \"$NODE_RANK\" = " + *rank + " ]; then\n" + opening;
      closing += "\nfi";
    }
    end_line(inner);
    const uint32_t begin = command.assignments.front().span.begin;
    uint32_t words_begin = command.words.front().span.begin;
    const uint32_t assignments_end = command.assignments.back().span.end;
    if (source(site.view, Span{assignments_end, words_begin}).find_first_not_of(" \t") ==
        std::string_view::npos) {
      words_begin = assignments_end;  // no blank left at the end of the export line
    }
    edit(site.view, Span{begin, begin}, opening,
         "the step's assignments are exported to its script");
    edit(site.view, Span{words_begin, command.words.back().span.end}, "\n" + inner + closing,
         "the srun step's script runs directly on every node");
  }

  /// `}` and `fi` start their own line: a script may end in a comment.
  static void end_line(std::string& text) {
    if (!text.empty() && text.back() != '\n') text.push_back('\n');
  }

  /// A batch-script line's `bash -c 'SCRIPT'` keeps its shell (it runs once,
  /// where it ran): the rewritten SCRIPT goes back into the quotes it came in.
  void requote_line_script(const Site& site, const slurm::NestedScript& nested) {
    const std::vector<Edit> edits = edits_[nested.view].edits();
    if (edits.empty()) return;
    const slurm::TextView& view = body_.views[nested.view];
    const std::string script = view.exact
                                   ? single_quote(apply_edits(view.text, view.window, edits))
                                   : "\"" +
                                         apply_edits_double_quoted(view.text, view.window, edits,
                                                                   nested.outer_expansions) +
                                         "\"";
    edit(site.view, nested.word, script, "the `bash -c` script, rewritten");
  }

  // --- launchers --------------------------------------------------------------

  std::vector<LauncherOption> launcher_options(const Site& site) const {
    std::vector<LauncherOption> out;
    const auto& words = site.command->words;
    for (size_t i = site.launcher.first_argument; i < words.size(); ++i) {
      const std::string_view written = source(site.view, words[i].span);
      if (written.size() < 2 || written[0] != '-') break;  // the training script
      if (written == "--") break;
      const size_t dashes = written.rfind("--", 0) == 0 ? 2 : 1;
      const size_t eq = written.find('=');
      std::string name(written.substr(
          dashes, eq == std::string_view::npos ? std::string_view::npos : eq - dashes));
      std::replace(name.begin(), name.end(), '-', '_');
      LauncherOption option{name, i, i, words[i].span, {}};
      if (eq != std::string_view::npos) {
        option.value_span =
            Span{static_cast<uint32_t>(words[i].span.begin + eq + 1), words[i].span.end};
      } else if (!is_valueless_flag(site.launcher.kind, name) && i + 1 < words.size()) {
        ++i;
        option.value_word = i;
        option.value_span = words[i].span;
        option.span.end = words[i].span.end;
      }
      out.push_back(option);
    }
    return out;
  }

  /// The value of an option in the batch shell's terms.
  /// Reads words of `view` in the batch shell's terms: a script rebuilt
  /// from a double-quoted word reads variables where that word is.
  ValueReader reader_for(uint32_t view) const {
    const slurm::TextView& text = body_.views[view];
    if (text.exact) return ValueReader(variables_, compute_);
    return ValueReader(variables_, compute_, text.fallback.begin);
  }

  ShellValue option_value(const Site& site, const LauncherOption& option) const {
    return value_in_word(site, site.command->words[option.value_word], option.value_span);
  }

  /// The value `value` spans in `word`: the whole word, or what follows the
  /// `=` of `--name=value`.
  ShellValue value_in_word(const Site& site, const ast::Word& word, Span value) const {
    const ValueReader reader = reader_for(site.view);
    if (value.begin <= word.span.begin) return reader.word(word);
    std::vector<ast::WordPart> rest;
    for (const ast::WordPart& part : word.parts) {
      if (part.span.end <= value.begin) continue;
      ast::WordPart copy = part;
      if (part.kind == ast::PartKind::literal && part.span.begin < value.begin) {
        const size_t eq = copy.text.find('=');
        copy.text = eq == std::string::npos ? copy.text : copy.text.substr(eq + 1);
      }
      rest.push_back(copy);
    }
    return reader.parts(rest);
  }

  bool is_literal_local_host(const Site& site, const LauncherOption& option) const {
    const std::string_view v = source(site.view, option.value_span);
    return v == "localhost" || v == "127.0.0.1" || v.rfind("localhost:", 0) == 0 ||
           v.rfind("127.0.0.1:", 0) == 0;
  }

  /// Rewrites an option's value; `reason` is logged for `explain`.
  void set_value(const Site& site, const LauncherOption& option, const std::string& value,
                 const std::string& reason) {
    if (option.value_span.empty() || is_replaced(site.view, option.value_span)) return;
    replace(site.view, option.value_span, value, reason);
  }

  /// A node-count flag: right when it says the workload's node count.
  void map_node_count(const Site& site, const LauncherOption& option, bool force) {
    const ShellValue value = option_value(site, option);
    const std::string n = std::to_string(compute_.nodes);
    const std::string_view written = source(site.view, option.value_span);
    if (force || value.meaning == Meaning::node_count || value.number == compute_.nodes) {
      set_value(site, option, "\"$NUM_NODES\"", "AI Runtime sets NUM_NODES");
    } else if (written.find(':') != std::string_view::npos) {
      set_value(site, option, "\"$NUM_NODES\"", "AI Runtime runs a fixed number of nodes");
      report(Code::launcher_count_mismatch, site.view, option.value_span,
             "the elastic node range " + std::string(written) + " becomes the workload's " + n +
                 " node(s)",
             "AI Runtime does not add or remove nodes during a run; choose the node count in "
             "compute.num_accelerators");
    } else {
      report(Code::launcher_count_mismatch, site.view, option.value_span,
             "--" + option.name + "=" + std::string(written) + " but the workload runs " + n +
                 " node(s)",
             "use --" + option.name + "=\"$NUM_NODES\"");
    }
  }

  /// A processes-per-node flag: right when it is one per GPU of the node.
  void map_procs_per_node(const Site& site, const LauncherOption& option) {
    const ShellValue value = option_value(site, option);
    const std::string_view written = source(site.view, option.value_span);
    const std::string gpus = std::to_string(compute_.gpus_per_node);
    // torchrun counts the GPUs itself, or the script did (`nvidia-smi -L | wc -l`).
    if (written == "gpu" || written == "auto" || value.meaning == Meaning::counted_gpus) {
      keep_counted_gpus(site, option);
      return;
    }
    if (value.meaning == Meaning::gpus_per_node) {
      set_value(site, option, "\"$LOCAL_WORLD_SIZE\"", "one process per GPU of the node");
    } else if (value.number == compute_.gpus_per_node) {
      set_value(site, option, "\"${LOCAL_WORLD_SIZE:-" + gpus + "}\"",
                "one process per GPU of the node");
    } else {
      report(Code::launcher_count_mismatch, site.view, option.value_span,
             "--" + option.name + "=" +
                 (value.number ? std::to_string(*value.number) : std::string(written)) +
                 " but each node has " + gpus + " GPU(s)",
             "use --" + option.name + "=\"$LOCAL_WORLD_SIZE\" to use every GPU");
    }
  }

  /// Under Slurm a launcher that counts the GPUs (`--nproc_per_node=gpu`)
  /// saw the job's; a narrower request now runs on a wider node, where it
  /// would start a process per GPU of the node: it keeps the job's count.
  void keep_counted_gpus(const Site& site, const LauncherOption& option) {
    const uint32_t job_gpus = compute_.narrower_gpus_per_node;
    if (job_gpus == 0) return;
    set_value(site, option, std::to_string(job_gpus),
              "the GPUs it counted under Slurm: the job's " + std::to_string(job_gpus));
    report(Code::launcher_count_mismatch, site.view, option.value_span,
           "--" + option.name + "=" + std::string(source(site.view, option.value_span)) +
               " counted the job's " + std::to_string(job_gpus) + " GPU(s) under Slurm; the " +
               compute_.accelerator_type + " node has " + std::to_string(compute_.gpus_per_node) +
               ", so the count is written out",
           "use --" + option.name +
               "=\"$LOCAL_WORLD_SIZE\" to use every GPU (check the batch "
               "size and learning rate)");
  }

  void map_node_rank(const Site& site, const LauncherOption& option) {
    if (compute_.nodes <= 1) return;
    const ShellValue value = option_value(site, option);
    if (value.meaning == Meaning::batch_rank && site.view == 0 && site.context.in_srun == false &&
        site.program == "srun"sv) {
      report(Code::batch_rank_fixed, site.view, option.value_span,
             "under Slurm `" + std::string(source(site.view, option.value_span)) +
                 "` was expanded once in the batch shell, so every node got rank 0; the "
                 "translation uses each node's $NODE_RANK",
             "");
    }
    set_value(site, option, "\"$NODE_RANK\"", "each node's rank comes from AI Runtime's NODE_RANK");
  }

  void map_master_addr(const Site& site, const LauncherOption& option) {
    if (is_literal_local_host(site, option) && compute_.nodes <= 1) return;
    const ShellValue value = option_value(site, option);
    set_value(site, option, "\"$MASTER_ADDR\"", "AI Runtime sets MASTER_ADDR to node 0");
    if (value.meaning != Meaning::node0_address && compute_.nodes > 1) {
      report(Code::launch_value_replaced, site.view, option.value_span,
             "`" + std::string(source(site.view, option.value_span)) +
                 "` is not recognized as node 0's address; it becomes $MASTER_ADDR",
             "the rendezvous host must be node 0 on AI Runtime");
    }
  }

  void map_master_port(const Site& site, const LauncherOption& option) {
    set_value(site, option, "\"$MASTER_PORT\"", "AI Runtime sets MASTER_PORT");
  }

  void map_rendezvous_id(const Site& site, const LauncherOption& option) {
    const std::string_view written = source(site.view, option.value_span);
    const ShellValue value = option_value(site, option);
    const bool per_job = written.find("SLURM_JOB") != std::string_view::npos ||
                         value.meaning == Meaning::job_id || value.meaning == Meaning::random;
    if (!per_job) return;
    set_value(site, option, "\"$MLFLOW_RUN_ID\"", "the MLflow run id names this run on every node");
    report(Code::launch_value_replaced, site.view, option.value_span,
           "the rendezvous id `" + std::string(written) +
               "` becomes $MLFLOW_RUN_ID, the same "
               "on every node of the run",
           value.meaning == Meaning::random
               ? "a random id was drawn once under Slurm; on AI Runtime each node would draw "
                 "its own and the nodes would never meet"
               : "");
  }

  /// Inserts flags a multi-node launch needs but the line does not give.
  void insert_missing(const Site& site, const std::vector<std::string>& flags) {
    if (flags.empty() || site.launcher.first_argument >= site.command->words.size()) return;
    std::string text, names;
    for (const std::string& flag : flags) {
      text += flag + " ";
      if (!names.empty()) names += " ";
      names += flag;
    }
    const uint32_t at = site.command->words[site.launcher.first_argument].span.begin;
    edit(site.view, Span{at, at}, text, "flags a launcher needs on every node of AI Runtime");
    report(Code::launch_flags_added, site.view,
           site.command->words[site.launcher.program_word].span,
           "the launcher now runs on every node; added " + names, "");
  }

  static bool has(const std::vector<LauncherOption>& options,
                  std::initializer_list<std::string_view> names) {
    return std::any_of(options.begin(), options.end(),
                       [&](const LauncherOption& o) { return contains(names, o.name); });
  }

  void report_outside_srun(const Site& site) {
    if (compute_.nodes > 1 && !site.context.in_srun && site.program != "srun"sv) {
      report(Code::launch_outside_srun, site.view, site.command->span,
             "under Slurm this launcher ran on the first node only; on AI Runtime it runs on "
             "every node and trains across all " +
                 std::to_string(compute_.nodes) + " nodes",
             "check that the launcher's node count and rank come from NUM_NODES and NODE_RANK");
    }
  }

  /// `torchrun --nnodes=1` (accelerate --num_machines 1) outside srun in a
  /// multi-node job: under Slurm it ran on the first node and trained there
  /// alone. It stays that one-node launch, on node 0; run on every node with
  /// a rendezvous added, each node would claim a rank of a one-node world.
  bool keep_one_node_launch(const Site& site, const std::vector<LauncherOption>& options,
                            std::string_view node_count) {
    if (compute_.nodes <= 1 || site.context.in_srun || site.program == "srun"sv) return false;
    const auto count = std::find_if(options.begin(), options.end(),
                                    [&](const LauncherOption& o) { return o.name == node_count; });
    if (count == options.end() || option_value(site, *count).number != 1U || !can_guard(site)) {
      return false;
    }
    guard_on_node_zero(site, "a one-node launch ran on the first node under Slurm");
    const std::string idle = std::to_string(compute_.nodes - 1);
    report(Code::launch_outside_srun, site.view, site.command->span,
           "under Slurm this launcher ran on the first node only, and --" + count->name + "=" +
               std::string(source(site.view, count->value_span)) +
               " trained there alone; it now runs on node 0 only and the other " + idle +
               " node(s) idle",
           "request one node (#SBATCH --nodes=1) for this launch, or give --" + count->name +
               "=\"$NUM_NODES\" to train across all " + std::to_string(compute_.nodes));
    return true;
  }

  /// The whole statement (`a && b`), without its `;` or newline.
  void guard_on_node_zero(const Site& site, const std::string& reason) {
    const Span span = site.statement->command.span;
    edit(site.view, Span{span.begin, span.begin}, "if [ \"$NODE_RANK\" = 0 ]; then ", reason);
    edit(site.view, Span{span.end, span.end}, "; fi", "end of the node-0 guard");
  }

  void map_torch_launcher(const Site& site) {
    const bool multi_node = compute_.nodes > 1;
    const auto options = launcher_options(site);
    if (keep_one_node_launch(site, options, "nnodes")) return;
    report_outside_srun(site);
    const bool standalone = has(options, {"standalone"});
    for (const LauncherOption& option : options) {
      const std::string& name = option.name;
      if (name == "standalone" && multi_node) {
        replace(site.view, option.span,
                std::string(has(options, {"nnodes"}) ? "" : "--nnodes=\"$NUM_NODES\" ") +
                    "--node_rank=\"$NODE_RANK\" --master_addr=\"$MASTER_ADDR\" "
                    "--master_port=\"$MASTER_PORT\"",
                "a multi-node workload needs a rendezvous on node 0, not --standalone");
        report(Code::launch_flags_added, site.view, option.span,
               "--standalone runs one node; the workload has " + std::to_string(compute_.nodes) +
                   " nodes, so it becomes a rendezvous on node 0",
               "");
      } else if (name == "nnodes") {
        map_node_count(site, option, standalone && multi_node);
      } else if (name == "node_rank") {
        map_node_rank(site, option);
      } else if (name == "nproc_per_node") {
        map_procs_per_node(site, option);
      } else if (name == "master_addr") {
        map_master_addr(site, option);
      } else if (name == "master_port") {
        map_master_port(site, option);
      } else if (name == "rdzv_endpoint" && (multi_node || !is_literal_local_host(site, option))) {
        set_value(site, option, "\"$MASTER_ADDR:$MASTER_PORT\"", "the rendezvous runs on node 0");
      } else if (name == "rdzv_id") {
        map_rendezvous_id(site, option);
      }
    }
    const std::vector<HeldOption> in_variables = held_options(site);
    report_held_options(site, in_variables);
    if (!multi_node || standalone || held(in_variables, "standalone")) return;
    // Given on the line or in a variable the line expands.
    auto given = [&](std::string_view name) {
      return has(options, {name}) || held(in_variables, name);
    };
    std::vector<std::string> missing;
    const bool dynamic = given("rdzv_endpoint");
    if (!given("nnodes")) missing.push_back("--nnodes=\"$NUM_NODES\"");
    if (!dynamic && !given("node_rank")) missing.push_back("--node_rank=\"$NODE_RANK\"");
    if (!dynamic && !given("master_addr")) missing.push_back("--master_addr=\"$MASTER_ADDR\"");
    if (!dynamic && !given("master_port")) missing.push_back("--master_port=\"$MASTER_PORT\"");
    insert_missing(site, missing);
  }

  void map_accelerate(const Site& site) {
    const bool multi_node = compute_.nodes > 1;
    const auto options = launcher_options(site);
    if (keep_one_node_launch(site, options, "num_machines")) return;
    report_outside_srun(site);
    for (const LauncherOption& option : options) {
      const std::string& name = option.name;
      if (name == "num_machines") {
        map_node_count(site, option, false);
      } else if (name == "machine_rank") {
        map_node_rank(site, option);
      } else if (name == "main_process_ip") {
        map_master_addr(site, option);
      } else if (name == "main_process_port") {
        map_master_port(site, option);
      } else if (name == "num_processes") {
        map_total_processes(site, option);
      } else if (name == "rdzv_endpoint") {
        set_value(site, option, "\"$MASTER_ADDR:$MASTER_PORT\"", "the rendezvous runs on node 0");
      }
    }
    report_accelerate_default_config(site, options);
    // Without a count accelerate starts a process per GPU it sees: on a
    // node wider than the job's request, the job's count is written out.
    const uint32_t job_gpus = compute_.narrower_gpus_per_node;
    const std::vector<HeldOption> in_variables = held_options(site);
    const auto given = [&](std::string_view name) {
      return has(options, {name}) || held(in_variables, name);
    };
    const bool counts_gpus = !given("num_processes") && !given("config_file");
    const std::string total =
        job_gpus != 0 ? std::to_string(job_gpus * compute_.nodes) : std::string("\"$WORLD_SIZE\"");
    if (!multi_node) {
      if (counts_gpus && job_gpus != 0) insert_missing(site, {"--num_processes=" + total});
      return;
    }
    std::vector<std::string> missing;
    if (counts_gpus) missing.push_back("--num_processes=" + total);
    if (!has(options, {"num_machines"})) missing.push_back("--num_machines=\"$NUM_NODES\"");
    if (!has(options, {"machine_rank"})) missing.push_back("--machine_rank=\"$NODE_RANK\"");
    if (!has(options, {"main_process_ip"})) {
      missing.push_back("--main_process_ip=\"$MASTER_ADDR\"");
    }
    if (!has(options, {"main_process_port"})) {
      missing.push_back("--main_process_port=\"$MASTER_PORT\"");
    }
    insert_missing(site, missing);
  }

  /// Without --config_file, accelerate reads the config `accelerate config`
  /// saved in the user's cluster home (~/.cache/huggingface/accelerate):
  /// mixed precision, DeepSpeed or FSDP, process counts. An AI Runtime node
  /// has none, so accelerate's defaults apply. Once per script.
  void report_accelerate_default_config(const Site& site,
                                        const std::vector<LauncherOption>& options) {
    if (accelerate_config_reported_ || has(options, {"config_file"})) return;
    if (held(held_options(site), "config_file")) return;
    accelerate_config_reported_ = true;
    report(Code::accelerate_default_config, site.view, site.command->words[0].span,
           "`accelerate launch` without --config_file reads the settings `accelerate config` "
           "saved in the cluster home (~/.cache/huggingface/accelerate/default_config.yaml: "
           "mixed precision, DeepSpeed or FSDP, process counts); AI Runtime nodes have none, so "
           "accelerate's defaults apply",
           "copy that file into the code root and pass --config_file default_config.yaml");
  }

  /// The devices a literal `CUDA_VISIBLE_DEVICES=0,1,2 program` in front of
  /// the command lists; 0 without one.
  uint64_t own_visible_devices(const Site& site) const {
    for (const ast::Assignment& a : site.command->assignments) {
      if (a.name != "CUDA_VISIBLE_DEVICES"sv) continue;
      const auto list = slurm::literal_value(a.value);
      if (!list || list->empty()) return 0;
      return static_cast<uint64_t>(std::count(list->begin(), list->end(), ',')) + 1;
    }
    return 0;
  }

  /// accelerate's --num_processes counts processes over ALL machines.
  void map_total_processes(const Site& site, const LauncherOption& option) {
    const ShellValue value = option_value(site, option);
    const uint64_t total = compute_.nodes * compute_.gpus_per_node;
    if (value.number == total || value.meaning == Meaning::total_gpus) {
      set_value(site, option, "\"$WORLD_SIZE\"", "WORLD_SIZE is the total GPU count");
      return;
    }
    // trl's `CUDA_VISIBLE_DEVICES=1,...,7 accelerate launch --num_processes=7`
    // beside a vLLM server on GPU 0: the count is the GPUs the line chose.
    if (value.number && *value.number == compute_.nodes * own_visible_devices(site)) return;
    report(Code::launcher_count_mismatch, site.view, option.value_span,
           "--num_processes=" +
               (value.number ? std::to_string(*value.number)
                             : std::string(source(site.view, option.value_span))) +
               " but the workload has " + std::to_string(total) + " GPU(s) in total",
           "--num_processes counts every machine's processes: use --num_processes=\"$WORLD_SIZE\"");
  }

  void map_deepspeed(const Site& site) {
    const bool multi_node = compute_.nodes > 1;
    const auto options = launcher_options(site);
    for (const LauncherOption& option : options) {
      const std::string& name = option.name;
      if (name == "num_nodes") {
        map_node_count(site, option, false);
      } else if (name == "num_gpus") {
        map_procs_per_node(site, option);
      } else if (name == "node_rank") {
        map_node_rank(site, option);
      } else if (name == "master_addr") {
        map_master_addr(site, option);
      } else if (name == "master_port") {
        map_master_port(site, option);
      } else if ((name == "launcher" || name == "launcher_args") && multi_node) {
        replace(site.view, option.span, "",
                "with --no_ssh deepspeed starts the local ranks itself");
        report(Code::srun_options_dropped, site.view, option.span,
               "`" + std::string(source(site.view, option.span)) +
                   "` is dropped: on AI Runtime deepspeed runs on every node with --no_ssh",
               "");
      } else if (name == "include" || name == "exclude") {
        report(Code::launcher_count_mismatch, site.view, option.span,
               "--" + name + " picks hosts or GPUs by name, which AI Runtime does not have",
               "drop it, or select GPUs with CUDA_VISIBLE_DEVICES");
      }
    }
    if (!multi_node) return;
    // DeepSpeed's runner (deepspeed/launcher/runner.py, --no_ssh since v0.14.5)
    // still reads the hostfile to count nodes and slots: without one it runs
    // on localhost only, forces --master_addr to 127.0.0.1 and fails its
    // `0 <= node_rank < len(hosts)` check on every node but node 0. With no
    // --master_addr it would ssh to the first host to ask for its address.
    const bool hostfile = has(options, {"hostfile", "H"});
    std::vector<std::string> missing;
    if (!has(options, {"no_ssh"})) missing.push_back("--no_ssh");
    if (!has(options, {"node_rank"})) missing.push_back("--node_rank=\"$NODE_RANK\"");
    if (!hostfile) missing.push_back("--hostfile=" + deepspeed_hostfile_value());
    if (!has(options, {"master_addr"})) missing.push_back("--master_addr=\"$MASTER_ADDR\"");
    if (!has(options, {"master_port"})) missing.push_back("--master_port=\"$MASTER_PORT\"");
    insert_missing(site, missing);
    report(Code::deepspeed_per_node, site.view, site.command->span,
           hostfile ? "deepspeed now runs once on every node with --no_ssh and this node's "
                      "--node_rank; it reads the number of nodes and GPUs from the hostfile"
                    : "deepspeed now runs once on every node with --no_ssh and this node's "
                      "--node_rank; a hostfile with one `node-K slots=$LOCAL_WORLD_SIZE` line "
                      "per node is written to /tmp/slurm2air.hostfile for it",
           hostfile ? "the hostfile must list one `NAME slots=N` line per node, N the node's "
                      "GPUs; with --no_ssh the names are not contacted. --no_ssh needs "
                      "DeepSpeed 0.14.5 or later"
                    : "--no_ssh needs DeepSpeed 0.14.5 or later");
  }

  // --- Slurm variables --------------------------------------------------------

  void rewrite_variables(const Site& site) {
    const ast::Command& command = *site.command;
    if (!writes_slurm(site)) {  // most commands: only a here-document may hold one
      for (const auto& redirect : command.redirects) rewrite_heredoc(site, redirect);
      return;
    }
    for (const ast::Word& word : command.words) rewrite_parts(site, word.parts);
    if (site.program == "let"sv) {
      for (size_t i = 1; i < command.words.size(); ++i) {
        rewrite_arithmetic_variables(site, command.words[i].span, true);
      }
    }
    for (const auto& a : command.assignments) {
      rewrite_parts(site, a.value.parts);
      for (const ast::Word& element : a.elements) rewrite_parts(site, element.parts);
    }
    for (const auto& redirect : command.redirects) {
      rewrite_parts(site, redirect.target.parts);
      rewrite_heredoc(site, redirect);
    }
  }

  /// Whether `SLURM` is written in the command's words, assignments or
  /// redirection targets. Every name the rewrites below rename or report is
  /// written there whole (a part lies inside its word), so a command without
  /// it (most) is passed over without walking its parts.
  /// Whether `text` has `SLURM` in it, looked for from its U: a script's
  /// text has far fewer U's than S's.
  /// PBS names Slurm's spank_pbs plugin sets are looked for too, in the
  /// scripts that have `PBS_` at all (a few in a thousand).
  bool holds_slurm(std::string_view text) const {
    return contains_around(text, "SLURM", 2) || (writes_pbs_ && contains_around(text, "PBS_", 1));
  }

  bool writes_slurm(const Site& site) const {
    const ast::Command& command = *site.command;
    uint32_t begin = UINT32_MAX;
    uint32_t end = 0;
    const auto cover = [&](Span span) {
      begin = std::min(begin, span.begin);
      end = std::max(end, span.end);
    };
    for (const ast::Word& word : command.words) cover(word.span);
    for (const ast::Assignment& a : command.assignments) cover(a.span);
    for (const ast::Redirect& redirect : command.redirects) cover(redirect.target.span);
    return begin < end && holds_slurm(source(site.view, Span{begin, end}));
  }

  /// `[[ $SLURM_NODEID == 0 ]]`, `case $SLURM_PROCID in`, `for i in $X`,
  /// `(( n = SLURM_NNODES * 8 ))`, `for (( i = 0; i < $SLURM_NTASKS; i++ ))`,
  /// `done > log_$SLURM_JOB_ID`.
  void rewrite_compound_head(const Site& head) {
    const ast::Command& command = *head.command;
    for (const ast::Word& word : command.words) rewrite_parts(head, word.parts);
    for (const ast::Redirect& redirect : command.redirects) {
      rewrite_parts(head, redirect.target.parts);
      rewrite_heredoc(head, redirect);
    }
    if (command.text.empty()) return;
    // Command::text is the expression after `((` (arith_for starts with `for`).
    const std::string_view written = source(head.view, command.span);
    const size_t open = written.find("((");
    if (open == std::string_view::npos) return;
    const auto begin = static_cast<uint32_t>(command.span.begin + open + 2);
    rewrite_arithmetic_variables(
        head, Span{begin, static_cast<uint32_t>(begin + command.text.size())}, false);
  }

  /// `deferred`: whether text another shell expands later (`\$NAME`) is
  /// this job's to rename.
  void rewrite_parts(const Site& site, const std::vector<ast::WordPart>& parts,
                     bool deferred = true) {
    for (const ast::WordPart& part : parts) {
      if (is_replaced(site.view, part.span) || is_replaced_in_nested_script(site, part.span)) {
        continue;
      }
      if (part.kind == ast::PartKind::param) {
        rewrite_variable(site, part);
        rewrite_subscript_variables(site, part);
      }
      if (deferred &&
          (part.kind == ast::PartKind::literal || part.kind == ast::PartKind::single_quoted)) {
        rewrite_deferred_variables(site, part);
      }
      // The parser keeps arithmetic as text: its `$NAME`s are no param parts.
      if (part.kind == ast::PartKind::arith) rewrite_arithmetic_variables(site, part.span, false);
      rewrite_parts(site, part.parts, deferred);
    }
  }

  /// A here-document's body: its `\$SLURM_NTASKS` is expanded by whatever
  /// runs the file it writes, which is another job when the body has
  /// `#SBATCH` lines of its own (submitted with sbatch, reported there).
  void rewrite_heredoc(const Site& site, const ast::Redirect& redirect) {
    const std::string_view body = source(site.view, redirect.heredoc_body);
    // Its parts lie in the body: without `SLURM` there is nothing to rename.
    if (!holds_slurm(body)) return;
    const bool job_script =
        body.starts_with("#SBATCH") || body.find("\n#SBATCH") != std::string_view::npos;
    rewrite_parts(site, redirect.heredoc_parts, !job_script);
  }

  /// `\$SLURM_NODEID` in a double-quoted `bash -c "..."`, or `$SLURM_NODEID`
  /// in the single-quoted pieces of a script that could not be parsed again:
  /// text another shell expands later, on each node. Names are renamed in place.
  void rewrite_deferred_variables(const Site& site, const ast::WordPart& part) {
    if (!body_.views[site.view].exact) return;
    // A script parsed again is rewritten, and reported, as a nested script.
    if (site.nested_script >= 0) return;
    const bool quoted = part.kind == ast::PartKind::single_quoted;
    if (quoted && site.program != "srun"sv && !slurm::is_shell_program(site.program)) return;
    const std::string_view text = source(site.view, part.span);
    for (size_t at = text.find('$'); at != std::string_view::npos; at = text.find('$', at + 1)) {
      if (!quoted && (at == 0 || text[at - 1] != '\\')) continue;
      size_t begin = at + 1;
      if (begin < text.size() && text[begin] == '{') ++begin;
      rename_slurm_name_at(site, part.span.begin, text, begin, false);
    }
  }

  /// `$((SLURM_NNODES * 8))`, `$(($SLURM_NNODES * 8))`: arithmetic names
  /// variables with or without `$`. In a `let` word (`let "n = SLURM_NNODES"`)
  /// a `$NAME` is a param part, renamed already: `dollar_names_are_parts`.
  void rewrite_arithmetic_variables(const Site& site, Span expression,
                                    bool dollar_names_are_parts) {
    const std::string_view text = source(site.view, expression);
    for (size_t at = text.find("SLURM"); at != std::string_view::npos;
         at = text.find("SLURM", at + 1)) {
      const char before = at == 0 ? ' ' : text[at - 1];
      if (std::isalnum(static_cast<unsigned char>(before)) || before == '_') continue;
      if (dollar_names_are_parts && (before == '$' || before == '{')) continue;
      rename_slurm_name_at(site, expression.begin, text, at, true);
    }
  }

  /// `${lrs[$SLURM_ARRAY_TASK_ID]}`, `${seeds[SLURM_PROCID]}`: an indexed
  /// array's subscript is arithmetic, which the parser keeps as text.
  void rewrite_subscript_variables(const Site& site, const ast::WordPart& param) {
    if (param.inner.size() <= param.text.size()) return;  // $NAME, ${NAME}
    const std::string_view inner = source(site.view, param.inner);
    const std::optional<std::string_view> subscript = slurm::subscript_of(inner);
    if (!subscript) return;
    const auto begin =
        static_cast<uint32_t>(param.inner.begin + (subscript->data() - inner.data()));
    rewrite_arithmetic_variables(
        site, Span{begin, static_cast<uint32_t>(begin + subscript->size())}, false);
  }

  /// Renames (or reports) the Slurm variable whose name starts at text[begin].
  /// In arithmetic a number can stand in the name's place.
  void rename_slurm_name_at(const Site& site, uint32_t base, std::string_view text, size_t begin,
                            bool arithmetic) {
    {
      size_t end = begin;
      while (end < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
        ++end;
      }
      if (text.substr(begin, end - begin).rfind("SLURM", 0) != 0) return;
      const std::string name(text.substr(begin, end - begin));
      if (is_shim_provided(site, name)) return;
      const Span name_span{static_cast<uint32_t>(base + begin), static_cast<uint32_t>(base + end)};
      if (is_own_value(site.view, name, name_span.begin)) return;
      if (is_replaced(site.view, name_span)) return;
      const VariableRule rule = rule_for(name, job_, compute_, job_name_);
      if (rule.action == VariableAction::rename) {
        edit(site.view, name_span, rule.replacement, rule.reason);
        if (!rule.exact) {
          report(Code::slurm_variable_approximated, site.view, name_span,
                 "$" + name + " becomes $" + rule.replacement + ": " + rule.reason, rule.hint);
        }
      } else if (rule.action == VariableAction::literal && arithmetic &&
                 is_digits(rule.replacement)) {
        // `$NAME` and `${NAME}` go whole: `$4` would be a positional parameter.
        Span written = name_span;
        if (begin >= 1 && text[begin - 1] == '$') {
          written.begin -= 1;
        } else if (begin >= 2 && text[begin - 1] == '{' && text[begin - 2] == '$' &&
                   end < text.size() && text[end] == '}') {
          written = Span{name_span.begin - 2, name_span.end + 1};
        }
        edit(site.view, written, rule.replacement, rule.reason);
        report(Code::slurm_variable_approximated, site.view, name_span,
               name + " becomes " + rule.replacement + ": " + rule.reason, rule.hint);
      } else if (rule.action == VariableAction::literal) {
        // Text a script writes (a heredoc, an escaped \$NAME): the value
        // cannot be put in the name's place here.
        report(Code::slurm_variable_unmapped, site.view, name_span,
               "$" + name + " is not set on AI Runtime; for this job it is " + rule.replacement +
                   " (" + rule.reason + ")",
               "write " + rule.replacement + " in its place");
      } else if (rule.action != VariableAction::keep) {
        report(Code::slurm_variable_unmapped, site.view, name_span, "$" + name + " " + rule.reason,
               rule.hint);
      }
    }
  }

  bool is_shim_provided(const Site& site, std::string_view name) const {
    return is_shim_variable(name) &&
           std::find(shim_views_.begin(), shim_views_.end(), site.view) != shim_views_.end();
  }

  void rewrite_variable(const Site& site, const ast::WordPart& part) {
    // rule_for() keeps every name that is not SLURM* or PBS_*: most parameters.
    const bool pbs = part.text.starts_with("PBS_");
    if (!pbs && !part.text.starts_with("SLURM")) return;
    if (is_shim_provided(site, part.text)) return;  // set in each worker by the shim
    if (is_own_value(site.view, part.text, part.span.begin)) return;
    const std::string_view slurm_name = pbs ? slurm_name_behind_pbs_name(part.text) : part.text;
    report_batch_node_rank(site, part, slurm_name);
    const VariableRule rule =
        is_job_id(slurm_name) && is_test(site) ? job_id_in_a_test()
        : is_node_list(slurm_name) && is_test(site) && is_emptiness_operand(site, part)
            ? node_list_in_an_emptiness_test()
            : rule_for(part.text, job_, compute_, job_name_);
    // A name the batch shell filled into a double-quoted script is renamed
    // here, where the script is rewritten, and reported by the outer command
    // at the column the batch script writes it.
    const bool reported_outside = is_filled_in(site.view, part.span);
    switch (rule.action) {
      case VariableAction::keep:
        return;
      case VariableAction::rename: {
        const std::string_view written = source(site.view, part.span);
        const size_t at = written.find(part.text);
        if (at == std::string_view::npos) return;
        const Span name{static_cast<uint32_t>(part.span.begin + at),
                        static_cast<uint32_t>(part.span.begin + at + part.text.size())};
        edit(site.view, name, rule.replacement, rule.reason);
        if (!rule.exact && !reported_outside) {
          report(Code::slurm_variable_approximated, site.view, part.span,
                 "$" + part.text + " becomes $" + rule.replacement + ": " + rule.reason, rule.hint);
        }
        return;
      }
      case VariableAction::literal:
        if (!value_is_the_expansion(part.op, rule.replacement)) {
          if (reported_outside) return;
          const std::string written(source(site.view, part.span));
          report(Code::slurm_variable_unmapped, site.view, part.span,
                 "$" + part.text + " is not set on AI Runtime; for this job it is " +
                     rule.replacement + " (" + rule.reason + "), but `" + written +
                     "` is not that value",
                 "write what `" + written + "` gives for " + rule.replacement + " in its place");
          return;
        }
        edit(site.view, part.span, rule.replacement, rule.reason);
        if (reported_outside) return;
        report(Code::slurm_variable_approximated, site.view, part.span,
               "$" + part.text + " becomes " + rule.replacement + ": " + rule.reason, rule.hint);
        return;
      case VariableAction::report:
        if (reported_outside) return;
        if (site.view == 0 && !slurm::NounsetScopes::allows_unset(part.op) &&
            body_.nounset.at(part.span.begin)) {
          report(Code::unset_under_nounset, site.view, part.span,
                 "$" + part.text + " " + rule.reason +
                     "; the script runs with `set -u`, so bash stops here (\"" + part.text +
                     ": unbound variable\") and the run fails",
                 "write ${" + part.text + ":-VALUE} with the value this job should use" +
                     (rule.hint.empty() ? "" : "; " + rule.hint));
          return;
        }
        report(Code::slurm_variable_unmapped, site.view, part.span,
               "$" + part.text + " " + rule.reason, rule.hint);
        note_report_in_assigned_value(site, part.span);
        return;
    }
  }

  /// `SRUN_ARGS="--wait=60 --jobid $SLURM_JOB_ID"`: a report about a value
  /// the batch script assigns, kept until every read of that variable is
  /// known to stay or to go (withdraw_reports_gone_with_srun).
  void note_report_in_assigned_value(const Site& site, Span span) {
    if (site.view != 0) return;
    const ast::Command& command = *site.command;
    if (!command.words.empty() && site.program != "export"sv) return;  // most commands
    for (const Assignment& a : assignments_of(command, site, body_.views[0].text)) {
      if (a.value_span.begin <= span.begin && span.end <= a.value_span.end) {
        reports_in_assigned_values_.push_back({diagnostics_.size() - 1, a.name});
        return;
      }
    }
  }

  /// A variable whose every read is an srun option word that went with
  /// srun (`srun $SRUN_ARGS python ...`): what its value expands is never
  /// used, as with `srun --jobid $SLURM_JOB_ID python ...`, whose options
  /// go unreported. A variable named anywhere else but in an assignment
  /// (`echo $SRUN_ARGS`, an srun that stays, `$((N / 2))`, a comment)
  /// keeps the report.
  void withdraw_reports_gone_with_srun() {
    if (reports_in_assigned_values_.empty()) return;
    // Cheap facts first: the variables written as options of an srun that
    // went (few), before the one pass over the script's text.
    std::vector<Span> removed_options;
    std::unordered_set<std::string_view> asked;
    for (const Site& site : body_.sites) {
      if (site.view != 0 || site.program != "srun"sv || !site.srun) continue;
      const auto& words = site.command->words;
      if (site.srun_operand >= words.size() || site.srun_word + 1 >= site.srun_operand) continue;
      const Span options{words[site.srun_word].span.end, words[site.srun_operand].span.begin};
      if (!is_replaced(0, options)) continue;
      removed_options.push_back(options);
      for (size_t i = site.srun_word + 1; i < site.srun_operand; ++i) {
        if (const auto name = slurm::variable_of(source(0, words[i].span))) asked.insert(*name);
      }
    }
    std::erase_if(asked, [&](std::string_view name) {
      return std::none_of(reports_in_assigned_values_.begin(), reports_in_assigned_values_.end(),
                          [&](const ReportInAssignedValue& r) { return r.variable == name; });
    });
    if (asked.empty()) return;
    const std::unordered_set<std::string_view> gone =
        read_only_as_options(body_.views[0].text, asked, removed_options);
    // Recorded in increasing order: one pass keeps the others, in order.
    auto withdrawn = reports_in_assigned_values_.begin();
    const auto end = reports_in_assigned_values_.end();
    size_t kept = withdrawn->diagnostic;
    for (size_t i = kept; i < diagnostics_.size(); ++i) {
      while (withdrawn != end &&
             (withdrawn->diagnostic < i || !gone.contains(withdrawn->variable))) {
        ++withdrawn;
      }
      if (withdrawn != end && withdrawn->diagnostic == i) continue;
      if (kept != i) diagnostics_[kept] = std::move(diagnostics_[i]);
      ++kept;
    }
    diagnostics_.resize(kept);
  }

  /// The names in `asked` that `text` reads at least once and only inside
  /// `options` (srun option words that went), besides assigning them: one
  /// pass over the text, each name-like run looked up once.
  static std::unordered_set<std::string_view> read_only_as_options(
      std::string_view text, const std::unordered_set<std::string_view>& asked,
      const std::vector<Span>& options) {
    enum class Reads : uint8_t { none, in_options, elsewhere };
    std::unordered_map<std::string_view, Reads> reads;
    for (size_t at = 0; at < text.size();) {
      if (!is_variable_name_char(text[at])) {
        ++at;
        continue;
      }
      size_t end = at;
      while (end < text.size() && is_variable_name_char(text[end])) ++end;
      const std::string_view name = text.substr(at, end - at);
      if (asked.contains(name)) {
        Reads& verdict = reads[name];
        const std::string_view after = text.substr(end);
        const bool assigned = after.starts_with('=') || after.starts_with("+=");
        const std::optional<size_t> dollar = expansion_at(text, at);
        const bool in_options = dollar && covered(options, Span{static_cast<uint32_t>(*dollar),
                                                                static_cast<uint32_t>(end)});
        if (!assigned && verdict != Reads::elsewhere) {
          verdict = in_options ? Reads::in_options : Reads::elsewhere;
        }
      }
      at = end;
    }
    std::unordered_set<std::string_view> out;
    for (const auto& [name, verdict] : reads) {
      if (verdict == Reads::in_options) out.insert(name);
    }
    return out;
  }

  /// Whether `${NAME<op>}`, NAME set to `value`, expands to `value`: with
  /// no operator, or a default for an unset or empty NAME. `${#NAME}`,
  /// `${NAME+x}`, `${NAME%.*}` and `${NAME:0:3}` give something else.
  static bool value_is_the_expansion(std::string_view op, std::string_view value) {
    if (op.empty()) return true;
    if (value.empty()) return false;
    return std::any_of(kDefaultOperators.begin(), kDefaultOperators.end(),
                       [&](std::string_view def) { return op.starts_with(def); });
  }

  static bool is_job_id(std::string_view name) {
    return name == "SLURM_JOB_ID" || name == "SLURM_JOBID";
  }

  static bool is_node_list(std::string_view name) {
    return name == "SLURM_JOB_NODELIST" || name == "SLURM_NODELIST";
  }

  /// `part` is in the word right after `-z` or `-n` of the test.
  static bool is_emptiness_operand(const Site& site, const ast::WordPart& part) {
    const auto& words = site.command->words;
    for (size_t i = 1; i < words.size(); ++i) {
      if (part.span.begin < words[i].span.begin || part.span.end > words[i].span.end) continue;
      const auto flag = slurm::literal_value(words[i - 1]);
      return flag == "-z" || flag == "-n";
    }
    return false;
  }

  /// trl's gold.slurm: `if [[ -z "${SLURM_JOB_NODELIST:-}" ]]; then echo
  /// "must run inside a SLURM allocation"; exit 1; fi`. Every Slurm job has
  /// a node list; left as it is, it is empty on AI Runtime and every run
  /// takes the exit. Only whether it is empty is asked, as of the job id.
  static VariableRule node_list_in_an_emptiness_test() {
    return {VariableAction::rename, "MLFLOW_RUN_ID", false,
            "in a -z/-n test, the node list says whether the script runs as a job, and "
            "MLFLOW_RUN_ID is set on every AI Runtime run as the node list was in every Slurm job",
            "nothing to do: only whether the list is empty is asked here"};
  }

  /// `[ -z "$SLURM_JOB_ID" ]`, `[[ ... ]]`, `test ...`.
  static bool is_test(const Site& site) {
    return site.program == "["sv || site.program == "test"sv ||
           site.command->kind == ast::CommandKind::cond_command;
  }

  /// `if [ "x$SLURM_JOB_ID" == "x" ]; then echo "submit with sbatch"; exit 1;
  /// fi`: a test of the job id asks whether the script runs as a job. Left
  /// as it is, the id is empty on AI Runtime and every run takes the exit;
  /// MLFLOW_RUN_ID is set on every run, as the job id was in every job.
  static VariableRule job_id_in_a_test() {
    return {VariableAction::rename, "MLFLOW_RUN_ID", false,
            "in a test, the job id says whether the script runs as a job, and MLFLOW_RUN_ID is "
            "set on every AI Runtime run as the job id was in every Slurm job",
            "if the test compares the id with a number, rewrite it"};
  }

  /// `$SLURM_NODEID` (or, one task per node, `$SLURM_PROCID`) expanded by
  /// the batch shell (`srun python t.py --node
  /// $SLURM_NODEID`, `NODE=$SLURM_NODEID`) was 0 under Slurm, for every task:
  /// only a script that srun runs (`srun bash -c '...$SLURM_NODEID...'`)
  /// sees each node's id. Renamed to $NODE_RANK it now differs per node;
  /// usually the fix the author meant, but a change to say.
  void report_batch_node_rank(const Site& site, const ast::WordPart& part,
                              std::string_view slurm_name) {
    const bool node_rank = slurm_name == "SLURM_NODEID" ||
                           (slurm_name == "SLURM_PROCID" && tasks_per_node(job_, compute_) == 1);
    if (!node_rank || compute_.nodes <= 1 || site.view != 0 || site.context.in_srun ||
        site.nested_script >= 0) {
      return;
    }
    report(Code::batch_rank_fixed, site.view, part.span,
           "`" + std::string(source(site.view, part.span)) +
               "` is expanded by the batch shell, which ran on the first node only, so under "
               "Slurm it was 0 " +
               (site.program == "srun" ? std::string("for every task of this step")
                                       : std::string("here")) +
               "; as $NODE_RANK it is each node's own rank",
           "if the program must see 0 on every node, write 0");
  }

  // --- what runs where ----------------------------------------------------------

  /// `cmd="srun -l python t.py"` ... `$cmd`: the Slurm command is inside a
  /// string, where the launch rules do not reach, and would fail when the
  /// variable runs. Reported at the assignment, also when it moved to
  /// env_variables.
  void report_slurm_command_in_variable(const Site& site) {
    const ast::Command& command = *site.command;
    const auto check = [&](std::string_view name, Span value) {
      const std::string_view slurm_command = slurm_command_at_start(source(site.view, value));
      if (slurm_command.empty()) return;
      const std::string program(slurm_command);
      report(Code::slurm_command_in_body, site.view, value,
             "`" + std::string(name) + "` holds a command that starts with `" + program +
                 "`, a Slurm command that does not exist on AI Runtime: it fails where $" +
                 std::string(name) + " runs",
             program == "srun"
                 ? "write the launch as a command, which slurm2air translates (srun goes; the "
                   "program runs once per node, or once per GPU under a launcher), or take "
                   "`srun` and its options out of the string"
                 : "remove it, or use the `databricks air` commands");
    };
    for (const ast::Assignment& a : command.assignments) {
      if (!a.is_array) {
        check(a.name, a.value.span);
      } else if (!a.elements.empty()) {
        check(a.name, a.elements.front().span);
      }
    }
    // The name is asked only of a command with operands: most have none.
    if (command.words.size() < 2 || !slurm::is_declaration_builtin(site.program)) return;
    for (size_t i = 1; i < command.words.size(); ++i) {
      const Span span = command.words[i].span;
      const std::string_view written = source(site.view, span);
      const size_t eq = written.find('=');
      if (eq == std::string_view::npos || eq == 0) continue;
      check(written.substr(0, eq), Span{static_cast<uint32_t>(span.begin + eq + 1), span.end});
    }
  }

  void check_runs_on_every_node(const Site& site) {
    if (site.program == "sbatch"sv) {
      report_submission(site);
      return;
    }
    if (is_slurm_client(site.program)) {
      report(Code::slurm_command_in_body, site.view, site.command->span,
             "`" + site.program + "` is a Slurm command and does not exist on AI Runtime",
             "remove it, or use the `databricks air` commands");
      return;
    }
    if (const std::string_view site_launcher = site_mpi_launcher(site.program);
        !site_launcher.empty()) {
      report(Code::site_mpi_launcher, site.view, site.command->span,
             "`" + site.program + "` is " + std::string(site_launcher) +
                 " MPI launcher and does not exist on AI Runtime: the line fails with \"command "
                 "not found\"",
             "on one node start the ranks with `mpirun -np N` (when the image has MPI) or "
             "torchrun; AI Runtime has no MPI launch across nodes");
      return;
    }
    const slurm::Context& c = site.context;
    if (compute_.nodes <= 1 || c.in_srun || c.in_substitution || site.program == "srun"sv) return;
    if (is_script_function(site.program)) return;  // its commands are judged where written
    if (site.launcher.kind != Launcher::none && site.launcher.kind != Launcher::python) return;
    if (is_idempotent(site.program) || writes_node_local_path(site)) return;
    if (is_run_once_side_effect(site) && can_guard(site)) {
      if (site.launcher.kind != Launcher::python && !writes_shared_storage(site)) {
        report_kept_on_every_node(site);
        return;
      }
      guard_on_node_zero(site, "ran once under Slurm: keep it on node 0");
      ++guarded_to_node_zero_;
      report(Code::run_once_guarded, site.view, site.command->span,
             "`" + site.program +
                 "` ran once, on the first node, under Slurm; it now runs on node 0 only" +
                 (last_rendezvous_ != nullptr && &site < last_rendezvous_
                      ? ", and the other nodes wait for node 0 in the launcher's rendezvous"
                      : ""),
             "if the other nodes need its output on their own disks, remove the guard");
      return;
    }
    ++runs_on_every_node_;
    report(Code::runs_on_every_node, site.view, site.command->span,
           "`" + site.program +
               "` ran once, on the first node, under Slurm; AI Runtime runs the "
               "command on all " +
               std::to_string(compute_.nodes) + " nodes",
           "guard it with `if [ \"$NODE_RANK\" = 0 ]; then ...; fi` if it must run once");
  }

  /// `source /opt/intel/oneapi/setvars.sh`, `. /opt/flight/etc/setup.sh`:
  /// the cluster's software installation under /opt, which the paths rule
  /// leaves alone because images install software there too. Sourcing a
  /// file the node lacks fails, and ends a `set -e` script before its
  /// launch.
  void report_software_setup_under_opt(const Site& site) {
    if ((site.program != "source"sv && site.program != "."sv) || site.command->words.size() < 2 ||
        is_replaced(site.view, site.command->span)) {
      return;
    }
    const std::optional<std::string> file = slurm::literal_value(site.command->words[1]);
    if (!file || !file->starts_with("/opt/")) return;
    report(Code::cluster_software_sourced, site.view, site.command->span,
           "`" + std::string(source(site.view, site.command->span)) +
               "` sets up software the cluster installed under /opt; an AI Runtime node's /opt "
               "holds its image's own software, and sourcing a file it does not have fails (a "
               "`set -e` script ends there)",
           "set up what the file did in the command, or use a custom image with that software, "
           "and remove the line");
  }

  /// `srun bash -c "source export_DDP_vars.sh; python train.py"` (NERSC's
  /// tutorials, whose file sets RANK=$SLURM_PROCID, LOCAL_RANK=$SLURM_LOCALID,
  /// WORLD_SIZE=$SLURM_NTASKS): the file ran in each task, where Slurm had
  /// set the task variables. The translation does not read sourced files,
  /// so what the file reads of them is neither translated nor reported.
  void report_file_sourced_in_step(const Site& site) {
    if (site.view == 0 || (site.program != "source"sv && site.program != "."sv) ||
        site.command->words.size() < 2 || is_replaced(site.view, site.command->span)) {
      return;
    }
    // A file beside the script, which goes with the code: one elsewhere
    // (`/ext3/env.sh`, `$MPIVARS_PATH`, `~/.bashrc`) is the cluster's or the
    // user's setup, which the node does not have at all (S2A5010, S2A5022).
    const std::optional<std::string> file = slurm::literal_value(site.command->words[1]);
    if (!file || file->empty() || file->front() == '/' || file->front() == '~') return;
    const Site* step = step_running_script(site);
    if (step == nullptr) return;
    const bool shim =
        std::find(shim_views_.begin(), shim_views_.end(), site.view) != shim_views_.end();
    report(Code::shell_script_unread, site.view, site.command->span,
           "`" + std::string(source(site.view, site.command->span)) +
               "` runs in each task of this srun step, where Slurm had set SLURM_PROCID, "
               "SLURM_NTASKS, SLURM_LOCALID and the rest; the translation does not read the "
               "file, so what it reads of them is not translated" +
               (shim ? ": the shim gives it SLURM_PROCID, SLURM_LOCALID, SLURM_NTASKS, "
                       "SLURM_NODEID and the job's shape, but any other Slurm variable it "
                       "reads (SLURM_JOB_ID, SLURM_NODELIST, SLURM_STEP_*) is empty on AI "
                       "Runtime"
                     : ": on AI Runtime, which starts no Slurm tasks, they are empty "
                       "(RANK=$SLURM_PROCID leaves RANK empty)"),
           "copy what the file sets into the step's script, where Slurm variables are "
           "translated and reported, or make the file read AI Runtime's variables (NODE_RANK, "
           "NUM_NODES, MASTER_ADDR, MASTER_PORT; RANK, LOCAL_RANK and WORLD_SIZE where "
           "torchrun starts the processes)");
  }

  /// The srun step whose `bash -c` script holds `site`, or null (a batch
  /// line's `bash -c`, or a container's, runs once, not per task).
  const Site* step_running_script(const Site& site) const {
    // A script's commands are walked right after the command that runs it.
    const Site* owner = &site;
    while (owner != body_.sites.data() && owner->view == site.view) --owner;
    if (owner->view == site.view || owner->nested_script < 0 ||
        nested_of(*owner).view != site.view || owner->program != "srun"sv) {
      return nullptr;
    }
    return owner;
  }

  /// The other machine as the report names it: `ssh $SSH_OPTS host` and
  /// `ssh $host cmd` read alike, so where a variable may hold ssh's options
  /// the report says which word it took for the machine and which else it
  /// could be.
  static std::string remote_host_description(std::span<const std::string_view> words,
                                             const RemoteShell& remote) {
    const std::string host(words[remote.host_word]);
    if (remote.other_host_word != 0) {
      return host + " (or, when " + host + " holds ssh's options, " +
             std::string(words[remote.other_host_word]) + ")";
    }
    if (remote.options_word != 0) {
      return host + " (" + std::string(words[remote.options_word]) +
             " before it is taken, by its name, for ssh's options)";
    }
    return host;
  }

  /// `scp -r out me@login1:/project/`, `ssh -NL 8888:localhost:8888 login1 &`,
  /// `ips=$(ssh $first hostname -I)`, `pdsh -w $SLURM_JOB_NODELIST ...`: the
  /// cluster's machines and the job's other nodes, reached over SSH.
  void report_remote_shell(const Site& site) {
    // `nohup ssh -NL ... &`, `timeout 60 scp ...`, `srun ssh ...`: the
    // program behind the wrappers, found as the container rules find theirs.
    const ast::Command& command = *site.command;
    const size_t from = slurm::container_step_start(site);
    if (from >= command.words.size()) return;
    std::optional<std::string> storage;
    const std::string_view program = from == 0 ? std::string_view(site.program)
                                               : slurm::program_view(command.words[from], storage);
    if (!is_remote_shell_program(program) || is_replaced(site.view, command.span)) return;
    std::vector<std::string_view> words;
    words.reserve(command.words.size() - from);
    for (size_t i = from; i < command.words.size(); ++i) {
      words.push_back(source(site.view, command.words[i].span));
    }
    const std::optional<RemoteShell> remote = read_remote_shell(program, words);
    if (!remote) return;
    const std::string call = "`" + std::string(program) + "`";
    const std::string host = remote_host_description(words, *remote);
    const Span span = command.words[from + remote->host_word].span;
    switch (remote->use) {
      case RemoteUse::tunnel:
        report(Code::remote_shell, site.view, span,
               call + " forwards ports through " + host +
                   " (a notebook's or dashboard's, typically): AI Runtime nodes are not on the "
                   "cluster's network, so the tunnel is never opened and nothing reaches the "
                   "node through it",
               "remove the line; follow the run in MLflow (its metrics and logs) instead");
        return;
      case RemoteUse::login:
        report(Code::remote_shell, site.view, span,
               call + " logs in to " + host +
                   ", a machine of the cluster or another node of the job: AI Runtime nodes are "
                   "not on the cluster's network and are not set up to log in to each other, so "
                   "the command fails",
               "run what it ran on this node (every AI Runtime node runs the whole command; "
               "$MASTER_ADDR is node 0), and exchange files through a Unity Catalog volume "
               "(/Volumes/...)");
        return;
      case RemoteUse::copy:
        report(Code::remote_shell, site.view, span,
               call + " copies to or from " + host +
                   " over SSH: AI Runtime nodes are not on the cluster's network and hold no "
                   "SSH keys for it, so the copy fails and its files are missing",
               "write results to a Unity Catalog volume (/Volumes/...) and fetch them from "
               "there; read inputs from one");
        return;
      case RemoteUse::fan_out:
        report(Code::remote_shell, site.view, command.span,
               call +
                   " runs a command on a list of nodes over SSH: AI Runtime lists no nodes "
                   "and its nodes are not set up to log in to each other; every node already "
                   "runs the whole command",
               "run the command itself, on every node, or guard it with `if [ \"$NODE_RANK\" "
               "= 0 ]; then ...; fi` for node 0 alone");
        return;
    }
  }

  /// `python run.py` in a 4-node job with no srun step or launcher: the
  /// batch shell ran it once, on the first node, and nothing started work on
  /// the others; Slurm held them for the job all the same. Now they are
  /// AI Runtime nodes of the workload's shape, idle as they were.
  void report_idle_nodes() {
    if (compute_.nodes <= 1 || starts_work_on_nodes_ || runs_on_every_node_ > 0 ||
        guarded_to_node_zero_ + kept_per_node_ == 0) {
      return;
    }
    const std::string others = std::to_string(compute_.nodes - 1);
    const Span at = job_.nodes && job_.nodes->from ? job_.nodes->from->span : Span{};
    report(Code::nodes_without_work, 0, at,
           "the job asks for " + std::to_string(compute_.nodes) +
               " nodes, but nothing in the script starts work on any but the first (no srun "
               "step or distributed launcher): the other " +
               others + " " + compute_.accelerator_type +
               " nodes sit idle, as the other Slurm nodes did, unless the program reaches "
               "them on its own",
           "ask for one node (--nodes=1), or start the work on every node with a launcher "
           "(torchrun --nnodes=$NUM_NODES ...)");
  }

  /// A function the batch script defines at its top level: calling it runs
  /// its commands, and each of those is a site checked on its own.
  bool is_script_function(std::string_view name) const {
    return !name.empty() &&
           std::binary_search(script_functions_.begin(), script_functions_.end(), name);
  }

  /// The names of the functions the script defines at its top level, sorted:
  /// asked once per command, so a scan of the script's statements each time
  /// made a script with many of both quadratic (a 4 MB one took 60% of its
  /// time here).
  static std::vector<std::string_view> top_level_functions(const ast::Script& script) {
    std::vector<std::string_view> names;
    for (const ast::ListItem& item : script.body.items) {
      if (item.command.kind == ast::CommandKind::function_def) names.push_back(item.command.name);
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  /// Downloads, copies and data preparation: under Slurm they ran once, with
  /// their result on the disk all nodes shared.
  static bool is_run_once_side_effect(const Site& site) {
    if (site.launcher.kind == Launcher::python) return true;
    if (site.program == "huggingface-cli"sv || site.program == "hf"sv) {
      return site.command->words.size() > 1 &&
             slurm::literal_is(site.command->words[1], "download");
    }
    return contains({"wget", "curl", "git", "rsync", "cp", "mv", "rm", "tar", "unzip", "aws",
                     "gsutil", "azcopy", "gcloud", "rclone"},
                    site.program);
  }

  /// `wget data.json` before a launcher that reads it: under Slurm the other
  /// nodes read the one copy on the shared disk; each AI Runtime node unpacks
  /// its own code and shares no disk, so each makes its own copy.
  void report_kept_on_every_node(const Site& site) {
    report(Code::run_once_on_every_disk, site.view, site.command->span,
           "`" + site.program +
               "` ran once under Slurm, on the cluster's disk that all nodes shared; AI "
               "Runtime nodes share no disk, so it now runs on each of the " +
               std::to_string(compute_.nodes) +
               " nodes, on that node's own files, for the commands after it",
           "to fetch or build it once, have node 0 write it to a Unity Catalog volume "
           "(/Volumes/...) and read it from there on every node");
    ++kept_per_node_;
  }

  /// Whether a download, copy or removal puts its result on storage every
  /// AI Runtime node sees (a Unity Catalog volume, the workspace, a bucket):
  /// the destination (the last word; `-O`, `-P`, `-C`, `--local-dir` and
  /// the like), any target of `rm`, or a `git push`.
  bool writes_shared_storage(const Site& site) const {
    const auto& words = site.command->words;
    if (words.size() < 2) return false;
    const auto written = [&](size_t i) { return source(site.view, words[i].span); };
    if (site.program == "git"sv) return slurm::literal_is(words[1], "push");
    if (site.program == "rm"sv) {
      for (size_t i = 1; i < words.size(); ++i) {
        if (is_shared_location(written(i))) return true;
      }
      return false;
    }
    if (is_shared_location(written(words.size() - 1))) return true;
    for (size_t i = 1; i + 1 < words.size(); ++i) {
      const std::string_view option = written(i);
      if (contains({"-O", "-o", "-P", "-C", "-d", "--output", "--output-document",
                    "--directory-prefix", "--local-dir", "--cache-dir"},
                   option) &&
          is_shared_location(written(i + 1))) {
        return true;
      }
      const size_t eq = option.find('=');
      if (option.starts_with("--") && eq != std::string_view::npos &&
          is_shared_location(option.substr(eq + 1))) {
        return true;
      }
    }
    return false;
  }

  static bool is_shared_location(std::string_view path) {
    while (!path.empty() && (path.front() == '"' || path.front() == '\'')) path.remove_prefix(1);
    for (std::string_view shared : {"/Volumes/", "/Workspace/", "dbfs:", "s3://", "s3a://", "gs://",
                                    "abfss://", "wasbs://", "az://"}) {
      if (path.starts_with(shared)) return true;
    }
    return false;
  }

  /// A whole statement at the top of the script, not sent to the background.
  bool can_guard(const Site& site) const {
    const slurm::Context& c = site.context;
    return site.view == 0 && site.statement != nullptr && !site.statement->background &&
           !c.in_function && !c.in_loop && !c.in_branch && !c.background;
  }

  /// Node-local files (/tmp, /local*, /dev/shm, $TMPDIR) are needed on every node.
  bool writes_node_local_path(const Site& site) const {
    const std::string_view text = source(site.view, site.command->span);
    for (std::string_view local : {"/tmp", "/local", "/dev/shm", "TMPDIR"}) {
      if (text.find(local) != std::string_view::npos) return true;
    }
    return false;
  }

  /// `sbatch` inside a script submits another job; a here-document fed to it
  /// is that job's script, so the report covers it too.
  void report_submission(const Site& site) {
    Span span = site.command->span;
    for (const auto& redirect : site.command->redirects) {
      if (!redirect.heredoc_body.empty()) span.end = std::max(span.end, redirect.heredoc_body.end);
    }
    report(Code::slurm_command_in_body, site.view, span,
           "`sbatch` submits another Slurm job, which does not exist on AI Runtime",
           "translate the submitted script separately and chain the jobs as tasks of a bundle "
           "job");
  }

  const SourceFile& file_;
  const slurm::Body& body_;
  const slurm::Job& job_;
  const Compute& compute_;
  const std::string& job_name_;
  Diagnostics& diagnostics_;
  const std::vector<std::string>& mount_targets_;
  std::vector<EditSet<LoggedEdit>> edits_;              // per text view
  std::vector<std::map<uint32_t, uint32_t>> replaced_;  // per text view: text that is gone
  const bool writes_pbs_;                               // `PBS_` anywhere in the script
  const std::vector<std::string_view> script_functions_;  // is_script_function()
  const std::vector<bool> launches_in_view_;              // starts_tasks_per_gpu()
  bool first_launch_seen_ = false;
  bool starts_work_on_nodes_ = false;  // an srun step or a distributed launcher
  const Site* last_rendezvous_ = nullptr;  // the last launch whose nodes wait for each other
  size_t guarded_to_node_zero_ = 0;    // run-once commands kept on node 0 (S2A4018)
  size_t kept_per_node_ = 0;           // run-once copies now made on each node (S2A4038)
  size_t runs_on_every_node_ = 0;      // commands that ran once and now run on every node
  bool side_by_side_reported_ = false;                // S2A4019 is given once per script
  std::vector<std::string> drawn_reported_;           // S2A4023 is given once per name
  ShellVariables variables_;                          // the batch script's simple assignments
  AssignmentIndex<OptionVariable> option_variables_;  // those holding launcher options
  slurm::BatchAssignments batch_assignments_{body_};  // for launchers kept in a variable
  std::optional<std::string_view> loaded_mpi_library_;  // loaded_mpi_library(), once asked
  std::optional<bool> uses_mpi4py_;                     // script_uses_mpi4py(), once asked
  std::optional<bool> uses_horovod_;                    // script_uses_horovod(), once asked
  std::optional<bool> uses_jax_;                        // script_uses_jax(), once asked
  bool accelerate_config_reported_ = false;             // S2A4035 is given once per script
  std::optional<bool> may_extend_path_;                 // script_may_extend_path(), once asked
  // How map_site() left the program of the site it maps: as written, or for
  // an srun step, started by torchrun, alone (one task), once on every node
  // (one task per node), or otherwise (MPI ranks, a nested script).
  enum class StepStart : uint8_t { as_written, by_torchrun, alone, once_per_node, other };
  StepStart step_start_ = StepStart::as_written;
  std::vector<const Site*> per_gpu_nested_;  // `srun bash -c` steps now started by torchrun
  std::vector<uint32_t> shim_views_;         // their scripts: the shim sets SLURM_* task variables
  std::vector<Span> portable_counts_;        // literal counts now $LOCAL_WORLD_SIZE/$WORLD_SIZE
  std::vector<OwnName> own_slurm_names_;     // SLURM* names the script sets (rare: a scan)
  std::set<std::pair<uint32_t, uint32_t>> commented_out_;  // (view, begin) of removed statements
  size_t site_reports_begin_ = 0;  // diagnostics_ from here on were made for the site in hand
  // S2A4002 reports about a value the batch script assigns, with the
  // variable assigned: withdrawn when every read of it went with srun.
  struct ReportInAssignedValue {
    size_t diagnostic = 0;  // index into diagnostics_
    std::string variable;
  };
  std::vector<ReportInAssignedValue> reports_in_assigned_values_;
  CommandMapping result_;
  SetupResult setup_result_;
  SetupMapper setup_;  // environment rules (setup.cpp); edits through this mapper
};

}  // namespace

CommandMapping map_command(const SourceFile& file, const slurm::Body& body, const slurm::Job& job,
                           const Compute& compute, const std::string& job_name,
                           Diagnostics& diagnostics, const SetupOptions& setup) {
  return CommandMapper(file, body, job, compute, job_name, diagnostics, setup).run();
}

}  // namespace s2a::air
