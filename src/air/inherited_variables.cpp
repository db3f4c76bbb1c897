#include "air/inherited_variables.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "air/keyword_list.hpp"
#include "air/setup.hpp"
#include "air/variables.hpp"
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

/// Slurm's own variables (other rules report $SLURM_*), PBS's and MPI's,
/// bash's BASH_* and the locale's LC_*.
constexpr std::array kProvidedPrefixes = {"SLURM_"sv, "SLURMD_"sv, "SBATCH_"sv, "PBS_"sv, "PMI_"sv,
                                          "PMIX_"sv,  "OMPI_"sv,   "BASH_"sv,   "LC_"sv};

bool is_provided(std::string_view name) {
  return !is_variable_name(name) || contains(kProvided, name) || is_runtime_variable(name) ||
         std::any_of(kProvidedPrefixes.begin(), kProvidedPrefixes.end(),
                     [&](std::string_view prefix) { return name.starts_with(prefix); });
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
      const std::string_view name = head.substr(0, head.find_first_of("=+[-*/%<>!&|^ "));
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
        add_identifiers(command.text);
        break;
      case ast::CommandKind::simple:
        for (const ast::Word& word : command.words) add_from_parts(word.parts);
        for (const ast::Assignment& a : command.assignments) add_from_parts(a.value.parts);
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
      if (part.script) add_from_list(part.script->body);
      add_from_parts(part.parts);
    }
  }

  /// `(( i++ ))`, `(( n = n + 1 ))`: any identifier may be assigned.
  void add_identifiers(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
      size_t j = i;
      while (j < text.size() && is_variable_name_char(text[j])) ++j;
      if (j > i && is_variable_name(text.substr(i, j - i))) add(text.substr(i, j - i));
      i = std::max(j, i + 1);
    }
  }

  /// Looked up by string_view without a copy.
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };
  std::unordered_set<std::string, Hash, std::equal_to<>> names_;
};

struct Uses {
  std::vector<std::string> names;  // distinct, in order of first use
  size_t count = 0;
  Span first;
};

class UseCollector {
 public:
  UseCollector(const AssignedNames& assigned, Uses& uses) : assigned_(assigned), uses_(uses) {}

  void collect(const ast::Command& command) {
    for (const ast::Word& word : command.words) collect(word.parts);
    for (const ast::Assignment& a : command.assignments) {
      collect(a.value.parts);
      for (const ast::Word& element : a.elements) collect(element.parts);
    }
    for (const ast::Redirect& redirect : command.redirects) {
      collect(redirect.target.parts);
      collect(redirect.heredoc_parts);
    }
  }

 private:
  void collect(const std::vector<ast::WordPart>& parts) {
    for (const ast::WordPart& part : parts) {
      if (part.kind == ast::PartKind::param && !has_own_default(part) && inherited(part.text)) {
        // Compound heads are collected after the sites: keep the earliest.
        if (uses_.count++ == 0 || part.span.begin < uses_.first.begin) uses_.first = part.span;
        if (std::find(uses_.names.begin(), uses_.names.end(), part.text) == uses_.names.end()) {
          uses_.names.push_back(part.text);
        }
      }
      collect(part.parts);
    }
  }

  /// Decided once per name: a script uses the same few names many times.
  bool inherited(std::string_view name) {
    const auto [it, added] = verdicts_.try_emplace(name, false);
    if (added) it->second = !is_provided(name) && !assigned_.has(name);
    return it->second;
  }

  const AssignedNames& assigned_;
  Uses& uses_;
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

/// A `source`/`.` or `eval` that stays in the command (not a removed setup
/// line such as conda.sh or venv/bin/activate): what it sets is not known,
/// so later uses are not judged.
bool may_set_unknown_variables(std::string_view program) {
  return program == "source" || program == "." || program == "eval";
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

}  // namespace

void report_inherited_variables(const slurm::Body& body, const slurm::Job& job,
                                Diagnostics& diagnostics) {
  if (body.views.empty() || !takes_submit_environment(job)) return;
  AssignedNames assigned;
  add_exported_names(job, assigned);
  assigned.add_from_list(body.parse.script.body);
  for (const slurm::Site& site : body.sites) assigned.add_from_site(site);
  Uses uses;
  UseCollector collector(assigned, uses);
  uint32_t judged_until = UINT32_MAX;  // where a `source` or `eval` may set anything
  for (const slurm::Site& site : body.sites) {
    if (site.view != 0) continue;  // a `bash -c` script's variables are judged with its own
    // module/conda lines are removed from the command: their uses go too.
    if (is_setup_command(*site.command, site.program, body.views[0].text)) continue;
    collector.collect(*site.command);
    if (may_set_unknown_variables(site.program)) {
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
}

}  // namespace s2a::air
