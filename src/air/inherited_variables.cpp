#include "air/inherited_variables.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "air/keyword_list.hpp"
#include "air/setup.hpp"
#include "air/variables.hpp"
#include "slurm/arithmetic.hpp"
#include "source/ascii.hpp"

namespace s2a::air {
namespace {

using namespace std::string_view_literals;

/// Names the job has without the submitting shell: bash's own, the login
/// environment every node has, AI Runtime's, the GPU runtime's, and path
/// lists a script extends (`PATH=$X:$PATH`: the inherited part is not what
/// the job needs).
// clang-format off
constexpr std::array kProvided = {
    // bash
    "BASH"sv, "BASHOPTS"sv, "BASHPID"sv, "DIRSTACK"sv, "EPOCHREALTIME"sv, "EPOCHSECONDS"sv,
    "EUID"sv, "FUNCNAME"sv, "GROUPS"sv, "HISTFILE"sv, "HOSTNAME"sv, "HOSTTYPE"sv, "IFS"sv,
    "LINENO"sv, "MACHTYPE"sv, "OLDPWD"sv, "OPTARG"sv, "OPTERR"sv, "OPTIND"sv, "OSTYPE"sv,
    "PIPESTATUS"sv, "PPID"sv, "PS1"sv, "PS2"sv, "PS3"sv, "PS4"sv, "PWD"sv, "RANDOM"sv, "REPLY"sv,
    "SECONDS"sv, "SHLVL"sv, "SRANDOM"sv, "UID"sv,
    // login environment
    "COLUMNS"sv, "HOME"sv, "LANG"sv, "LANGUAGE"sv, "LINES"sv, "LOGNAME"sv, "MAIL"sv, "SHELL"sv,
    "TERM"sv, "TMPDIR"sv, "TZ"sv, "USER"sv,
    // AI Runtime (besides is_runtime_variable's) and the GPU runtime
    "HYPERPARAMETERS_PATH"sv, "MLFLOW_RUN_ID"sv, "CUDA_VISIBLE_DEVICES"sv,
    "ROCR_VISIBLE_DEVICES"sv, "GPU_DEVICE_ORDINAL"sv,
    // path lists
    "PATH"sv, "LD_LIBRARY_PATH"sv, "LD_PRELOAD"sv, "PYTHONPATH"sv, "LIBRARY_PATH"sv, "CPATH"sv,
    "C_INCLUDE_PATH"sv, "CPLUS_INCLUDE_PATH"sv, "MANPATH"sv, "PKG_CONFIG_PATH"sv,
    "CMAKE_PREFIX_PATH"sv};
// clang-format on

constexpr std::array kLoginFiles = {"/.bashrc"sv, "/.bash_profile"sv, "/.bash_login"sv,
                                    "/.profile"sv};

/// Slurm's own variables (other rules report $SLURM_*), MPI's, bash's
/// BASH_* and the locale's LC_*. PBS's names are not among them: Slurm sets
/// only those its spank_pbs plugin copies (reported with $SLURM_*); the
/// rest (PBS_NODEFILE, PBS_NP) came from the cluster's environment, if at all.
constexpr std::array kProvidedPrefixes = {"SLURM_"sv, "SLURMD_"sv, "SBATCH_"sv, "PMI_"sv,
                                          "PMIX_"sv,  "OMPI_"sv,   "BASH_"sv,   "LC_"sv};

/// kProvided, hashed: asked of every name a script reads.
bool is_listed_as_provided(std::string_view name) {
  static const std::unordered_set<std::string_view> provided(kProvided.begin(), kProvided.end());
  return provided.contains(name);
}

/// The first letters are compared inline: most names match none of them,
/// and a starts_with is a call to memcmp.
bool has_provided_prefix(std::string_view name) {
  return !name.empty() && std::any_of(kProvidedPrefixes.begin(), kProvidedPrefixes.end(),
                                      [&](std::string_view prefix) {
                                        return name[0] == prefix[0] && name.starts_with(prefix);
                                      });
}

bool is_provided(std::string_view name) {
  // The prefixes before is_runtime_variable(), the dearer look, which most
  // names ($SLURM_*) then skip.
  return !is_variable_name(name) || is_listed_as_provided(name) || has_provided_prefix(name) ||
         is_runtime_variable(name) || !slurm_name_behind_pbs_name(name).empty();
}

/// `${X:-8}`, `${X-}`, `${X:=8}`, `${X:+y}`, `${X:?msg}`, `${#X}`: the script
/// says what happens when X is unset.
bool has_own_default(const ast::WordPart& part) {
  const std::string_view op = part.op;
  if (op == "#") return true;  // ${#X}, a length; ${X#prefix} needs X
  const std::string_view rest = op.starts_with(':') ? op.substr(1) : op;
  return !rest.empty() && std::string_view("-=+?").find(rest[0]) != std::string_view::npos;
}

/// `${X:=8}`, `${X=8}`: sets X when it is unset (or empty).
bool assigns_default(const ast::WordPart& part) {
  const std::string_view op = part.op;
  return op.starts_with(":=") || op.starts_with('=');
}

/// `X=$X`, `X="${X}"`: the value is the one X came with (often from `sbatch
/// --export`), so the assignment does not make X the script's own.
bool is_own_value(std::string_view name, std::span<const ast::WordPart> parts) {
  if (parts.size() != 1) return false;
  const ast::WordPart& part = parts[0];
  if (part.kind == ast::PartKind::double_quoted) return is_own_value(name, part.parts);
  return part.kind == ast::PartKind::param && part.text == name && part.op.empty();
}

/// One piece of literal text (`python`, `--lr=0.1`), as most words are:
/// it neither assigns nor reads a variable, and the walks below pass it
/// over without a call.
bool is_plain_literal(const std::vector<ast::WordPart>& parts) {
  return parts.size() == 1 && parts[0].kind == ast::PartKind::literal && parts[0].parts.empty() &&
         !parts[0].script;
}

/// Where the name that a word of `export`, `read`, `let`... starts with ends
/// (`X=1`, `X+=1`, `a[0]=x`, `n-1`, `i<3`, `"i = 1"`), or npos. By hand:
/// find_first_of with a set calls memchr once per byte.
size_t name_end(std::string_view head) {
  for (size_t i = 0; i < head.size(); ++i) {
    switch (head[i]) {
      case '=':
      case '+':
      case '[':
      case '-':
      case '*':
      case '/':
      case '%':
      case '<':
      case '>':
      case '!':
      case '&':
      case '|':
      case '^':
      case ' ':
        return i;
      default:
        break;
    }
  }
  return std::string_view::npos;
}

/// Every name the script gives a value to, anywhere: it may run before a use
/// that comes earlier in the text (a loop), so position is not judged.
class AssignedNames {
 public:
  /// `opt[0]=x` sets opt.
  void add(std::string_view name) { names_.emplace(name.substr(0, name.find('['))); }
  [[nodiscard]] bool has(std::string_view name) const { return names_.find(name) != names_.end(); }

  void add_from_site(const slurm::Site& site) {
    const ast::Command& command = *site.command;
    for (const ast::Assignment& a : command.assignments) {
      if (!is_own_value(a.name, a.value.parts)) add(a.name);
    }
    const auto& words = command.words;
    if (words.empty()) return;
    const std::string_view program = site.program;
    // read NAME..., mapfile NAME, getopts SPEC NAME, printf -v NAME, let X=1:
    // every name-like word counts (an option's argument rarely is one).
    if (!slurm::is_declaration_builtin(program) &&
        !contains({"read", "mapfile", "readarray", "getopts", "printf", "let", "unset"}, program)) {
      return;
    }
    for (size_t i = 1; i < words.size(); ++i) {
      std::string storage;
      const std::string_view head = slurm::literal_prefix(words[i], storage);
      const std::string_view name = head.substr(0, name_end(head));
      if (!is_variable_name(name)) continue;
      // `export X=$X`: the word is the literal `X=` and then X's own value.
      const auto& parts = words[i].parts;
      const bool own = parts.size() == 2 && parts[0].kind == ast::PartKind::literal &&
                       head.size() == name.size() + 1 &&
                       is_own_value(name, std::span(parts).subspan(1));
      if (!own) add(name);
    }
  }

  /// for/select variables and arithmetic assignments, which are not simple
  /// commands.
  void add_from_list(const ast::List& list) {
    for (const ast::ListItem& item : list.items) add_from_command(item.command);
  }

 private:
  void add_from_command(const ast::Command& command) {
    switch (command.kind) {
      case ast::CommandKind::for_clause:
      case ast::CommandKind::select_clause:
        add(command.name);
        break;
      case ast::CommandKind::arith_for:
      case ast::CommandKind::arith_command:
        add_arithmetic_targets(command.text);
        break;
      case ast::CommandKind::simple:
        for (const ast::Word& word : command.words) {
          if (!is_plain_literal(word.parts)) add_from_parts(word.parts);
        }
        for (const ast::Assignment& a : command.assignments) {
          if (!is_plain_literal(a.value.parts)) add_from_parts(a.value.parts);
        }
        break;
      default:
        break;
    }
    for (const ast::Command& child : command.children) add_from_command(child);
    for (const ast::List& block : command.blocks) add_from_list(block);
    for (const ast::CaseItem& item : command.case_items) add_from_list(item.body);
  }

  /// `${X:=default}` assigns X; loops inside `$(...)` and backquotes
  /// (`for i in $x; do ...; done`) assign their variable.
  void add_from_parts(const std::vector<ast::WordPart>& parts) {
    for (const ast::WordPart& part : parts) {
      if (part.kind == ast::PartKind::param && assigns_default(part)) add(part.text);
      if (part.kind == ast::PartKind::arith) add_arithmetic_targets(part.text);
      if (part.script) add_from_list(part.script->body);
      if (!part.parts.empty()) add_from_parts(part.parts);  // most parts are leaves
    }
  }

  /// `(( i++ ))`, `(( n = n + 1 ))`, `$(( total += x ))`.
  void add_arithmetic_targets(std::string_view expression) {
    for (const slurm::ArithmeticName& name : slurm::arithmetic_names(expression)) {
      if (name.assigned) add(name.name);
    }
  }

  /// Looked up by string_view without a copy.
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };
  std::unordered_set<std::string, Hash, std::equal_to<>> names_;
};

/// The mapper's rewrites of the command, to tell whether a use is still in
/// it: one is gone when a rewrite replaced the text around it with words
/// that do not name it.
class Rewrites {
 public:
  explicit Rewrites(std::span<const LoggedEdit> edits) : edits_(edits) {
    reach_.reserve(edits.size());
    uint32_t reach = 0;
    for (const LoggedEdit& edit : edits) reach_.push_back(reach = std::max(reach, edit.span.end));
  }

  [[nodiscard]] bool drop(std::string_view name, Span use) const {
    auto i = static_cast<size_t>(
        std::upper_bound(edits_.begin(), edits_.end(), use.begin,
                         [](uint32_t at, const LoggedEdit& e) { return at < e.span.begin; }) -
        edits_.begin());
    // Walk back only over edits that may still reach the use, and over a few:
    // one long edit early in the file (a rewritten `bash -c` script) reaches
    // every use after it, and a use past the few stays reported, as before.
    constexpr size_t kLookBack = 16;
    for (const size_t stop = i > kLookBack ? i - kLookBack : 0;
         i > stop && reach_[i - 1] >= use.end; --i) {
      const LoggedEdit& edit = edits_[i - 1];
      if (edit.span.end >= use.end && !reads_variable(edit.replacement, name)) {
        return true;
      }
    }
    return false;
  }

 private:
  std::span<const LoggedEdit> edits_;
  std::vector<uint32_t> reach_;  // the furthest end of the edits up to each one
};

struct Uses {
  std::vector<std::string> names;  // distinct, in order of first use
  size_t count = 0;
  Span first;
  // The first use where `set -u` is on: bash stops there.
  std::optional<std::pair<std::string, Span>> first_fatal;
};

class UseCollector {
 public:
  /// `text`: the file, which the spans of the commands collected index.
  UseCollector(const AssignedNames& assigned, const slurm::NounsetScopes& nounset,
               const Rewrites& rewrites, Uses& uses, std::string_view text)
      : assigned_(assigned), nounset_(nounset), rewrites_(rewrites), uses_(uses), text_(text) {}

  /// `skip`: a word that goes with srun (an unset `$SRUN_ARGS`), not read.
  void collect(const ast::Command& command, const ast::Word* skip = nullptr) {
    if (!command.text.empty() && (command.kind == ast::CommandKind::arith_command ||
                                  command.kind == ast::CommandKind::arith_for)) {
      collect_arithmetic_head(command);
    }
    const bool expands = may_expand(command);
    if (expands) {
      for (const ast::Word& word : command.words) {
        if (&word != skip && !is_plain_literal(word.parts)) collect(word.parts);
      }
      for (const ast::Assignment& a : command.assignments) {
        collect(a.value.parts);
        for (const ast::Word& element : a.elements) collect(element.parts);
      }
    }
    for (const ast::Redirect& redirect : command.redirects) {
      if (expands) collect(redirect.target.parts);
      collect(redirect.heredoc_parts);
    }
  }

 private:
  /// Parameters and `$(( ))` are written with a `$`: a command whose text has
  /// none (`cd src`, `python train.py --lr 0.1`) reads no variable in its
  /// words, assignments or redirection targets, which need not be walked.
  /// A heredoc's body comes after the command's text and is always walked.
  bool may_expand(const ast::Command& command) const {
    if (command.span.end > text_.size()) return true;
    return text_.substr(command.span.begin, command.span.size()).find('$') !=
           std::string_view::npos;
  }

  void collect(const std::vector<ast::WordPart>& parts) {
    for (const ast::WordPart& part : parts) {
      if (part.kind == ast::PartKind::param) {
        if (!has_own_default(part) && inherited(part.text)) add_use(part.text, part.span);
        collect_subscript(part);
      }
      if (part.kind == ast::PartKind::arith) {
        collect_arithmetic(part.text, part.inner.begin, /*bare_names=*/true);
      }
      if (!part.parts.empty()) collect(part.parts);  // most parts are leaves
    }
  }

  /// `$(( NSEEDS * 2 ))`, `(( i < N ))`: a name read with or without `$`.
  /// In a subscript only `$NAME` counts: `${map[key]}` may be a string key.
  void collect_arithmetic(std::string_view expression, uint32_t base, bool bare_names) {
    for (const slurm::ArithmeticName& name : slurm::arithmetic_names(expression)) {
      if (name.assigned || !(bare_names || name.dollar) || !inherited(name.name)) continue;
      const auto begin = static_cast<uint32_t>(base + name.at);
      add_use(name.name, Span{begin, static_cast<uint32_t>(begin + name.name.size())});
    }
  }

  /// `${lrs[$INDEX]}`.
  void collect_subscript(const ast::WordPart& param) {
    if (param.inner.size() <= param.text.size() || param.inner.end > text_.size()) return;
    const std::string_view inner = text_.substr(param.inner.begin, param.inner.size());
    const std::optional<std::string_view> subscript = slurm::subscript_of(inner);
    if (!subscript) return;
    collect_arithmetic(
        *subscript, static_cast<uint32_t>(param.inner.begin + (subscript->data() - inner.data())),
        /*bare_names=*/false);
  }

  /// `(( i < N ))`, `for (( i = 0; i < N; i++ ))`: Command::text is the
  /// expression after `((`.
  void collect_arithmetic_head(const ast::Command& command) {
    if (command.span.end > text_.size()) return;
    const std::string_view written = text_.substr(command.span.begin, command.span.size());
    const size_t open = written.find("((");
    if (open == std::string_view::npos) return;
    collect_arithmetic(command.text, static_cast<uint32_t>(command.span.begin + open + 2),
                       /*bare_names=*/true);
  }

  void add_use(std::string_view name, Span span) {
    if (rewrites_.drop(name, span)) return;
    // Compound heads are collected after the sites: keep the earliest.
    if (uses_.count++ == 0 || span.begin < uses_.first.begin) uses_.first = span;
    if (std::find(uses_.names.begin(), uses_.names.end(), name) == uses_.names.end()) {
      uses_.names.emplace_back(name);
    }
    if (nounset_.at(span.begin) &&
        (!uses_.first_fatal || span.begin < uses_.first_fatal->second.begin)) {
      uses_.first_fatal.emplace(std::string(name), span);
    }
  }

 public:
  /// Decided once per name: a script uses the same few names many times.
  bool inherited(std::string_view name) {
    const auto [it, added] = verdicts_.try_emplace(name, false);
    if (added) it->second = !is_provided(name) && !assigned_.has(name);
    return it->second;
  }

 private:
  const AssignedNames& assigned_;
  const slurm::NounsetScopes& nounset_;
  const Rewrites& rewrites_;
  Uses& uses_;
  std::string_view text_;
  std::unordered_map<std::string_view, bool> verdicts_;  // views of the AST's names
};

const std::string* export_value(const slurm::Job& job) {
  const directives::Option* option = job.final_option("export");
  return option == nullptr || !option->value ? nullptr : &*option->value;
}

/// `--export=NONE` (or a list without ALL): the job did not get the
/// submitting shell's variables under Slurm either.
bool takes_submit_environment(const slurm::Job& job) {
  const std::string* value = export_value(job);
  if (value == nullptr) return true;
  return ascii_upper("," + *value + ",").find(",ALL,") != std::string::npos;
}

/// `--export=ALL,DATA=/x,WORK`: DATA moves to env_variables, WORK is
/// S2A5004's; neither is this rule's.
void add_exported_names(const slurm::Job& job, AssignedNames& assigned) {
  const std::string* value = export_value(job);
  if (value == nullptr) return;
  std::string_view rest = *value;
  while (!rest.empty()) {
    const std::string_view item = rest.substr(0, rest.find(','));
    assigned.add(item.substr(0, item.find('=')));
    rest.remove_prefix(std::min(rest.size(), item.size() + 1));
  }
}

/// `/etc/profile`, `~/.bashrc`, `$HOME/.bash_profile`: the cluster's login
/// environment and the user's, which AI Runtime nodes do not have either.
bool is_login_file(std::string_view path) {
  while (!path.empty() && (path.front() == '"' || path.front() == '\'')) path.remove_prefix(1);
  while (!path.empty() && (path.back() == '"' || path.back() == '\'')) path.remove_suffix(1);
  return path.starts_with("/etc/") ||
         std::any_of(kLoginFiles.begin(), kLoginFiles.end(),
                     [&](std::string_view file) { return path.ends_with(file); });
}

/// A `source`/`.` or `eval` that stays in the command (not a removed setup
/// line such as conda.sh or venv/bin/activate): what it sets is not known,
/// so later uses are not judged. A login file sets nothing the job has on
/// AI Runtime, so judging goes on after it.
bool may_set_unknown_variables(const slurm::Site& site, std::string_view text) {
  const std::string_view program = site.program;
  if (program == "eval") return true;
  if (program != "source" && program != ".") return false;
  const auto& words = site.command->words;
  if (words.size() != 2 || words[1].span.end > text.size()) return true;
  return !is_login_file(text.substr(words[1].span.begin, words[1].span.size()));
}

std::string listed(const std::vector<std::string>& names) {
  constexpr size_t kListed = 6;
  std::string out;
  for (size_t i = 0; i < names.size() && i < kListed; ++i) {
    out += (i == 0 ? "$" : ", $") + names[i];
  }
  if (names.size() > kListed) out += " and " + std::to_string(names.size() - kListed) + " more";
  return out;
}

/// `rm -r`, `rm -rf`, `rm --recursive ...`.
bool removes_recursively(const ast::Command& command) {
  for (size_t i = 1; i < command.words.size(); ++i) {
    std::string storage;
    const std::string_view flag = slurm::literal_prefix(command.words[i], storage);
    if (flag == "--") return false;
    if (flag == "--recursive") return true;
    if (flag.starts_with('-') && !flag.starts_with("--") &&
        flag.find_first_of("rR") != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

/// `rm -rf $SCRATCH/*` with SCRATCH empty is `rm -rf /*`: the operands that
/// start with an inherited variable (no default) followed by `/`.
void report_root_removals(const slurm::Site& site, std::string_view text, UseCollector& collector,
                          Diagnostics& diagnostics) {
  const ast::Command& command = *site.command;
  if (site.program != "rm" || !removes_recursively(command)) return;
  for (size_t i = 1; i < command.words.size(); ++i) {
    const ast::Word& word = command.words[i];
    if (word.parts.empty()) continue;
    const ast::WordPart* first = &word.parts[0];
    if (first->kind == ast::PartKind::double_quoted && !first->parts.empty()) {
      first = &first->parts[0];
    }
    if (first->kind != ast::PartKind::param || !first->op.empty() ||
        first->span.end >= text.size() || !collector.inherited(first->text)) {
      continue;
    }
    const size_t after = text.find_first_not_of("\"}", first->span.end);
    if (after >= word.span.end || text[after] != '/') continue;
    const std::string written(text.substr(word.span.begin, word.span.size()));
    diagnostics.push_back(
        {Code::recursive_remove_from_root, word.span,
         "`rm` of " + written + ": $" + first->text +
             " is never set in the script and is empty on AI Runtime, so the path starts at / "
             "and this deletes from the root of the node",
         "set " + first->text + " before this line, and write it as \"${" + first->text +
             ":?}\" so that an empty value stops the script instead"});
  }
}

/// The spans sorted and joined where they overlap or touch, so that each
/// command asks in log time whether the translation removed it: a scan of
/// all of them for each command made long scripts quadratic.
std::vector<Span> joined(std::span<const Span> spans) {
  std::vector<Span> sorted(spans.begin(), spans.end());
  std::sort(sorted.begin(), sorted.end(), [](Span a, Span b) { return a.begin < b.begin; });
  std::vector<Span> out;
  for (const Span span : sorted) {
    if (!out.empty() && span.begin <= out.back().end) {
      out.back().end = std::max(out.back().end, span.end);
    } else {
      out.push_back(span);
    }
  }
  return out;
}

}  // namespace

void report_inherited_variables(const slurm::Body& body, const slurm::Job& job,
                                std::span<const Span> removed, std::span<const LoggedEdit> edits,
                                Diagnostics& diagnostics) {
  if (body.views.empty() || !takes_submit_environment(job)) return;
  AssignedNames assigned;
  add_exported_names(job, assigned);
  assigned.add_from_list(body.parse.script.body);
  for (const slurm::Site& site : body.sites) assigned.add_from_site(site);
  Uses uses;
  const Rewrites rewrites(edits);
  UseCollector collector(assigned, body.nounset, rewrites, uses, body.views[0].text);
  uint32_t judged_until = UINT32_MAX;  // where a `source` or `eval` may set anything
  const std::vector<Span> removed_text = joined(removed);
  for (const slurm::Site& site : body.sites) {
    if (site.view != 0) continue;  // a `bash -c` script's variables are judged with its own
    // module/conda lines are removed from the command: their uses go too.
    if (is_setup_command(*site.command, site.program, body.views[0].text)) continue;
    if (covered(removed_text, body.file_span(site, site.command->span))) continue;
    const auto& words = site.command->words;
    collector.collect(*site.command, site.srun_unset_options < words.size()
                                         ? &words[site.srun_unset_options]
                                         : nullptr);
    report_root_removals(site, body.views[0].text, collector, diagnostics);
    if (may_set_unknown_variables(site, body.views[0].text)) {
      judged_until = site.command->span.begin;
      break;
    }
  }
  // `[[ -d $DATA ]]`, `case $MODE in`, `for f in $INPUT/*`.
  for (const slurm::Site& head : body.compound_heads) {
    if (head.view == 0 && head.command->span.begin < judged_until) collector.collect(*head.command);
  }
  if (uses.count == 0) return;
  const bool one = uses.names.size() == 1;
  diagnostics.push_back(
      {Code::inherited_variable, uses.first,
       listed(uses.names) + (one ? " is" : " are") + " never set in the script" +
           (uses.count > 1 ? " (" + std::to_string(uses.count) + " uses)" : std::string()) +
           ": under Slurm " + (one ? "it" : "they") +
           " came from the environment the job started with (the submitting shell's, which "
           "sbatch passes on by default, or the cluster's) or from a setup step the translation "
           "removed; AI Runtime starts the command without " +
           (one ? "it, so it is" : "them, so they are") + " empty",
       "set " + (one ? std::string("it") : std::string("them")) +
           " under env_variables (secrets for a credential) or at the top of the command; a "
           "path on the cluster's storage becomes a /Volumes/... path or one under "
           "$CODE_SOURCE_PATH"});
  if (uses.first_fatal) {
    const std::string& name = uses.first_fatal->first;
    diagnostics.push_back({Code::unset_under_nounset, uses.first_fatal->second,
                           "$" + name +
                               " is never set in the script, and the script runs with `set -u`: "
                               "on AI Runtime bash stops here (\"" +
                               name + ": unbound variable\") and the run fails",
                           "set " + name + " under env_variables or before this line"});
  }
}

}  // namespace s2a::air
