// Setup commands, exports and credentials: see setup.hpp. The rules here
// decide what leaves the command; the command mapper applies the edits.
#include "air/setup.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
#include <map>

#include "air/cluster_paths.hpp"
#include "air/container_call.hpp"
#include "air/keyword_list.hpp"
#include "air/launch.hpp"
#include "air/map_workload.hpp"
#include "air/variables.hpp"
#include "directives/text_util.hpp"
#include "source/ascii.hpp"

namespace s2a::air {

using std::string_view_literals::operator""sv;

namespace {

using slurm::Site;

/// The shortest token looks_like_token() accepts: a 3-character prefix and 16 more.
constexpr size_t kShortestToken = 19;

/// Where `text` first has `a` or `b`, or its size. (find_first_of calls
/// memchr once per character of the text.)
size_t find_either(std::string_view text, char a, char b) {
  return static_cast<size_t>(
      std::find_if(text.begin(), text.end(), [&](char c) { return c == a || c == b; }) -
      text.begin());
}

/// Appends `items` to `out`, separated by `separator`; empty items ahead of
/// the first text add nothing.
void append_joined(std::string& out, const std::vector<std::string>& items,
                   std::string_view separator = ", ") {
  bool wrote = false;
  for (const std::string& item : items) {
    if (item.empty() && !wrote) continue;
    if (wrote) out += separator;
    out += item;
    wrote = true;
  }
}

std::string join(const std::vector<std::string>& items, std::string_view separator = ", ") {
  std::string out;
  append_joined(out, items, separator);
  return out;
}

/// Where the bracket at `text[open]` is closed (nesting counted, escapes
/// skipped), or the end of the text.
size_t closing(std::string_view text, size_t open, char open_char, char close_char) {
  size_t depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == open_char) {
      ++depth;
    } else if (text[i] == close_char && --depth == 0) {
      return i;
    }
  }
  return text.size();
}

/// `$@ $* $# $? $$ $! $-` and the positional `$0`..`$9`.
bool is_special_parameter(char c) {
  return std::string_view("@*#?$!-0123456789").find(c) != std::string_view::npos;
}

/// A quote, an escape or an expansion: where a run of characters written as
/// they are ends. (A switch: find_first_of asks memchr of every character.)
bool starts_quote_or_expansion(char c) {
  switch (c) {
    case '\\':
    case '\'':
    case '`':
    case '"':
    case '$':
      return true;
    default:
      return false;
  }
}

/// The characters a shell word writes out itself, as opposed to expanding:
/// nothing for `$3`, `"${KEY}"`, `$(cat ~/.token)` or `` `pass show hf` ``;
/// the text for `"Bearer $T"` and the default for `${HF_TOKEN:-hf_...}`.
/// Quotes are dropped, escapes resolved. Only a credential written in the
/// script is moved to a secret: a value taken from an argument, another
/// variable or a command is not one.
std::string written_characters(std::string_view word) {
  std::string out;
  out.reserve(word.size());  // what is written out is at most the word
  for (size_t i = 0; i < word.size(); ++i) {
    const char c = word[i];
    if (c == '\\' && i + 1 < word.size()) {
      out += word[++i];
    } else if (c == '\'') {
      const size_t close = std::min(word.find('\'', i + 1), word.size());
      out += word.substr(i + 1, close - i - 1);
      i = close;
    } else if (c == '`') {
      i = std::min(word.find('`', i + 1), word.size());
    } else if (c == '"') {
      continue;
    } else if (c != '$' || i + 1 == word.size()) {
      // Characters the shell writes as they are: the run up to the next
      // quote, escape or expansion, appended at once.
      size_t run_end = i + 1;
      while (run_end < word.size() && !starts_quote_or_expansion(word[run_end])) ++run_end;
      out += word.substr(i, run_end - i);
      i = run_end - 1;
    } else if (word[i + 1] == '(') {
      i = closing(word, i + 1, '(', ')');
    } else if (word[i + 1] == '{') {
      const size_t close = closing(word, i + 1, '{', '}');
      std::string_view inside = word.substr(i + 2, close - i - 2);
      size_t name_end = 0;
      while (name_end < inside.size() && (is_variable_name_char(inside[name_end]) ||
                                          (name_end == 0 && is_special_parameter(inside[0])))) {
        ++name_end;
      }
      // ${NAME:-text} ${NAME-text} ${NAME:=text} ${NAME:+text}: the text is written.
      inside.remove_prefix(name_end);
      if (inside.starts_with(':')) inside.remove_prefix(1);
      if (!inside.empty() && (inside[0] == '-' || inside[0] == '=' || inside[0] == '+')) {
        out += written_characters(inside.substr(1));
      }
      i = close;
    } else if (is_variable_name_char(word[i + 1]) &&
               !std::isdigit(static_cast<unsigned char>(word[i + 1]))) {
      ++i;
      while (i + 1 < word.size() && is_variable_name_char(word[i + 1])) ++i;
    } else if (is_special_parameter(word[i + 1])) {
      ++i;  // $1 is one digit: `$12` is $1 then "2"
    } else {
      out += c;
    }
  }
  return out;
}

/// An assignment `name=written` (literal value `literal`, when it has one)
/// holds a credential written in the script: a secret name whose written
/// characters could be one, or written characters shaped like a token.
bool holds_credential(std::string_view name, std::string_view written,
                      std::optional<std::string_view> literal) {
  if (literal) {
    return looks_like_token(*literal) ||
           (is_secret_name(name) && could_be_credential(name, *literal));
  }
  // The written characters are no more than `written`: too few for a token,
  // they matter only under a secret name (rarely), and are worked out then.
  if (written.size() < kShortestToken && !is_secret_name(name)) return false;
  const std::string own = written_characters(written);
  return looks_like_token(own) || (is_secret_name(name) && could_be_credential(name, own));
}

/// The names a module is known by: each component of its name but the
/// versions (`devel/cuda/11.6`, `lib/nccl/2.11`), each also without a
/// `-11.8` / `_2023` suffix. Views of `module`, in the case it is written
/// in: the lists they are looked up in are compared ignoring case.
std::vector<std::string_view> module_names(std::string_view module) {
  std::vector<std::string_view> names;
  const auto add = [&](std::string_view part) {
    names.push_back(part);
    for (size_t i = 1; i + 1 < part.size(); ++i) {
      if ((part[i] == '-' || part[i] == '_') &&
          std::isdigit(static_cast<unsigned char>(part[i + 1]))) {
        names.push_back(part.substr(0, i));
        break;
      }
    }
  };
  for (size_t begin = 0; begin != std::string_view::npos;) {
    const size_t end = module.find('/', begin);
    const std::string_view part =
        module.substr(begin, end == std::string_view::npos ? end : end - begin);
    if (begin == 0 || (!part.empty() && !std::isdigit(static_cast<unsigned char>(part[0])))) {
      add(part);
    }
    begin = end == std::string_view::npos ? end : end + 1;
  }
  return names;
}

/// The names a module's package is known by: its first component's, or the
/// next one's after a category (`devel/cuda/11.6`, `lib/nccl/2.11`). A
/// later component is a variant (`lammps/2018/cuda`, `openmpi/cuda-8.0/..`
/// are LAMMPS and Open MPI built for CUDA, not CUDA). Views of `module`.
std::vector<std::string_view> package_names(std::string_view module) {
  std::vector<std::string_view> names = module_names(module);
  static constexpr std::array kCategories = {
      "devel"sv, "lib"sv,    "libs"sv, "library"sv,  "compiler"sv, "compilers"sv,
      "tools"sv, "system"sv, "lang"sv, "math"sv,     "numlib"sv,   "ai"sv,
      "ml"sv,    "apps"sv,   "soft"sv, "software"sv, "nvidia"sv};
  const size_t slash = module.find('/');
  if (slash == std::string_view::npos) return names;
  const std::string_view first = module.substr(0, slash);
  if (std::any_of(kCategories.begin(), kCategories.end(), [&](std::string_view category) {
        return directives::detail::iequals(first, category);
      })) {
    return names;
  }
  std::erase_if(names,
                [&](std::string_view n) { return !directives::detail::istarts_with(first, n); });
  return names;
}

/// Whether `lower_names` (lower case) holds `name`, in any mix of cases.
template <size_t N>
bool contains_ignoring_case(const std::array<std::string_view, N>& lower_names,
                            std::string_view name) {
  return std::any_of(lower_names.begin(), lower_names.end(), [&](std::string_view lower) {
    return directives::detail::iequals(name, lower);
  });
}

/// Python 2 (`python/2.7.15`, `python2`, `Anaconda2`): the environment's
/// Python is 3. Compared ignoring case, in place.
bool is_python2_module(std::string_view module) {
  for (std::string_view prefix : {"python/2", "python-2", "python2", "anaconda2", "miniconda2"}) {
    if (directives::detail::istarts_with(module, prefix)) return true;
  }
  // A component `python/2...` after the first: looked for at each '/', not
  // at each character.
  for (size_t slash = module.find('/'); slash != std::string_view::npos;
       slash = module.find('/', slash + 1)) {
    if (directives::detail::istarts_with(module.substr(slash), "/python/2")) return true;
  }
  return false;
}

// The module names below are asked of every name of every module loaded, as
// written (any case): arrays, not initializer lists, which are built anew at
// each call.

bool provided_by_runtime(std::string_view base) {
  static constexpr std::array kNames = {
      "cuda"sv,        "cudnn"sv,   "nccl"sv,       "cuda-toolkit"sv, "cudatoolkit"sv,
      "python"sv,      "python3"sv, "pytorch"sv,    "torch"sv,        "aws-ofi-nccl"sv,
      "nccl-plugin"sv, "gpu"sv,     "cray-python"sv};
  return contains_ignoring_case(kNames, base);
}

/// Python with conda: the environment has the Python, not the conda.
bool is_python_distribution(std::string_view base) {
  static constexpr std::array kNames = {"anaconda"sv,   "anaconda3"sv,  "miniconda"sv,
                                        "miniconda3"sv, "miniforge"sv,  "miniforge3"sv,
                                        "mamba"sv,      "micromamba"sv, "conda"sv};
  return contains_ignoring_case(kNames, base);
}

bool is_toolchain(std::string_view base) {
  static constexpr std::array kNames = {
      "gcc"sv,           "gnu"sv,      "intel"sv,      "intel-oneapi"sv, "llvm"sv,
      "clang"sv,         "cmake"sv,    "nvhpc"sv,      "pgi"sv,          "openmpi"sv,
      "mpich"sv,         "mvapich2"sv, "intel-mpi"sv,  "impi"sv,         "hpcx"sv,
      "ucx"sv,           "git"sv,      "binutils"sv,   "ninja"sv,        "singularity"sv,
      "apptainer"sv,     "stdenv"sv,   "2023"sv,       "2024"sv,         "prgenv-gnu"sv,
      "prgenv-nvidia"sv, "craype"sv,   "cray-mpich"sv, "libfabric"sv};
  return contains_ignoring_case(kNames, base);
}

/// A requirements file the runtime can read: relative, under the code root.
bool under_code_root(std::string_view path) {
  if (path.empty() || path.front() == '/' || path.front() == '~' ||
      path.find('$') != std::string_view::npos) {
    return false;
  }
  return path != ".." && !path.starts_with("../") && path.find("/../") == std::string_view::npos;
}

/// The scripts that define `module` (Environment Modules, Lmod): AI Runtime
/// nodes have neither, so sourcing them fails like the `module` calls after.
bool is_module_system_init(std::string_view path) {
  while (!path.empty() && (path.back() == '"' || path.back() == '\'')) path.remove_suffix(1);
  for (std::string_view ending : {"/profile.d/modules.sh", "/profile.d/lmod.sh",
                                  "/profile.d/z00_lmod.sh", "/profile.modules", "/slmodules.sh"}) {
    if (path.ends_with(ending)) return true;
  }
  const size_t init = path.rfind("/init/");
  if (init == std::string_view::npos) return false;
  const std::string_view shell = path.substr(init + 6);
  if (shell != "bash" && shell != "sh" && shell != "profile" && shell != "bash_completion") {
    return false;
  }
  const std::string_view home = path.substr(0, init);
  return home.ends_with("/Modules") || home.ends_with("/modules") || home.ends_with("/lmod") ||
         home.ends_with("MODULESHOME") || home.ends_with("MODULESHOME}") ||
         home.ends_with("LMOD_PKG") || home.ends_with("LMOD_PKG}");
}

/// Variables bash reads only from its own assignments, or at start-up: an
/// inherited IFS is reset, and BASH_ENV, SHELLOPTS and the like would change
/// the shell before its first line instead of where the script sets them.
bool is_shell_setting(std::string_view name) {
  return contains({"IFS", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "POSIXLY_CORRECT",
                   "GLOBIGNORE", "BASH_XTRACEFD", "PS4"},
                  name);
}

/// Search paths the node's environment sets itself: a literal value
/// replaced them from its line on under Slurm; in env_variables it would
/// replace the environment's own for the whole run (its python, its CUDA).
bool is_search_path(std::string_view name) {
  return contains({"PATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "PYTHONHOME"}, name);
}

/// Builtins whose NAME arguments are assigned or unset: the declaration
/// builtins and these. Asked of every command: the length rules out most.
bool writes_variables(std::string_view program) {
  if (slurm::is_declaration_builtin(program)) return true;
  switch (program.size()) {
    case 3:
      return program == "let";
    case 4:
      return program == "read";
    case 5:
      return program == "unset";
    case 6:
      return program == "printf";
    case 7:
      return program == "mapfile" || program == "getopts";
    case 9:
      return program == "readarray";
    default:
      return false;
  }
}

/// The environment `conda run` options from `from` to `end` name (`-n ENV`,
/// `--name=ENV`, `-p PREFIX`: its last path component), or "".
std::string conda_run_environment(const std::vector<ast::Word>& words, size_t from, size_t end) {
  std::string env;
  for (size_t i = from; i < end; ++i) {
    const std::string option = slurm::literal_value(words[i]).value_or("");
    std::optional<std::string> value;
    if ((option == "-n" || option == "--name" || option == "-p" || option == "--prefix") &&
        i + 1 < end) {
      value = slurm::literal_value(words[++i]);
    } else if (option.starts_with("--name=") || option.starts_with("--prefix=")) {
      value = option.substr(option.find('=') + 1);
    }
    if (!value) continue;
    while (!value->empty() && value->back() == '/') value->pop_back();
    env = value->substr(value->rfind('/') + 1);
  }
  return env;
}

constexpr std::string_view kCondaPackagesHint =
    "export the environment's packages (`pip freeze > requirements.txt` inside it) and pass "
    "--requirements requirements.txt, or map it under conda_envs in the site profile";

/// `base/relative` with `.` and `..` resolved; nullopt when it climbs above
/// the code root.
std::optional<std::string> join_under_root(std::string base, std::string_view relative) {
  while (!relative.empty()) {
    const size_t slash = relative.find('/');
    const std::string_view part = relative.substr(0, slash);
    relative = slash == std::string_view::npos ? "" : relative.substr(slash + 1);
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (base.empty()) return std::nullopt;
      const size_t last = base.rfind('/');
      base.erase(last == std::string::npos ? 0 : last);
      continue;
    }
    if (!base.empty()) base += '/';
    base += part;
  }
  return base;
}

}  // namespace

std::unordered_map<std::string_view, int> count_variable_writes(const slurm::Body& body) {
  std::unordered_map<std::string_view, int> writes;
  auto add = [&](std::string_view name) {
    name = name.substr(0, name.find('['));  // `a[0]=x` writes a
    if (is_variable_name(name)) ++writes[name];
  };
  for (const Site& site : body.sites) {
    const ast::Command& command = *site.command;
    if (command.words.empty()) {  // `A=1 B=2`; prefixes of a command last only for it
      for (const ast::Assignment& a : command.assignments) add(a.name);
      continue;
    }
    if (!writes_variables(site.program)) continue;
    const std::string_view text = body.views[site.view].text;
    for (size_t i = 1; i < command.words.size(); ++i) {
      const std::string_view written =
          text.substr(command.words[i].span.begin, command.words[i].span.size());
      add(written.substr(0, find_either(written, '=', '+')));
    }
  }
  for (const Site& head : body.compound_heads) {
    const ast::CommandKind kind = head.command->kind;
    if (kind == ast::CommandKind::for_clause || kind == ast::CommandKind::select_clause) {
      add(head.command->name);
    }
  }
  return writes;
}

namespace {

/// Whether bash expands a tilde in an assignment's value (`HOME=~`,
/// `PATH=~/bin:~/.local/bin`): a `~` unquoted at the start of the value or
/// after an unquoted `:`. `value_begin` is where the value starts in the
/// word (after `NAME=`). The value is then the home directory, not text.
bool expands_tilde(const ast::Word& word, uint32_t value_begin, std::string_view view_text) {
  bool at_start = true;  // at the value's start or just after an unquoted `:`
  for (const ast::WordPart& part : word.parts) {
    if (part.span.end <= value_begin) continue;
    if (part.kind != ast::PartKind::literal) {
      at_start = false;
      continue;
    }
    const uint32_t from = std::max(part.span.begin, value_begin);
    const std::string_view written = view_text.substr(from, part.span.end - from);
    for (size_t i = 0; i < written.size(); ++i) {
      if (written[i] == '~' && at_start) return true;
      at_start = written[i] == ':';
      if (written[i] == '\\') ++i;  // an escaped character is quoted
    }
  }
  return false;
}

/// The value of an assignment when it is plain text: no expansion, no tilde.
/// A view of the word's literal (folded into `storage` for a word of several
/// parts), so a caller copies only the part it keeps.
std::optional<std::string_view> literal_assigned_value(const ast::Word& word, uint32_t value_begin,
                                                       std::string_view view_text,
                                                       std::optional<std::string>& storage) {
  const std::optional<std::string_view> literal = slurm::literal_view(word, storage);
  if (!literal || literal->find('~') == std::string_view::npos) return literal;
  if (expands_tilde(word, value_begin, view_text)) return std::nullopt;
  return literal;
}

/// Appends an Assignment built in place, its strings copied once from the
/// views (a braced temporary would be copied into, then moved).
void add_assignment(std::vector<Assignment>& out, std::string_view name,
                    std::optional<std::string_view> literal, Span value_span, bool exported) {
  Assignment& added = out.emplace_back();
  added.name = name;
  if (literal) added.literal.emplace(*literal);
  added.value_span = value_span;
  added.exported = exported;
}

}  // namespace

std::vector<Assignment> assignments_of(const ast::Command& command, const Site& site,
                                       std::string_view view_text) {
  std::vector<Assignment> out;
  if (command.words.empty()) {
    out.reserve(command.assignments.size());
    for (const auto& a : command.assignments) {
      std::optional<std::string> storage;
      const std::optional<std::string_view> literal =
          a.is_array ? std::nullopt
                     : literal_assigned_value(a.value, a.value.span.begin, view_text, storage);
      add_assignment(out, a.name, literal, a.value.span, false);
    }
    return out;
  }
  if (site.program != "export"sv || !command.assignments.empty()) return out;
  for (size_t i = 1; i < command.words.size(); ++i) {
    const ast::Word& word = command.words[i];
    const std::string_view written = view_text.substr(word.span.begin, word.span.size());
    const size_t eq = written.find('=');
    if (eq == std::string_view::npos || written.front() == '-') return {};
    const std::string_view name = written.substr(0, eq);
    if (!is_variable_name(name)) return {};
    const Span value_span{static_cast<uint32_t>(word.span.begin + eq + 1), word.span.end};
    // The word's literal is `NAME=value`: only the value is copied.
    std::optional<std::string> storage;
    const std::optional<std::string_view> literal =
        literal_assigned_value(word, value_span.begin, view_text, storage);
    add_assignment(out, name,
                   literal ? std::optional(literal->substr(literal->find('=') + 1)) : std::nullopt,
                   value_span, true);
  }
  return out;
}

bool is_module_tool(std::string_view program) {
  return program == "module"sv || program == "ml"sv || program == "spack"sv ||
         program.starts_with("vpkg_");
}

bool is_setup_tool(std::string_view program) {
  return is_module_tool(program) || program == "conda"sv || program == "mamba"sv ||
         program == "micromamba"sv;
}

namespace {

/// module, ml, spack, conda, mamba, micromamba, vpkg_require, vpkg_devrequire.
/// Asked of every command: the length rules out most.
bool is_setup_program(std::string_view program) {
  switch (program.size()) {
    case 2:
      return program == "ml"sv;
    case 5:
      return program == "spack"sv || program == "conda"sv || program == "mamba"sv;
    case 6:
      return program == "module"sv;
    case 10:
      return program == "micromamba"sv;
    case 12:
      return program == "vpkg_require"sv;
    case 15:
      return program == "vpkg_devrequire"sv;
    default:
      return false;
  }
}

}  // namespace

bool is_setup_command(const ast::Command& command, const std::string& program,
                      std::string_view view_text) {
  // Asked of every command: the last letter of the programs below (module,
  // source, deactivate, vpkg_*; ml, eval; conda, mamba, micromamba; spack;
  // `.`) rules out most others (python, srun, echo, export, cd) before any
  // comparison.
  switch (program.empty() ? '\0' : program.back()) {
    case 'e':
    case 'l':
    case 'a':
    case 'k':
    case '.':
      break;
    default:
      return false;
  }
  if (is_setup_program(program)) return true;
  // A virtual environment's own function: its activation is removed, so it is not defined.
  if (program == "deactivate"sv) return command.words.size() == 1;
  if ((program == "source"sv || program == "."sv) && command.words.size() >= 2) {
    const ast::Word& target = command.words[1];
    const std::string_view written = view_text.substr(target.span.begin, target.span.size());
    std::string_view path = written;
    while (!path.empty() && (path.back() == '"' || path.back() == '\'')) path.remove_suffix(1);
    return path == "activate" || path == "deactivate" || path.ends_with("/activate") ||
           path.ends_with("/deactivate") || path.ends_with("spack/setup-env.sh") ||
           path.ends_with("conda.sh") || is_module_system_init(path);
  }
  if (program == "eval"sv && command.words.size() >= 2) {
    const ast::Word& arg = command.words[1];
    const std::string_view written = view_text.substr(arg.span.begin, arg.span.size());
    return written.find("conda shell") != std::string_view::npos ||
           written.find("mamba shell") != std::string_view::npos ||
           written.find("micromamba shell") != std::string_view::npos;
  }
  return false;
}

bool looks_like_token(std::string_view value) {
  // The shortest token is a 3-character prefix and 16 more: most words are
  // shorter, and this runs on every word of the script.
  if (value.size() < kShortestToken) return false;
  auto tail_is_token = [&](size_t from, size_t min) {
    if (value.size() < from + min) return false;
    return std::all_of(value.begin() + static_cast<std::ptrdiff_t>(from), value.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    });
  };
  // An array, not an initializer list, which would be built anew at each call.
  static constexpr std::array kPrefixes = {"hf_"sv,         "sk-"sv,      "ghp_"sv,  "gho_"sv,
                                           "github_pat_"sv, "glpat-"sv,   "xoxb-"sv, "xoxp-"sv,
                                           "dapi"sv,        "wandb_v1_"sv};
  for (std::string_view prefix : kPrefixes) {
    // The first character rules out most prefixes without a comparison call.
    if (value.front() == prefix.front() && value.starts_with(prefix) &&
        tail_is_token(prefix.size(), 16)) {
      return true;
    }
  }
  return value.starts_with("AKIA") && value.size() == 20 && tail_is_token(4, 16);
}

// --- setup commands ------------------------------------------------------------

bool SetupMapper::top_level(const Site& site) const {
  const slurm::Context& c = site.context;
  return !c.in_function && !c.in_loop && !c.in_branch && !c.background && !c.in_substitution &&
         site.statement != nullptr && site.view == 0;
}

uint32_t SetupMapper::first_kept_source() {
  if (!first_kept_source_) {
    first_kept_source_ = UINT32_MAX;
    const std::string_view text = body_.views[0].text;
    for (const Site& site : body_.sites) {
      if (site.view == 0 && (site.program == "source"sv || site.program == "."sv) &&
          !is_setup_command(*site.command, site.program, text)) {
        first_kept_source_ = site.command->span.begin;
        break;
      }
    }
  }
  return *first_kept_source_;
}

std::vector<std::pair<uint32_t, SetupMapper::WorkingDirectory>> SetupMapper::directory_changes()
    const {
  std::vector<std::pair<uint32_t, WorkingDirectory>> out;
  WorkingDirectory where;
  for (const Site& earlier : body_.sites) {
    if (earlier.view != 0) continue;
    const bool cd = earlier.program == "cd"sv;
    if (earlier.context.in_substitution ||
        (!cd && earlier.program != "pushd"sv && earlier.program != "popd"sv)) {
      continue;
    }
    const auto& words = earlier.command->words;
    std::optional<std::string> next;
    if (cd && top_level(earlier) && words.size() == 2) {
      if (auto sub = under_job_directory(editor_.source(0, words[1].span))) {
        next = std::move(*sub);
      } else if (auto literal = slurm::literal_value(words[1]);
                 literal && !literal->starts_with('-') && !literal->starts_with('/') &&
                 !literal->starts_with('~')) {
        next = join_under_root(std::move(*where.relative), *literal);
      }
    }
    const uint32_t at = earlier.command->span.begin;
    if (!next) {
      out.emplace_back(at, WorkingDirectory{std::nullopt, &earlier});
      break;
    }
    where.relative = std::move(next);
    out.emplace_back(at, where);
  }
  return out;
}

// Asked for each `pip install -r`: the changes are found once, as a scan of
// the sites before each made long scripts quadratic.
SetupMapper::WorkingDirectory SetupMapper::working_directory_at(const Site& site) {
  if (!directory_changes_) directory_changes_ = directory_changes();
  const uint32_t at = site.command->span.begin;
  const auto after = std::partition_point(directory_changes_->begin(), directory_changes_->end(),
                                          [&](const auto& change) { return change.first < at; });
  return after == directory_changes_->begin() ? WorkingDirectory{} : std::prev(after)->second;
}

namespace {

/// `"./venv/"` → `venv`: how two words naming one directory compare.
std::string_view environment_dir(std::string_view written) {
  while (!written.empty() && (written.front() == '"' || written.front() == '\'')) {
    written.remove_prefix(1);
  }
  while (!written.empty() && (written.back() == '"' || written.back() == '\'')) {
    written.remove_suffix(1);
  }
  while (written.starts_with("./")) written.remove_prefix(2);
  while (written.size() > 1 && written.back() == '/') written.remove_suffix(1);
  return written;
}

/// The directory word of `python3 -m venv [opts] DIR`, `virtualenv [opts]
/// DIR` or `uv venv [opts] DIR`; SIZE_MAX for any other command.
size_t created_environment_word(const Site& site) {
  // Asked of every site, twice: most programs are ruled out by their first
  // letter (virtualenv, uv, python) before any comparison.
  const std::string_view program = site.program;
  if (program.empty() || (program[0] != 'v' && program[0] != 'u' && program[0] != 'p')) {
    return SIZE_MAX;
  }
  const auto& words = site.command->words;
  size_t i = 0;
  if (site.program == "virtualenv"sv) {
    i = 1;
  } else if (site.program == "uv"sv && words.size() > 1 && slurm::literal_is(words[1], "venv")) {
    i = 2;
  } else if (site.program.starts_with("python") && words.size() > 2 &&
             slurm::literal_is(words[1], "-m") && slurm::literal_is(words[2], "venv")) {
    i = 3;
  } else {
    return SIZE_MAX;
  }
  for (; i < words.size(); ++i) {
    const std::optional<std::string> option = slurm::literal_value(words[i]);
    if (!option || !option->starts_with('-')) return i;
    // virtualenv's and uv's options with a separate value: -p python3.
    if (contains({"-p", "--python", "--prompt", "--seeder", "--activators", "--creator"},
                 *option)) {
      ++i;
    }
  }
  return SIZE_MAX;
}

}  // namespace

const Site* SetupMapper::creation_of(std::string_view dir) {
  if (!created_environments_) {
    created_environments_.emplace();
    for (const Site& site : body_.sites) {
      const size_t word = created_environment_word(site);
      if (word == SIZE_MAX) continue;
      created_environments_->push_back(
          {std::string(environment_dir(editor_.source(site.view, site.command->words[word].span))),
           &site});
    }
  }
  for (const CreatedEnvironment& created : *created_environments_) {
    if (created.dir == dir) return created.site;
  }
  return nullptr;
}

bool SetupMapper::activates_created_environment(std::string_view target) {
  const std::string_view path = environment_dir(target);
  constexpr std::string_view kActivate = "/bin/activate";
  return path.ends_with(kActivate) &&
         creation_of(path.substr(0, path.size() - kActivate.size())) != nullptr;
}

namespace {

/// What to do instead of making the image in the job, by what it is made from.
std::string image_source_hint(const std::optional<std::string>& source, bool build) {
  const bool uri = source && source->find("://") != std::string::npos;
  if (const auto ref = uri ? parse_image_reference(*source) : std::nullopt) {
    return "a later exec or run of the saved file runs in environment.docker_image " + ref->url() +
           "; register it once with `databricks experimental air register-image " + ref->url() +
           "`";
  }
  if (build) {
    return "build the image outside the job as an OCI image, push it to a registry and set "
           "environment.docker_image (or map the file under images: in the site profile)";
  }
  return "copy the image to an OCI registry AI Runtime can pull and set "
         "environment.docker_image (or map the file under images: in the site profile)";
}

}  // namespace

/// `singularity pull|build` and `singularity instance start|stop` make or
/// manage an image on the cluster: singularity does not exist on AI Runtime
/// nodes, and the image they make is the workload's (a later exec of the
/// file or instance is mapped to it, air/map_workload.cpp). Under srun
/// (`srun -N1 singularity pull ...`, a step that only makes the image) the
/// whole step goes the same way: the workload mapping reads the image from
/// srun's operand too. `shifterimg pull IMAGE` fills NERSC's image
/// gateway for a later `shifter --image`, which becomes
/// environment.docker_image. docker's pull/build/rm/... go through
/// remove_docker_image_step().
bool SetupMapper::remove_container_image_step(const Site& site) {
  // `sudo docker pull`: sudo was there for docker; the line goes whole.
  const auto& words = site.command->words;
  const size_t start = slurm::container_step_start(site);
  if (start >= words.size()) return false;
  std::optional<std::string> storage;
  const std::string_view program =
      start == 0 ? std::string_view(site.program) : slurm::program_view(words[start], storage);
  const bool shifter_gateway = program == "shifterimg"sv;
  if (program == "enroot"sv || program == "udocker"sv) {
    return remove_user_space_image_step(site, start, program);
  }
  if (!shifter_gateway && program != "singularity"sv && program != "apptainer"sv) {
    // Asked of every command: the name rules out all but docker's kind
    // before find_docker_image_step() reads the program word again.
    return slurm::is_container_program(program) && remove_docker_image_step(site, start, program);
  }
  const std::string_view text = body_.views[site.view].text;
  const Span whole{words.front().span.begin, words.back().span.end};
  const std::string written(editor_.source(site.view, whole));
  std::string message, hint;
  if (shifter_gateway) {
    message = "`" + written +
              "` asks the cluster's shifter image gateway; AI Runtime nodes have no shifterimg, "
              "so " +
              std::string(kLineRemoved);
    hint =
        "nothing to do: AI Runtime pulls environment.docker_image itself (a `shifter --image` "
        "of the script becomes it)";
  } else if (const auto fetch = slurm::find_image_fetch(words, start, text)) {
    message = "`" + written + "` " + (fetch->build ? "builds" : "pulls") +
              " an image on the cluster; AI Runtime nodes have no " + std::string(program) +
              ", so " + std::string(kLineRemoved);
    hint = image_source_hint(
        fetch->source < words.size() ? slurm::literal_value(words[fetch->source]) : std::nullopt,
        fetch->build);
  } else if (const auto instance = slurm::find_instance_start(words, start, text)) {
    message = "`" + written + "` starts an instance of the image; AI Runtime nodes have no " +
              std::string(program) + ", so " + std::string(kLineRemoved) +
              " and commands run in the instance run directly in the "
              "workload's environment";
    hint =
        "the image's startscript does not run: start any service it ran (a database, a "
        "server) in the command";
  } else if (words.size() >= start + 3 && slurm::literal_is(words[start + 1], "instance") &&
             slurm::literal_is(words[start + 2], "stop")) {
    message = "`" + written + "` stops an instance, which AI Runtime nodes do not have; " +
              std::string(kLineRemoved);
  } else {
    return false;
  }
  editor_.report(Code::container_image_step, site.view, whole, message, hint);
  editor_.remove_statement(site, "AI Runtime nodes have no " + std::string(program), {});
  return true;
}

/// `docker pull|build|rm|stop|login|ps|...` (podman, nvidia-docker, nerdctl):
/// AI Runtime nodes have no docker, and the workload names its image
/// itself; the line goes like singularity's pull. A listing (`ps`,
/// `images`) stays, reported, when a pipe or a condition reads it.
bool SetupMapper::remove_docker_image_step(const Site& site, size_t start,
                                           std::string_view engine) {
  const auto& words = site.command->words;
  const auto step = slurm::find_docker_image_step(words, start);
  if (!step || (step->lists && site.statement == nullptr)) return false;
  const Span whole{words.front().span.begin, words.back().span.end};
  // A login's arguments may hold the password: the report and the comment
  // left behind show the subcommand only.
  const std::string shown =
      step->login ? std::string(editor_.source(
                        site.view, Span{whole.begin, words[step->subcommand].span.end})) +
                        " ..."
                  : std::string(editor_.source(site.view, whole));
  std::string message = "`" + shown + "` ", hint;
  if (step->build) {
    message += "builds an image on the cluster";
    hint =
        "build the image outside the job, push it to a registry and set "
        "environment.docker_image" +
        (step->tag.empty()
             ? std::string()
             : " (a later `" + std::string(engine) + " run " + step->tag +
                   "` is that image; or map " + step->tag + " under images: in the site profile)");
  } else if (step->pull) {
    message += "pulls an image on the cluster";
    hint = "a later `" + std::string(engine) +
           " run` of the image runs in the workload's environment.docker_image, which AI "
           "Runtime pulls itself";
  } else {
    message += "manages the cluster's images or containers";
  }
  message +=
      "; AI Runtime nodes have no " + std::string(engine) + ", so " + std::string(kLineRemoved);
  editor_.report(Code::container_image_step, site.view, whole, message, hint);
  editor_.remove_statement(site, "AI Runtime nodes have no " + std::string(engine),
                           step->login ? std::string_view(shown) : std::string_view());
  return true;
}

/// `enroot import|create|remove|list` and `udocker pull|create|setup|rm|...`:
/// AI Runtime nodes have neither; the image a later `enroot start` or
/// `udocker run` ran is the workload's (air/map_workload.cpp follows the
/// file or container name back to the image), so the line goes like
/// docker's pull. A listing stays, reported, when a pipe or condition reads it.
bool SetupMapper::remove_user_space_image_step(const Site& site, size_t start,
                                               std::string_view engine) {
  const auto& words = site.command->words;
  const bool enroot = engine == "enroot"sv;
  const auto step = enroot ? slurm::find_enroot_step(words, start, body_.views[site.view].text)
                           : slurm::find_udocker_step(words, start);
  if (!step || (step->lists && site.statement == nullptr)) return false;
  const Span whole{words.front().span.begin, words.back().span.end};
  const std::string written(editor_.source(site.view, whole));
  const std::string later = enroot ? "`enroot start`" : "`udocker run`";
  std::string message = "`" + written + "` ", hint;
  using Kind = slurm::ContainerImageStep::Kind;
  const std::optional<std::string> source =
      step->source < words.size() ? slurm::literal_value(words[step->source]) : std::nullopt;
  if (step->kind == Kind::fetch) {
    message += enroot ? "imports an image on the cluster" : "pulls an image on the cluster";
    const std::optional<ImageReference> ref =
        source ? parse_image_reference(enroot ? slurm::without_enroot_user(*source)
                                              : "docker://" + *source)
               : std::nullopt;
    // pyxis' --container-image reads enroot's image files too.
    hint = "a later " + (enroot ? later + " (or `srun --container-image`)" : later) + " of " +
           (step->made.empty() ? std::string("it") : "`" + step->made + "`") +
           " runs in the workload's environment.docker_image" +
           (ref ? " " + ref->url() +
                      "; register it once with `databricks experimental air "
                      "register-image " +
                      ref->url() + "`"
                : std::string(", which AI Runtime pulls itself"));
  } else if (step->kind == Kind::create) {
    message += "makes a container from an image on the cluster";
    hint = "a later " + later + " of " +
           (step->made.empty() ? std::string("the container") : "`" + step->made + "`") +
           " runs directly in the workload's environment, whose image is the one the container "
           "was made from";
  } else {
    message += "manages the cluster's " + std::string(engine) + " images or containers";
  }
  message +=
      "; AI Runtime nodes have no " + std::string(engine) + ", so " + std::string(kLineRemoved);
  editor_.report(Code::container_image_step, site.view, whole, message, hint);
  editor_.remove_statement(site, "AI Runtime nodes have no " + std::string(engine), {});
  return true;
}

bool SetupMapper::remove_environment_creation(const Site& site) {
  const size_t word = created_environment_word(site);
  if (word == SIZE_MAX) return false;
  const std::string_view dir =
      environment_dir(editor_.source(site.view, site.command->words[word].span));
  const bool activated =
      std::any_of(body_.sites.begin(), body_.sites.end(), [&](const Site& other) {
        if ((other.program != "source"sv && other.program != "."sv) ||
            other.command->words.size() < 2) {
          return false;
        }
        const std::string_view target =
            environment_dir(editor_.source(other.view, other.command->words[1].span));
        return target == std::string(dir) + "/bin/activate";
      });
  if (!activated) return false;
  editor_.report(Code::setup_command_removed, site.view, site.command->span,
                 "`" + std::string(editor_.source(site.view, site.command->span)) +
                     "` creates the virtual environment the script activates; the workload's "
                     "environment takes its place, and what the script installs into it moves "
                     "to environment.dependencies (or stays in the command, where reported)",
                 "check environment.dependencies against what the environment had");
  editor_.remove_statement(site, "the workload's environment replaces the virtual environment", {});
  return true;
}

namespace {

/// The conda environment a `source activate [ENV]` (conda's legacy
/// activation) or `source CONDA/bin/activate ENV` activates: ENV as written
/// ("" when computed), `base` when none is named; nullopt for a virtual
/// environment's `source VENV/bin/activate`, which takes no argument.
std::optional<std::string> legacy_conda_activation(const ast::Command& command,
                                                   std::string_view target) {
  while (!target.empty() && (target.back() == '"' || target.back() == '\'')) {
    target.remove_suffix(1);
  }
  const bool bare = target == "activate";
  if (!bare && !target.ends_with("/activate")) return std::nullopt;
  if (command.words.size() < 3) {
    if (bare) return std::string("base");
    return std::nullopt;
  }
  return slurm::literal_value(command.words[2]).value_or("");
}

}  // namespace

/// `conda activate ENV` (and `source activate ENV`): the environment is the
/// site profile's requirements file for ENV, or its packages are not known.
void SetupMapper::report_conda_activation(const Site& site, const std::string& env) {
  const Span span = site.command->span;
  if (const std::string* file = add_conda_environment(env)) {
    editor_.report(Code::setup_command_removed, site.view, span,
                   "conda environment " + env + " is replaced by environment.dependencies `-r " +
                       *file + "` (from the site profile)",
                   "check that " + *file + " lists every package the environment had");
    return;
  }
  editor_.report(Code::setup_command_removed, site.view, span,
                 "conda environment " + (env.empty() ? std::string("(computed)") : env) +
                     " does not exist on AI Runtime nodes; its packages are not known",
                 std::string(kCondaPackagesHint));
}

bool SetupMapper::map_setup_command(const Site& site) {
  const ast::Command& command = *site.command;
  const std::string_view text = body_.views[site.view].text;
  // pip, pip3, `python -m pip`: asked of every command, the first letter
  // rules out most (echo, srun, set) before any comparison.
  if (site.program.starts_with('p')) {
    const bool python_pip = site.program.starts_with("python") && command.words.size() >= 4 &&
                            slurm::literal_is(command.words[1], "-m") &&
                            slurm::literal_is(command.words[2], "pip");
    if (site.program == "pip"sv || site.program == "pip3"sv || python_pip) {
      return map_pip_install(site);
    }
  }
  // Both return at once for programs they do not handle.
  if (remove_environment_creation(site) || remove_container_image_step(site)) return true;
  if (site.program == "unset"sv) report_unset_search_paths(site);
  if (!is_setup_command(command, site.program, text)) return false;
  const std::string first(editor_.source(site.view, command.words.front().span));
  if (is_module_tool(site.program)) {
    report_module(site);
    editor_.remove_statement(site, "environment setup is done by AI Runtime's environment", {});
    return true;
  }
  if (site.program == "conda"sv || site.program == "mamba"sv || site.program == "micromamba"sv) {
    if (command.words.size() >= 2 && slurm::literal_is(command.words[1], "run")) {
      return false;  // the command it runs stays: unwrap_conda_run()
    }
    const bool activate =
        command.words.size() >= 3 && slurm::literal_value(command.words[1]) == "activate";
    if (activate) {
      report_conda_activation(site, slurm::literal_value(command.words[2]).value_or(""));
    } else {
      editor_.report(
          Code::setup_command_removed, site.view, command.span,
          "`" + first + "` does not exist on AI Runtime nodes" + std::string(kAndIsRemoved),
          std::string(kCondaPackagesHint));
    }
    editor_.remove_statement(site, "environment setup is done by AI Runtime's environment", {});
    return true;
  }
  if (site.program == "eval"sv) {
    // Reported first: a removed pipeline stage restates the report.
    editor_.report(Code::setup_command_removed, site.view, command.span,
                   "the conda shell hook is removed: AI Runtime nodes have no conda",
                   "list the environment's packages in environment.dependencies");
    editor_.remove_statement(site, "conda's shell hook is not needed on AI Runtime", {});
    return true;
  }
  if (site.program == "deactivate"sv) {
    editor_.report(Code::setup_command_removed, site.view, command.span,
                   "`deactivate` ends a virtual environment, and AI Runtime nodes have none (its "
                   "activation is removed); left in, it fails with \"command not found\", which "
                   "as the last command fails the run",
                   "the environment's packages are reported where it was activated");
    editor_.remove_statement(site, "no virtual environment to leave on AI Runtime", {});
    return true;
  }
  const std::string target(editor_.source(site.view, command.words[1].span));
  if (const auto env = legacy_conda_activation(command, target)) {
    report_conda_activation(site, *env);
    editor_.remove_statement(site, "environment setup is done by AI Runtime's environment", {});
    return true;
  }
  if (target == "deactivate" || target.ends_with("/deactivate")) {
    editor_.report(Code::setup_command_removed, site.view, command.span,
                   "`" + first + " " + target +
                       "` leaves an environment that AI Runtime nodes do not have (its "
                       "activation is removed); the file does not exist there either",
                   "the environment's packages are reported where it was activated");
    editor_.remove_statement(site, "no environment to leave on AI Runtime", {});
    return true;
  }
  const bool spack = target.find("spack") != std::string::npos;
  const bool modules = !spack && is_module_system_init(target);
  const bool lmod = modules && target.find("lmod") != std::string::npos;
  // etc/profile.d/conda.sh defines the `conda` function and activates nothing.
  const bool conda_hook = target.ends_with("/conda.sh") || target == "conda.sh";
  const std::string line = "`" + first + " " + target + "`";
  const std::string what =
      spack || modules ? line + " sets up " +
                             (spack  ? "spack"
                              : lmod ? "Lmod"
                                     : "environment modules (the `module` command)") +
                             ", which AI Runtime nodes do not have"
      : conda_hook ? line + " defines the `conda` command, which AI Runtime nodes do not have"
      : activates_created_environment(target)
          ? "the virtual environment activated by " + line +
                ", which the script creates, is replaced by the workload's environment"
          : "the virtual environment activated by " + line + " does not exist on AI Runtime nodes";
  const std::string hint =
      spack || modules ? "what the modules provided is reported where they are loaded"
      : conda_hook     ? "the environment's packages are reported where it is activated"
      : activates_created_environment(target)
          ? "the packages the script installs into it are reported at each `pip install`"
          : "run `pip freeze > requirements.txt` in the environment, keep the packages the job "
            "needs and pass --requirements requirements.txt";
  editor_.report(Code::setup_command_removed, site.view, command.span, what, hint);
  editor_.remove_statement(site, "environment setup is done by AI Runtime's environment", {});
  return true;
}

void SetupMapper::map_evaluated_setup(const Site& eval, const Site& tool) {
  if (is_module_tool(tool.program)) {
    report_module(tool);
  } else {
    editor_.report(Code::setup_command_removed, eval.view, eval.command->span,
                   "`" + std::string(editor_.source(eval.view, eval.command->span)) + "` sets up " +
                       tool.program + ", which AI Runtime nodes do not have",
                   std::string(kCondaPackagesHint));
  }
  editor_.remove_statement(eval, "environment setup is done by AI Runtime's environment", {});
}

namespace {

/// `-q`, `--ignore-cache`: a literal word that is an option, viewed, not copied.
bool is_flag_word(const ast::Word& word) {
  std::optional<std::string> storage;
  const auto literal = slurm::literal_view(word, storage);
  return literal && literal->starts_with('-');
}

}  // namespace

void SetupMapper::report_module(const Site& site) {
  const auto& words = site.command->words;
  const std::string& program = site.program;
  size_t first = 1;
  std::string sub;
  if (program.starts_with("vpkg_")) {  // VALET: `vpkg_require pkg/version ...`
    first = 1;
  } else if (program != "ml"sv && words.size() >= 2) {
    // `module -q load X`, `module --ignore-cache load X`: flags come first.
    size_t at = 1;
    while (at + 1 < words.size() && is_flag_word(words[at])) ++at;
    sub = slurm::literal_value(words[at]).value_or("");
    first = at + 1;
  } else if (program == "ml"sv && words.size() >= 2) {
    const auto w = slurm::literal_value(words[1]).value_or("");
    if (contains({"purge", "use", "unuse", "list", "av", "avail", "save", "restore", "spider",
                  "swap", "switch", "load", "unload", "rm"},
                 w)) {
      sub = w;
      first = 2;
    }
  }
  std::vector<std::string> provided, distributions, mapped, toolchain, unknown, computed, python2;
  const bool loads = sub.empty() || contains({"load", "add", "swap", "switch"}, sub) ||
                     (program == "spack"sv && sub == "load") ||
                     (program == "spack"sv && sub == "env");
  if (loads) {
    for (size_t i = first; i < words.size(); ++i) {
      // Viewed in place: most names are one literal part, copied only into a list.
      std::optional<std::string> storage;
      const std::optional<std::string_view> name = slurm::literal_view(words[i], storage);
      if (!name) {
        computed.push_back(std::string(editor_.source(site.view, words[i].span)));
        continue;
      }
      if (name->empty() || name->front() == '-' || name->front() == '+') continue;
      if (program == "spack"sv && sub == "env") {  // `spack env activate NAME`
        if (*name != "activate" && *name != "deactivate")
          unknown.push_back("spack environment " + std::string(*name));
        continue;
      }
      const profile::ModuleMapping* m =
          options_.profile ? profile::find_module(*options_.profile, *name) : nullptr;
      const std::vector<std::string_view> names = package_names(name->substr(0, name->find('@')));
      const auto known_as = [&](bool (*kind)(std::string_view)) {
        return std::any_of(names.begin(), names.end(), kind);
      };
      if (m != nullptr && m->provided) {
        provided.emplace_back(*name);
      } else if (m != nullptr) {
        mapped.emplace_back(*name);
        for (const std::string& d : m->dependencies) result_.dependencies.push_back(d);
      } else if (is_python2_module(*name)) {
        python2.emplace_back(*name);
      } else if (known_as(is_python_distribution)) {
        distributions.emplace_back(*name);
      } else if (known_as(provided_by_runtime)) {
        provided.emplace_back(*name);
      } else if (known_as(is_toolchain)) {
        toolchain.emplace_back(*name);
      } else {
        unknown.emplace_back(*name);
        for (const std::string_view package : names) {
          unmapped_modules_.emplace_back(ascii_lower(package), *name);
        }
      }
    }
  }
  // "`module load` does ...: NAMES come ...; NAMES are ...", appended in
  // place to a buffer most messages fit, so it is not reallocated as it grows.
  std::string message;
  message.reserve(256);
  message += '`';
  message += program;
  if (!sub.empty()) message += ' ';
  message += sub;
  message += "` does not exist on AI Runtime nodes";
  message += kAndIsRemoved;
  std::string_view separator = ": ";
  const auto add_part = [&](const std::vector<std::string>& names, std::string_view one,
                            std::string_view many, std::string_view rest) {
    if (names.empty()) return;
    message += separator;
    separator = "; ";
    append_joined(message, names);
    message += names.size() == 1 ? one : many;
    message += rest;
  };
  add_part(provided, " comes", " come", " with the AI Runtime environment");
  add_part(python2, " is", " are",
           " Python 2, which the AI Runtime environment does not have (its Python is 3.12)");
  add_part(distributions, " gives", " give",
           " Python, which the AI Runtime environment has, and conda, which it has not: its "
           "conda environments' packages must be listed");
  add_part(mapped, "", "", " become environment.dependencies (profile)");
  add_part(toolchain, " is not a Python dependency and has no counterpart",
           " are not Python dependencies and have no counterpart", "");
  add_part(unknown, " has", " have", " no known mapping");
  add_part(computed, " is", " are", " computed and not mapped");
  // Each hint is constructed in place, not assigned over an empty string.
  std::string hint = [&]() -> std::string {
    if (!python2.empty()) {
      return "port the program to Python 3: the environment runs Python 3.12";
    } else if (!unknown.empty() || !computed.empty()) {
      return "map each module under modules: in the site profile (\"provided\" or pip "
             "packages), or add its Python packages with --dependency";
    } else if (program == "spack"sv && contains({"install", "dev-build", "build", "compiler",
                                                 "external", "concretize", "buildcache"},
                                                sub)) {
      return "the job builds software with spack, which AI Runtime nodes do not have: build it "
             "into a custom image (environment.docker_image) and run the command there";
    } else if (!distributions.empty()) {
      return "export the conda environment's packages (`pip freeze > requirements.txt` inside "
             "it) and pass --requirements requirements.txt";
    } else if (!provided.empty()) {
      return "check that environment.version ships the versions the job was built with (" +
             join(provided) + ")";
    } else if (!toolchain.empty()) {
      return "if the job compiles code at run time, build it into a custom image instead";
    } else {
      return "nothing to do: AI Runtime has no module system";
    }
  }();
  editor_.report(Code::setup_command_removed, site.view, site.command->span, std::move(message),
                 std::move(hint));
}

namespace {

/// `-f DIR`, `--find-links=DIR`: pip reads packages from there.
bool has_find_links(const Site& site) {
  return std::any_of(site.command->words.begin(), site.command->words.end(),
                     [](const ast::Word& word) {
                       const std::optional<std::string> arg = slurm::literal_value(word);
                       return arg && (arg->starts_with("-f") || arg->starts_with("--find-links"));
                     });
}

}  // namespace

bool SetupMapper::map_pip_install(const Site& site) {
  const auto& words = site.command->words;
  size_t i = site.program == "pip"sv || site.program == "pip3"sv ? 1 : 3;
  if (i >= words.size()) return false;
  const std::optional<std::string> sub = slurm::literal_value(words[i]);
  if (sub == "uninstall") {  // stays, and the installs after it must still follow it
    if (!kept_pip_install_) kept_pip_install_ = editor_.source(site.view, site.command->span);
    return false;
  }
  if (sub != "install") return false;
  std::vector<std::string> packages;
  std::string keep_reason;
  std::string moved_from;  // the directory a requirements file is read from
  const ast::Word* no_index = nullptr;
  for (++i; i < words.size() && keep_reason.empty(); ++i) {
    const auto arg = slurm::literal_value(words[i]);
    if (!arg) {
      keep_reason = "`" + std::string(editor_.source(site.view, words[i].span)) + "` is computed";
      break;
    }
    // Alliance (Compute Canada) clusters point pip at their own wheelhouse
    // in pip.conf; with a --find-links of its own the command stays anyway.
    if (*arg == "--no-index") {
      no_index = &words[i];
      continue;
    }
    if (*arg == "-r" || *arg == "--requirement" || arg->starts_with("--requirement=") ||
        (arg->starts_with("-r") && arg->size() > 2)) {
      std::optional<std::string> file;
      if (arg->starts_with("--requirement=")) {
        file = arg->substr(14);
      } else if (arg->size() > 2 && *arg != "--requirement") {
        file = arg->substr(2);
      } else if (i + 1 < words.size()) {
        file = slurm::literal_value(words[++i]);
      }
      if (!file || !under_code_root(*file)) {
        keep_reason = "the requirements file is not a relative path under the code root";
      } else if (const WorkingDirectory where = working_directory_at(site); !where.relative) {
        keep_reason = "`" + *file + "` is read from the directory `" +
                      std::string(editor_.source(0, where.unknown_cd->command->span)) +
                      "` enters, which is not known under the code root";
      } else if (where.relative->empty()) {
        packages.push_back("-r " + *file);
      } else {
        packages.push_back("-r " + *join_under_root(*where.relative, *file));
        moved_from = *where.relative;
      }
    } else if (contains({"-q", "--quiet", "-U", "--upgrade", "--no-cache-dir", "--user", "-qq",
                         "--no-warn-script-location", "--progress-bar=off",
                         "--disable-pip-version-check"},
                        *arg)) {
      continue;
    } else if (!arg->empty() && arg->front() == '-') {
      keep_reason = "`" + *arg + "` has no counterpart in environment.dependencies";
    } else if (*arg == "." || arg->front() == '/' || arg->find('/') != std::string::npos) {
      keep_reason = "installing a local path needs the uploaded code";
    } else if (*arg != "pip" && *arg != "setuptools" && *arg != "wheel") {
      packages.push_back(*arg);
    }
  }
  const std::string written(editor_.source(site.view, site.command->span));
  if (keep_reason.empty() && options_.custom_image) {
    keep_reason = "a custom image replaces environment.dependencies";
  }
  if (keep_reason.empty() && !top_level(site)) {
    keep_reason = "it runs conditionally, in a loop, a function or a nested script";
  }
  // The environment is built before the command starts: moved, this one
  // would run before the kept one, and the last install of a package wins.
  if (keep_reason.empty() && kept_pip_install_) {
    keep_reason = "an earlier `pip install` (`" + directives::detail::excerpt(*kept_pip_install_) +
                  "`) stays in the command, and this one must still run after it";
  }
  const bool wheelhouse_only = no_index != nullptr && !has_find_links(site);
  if (!keep_reason.empty()) {
    if (!kept_pip_install_) kept_pip_install_ = written;
    if (wheelhouse_only) {
      // With the blank after it, so the words around close up.
      const bool blank_after =
          editor_.source(site.view, Span{no_index->span.end, no_index->span.end + 1}) == " ";
      editor_.edit(site.view,
                   Span{no_index->span.begin, no_index->span.end + (blank_after ? 1 : 0)}, "",
                   "AI Runtime nodes have no cluster wheelhouse: pip installs from PyPI");
      keep_reason +=
          "; its `--no-index` is removed: it left pip only the cluster's own "
          "wheelhouse (pip.conf's find-links), which AI Runtime nodes do not have, so "
          "pip now installs from PyPI";
    }
    editor_.report(
        Code::pip_install_kept, site.view, site.command->span,
        "`pip install` stays in the command and runs on every node at every start: " + keep_reason,
        "list fixed packages under environment.dependencies (--dependency, "
        "--requirements) so the environment is built once");
    return true;
  }
  for (std::string& p : packages) result_.dependencies.push_back(std::move(p));
  editor_.remove_statement(site, "the packages move to environment.dependencies", {});
  editor_.report(
      Code::pip_install_moved, site.view, site.command->span,
      packages.empty()
          ? std::string("`pip install` of pip's own tooling is removed: the environment "
                        "brings its own")
          : (moved_from.empty()
                 ? std::string("`pip install` moves to environment.dependencies")
                 : "`pip install` moves to environment.dependencies, its requirements "
                   "file named from the code root: the command runs in `" +
                       moved_from + "`") +
                (wheelhouse_only ? "; with `--no-index` pip read only the cluster's own wheelhouse "
                                   "(pip.conf's find-links), and the environment installs from PyPI"
                                 : ""),
      "check the package versions: the environment installs them when it is built");
  return true;
}

// --- variables and secrets -------------------------------------------------------

std::string SetupMapper::secret_reference(const std::string& name) const {
  return options_.secret_scope + "/" + ascii_lower(name);
}

std::string SetupMapper::add_secret(const Site& site, std::string name, Span value_in_view) {
  const std::string value(editor_.source(site.view, value_in_view));
  // The same name for a different value gets a suffix, so neither is lost.
  std::string unique = name;
  for (int n = 2;; ++n) {
    auto it = std::find_if(result_.secrets.begin(), result_.secrets.end(),
                           [&](const NamedValue& s) { return s.name == unique; });
    if (it == result_.secrets.end()) break;
    const bool same =
        std::any_of(result_.redactions.begin(), result_.redactions.end(),
                    [&](Span r) { return r == editor_.file_span(site.view, value_in_view); });
    if (same || n > 50) return unique;
    unique = name + "_" + std::to_string(n);
  }
  const Span from = editor_.file_span(site.view, site.command->span);
  result_.secrets.push_back({unique, secret_reference(unique), from});
  result_.redactions.push_back(editor_.file_span(site.view, value_in_view));
  (void)value;
  editor_.report(Code::secret_in_script, site.view, site.command->span,
                 "the value of " + unique +
                     " is a credential written in the script; it is left "
                     "out and replaced by a secret reference",
                 "store it with `databricks secrets put-secret " + options_.secret_scope + " " +
                     ascii_lower(unique) + "` (or change secrets." + unique +
                     " to your scope/key) and rotate the exposed value");
  return unique;
}

void SetupMapper::add_env_or_secret(const Site& site, const Assignment& a) {
  const Span from = editor_.file_span(site.view, site.command->span);
  result_.env_variables.push_back({a.name, *a.literal, from});
}

/// `export PATH=/apps/gcc/bin:/usr/bin:/bin` (often a dump of the cluster's
/// PATH): kept where it is, as under Slurm, but on the node it drops the
/// directories of AI Runtime's environment, its python among them.
void SetupMapper::report_replaced_search_paths(const Site& site,
                                               const std::vector<Assignment>& assignments) {
  for (const Assignment& a : assignments) {
    if (!a.literal || a.literal->empty() || (a.name != "PATH"sv && a.name != "LD_LIBRARY_PATH"sv)) {
      continue;
    }
    editor_.report(Code::search_path_replaced, site.view, site.command->span,
                   a.name + " is set to a fixed list, which replaces the node's own " + a.name +
                       ": the directories of AI Runtime's environment (its python, pip, CUDA "
                       "libraries) are no longer searched from here on",
                   "add to it instead (" + a.name + "=/new/dir:$" + a.name +
                       "), without the cluster's directories");
  }
}

/// A file of the node's own software directories (/opt, /usr, /lib,
/// /lib64): where the cluster installed libraries on its nodes, and where
/// an image installs its own. The cluster paths rule (S2A5010) leaves them
/// alone for that reason.
bool in_node_software_directory(std::string_view path) {
  for (std::string_view top : {"/opt/"sv, "/usr/"sv, "/lib/"sv, "/lib64/"sv}) {
    if (path.starts_with(top) && path.size() > top.size()) return true;
  }
  return false;
}

/// `export LD_PRELOAD="/opt/nccl/build/lib/libnccl.so"` (an AWS cluster's own
/// NCCL build): ld.so loads the file into every process the job starts. A
/// node without it prints "object ... cannot be preloaded" for each one
/// (python, every torchrun worker, each shell tool), and a file of that name
/// on the node is its image's build, not the cluster's. A directory put on
/// PATH or LD_LIBRARY_PATH is not reported: one the node lacks is skipped,
/// and one it has (/opt/amazon/efa, /opt/conda) is its image's own.
void SetupMapper::report_preloaded_node_libraries(const Site& site,
                                                  const std::vector<Assignment>& assignments) {
  for (const Assignment& a : assignments) {
    if (a.name != "LD_PRELOAD"sv || !a.literal) continue;
    // ld.so takes a list separated by spaces or colons.
    std::vector<std::string> files;
    for (std::string_view rest = *a.literal; !rest.empty();) {
      const size_t end = find_either(rest, ' ', ':');
      const std::string_view file = rest.substr(0, end);
      if (in_node_software_directory(file)) files.push_back("`" + std::string(file) + "`");
      rest.remove_prefix(std::min(end + 1, rest.size()));
    }
    if (files.empty()) continue;
    const bool one = files.size() == 1;
    editor_.report(Code::node_library_preloaded, site.view, site.command->span,
                   "LD_PRELOAD loads " + join(files) + (one ? ", a library" : ", libraries") +
                       " the cluster installed on its nodes, into every process: an AI Runtime "
                       "node without " +
                       (one ? "it" : "one") +
                       " prints ld.so's \"cannot be preloaded\" error for each process it "
                       "starts, and a file of that name there is the image's own build, not the "
                       "cluster's",
                   "remove the line (AI Runtime's environment has the libraries its PyTorch was "
                   "built with), or put the library under the code root or a volume and preload "
                   "it from there");
  }
}

/// `unset LD_LIBRARY_PATH` cleared what the cluster's modules had set; on
/// the node it clears AI Runtime's own (its CUDA libraries), and `unset
/// PATH` leaves only bash's default search path.
void SetupMapper::report_unset_search_paths(const Site& site) {
  const auto& words = site.command->words;
  for (size_t i = 1; i < words.size(); ++i) {
    const auto name = slurm::literal_value(words[i]);
    if (!name || (*name != "PATH" && *name != "LD_LIBRARY_PATH")) continue;
    editor_.report(Code::search_path_replaced, site.view, words[i].span,
                   "`unset " + *name + "` clears the node's own " + *name +
                       ": the directories of AI Runtime's environment (its python, pip, CUDA "
                       "libraries) are no longer searched from here on",
                   "remove the line: the cluster's directories it cleared are not on the node");
  }
}

void SetupMapper::move_exports_to_env(const Site& site, const std::vector<Assignment>& assignments,
                                      bool after_first_launch) {
  const ast::Command& command = *site.command;
  // Which assignments hold a credential written in the script (not one read
  // from an argument, another variable or a command).
  // Sized only when one does, which is rare: no allocation per assignment.
  std::vector<bool> secret;
  for (size_t i = 0; i < assignments.size(); ++i) {
    const Assignment& a = assignments[i];
    if (a.value_span.empty()) continue;
    if (holds_credential(a.name, editor_.source(site.view, a.value_span),
                         a.literal ? std::optional<std::string_view>(*a.literal) : std::nullopt)) {
      secret.resize(assignments.size(), false);
      secret[i] = true;
    }
  }
  const bool any_secret = !secret.empty();
  report_replaced_search_paths(site, assignments);
  report_preloaded_node_libraries(site, assignments);
  const bool exported = assignments.front().exported;
  // Moved up front, a value would reach commands before its line, and a
  // second assignment or an `unset` later would apply from the start. Asked
  // last: most assignments are not top-level exports, and the script's
  // writes are counted only when one is.
  const auto set_once = [&] {
    if (!variable_writes_) variable_writes_ = count_variable_writes(body_);
    return std::all_of(assignments.begin(), assignments.end(), [&](const Assignment& a) {
      const auto found = variable_writes_->find(a.name);
      return !is_shell_setting(a.name) && !is_search_path(a.name) &&
             found != variable_writes_->end() && found->second == 1;
    });
  };
  bool others_literal = true;
  for (size_t i = 0; i < assignments.size(); ++i) {
    if ((!any_secret || !secret[i]) && !assignments[i].literal) others_literal = false;
  }
  // Asked only when every other value is literal: a statement with one that
  // is not stays where it is whatever the answer.
  const auto movable = [&] {
    return exported && top_level(site) && !after_first_launch && set_once() &&
           site.command->span.begin < first_kept_source();
  };
  if (any_secret) {
    const bool remove =
        others_literal &&
        (std::all_of(secret.begin(), secret.end(), [](bool s) { return s; }) || movable());
    const Span statement = site.statement ? site.statement->span : command.span;
    std::string shown(editor_.source(site.view, statement));
    for (size_t i = assignments.size(); i-- > 0;) {
      const Assignment& a = assignments[i];
      if (!secret[i]) continue;
      const std::string name = add_secret(site, a.name, a.value_span);
      if (!remove) {
        editor_.replace(site.view, a.value_span, "\"$" + name + "\"",
                        "the credential comes from secrets." + name);
      }
      if (statement.begin <= a.value_span.begin && a.value_span.end <= statement.end) {
        shown.replace(a.value_span.begin - statement.begin, a.value_span.size(),
                      "<secrets." + name + ">");
      }
    }
    if (!remove) return;
    for (size_t i = 0; i < assignments.size(); ++i) {
      if (!secret[i]) add_env_or_secret(site, assignments[i]);
    }
    editor_.remove_statement(site, "credentials move to Databricks secrets", shown);
    return;
  }
  if (!others_literal || !movable()) return;
  for (const Assignment& a : assignments) add_env_or_secret(site, a);
  editor_.remove_statement(site, "literal exports move to env_variables", {});
}

void SetupMapper::replace_word_with_secret(const Site& site, const ast::Word& word,
                                           std::string_view literal, size_t begin, size_t end,
                                           const std::string& name) {
  auto quote = [](std::string_view text) {
    std::string out;
    for (char c : text) {
      if (c == '"' || c == '\\' || c == '$' || c == '`') out.push_back('\\');
      out.push_back(c);
    }
    return out;
  };
  const std::string_view written = editor_.source(site.view, word.span);
  const std::string_view value = literal.substr(begin, end - begin);
  // Quotes and escapes only add characters: the value is written at or after
  // its place in the literal (an earlier copy of the same text is not it).
  const size_t at = written.find(value, begin);
  const Span value_span = at == std::string_view::npos
                              ? word.span
                              : Span{static_cast<uint32_t>(word.span.begin + at),
                                     static_cast<uint32_t>(word.span.begin + at + value.size())};
  const std::string unique = add_secret(site, name, value_span);
  // Rebuilt double-quoted, so the reference expands whatever quoting the word had.
  editor_.replace(site.view, word.span,
                  "\"" + quote(literal.substr(0, begin)) + "${" + unique + "}" +
                      quote(literal.substr(end)) + "\"",
                  "the credential comes from secrets." + unique);
}

/// The literal KEY of `echo KEY | ... login ... --password-stdin`, if `site`
/// is that echo (or printf).
const ast::Word* SetupMapper::piped_password(const Site& site) const {
  const auto& words = site.command->words;
  if (words.size() < 2 || (site.program != "echo"sv && site.program != "printf"sv)) return nullptr;
  const std::string_view text = body_.views[site.view].text;
  size_t after = site.command->span.end;
  while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
  const size_t line_end = std::min(text.find('\n', after), text.size());
  const std::string_view rest = text.substr(after, line_end - after);
  if (rest.empty() || rest.front() != '|' || rest.find("login") == std::string_view::npos ||
      rest.find("--password-stdin") == std::string_view::npos) {
    return nullptr;
  }
  const ast::Word& last = words.back();
  std::optional<std::string> storage;
  const auto arg = slurm::literal_view(last, storage);
  return arg && !arg->empty() && arg->front() != '-' ? &last : nullptr;
}

void SetupMapper::report_credential_removed_with_pipeline(const Site& feeder) {
  const ast::Word* key = piped_password(feeder);
  if (key == nullptr) return;
  result_.redactions.push_back(editor_.file_span(feeder.view, key->span));
  editor_.report(Code::secret_in_script, feeder.view, key->span,
                 "`" + feeder.program +
                     "` hands a credential written in the script to a login that is removed "
                     "with it; nothing on AI Runtime needs it (no secret is made), but it was "
                     "exposed in the script",
                 "rotate it and remove it from the script");
}

void SetupMapper::hide_inline_secrets(const Site& site) {
  const auto& words = site.command->words;
  if (words.empty()) return;
  // `DB_PASSWORD=x cmd`: the prefix applies to one command, so it stays,
  // reading the secret instead.
  for (const ast::Assignment& a : site.command->assignments) {
    if (a.is_array || a.value.span.empty()) continue;
    std::optional<std::string> storage;
    const auto literal = slurm::literal_view(a.value, storage);
    if (!holds_credential(a.name, editor_.source(site.view, a.value.span), literal)) continue;
    const std::string name = add_secret(site, a.name, a.value.span);
    editor_.replace(site.view, a.value.span, "\"$" + name + "\"",
                    "the credential comes from secrets." + name);
  }
  const std::string& program = site.program;
  // `wandb login [--relogin] KEY`
  // Word counts first: asked of every command, these rule most out before a
  // comparison of names.
  if (words.size() >= 3 && program == "wandb"sv && slurm::literal_is(words[1], "login")) {
    for (size_t i = 2; i < words.size(); ++i) {
      std::optional<std::string> storage;
      const auto arg = slurm::literal_view(words[i], storage);
      if (!arg) break;
      if (*arg == "--host" || *arg == "--cloud") {
        ++i;
        continue;
      }
      if (!arg->empty() && arg->front() == '-') continue;
      replace_word_with_secret(site, words[i], *arg, 0, arg->size(), "WANDB_API_KEY");
      return;
    }
  }
  // `echo KEY | docker login --password-stdin`: the producer of a login pipe.
  if (const ast::Word* key = piped_password(site)) {
    std::optional<std::string> storage;
    const auto arg = slurm::literal_view(*key, storage);
    replace_word_with_secret(site, *key, *arg, 0, arg->size(), "REGISTRY_PASSWORD");
    return;
  }
  for (size_t i = 1; i < words.size(); ++i) {
    std::optional<std::string> storage;
    const auto arg = slurm::literal_view(words[i], storage);
    if (!arg) continue;
    if (arg->size() > 1 && arg->front() == '-') {
      i += hide_option_secret(site, i, *arg);
    } else {
      hide_secret_in_value(site, words[i], *arg);
    }
  }
}

/// `--token X`, `--hf_token=X`, `--api-key X`, `--password X`, `docker login -p X`
/// for the option words[i] (literal value `arg`). Returns 1 when the next word
/// was the option's value, else 0.
size_t SetupMapper::hide_option_secret(const Site& site, size_t i, std::string_view arg) {
  const auto& words = site.command->words;
  const std::string& program = site.program;
  const size_t eq = arg.find('=');
  const size_t name_begin = arg.find_first_not_of('-');
  if (name_begin == std::string_view::npos || (eq != std::string_view::npos && eq < name_begin)) {
    return 0;
  }
  const std::string_view written_flag = arg.substr(
      name_begin, eq == std::string_view::npos ? std::string_view::npos : eq - name_begin);
  const bool short_p =  // docker login -p
      written_flag.size() == 1 && (written_flag[0] == 'p' || written_flag[0] == 'P');
  // Most options name no secret: no copy.
  if (!short_p && !may_name_secret_option(written_flag)) {
    return 0;
  }
  std::string flag = ascii_upper(written_flag);
  std::replace(flag.begin(), flag.end(), '-', '_');
  const bool docker_p = flag == "P" && (program == "docker"sv || program == "podman"sv) &&
                        slurm::literal_is(words[1], "login");
  if (!docker_p && !is_variable_name(flag)) return 0;
  // --password-stdin, --token-file: switches and paths, not the secret itself.
  if (flag.ends_with("_STDIN") || flag.ends_with("_FILE") || flag.ends_with("_PATH")) return 0;
  if (!docker_p && !is_secret_option_name(flag)) return 0;
  const bool hf_cli = program == "huggingface-cli"sv || program == "hf"sv;
  std::string name =
      hf_cli && flag == "TOKEN" ? "HF_TOKEN"
      : docker_p || flag == "PASSWORD"
          ? (program == "docker"sv || program == "podman"sv ? "REGISTRY_PASSWORD" : "PASSWORD")
          : flag;
  if (name == "TOKEN" || name == "API_KEY") {
    name = ascii_upper(program.empty() ? "cli" : program) + "_" + name;
  }
  std::replace(name.begin(), name.end(), '-', '_');
  if (!is_variable_name(name)) name = "CLI_TOKEN";
  if (eq != std::string_view::npos) {
    if (eq + 1 < arg.size() && arg[eq + 1] != '$' &&
        could_be_credential(flag, arg.substr(eq + 1))) {
      replace_word_with_secret(site, words[i], arg, eq + 1, arg.size(), name);
    }
    return 0;
  }
  if (i + 1 >= words.size()) return 0;
  std::optional<std::string> storage;
  const auto value = slurm::literal_view(words[i + 1], storage);
  if (value && !value->empty() && value->front() != '-' && could_be_credential(flag, *value)) {
    replace_word_with_secret(site, words[i + 1], *value, 0, value->size(), name);
  }
  return 1;
}

namespace {

/// Characters of a pattern or of another shell's expansion, not of a value
/// written out: `grep 'http://.*:.*/\?token=.*'`, `'...?token=$TOKEN'` for an
/// inner shell.
bool has_pattern_characters(std::string_view value) {
  return value.find_first_of("*$\\[]()|^") != std::string_view::npos;
}

}  // namespace

/// A credential inside a non-option word: https://user:PASSWORD@host/...,
/// ...?token=VALUE&..., or a word shaped like a token.
namespace {

constexpr std::array<bool, 256> kTokenChars = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 256; ++c) {
    table[static_cast<size_t>(c)] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                    (c >= '0' && c <= '9') || c == '_' || c == '-';
  }
  return table;
}();

bool is_token_char(char c) { return kTokenChars[static_cast<unsigned char>(c)]; }

/// A run of token characters in a comment that is a credential: token-shaped
/// (`hf_...`, `sk-...`), or the value of a secret name (`WANDB_API_KEY=d821...`)
/// long enough and mixed enough to be the key itself, not an example or a
/// tokenizer setting. `line_start` bounds the look back for the name.
bool is_comment_credential(std::string_view text, size_t line_start, size_t from, size_t to) {
  const std::string_view word = text.substr(from, to - from);
  if (looks_like_token(word)) return true;
  if (word.size() < 20 || from < line_start + 2 || text[from - 1] != '=') return false;
  size_t name_begin = from - 1;
  while (name_begin > line_start && is_token_char(text[name_begin - 1])) --name_begin;
  const std::string_view name = text.substr(name_begin, from - 1 - name_begin);
  const bool has_digit =
      std::any_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
  const bool has_letter = std::any_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  });
  return has_digit && has_letter && is_secret_name(name) && could_be_credential(name, word);
}

/// The first run of kShortestToken or more token characters in
/// text[from, end), or an empty span at `end`; text[from - 1] is not a token
/// character. Such a run covers the character kShortestToken - 1 after each
/// of its first ones: only that one is looked at, and when it is no token
/// character the characters up to it are passed over at once.
Span next_long_token_run(std::string_view text, size_t from, size_t end) {
  while (from + kShortestToken <= end) {
    const size_t probe = from + kShortestToken - 1;
    if (!is_token_char(text[probe])) {
      from = probe + 1;
      continue;
    }
    size_t begin = probe;
    while (begin > from && is_token_char(text[begin - 1])) --begin;
    size_t to = probe + 1;
    while (to < end && is_token_char(text[to])) ++to;
    if (to - begin >= kShortestToken) {
      return {static_cast<uint32_t>(begin), static_cast<uint32_t>(to)};
    }
    from = to + 1;
  }
  return {static_cast<uint32_t>(end), static_cast<uint32_t>(end)};
}

}  // namespace

void SetupMapper::redact_tokens_in_comments() {
  const slurm::TextView& script = body_.views[0];
  const std::string_view text = script.text;
  for (size_t at = text.find('#', script.window.begin); at < script.window.end;
       at = text.find('#', at + 1)) {
    // A comment starts a word; `$#` and `${#a[@]}` do not.
    if (at > 0 && text[at - 1] != ' ' && text[at - 1] != '\t' && text[at - 1] != '\n') continue;
    const size_t line_end = std::min(text.find('\n', at), static_cast<size_t>(script.window.end));
    // Every credential is a run of kShortestToken or more token characters:
    // most comments have none.
    for (Span token = next_long_token_run(text, at + 1, line_end); !token.empty();
         token = next_long_token_run(text, token.end + 1, line_end)) {
      if (is_comment_credential(text, at + 1, token.begin, token.end) &&
          std::find(result_.redactions.begin(), result_.redactions.end(), token) ==
              result_.redactions.end()) {
        result_.redactions.push_back(token);
        editor_.report(Code::secret_in_comment, 0, token,
                       "a comment the command keeps holds what looks like a credential; it is "
                       "masked in the translation, but it was exposed in the script",
                       "rotate it and remove it from the script");
      }
    }
    at = line_end;
  }
}

/// `mpirun -x WANDB_API_KEY=...`, `env HF_TOKEN=... python`, `docker run -e
/// KEY=...`: a NAME=VALUE argument that another program exports. (The
/// script's own exports are moved to secrets with the environment.)
void SetupMapper::hide_assigned_secret(const Site& site, const ast::Word& word,
                                       std::string_view arg) {
  const size_t eq = arg.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == arg.size()) return;
  const std::string_view name = arg.substr(0, eq);
  const std::string_view value = arg.substr(eq + 1);
  if (value.front() == '$' || !is_variable_name(name) || !is_secret_name(name) ||
      !could_be_credential(name, value)) {
    return;
  }
  // A singularity/apptainer `--env A=..,B=..` list is read item by item where
  // the call is unwrapped (add_env_option_items).
  const auto& words = site.command->words;
  if (std::any_of(words.data(), &word, [](const ast::Word& w) {
        const std::string program = slurm::program_name(w);
        return program == "singularity" || program == "apptainer";
      })) {
    return;
  }
  replace_word_with_secret(site, word, arg, eq + 1, arg.size(), std::string(name));
}

void SetupMapper::hide_secret_in_value(const Site& site, const ast::Word& word,
                                       std::string_view arg) {
  // Asked of every literal word: most are shorter than any token and hold
  // neither the `:` of a URL nor the `=` of an assignment.
  if (arg.size() < kShortestToken && find_either(arg, ':', '=') == arg.size()) return;
  const size_t scheme = arg.find("://");
  if (scheme == std::string_view::npos) {
    if (looks_like_token(arg)) {
      replace_word_with_secret(site, word, arg, 0, arg.size(), "API_TOKEN");
    } else if (arg.find('=') != std::string_view::npos &&  // most words assign nothing
               !slurm::is_declaration_builtin(site.program)) {
      hide_assigned_secret(site, word, arg);
    }
    return;
  }
  const size_t host_start = scheme + 3;
  const size_t at = arg.find('@', host_start);
  const size_t slash = arg.find('/', host_start);
  const size_t colon = arg.find(':', host_start);
  if (at != std::string_view::npos && (slash == std::string_view::npos || at < slash) &&
      colon != std::string_view::npos && colon < at && colon + 1 < at &&
      !has_pattern_characters(arg.substr(colon + 1, at - colon - 1))) {
    replace_word_with_secret(site, word, arg, colon + 1, at, "URL_PASSWORD");
    return;
  }
  for (std::string_view key :
       {"token=", "access_token=", "api_key=", "apikey=", "password=", "sig=", "key="}) {
    // Only the first occurrence of a key that starts a query parameter counts.
    for (size_t q = arg.find(key); q != std::string_view::npos; q = arg.find(key, q + 1)) {
      if (q == 0 || (arg[q - 1] != '?' && arg[q - 1] != '&')) continue;
      const size_t from = q + key.size();
      const size_t to = std::min(arg.find('&', from), arg.size());
      if (to > from && !has_pattern_characters(arg.substr(from, to - from))) {
        replace_word_with_secret(site, word, arg, from, to, "URL_TOKEN");
        return;
      }
      break;
    }
  }
}

// --- containers ---------------------------------------------------------------------

namespace {

/// A --env value word as `env` or an assignment takes it: bare when only
/// characters the shell leaves alone, else single-quoted.
std::string shell_word(std::string_view text) {
  const bool bare = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_./:@%+=,-").find(c) != std::string_view::npos;
  });
  return bare ? std::string(text) : single_quote(text);
}

struct EnvItem {
  std::string_view name;
  std::string_view value;
  size_t value_offset = 0;  // in the option's value
};

/// `--env A=1,B=x y` -> A=1, B=x y; nothing when an item is not NAME=VALUE
/// or the list quotes a comma (apptainer reads it as CSV). Docker's
/// `-e A=1,2` is one item (`list` false): A is `1,2`.
std::vector<EnvItem> env_option_items(std::string_view value, bool list) {
  std::vector<EnvItem> items;
  if (!list) {
    const size_t eq = value.find('=');
    if (eq == std::string_view::npos || !is_variable_name(value.substr(0, eq))) return {};
    return {{value.substr(0, eq), value.substr(eq + 1), eq + 1}};
  }
  if (value.find('"') != std::string_view::npos) return {};
  size_t start = 0;
  while (start <= value.size()) {
    const size_t comma = std::min(value.find(',', start), value.size());
    const std::string_view item = value.substr(start, comma - start);
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos || !is_variable_name(item.substr(0, eq))) return {};
    items.push_back({item.substr(0, eq), item.substr(eq + 1), start + eq + 1});
    start = comma + 1;
  }
  return items;
}

/// What the container made of an exported SINGULARITYENV_X, as an `env`
/// argument that vanishes when the variable is unset at run time:
/// ${SINGULARITYENV_X+"X=$SINGULARITYENV_X"}. PREPEND_PATH and APPEND_PATH
/// extend PATH.
std::string container_variable_argument(std::string_view name) {
  const std::string_view target = container_variable_target(name);
  const std::string ref = "$" + std::string(name);
  std::string assignment;
  if (target == "PREPEND_PATH") {
    assignment = "PATH=" + ref + ":$PATH";
  } else if (target == "APPEND_PATH") {
    assignment = "PATH=$PATH:" + ref;
  } else {
    assignment = std::string(target) + "=" + ref;
  }
  return "${" + std::string(name) + "+\"" + assignment + "\"}";
}

Span option_span(const ast::Command& command, const ContainerOption& option) {
  return {command.words[option.word].span.begin, command.words[option.last_word].span.end};
}

/// "HF_HOME (from SINGULARITYENV_HF_HOME)", "PATH (prepended from ...)".
std::string passed_label(std::string_view name) {
  const std::string_view target = container_variable_target(name);
  if (target == "PREPEND_PATH") return "PATH (prepended from " + std::string(name) + ")";
  if (target == "APPEND_PATH") return "PATH (appended from " + std::string(name) + ")";
  return std::string(target) + " (from " + std::string(name) + ")";
}

struct DroppedOptionNote {
  std::string_view option;
  std::string_view short_option;  // empty when it has none
  std::string_view effect;
  std::string_view hint;
};

/// Options whose effect on the command is lost with the container. The
/// others are the container's own business (GPU access, isolation, scratch
/// space, namespaces) or reported elsewhere (mounts: S2A5008).
const DroppedOptionNote* dropped_option_note(std::string_view option) {
  static constexpr std::array<DroppedOptionNote, 5> kNotes = {{
      {"--pwd", "", "the container ran the command in this directory; now it runs in the script's",
       "cd to the matching directory of the uploaded code (\"$CODE_SOURCE_PATH/...\") before "
       "the command"},
      {"--home", "-H", "the container's home directory; ~ and $HOME now are AI Runtime's",
       "use paths under the code root or a Unity Catalog volume instead of ~"},
      {"--overlay", "-o", "this overlay added files to the image; they are not there now",
       "put them in the custom image or copy them to a Unity Catalog volume"},
      {"--app", "", "the container ran this app's runscript, which is not known here",
       "put the program the app ran in front of the arguments"},
      {"--env-file", "", "the container set the variables in this file; they are not set now",
       "set them under env_variables, or run `set -a; . FILE; set +a` (with FILE under the code "
       "root) before the command"},
  }};
  for (const DroppedOptionNote& note : kNotes) {
    if (note.option == option || (!note.short_option.empty() && note.short_option == option)) {
      return &note;
    }
  }
  return nullptr;
}

}  // namespace

namespace {

/// The engines find_container_call() reads (singularity, apptainer,
/// docker, podman, nvidia-docker, nerdctl, sarus, enroot, udocker) and
/// those it does not (ch-run, charliecloud): AI Runtime nodes have none.
bool is_container_engine(std::string_view program) {
  return slurm::is_container_program(program) || program == "ch-run"sv ||
         program == "charliecloud"sv;
}

}  // namespace

void SetupMapper::report_container_engine(const Site& site, size_t start, std::string_view engine,
                                          size_t runner) {
  if (!is_container_engine(engine)) return;
  const auto& words = site.command->words;
  const std::string subcommand =
      start + 1 < words.size() ? slurm::literal_value(words[start + 1]).value_or("") : "";
  const bool starts_command =
      engine == "ch-run" ||
      contains({"run", "exec", "start", "create", "shell", "shared-run"}, subcommand);
  const std::string written =
      std::string(engine) + (subcommand.empty() || engine == "ch-run" ? "" : " " + subcommand);
  // A docker-style run that is not unwrapped says which word kept it.
  const auto obstacle = slurm::docker_run_obstacle(words, start, body_.views[site.view].text,
                                                   body_.container_options_of(site));
  std::string why;
  const std::string runner_written =
      runner < words.size() ? std::string(editor_.source(site.view, words[runner].span)) : "";
  if (!runner_written.empty()) {
    why = "; `" + runner_written +
          "` starts it, with the rest of the line as its arguments, and the line stays as "
          "written: what that script does besides (the environment or devices it sets up) is "
          "not known here";
  } else if (obstacle) {
    why = "; it stays because `" +
          std::string(editor_.source(site.view, words[obstacle->word].span)) + "` " +
          std::string(obstacle->why);
  }
  editor_.report(
      Code::container_engine_unavailable, site.view,
      Span{words[start].span.begin, words[std::min(start + 1, words.size() - 1)].span.end},
      "`" + written + "`: AI Runtime nodes have no " + std::string(engine) +
          ", so the line fails with \"command not found\"" + why,
      !runner_written.empty()
          ? "change `" + runner_written +
                "` to run its arguments without the container, or replace the line with what "
                "it sets up followed by the command after the image; the image" +
                image_named(site, start) +
                " becomes the workload's custom image (environment.docker_image, or "
                "unity_catalog_image with --target-schema cli-1.20)"
      : obstacle && obstacle->why.starts_with("runs the container detached")
          ? "a container started in the background ran a service for the job (a server, a "
            "database): start its program in the command itself (`PROGRAM ... &`), from the "
            "workload's custom image (environment.docker_image)"
      : obstacle && obstacle->why.starts_with("replaces the image's entrypoint")
          ? "write the entrypoint's program in front of the words after the image, in place of "
            "the call; the image becomes the workload's custom image (environment.docker_image)"
      : starts_command
          ? "run the command directly, with the image as the workload's custom image "
            "(environment.docker_image, or unity_catalog_image with --target-schema cli-1.20; "
            "images: in the site profile), its -e variables under env_variables and its bind "
            "mounts as Unity Catalog volume paths"
          : "build and push images outside the job; the workload names its image in "
            "environment.docker_image (unity_catalog_image with --target-schema cli-1.20)");
}

std::string SetupMapper::image_named(const Site& site, size_t start) const {
  const auto& words = site.command->words;
  const auto call = find_container_call(words, start, body_.views[site.view].text,
                                        body_.container_options_of(site));
  if (!call || call->image >= words.size()) return {};
  return " (`" + std::string(editor_.source(site.view, words[call->image].span)) + "`)";
}

void SetupMapper::report_engine_behind_script(const Site& site, size_t start,
                                              std::string_view program) {
  const auto& words = site.command->words;
  if (start + 2 >= words.size()) return;  // the script, the engine, its subcommand
  // `bash scripts/env.sh singularity exec ...`: the script is the shell's operand.
  const size_t script = slurm::is_shell_program(program) ? start + 1 : start;
  if (script + 2 >= words.size()) return;
  // A script of the job's: a path (`scripts/env.sh`, `./wrap`, `$DIR/run`) or
  // a name ending in .sh. Bare names (`echo`, `which`, `ml`) only print or
  // look up what follows.
  const std::string_view written = editor_.source(site.view, words[script].span);
  if (written.find('/') == std::string_view::npos && !written.ends_with(".sh"sv) &&
      !written.ends_with(".sh\""sv)) {
    return;
  }
  std::optional<std::string> storage;
  const std::string_view engine = slurm::program_view(words[script + 1], storage);
  if (!is_container_engine(engine)) return;
  report_container_engine(site, script + 1, engine, script);
}

namespace {

/// A language runtime or application outside Python that clusters provide
/// and AI Runtime's environment does not.
struct ForeignRuntime {
  std::string_view program;  // a name, or a prefix ending in `_` or `.` (gmx_, pmemd.)
  std::string_view runtime;  // as its users name it
  std::string_view module;   // its module's usual name, looked up in the site profile
};

/// Command-line tools whose module installs a Python package of that name.
bool installs_with_pip(std::string_view program) {
  return contains(
      {"snakemake", "cutadapt", "multiqc",   "macs2",           "macs3",       "ray",   "poetry",
       "meson",     "ninja",    "cmake",     "jupyter",         "tensorboard", "wandb", "dvc",
       "pipenv",    "nnunet",   "deepspeed", "huggingface-cli", "pyscf",       "ase"},
      program);
}

const ForeignRuntime* foreign_runtime(std::string_view program) {
  static constexpr std::array<ForeignRuntime, 38> kRuntimes = {{
      {"Rscript", "R", "R"},
      {"R", "R", "R"},
      {"matlab", "MATLAB", "matlab"},
      {"julia", "Julia", "julia"},
      {"octave", "GNU Octave", "octave"},
      {"octave-cli", "GNU Octave", "octave"},
      {"wolframscript", "Mathematica", "mathematica"},
      {"MathKernel", "Mathematica", "mathematica"},
      {"WolframKernel", "Mathematica", "mathematica"},
      {"sas", "SAS", "sas"},
      {"stata", "Stata", "stata"},
      {"stata-mp", "Stata", "stata"},
      {"stata-se", "Stata", "stata"},
      {"comsol", "COMSOL", "comsol"},
      {"g16", "Gaussian", "gaussian"},
      {"g09", "Gaussian", "gaussian"},
      // Simulation packages, built for the cluster and loaded as modules.
      {"gmx", "GROMACS", "gromacs"},
      {"gmx_", "GROMACS", "gromacs"},
      {"lmp", "LAMMPS", "lammps"},
      {"lmp_", "LAMMPS", "lammps"},
      {"namd2", "NAMD", "namd"},
      {"namd3", "NAMD", "namd"},
      {"pmemd", "Amber", "amber"},
      {"pmemd.", "Amber", "amber"},
      {"sander", "Amber", "amber"},
      {"sander.", "Amber", "amber"},
      {"vasp_", "VASP", "vasp"},
      {"pw.x", "Quantum ESPRESSO", "quantum-espresso"},
      {"ph.x", "Quantum ESPRESSO", "quantum-espresso"},
      {"cp.x", "Quantum ESPRESSO", "quantum-espresso"},
      {"cp2k", "CP2K", "cp2k"},
      {"cp2k.", "CP2K", "cp2k"},
      {"orca", "ORCA", "orca"},
      {"nwchem", "NWChem", "nwchem"},
      {"siesta", "SIESTA", "siesta"},
      {"molpro", "Molpro", "molpro"},
      {"fluent", "ANSYS Fluent", "ansys"},
      {"abaqus", "Abaqus", "abaqus"},
  }};
  // Every command's program is looked up: its first character rules out
  // many (echo, torchrun, hostname) before any hashing, then one hash lookup
  // by the name, and one by its part up to the first `_` or `.` (gmx_mpi -> gmx_).
  static constexpr std::array<bool, 256> kFirstCharacters = [] {
    std::array<bool, 256> table{};
    for (const ForeignRuntime& r : kRuntimes)
      table[static_cast<unsigned char>(r.program[0])] = true;
    return table;
  }();
  if (program.empty() || !kFirstCharacters[static_cast<unsigned char>(program[0])]) return nullptr;
  static const std::unordered_map<std::string_view, const ForeignRuntime*> kByName = [] {
    std::unordered_map<std::string_view, const ForeignRuntime*> names;
    for (const ForeignRuntime& r : kRuntimes) names.emplace(r.program, &r);
    return names;
  }();
  const auto lookup = [](std::string_view name) -> const ForeignRuntime* {
    const auto it = kByName.find(name);
    return it == kByName.end() ? nullptr : it->second;
  };
  const ForeignRuntime* found = lookup(program);
  if (found != nullptr && !found->program.ends_with('_') && !found->program.ends_with('.')) {
    return found;
  }
  const size_t cut = find_either(program, '_', '.');
  if (cut == program.size() || cut + 1 == program.size()) return nullptr;
  return lookup(program.substr(0, cut + 1));
}

}  // namespace

/// `Rscript fit.R`, `matlab -batch train`, `julia run.jl`: the cluster's
/// module gave the job the program; an AI Runtime node has Python only. Once
/// per runtime, at its first call. Not where an image replaces the
/// environment (it may have the program) or the site profile maps the
/// runtime's module.
void SetupMapper::report_foreign_program(const Site& site, size_t start, std::string_view program) {
  if (options_.custom_image) return;
  // Nearly every program is neither: ruled out before any string is made.
  const ForeignRuntime* known = foreign_runtime(program);
  const std::pair<std::string, std::string>* loaded =
      known != nullptr ? nullptr : unmapped_module_of(program);
  if (known == nullptr && loaded == nullptr) return;
  const auto& words = site.command->words;
  std::string runtime, module, what;
  if (known != nullptr) {
    if (options_.profile != nullptr && (profile::find_module(*options_.profile, known->module) ||
                                        profile::find_module(*options_.profile, known->runtime))) {
      return;
    }
    runtime = known->runtime;
    module = known->module;
    what = "runs " + runtime;
  } else {
    runtime = program;
    // The profile finds a module by its name as written or the part before
    // its first `/` (profile::find_module).
    const std::string& written = loaded->second;
    const size_t slash = written.find('/');
    module = slash != std::string::npos && written.find('/', slash + 1) == std::string::npos
                 ? written.substr(0, slash)
                 : written;
    what = "is the program of the module " + loaded->second + " (removed above)";
  }
  // snakemake, cutadapt, multiqc: the module only installed a pip package.
  const bool pip_package = installs_with_pip(runtime);
  if (std::find(foreign_runtimes_reported_.begin(), foreign_runtimes_reported_.end(), runtime) !=
      foreign_runtimes_reported_.end()) {
    return;
  }
  foreign_runtimes_reported_.push_back(runtime);
  const std::string hint =
      pip_package ? "it installs with pip: map its module in the site profile (modules: {" +
                        module + ": [" + runtime + "]}), which lists it in environment.dependencies"
                  : "run the workload in a custom container image that has " + runtime +
                        " (environment.docker_image; unity_catalog_image with --target-schema "
                        "cli-1.20), or replace the step; if your image provides it, map its module "
                        "in the site profile (modules: {" +
                        module + ": provided})";
  editor_.report(Code::program_not_in_environment, site.view, words[start].span,
                 "`" + std::string(program) + "` " + what +
                     ", which AI Runtime nodes do not have (their environment is Python" +
                     (pip_package ? " without it" : "") +
                     "): this line and every later call fail with \"command not found\"",
                 hint);
}

/// `module load samtools/1.9` ... `samtools view`: a module with no known
/// mapping whose package is the program. Everyday tools a node has anyway
/// (git, wget, rsync, ...) are not its module's alone.
const std::pair<std::string, std::string>* SetupMapper::unmapped_module_of(
    std::string_view program) const {
  const auto loaded = std::find_if(
      unmapped_modules_.begin(), unmapped_modules_.end(),
      [&](const auto& module) { return directives::detail::iequals(module.first, program); });
  if (loaded == unmapped_modules_.end()) return nullptr;
  // Everyday tools a node has anyway are not the module's alone.
  if (contains({"git",  "wget",        "curl",      "rsync",     "zip",      "unzip",  "tar",
                "gzip", "pigz",        "make",      "jq",        "parallel", "tmux",   "screen",
                "vim",  "nano",        "htop",      "perl",      "java",     "python", "python3",
                "bash", "singularity", "apptainer", "nvidia-smi"},
               program)) {
    return nullptr;
  }
  return &*loaded;
}

const std::string* SetupMapper::add_conda_environment(const std::string& env) {
  const auto* profile = options_.profile;
  if (profile == nullptr) return nullptr;
  const auto found = profile->conda_envs.find(env);
  if (found == profile->conda_envs.end()) return nullptr;
  result_.dependencies.push_back("-r " + found->second);
  return &found->second;
}

void SetupMapper::unwrap_conda_run(const Site& site) {
  const auto& words = site.command->words;
  // site.srun first: it is set for srun only, so most programs skip the comparison.
  const size_t from = site.srun && site.program == "srun"sv ? site.srun_operand : 0;
  if (from == 0 && !slurm::may_wrap_a_command(site.program)) return;  // nearly every command
  const size_t program = slurm::skip_command_wrappers(words, from);
  for (size_t i = from; i + 1 < words.size() && i < program; ++i) {
    std::optional<std::string> storage;
    const std::string_view conda = slurm::program_view(words[i], storage);
    if ((conda != "conda"sv && conda != "mamba"sv && conda != "micromamba"sv) ||
        !slurm::literal_is(words[i + 1], "run")) {
      continue;
    }
    const std::string env = conda_run_environment(words, i + 2, program);
    const Span call{words[i].span.begin,
                    program < words.size() ? words[program].span.begin : words.back().span.end};
    const Span written_span{call.begin, words[std::min(program, words.size()) - 1].span.end};
    const std::string written(editor_.source(site.view, written_span));
    if (program >= words.size()) {
      editor_.report(Code::setup_command_removed, site.view, site.command->span,
                     "`" + written +
                         "` names no command to run; conda does not exist on AI "
                         "Runtime nodes and " +
                         std::string(kLineRemoved),
                     "remove the line");
      editor_.remove_statement(site, "conda does not exist on AI Runtime nodes", {});
      return;
    }
    editor_.edit(site.view, call, "", "the command runs directly in the workload's environment");
    if (const std::string* file = add_conda_environment(env)) {
      editor_.report(Code::setup_command_removed, site.view, written_span,
                     "`" + written +
                         "` is removed: the command runs in the workload's "
                         "environment, with conda environment " +
                         env + " replaced by environment.dependencies `-r " + *file +
                         "` (from the site profile)",
                     "check that " + *file + " lists every package the environment had");
    } else {
      editor_.report(
          Code::setup_command_removed, site.view, written_span,
          "`" + written +
              "` is removed: AI Runtime nodes have no conda, so the command runs in "
              "the workload's environment; the packages of " +
              (env.empty() ? std::string("the environment") : "conda environment " + env) +
              " are not known",
          std::string(kCondaPackagesHint));
    }
    return;
  }
}

namespace {

/// The `sudo` word whose options and NAME=VALUE words alone stand between it
/// and words[start] (`sudo -E docker run`), or start when there is none.
size_t sudo_in_front(const std::vector<ast::Word>& words, size_t from, size_t start) {
  std::optional<std::string> storage;
  for (size_t i = from; i < start; ++i) {
    if (slurm::program_view(words[i], storage) != "sudo"sv) continue;
    bool only_options = true;
    for (size_t k = i + 1; k < start && only_options; ++k) {
      only_options = !slurm::may_wrap_a_command(slurm::program_view(words[k], storage));
    }
    if (only_options) return i;
  }
  return start;
}

/// Whether NAME=VALUE words written at words[first] set variables for the
/// command there: at the start of the statement (`time` too, bash's
/// keyword), or behind `env` or `sudo`, which read them. Behind srun, nice,
/// timeout or exec (and torchrun's `exec "$@"` that replaces srun) they
/// would be run as the program.
bool assignments_read_at(const std::vector<ast::Word>& words, size_t first) {
  std::optional<std::string> storage;
  for (size_t k = first; k-- > 0;) {
    const std::string_view word = slurm::program_view(words[k], storage);
    if (word == "env"sv || word == "sudo"sv || (word == "time"sv && k == 0)) return true;
    if (word == "srun"sv || slurm::may_wrap_a_command(word)) return false;
  }
  return first == 0;
}

/// The command that prints what an image of `engine` runs by itself: its
/// ENTRYPOINT, and its CMD too when `with_cmd`. Enroot wrote both into the
/// image's /etc/rc when it imported it.
std::string_view image_command_printer(slurm::ContainerEngine engine, bool with_cmd) {
  switch (engine) {
    case slurm::ContainerEngine::udocker:
      return "`udocker inspect IMAGE`";
    case slurm::ContainerEngine::enroot:
      return "`unsquashfs -cat IMAGE.sqsh etc/rc`";
    case slurm::ContainerEngine::singularity:
      return "`singularity inspect --runscript IMAGE`";
    case slurm::ContainerEngine::docker:
      break;
  }
  return with_cmd ? "`docker inspect -f '{{.Config.Entrypoint}} {{.Config.Cmd}}' IMAGE`"
                  : "`docker inspect -f '{{.Config.Entrypoint}}' IMAGE`";
}

/// What to do for the runscript `singularity run` ran and the command no
/// longer runs. Which of the two it was is the image's to say: LUMI's set
/// up their environment (a conda environment, variables) and then run their
/// arguments (`run $SIF bash -c ...`), others are the program that reads
/// them (fmriprep's `run IMG bids/ out/ participant`); `cp` or `Rscript`
/// after the image may be either.
constexpr std::string_view kRunscriptHint =
    "see what it did with `singularity inspect --runscript IMAGE`: if it set up an environment "
    "(activated one, exported variables) and then ran its arguments, put that setup at the top "
    "of the command and its packages in the environment (--dependency) or in a custom image; if "
    "it was the program that read them, put that program in front of them";

/// What the report says of a removed call: `run` ran the image's runscript
/// first, which goes with it.
std::string removed_call_message(const ContainerCall& call, const std::string& written) {
  if (!call.run) {
    return "`" + written + "` is removed: the command runs directly in the workload's environment";
  }
  return "`" + written +
         "` is removed, and with it the image's runscript (%runscript), which ran with the words "
         "after the image as its arguments: they now run directly in the workload's environment";
}

/// What to check once a container call is taken off its command: the
/// image's software, and the ENTRYPOINT that received the command's words.
std::string unwrapped_call_hint(const ContainerCall& call) {
  constexpr std::string_view kProvides =
      "check that environment (or the custom image) provides what the image had";
  if (call.run) return std::string(kRunscriptHint);
  switch (call.engine) {
    case slurm::ContainerEngine::singularity:
      return std::string(kProvides);
    case slurm::ContainerEngine::enroot:
      return std::string(kProvides) +
             "; an image with an ENTRYPOINT ran it (enroot's /etc/rc) with these words as its "
             "arguments, and relative paths were the image's WORKDIR's and are the uploaded "
             "code's now";
    case slurm::ContainerEngine::docker:
    case slurm::ContainerEngine::udocker:
      break;
  }
  return std::string(kProvides) +
         "; relative paths in the command were the image's working directory's (its WORKDIR, "
         "unless -w set one) and are the uploaded code's now, and an image with an ENTRYPOINT "
         "ran it with these words as its arguments (" +
         std::string(image_command_printer(call.engine, false)) + " shows it)";
}

}  // namespace

void SetupMapper::unwrap_container(const Site& site) {
  const auto& words = site.command->words;
  // `timeout 1h singularity exec IMG ...`: the wrapper stays, the image goes.
  // site.srun first: it is set for srun only, so most programs skip the comparison.
  const size_t from = site.srun && site.program == "srun"sv ? site.srun_operand : 0;
  const size_t start = slurm::container_step_start(site);
  if (start >= words.size()) return;
  std::optional<std::string> storage;
  // Asked of every command: the site's program is the first word's already.
  const std::string_view program =
      start == 0 ? std::string_view(site.program) : slurm::program_view(words[start], storage);
  if (program == "shifter"sv) {
    unwrap_shifter(site, start);
    return;
  }
  const std::optional<ContainerCall> call = find_container_call(
      words, start, body_.views[site.view].text, body_.container_options_of(site));
  if (!call) {
    report_container_engine(site, start, program);
    report_engine_behind_script(site, start, program);
    report_foreign_program(site, start, program);
    return;
  }
  if (call->image + 1 >= words.size()) {
    report_container_without_command(site, start, *call);
    return;
  }
  const bool docker = call->engine == slurm::ContainerEngine::docker;
  const size_t subcommand = slurm::container_subcommand(words, *call);
  // `sudo docker run`: sudo was there for docker; it goes with the call.
  const size_t first = docker ? sudo_in_front(words, from, start) : start;
  // Word by word: `podman-hpc \<newline>  run` is named `podman-hpc run`.
  std::string written;
  for (size_t i = first; i <= subcommand; ++i) {
    if (i > first) written += ' ';
    written += editor_.source(site.view, words[i].span);
  }
  const Span prefix{words[first].span.begin, words[call->image + 1].span.begin};
  // docker's -e: enroot, udocker too.
  const std::vector<CarriedVariable> carried = call->engine != slurm::ContainerEngine::singularity
                                                   ? docker_environment(site, *call)
                                                   : container_environment(site, *call);
  // `timeout 2h docker run -e A=1 IMG cmd` -> `timeout 2h env A=1 cmd`; and
  // `"A=$X" cmd` would run a command named A=..., which `env "A=$X" cmd` does not.
  const auto quoted_name = [&](const CarriedVariable& variable) {
    const std::string_view text = editor_.source(site.view, variable.written);
    return text.starts_with('"') || text.starts_with('\'');
  };
  const bool through_env =
      !carried.empty() && !carried.front().text.starts_with("env ") &&
      (!assignments_read_at(words, first) || std::ranges::any_of(carried, quoted_name));
  write_container_environment(site, prefix, carried, through_env);
  editor_.report(Code::container_wrapper_removed, site.view,
                 Span{prefix.begin, words[call->image].span.end},
                 removed_call_message(*call, written), unwrapped_call_hint(*call));
}

bool SetupMapper::unwrap_held_containers(const Site& site) {
  if (site.view != 0) return false;  // the value's spans are file offsets
  const ast::Command& command = *site.command;
  const std::string_view file_text = body_.views[0].text;
  bool unwrapped = false;
  const auto unwrap = [&](const slurm::HeldContainerCall& held, std::string_view name) {
    const auto& words = held.words();
    const size_t image = held.call.image;
    if (image >= words.size() || body_.read_as_nested_script(held.inner)) return;
    const Span prefix{words.front().span.begin,
                      image + 1 < words.size() ? words[image + 1].span.begin : held.inner.end};
    const std::string written(editor_.source(0, Span{words[0].span.begin, words[1].span.end}));
    editor_.edit(0, prefix, "", "the command it holds runs directly in the AI Runtime environment");
    editor_.report(Code::container_wrapper_removed, 0, Span{prefix.begin, words[image].span.end},
                   "`" + written + "` is removed from the value of " + std::string(name) +
                       ": what runs it (`$" + std::string(name) +
                       " ...`) runs directly in the workload's environment" +
                       (held.call.run ? ", without the image's runscript, which ran first with "
                                        "the arguments"
                                      : ""),
                   held.call.run ? std::string(kRunscriptHint) + " (in the value)"
                                 : "check that environment (or the custom image) provides what "
                                   "the image had");
    Site held_site = site;
    held_site.command = &held.parse.script.body.items.front().command;
    for (const ContainerOption& option : held.call.options) {
      if (option.name == "--env" || option.name == "--env-file") {
        const Span span = option_span(*held_site.command, option);
        editor_.report(Code::container_option_dropped, 0, span,
                       "`" + std::string(editor_.source(0, span)) +
                           "`: the container set these variables; they are not set now",
                       "set them where the variable's command runs (NAME=value in front of it)");
      } else {
        report_dropped_container_option(held_site, option);
      }
    }
    unwrapped = true;
  };
  slurm::for_each_held_container_call(command, file_text, unwrap);
  return unwrapped;
}

namespace {

/// Why a container call with nothing after the image cannot be unwrapped, and
/// what to write instead.
struct BareContainerCall {
  std::string why;
  std::string fix;
};

bool feeds_stdin_from_script(const ast::Command& command) {
  return std::ranges::any_of(command.redirects, [](const ast::Redirect& r) {
    return r.op == "<<" || r.op == "<<-" || r.op == "<<<";
  });
}

/// `"$@"` (or `$*`, `${ARR[@]}`) in the image's place expands to the image
/// and, usually, the command after it.
bool image_from_many_fields(std::string_view image) {
  return image.find("$@") != std::string_view::npos ||
         image.find("${@") != std::string_view::npos ||
         image.find("$*") != std::string_view::npos ||
         image.find("[@]") != std::string_view::npos || image.find("[*]") != std::string_view::npos;
}

BareContainerCall describe_bare_call(const ast::Command& command, const ContainerCall& call,
                                     std::string_view image) {
  if (image_from_many_fields(image))
    return {"takes the image, and what runs in it, from the script's arguments",
            "pass the command itself as the argument (the workload's environment replaces the "
            "image) and remove the container call"};
  if (call.engine != slurm::ContainerEngine::singularity)
    return {"started the image's own command (its ENTRYPOINT or CMD)",
            "write that command in its place (" +
                std::string(image_command_printer(call.engine, true)) +
                " prints it): it runs in the workload's environment"};
  if (call.run && feeds_stdin_from_script(command))
    return {"fed the script's here-document to the image's runscript",
            "write the here-document's commands in place of the line: they run in the "
            "workload's environment"};
  if (call.run)
    return {"started the image's runscript",
            "write the runscript's command in its place (" +
                std::string(image_command_printer(call.engine, true)) +
                " prints it): the command already runs in the workload's environment"};
  return {"names no command to run in the image",
          "remove the line, or write the command it was meant to run"};
}

}  // namespace

/// A call with nothing after the image (`singularity run IMAGE` runs the
/// image's runscript) cannot be taken off the line, and singularity and
/// apptainer do not exist on the nodes: the line stays, reported as an error.
void SetupMapper::report_container_without_command(const Site& site, size_t start,
                                                   const ContainerCall& call) {
  const auto& words = site.command->words;
  const Span span{words[start].span.begin, words.back().span.end};
  const std::string_view image =
      call.image < words.size() ? editor_.source(site.view, words[call.image].span) : "";
  const BareContainerCall bare = describe_bare_call(*site.command, call, image);
  const std::string engines =
      call.engine != slurm::ContainerEngine::singularity
          ? std::string(editor_.source(site.view, words[start].span)) + " does"
          : std::string("singularity and apptainer do");
  editor_.report(Code::container_without_command, site.view, span,
                 "`" + std::string(editor_.source(site.view, span)) + "` " + bare.why + "; " +
                     engines + " not exist on AI Runtime nodes, so this line fails there",
                 bare.fix);
}

/// What replaces `singularity exec [OPTIONS] IMAGE `: the variables the
/// container gave the command (exported SINGULARITYENV_X, then --env, which
/// wins), so the command still sees them; a computed --env stays where it
/// is written. Prefix assignments of this very command
/// (SINGULARITYENV_X=1 singularity ...) are renamed in place.
std::vector<SetupMapper::CarriedVariable> SetupMapper::container_environment(
    const Site& site, const ContainerCall& call) {
  const ast::Command& command = *site.command;
  std::vector<std::string> passed;  // "X (from SINGULARITYENV_X)", for the report
  for (const ast::Assignment& a : command.assignments) {
    const std::string_view target = container_variable_target(a.name);
    if (target.empty()) continue;
    std::string renamed(target);
    if (target == "PREPEND_PATH" || target == "APPEND_PATH") {
      const std::string value(editor_.source(site.view, a.value.span));
      renamed =
          target == "PREPEND_PATH" ? "PATH=" + value + ":\"$PATH\"" : "PATH=\"$PATH\":" + value;
      editor_.edit(site.view, a.span, renamed, "the container's variable, set on the command");
    } else {
      editor_.edit(site.view,
                   Span{a.span.begin, static_cast<uint32_t>(a.span.begin + a.name.size())}, renamed,
                   "the container's variable, set on the command");
    }
    passed.push_back(passed_label(a.name));
  }
  std::vector<std::string> arguments;
  for (const std::string& name : options_.container_variables) {
    const bool set_here = std::any_of(command.assignments.begin(), command.assignments.end(),
                                      [&](const ast::Assignment& a) { return a.name == name; });
    if (set_here) continue;  // renamed above; `env` would see the older value
    arguments.push_back(container_variable_argument(name));
    passed.push_back(passed_label(name));
  }
  std::vector<CarriedVariable> carried;
  if (!arguments.empty()) {
    std::string text = "env";
    for (const std::string& argument : arguments) text += " " + argument;
    carried.push_back({std::move(text), {}});
  }
  std::vector<std::string> env_items;
  for (const ContainerOption& option : call.options) {
    report_dropped_container_option(site, option);
    if (option.name != "--env" || !option.has_value) continue;
    if (add_env_option_items(site, option, true, env_items, passed)) {
      for (std::string& item : env_items) carried.push_back({std::move(item), {}});
      env_items.clear();
    } else if (option.value || !carry_computed_env(site, option, true, carried, passed)) {
      const Span span = option_span(command, option);
      editor_.report(Code::container_option_dropped, site.view, span,
                     "`" + std::string(editor_.source(site.view, span)) +
                         "`: the container set these variables; they are not set now",
                     "set them on the command (NAME=value in front of it)");
    }
  }
  if (passed.empty()) return {};
  editor_.report(Code::container_environment, site.view, command.span,
                 "the container's variables are set on the command: " + join(passed), "");
  return carried;
}

namespace {

/// NAME of a written `-e NAME=...` value (`"NAME=..."` too); empty when none.
std::string written_variable_name(std::string_view written) {
  if (written.starts_with('"') || written.starts_with('\'')) written.remove_prefix(1);
  const std::string name(written.substr(0, written.find('=')));
  return is_variable_name(name) ? name : std::string();
}

/// `-e CUDA_VISIBLE_DEVICES=$SLURM_JOB_GPUS` (quoted, or SLURM_STEP_GPUS):
/// the plain assignment's S2A5018 case, written as a docker option.
bool sets_devices_from_slurm(std::string_view written) {
  const size_t eq = written.find('=');
  return eq != std::string_view::npos &&
         written_variable_name(written.substr(0, eq)) == "CUDA_VISIBLE_DEVICES" &&
         is_slurm_gpu_list(written.substr(eq + 1));
}

/// NAME when a docker `-e` value passes the script's own NAME: `NAME`,
/// `NAME=$NAME`, `"NAME=${NAME}"`, `NAME=`echo $NAME``. Unwrapped, the command sees that NAME by
/// itself; written in front of it, an unset NAME (CUDA_VISIBLE_DEVICES on AI
/// Runtime) would become an empty one.
std::string passes_own_value(std::string_view written) {
  std::string text;
  for (char c : written) {
    if (c != '"' && c != '{' && c != '}') text.push_back(c);
  }
  const size_t eq = text.find('=');
  const std::string name = text.substr(0, eq);
  if (!is_variable_name(name)) return {};
  if (eq == std::string::npos) return name;
  const std::string value = text.substr(eq + 1), own = "$" + name;
  // `NAME=$NAME`, and the same through echo: `NAME=`echo $NAME``, `NAME=$(echo $NAME)`.
  if (value == own || value == "`echo " + own + "`" || value == "$(echo " + own + ")") return name;
  return {};
}

}  // namespace

/// What replaces `docker run [OPTIONS] IMAGE `: each `-e NAME=VALUE` in
/// front of the command (a credential as a secret, a computed `NAME=$X` as
/// written); `-e NAME` or `-e NAME=$NAME` passed the script's own NAME,
/// which the command now sees by itself. A working directory is checked, an env file reported.
/// Docker does not read SINGULARITYENV_X.
std::vector<SetupMapper::CarriedVariable> SetupMapper::docker_environment(
    const Site& site, const ContainerCall& call) {
  const ast::Command& command = *site.command;
  std::vector<std::string> passed, env_items;
  std::vector<CarriedVariable> carried;
  for (const ContainerOption& option : call.options) {
    if (option.name == "--env-file") report_dropped_container_option(site, option);
    // enroot's -w is --rw (a writable root filesystem, which AI Runtime's is).
    if ((option.name == "-w" || option.name == "--workdir") &&
        call.engine != slurm::ContainerEngine::enroot) {
      report_docker_workdir(site, call, option);
    }
    if ((option.name != "-e" && option.name != "--env") || !option.has_value) continue;
    if (settle_container_variable(site, option.value_span, option_span(command, option), passed)) {
      continue;
    }
    if (add_env_option_items(site, option, false, env_items, passed)) {
      for (std::string& item : env_items) carried.push_back({std::move(item), {}});
      env_items.clear();
      continue;
    }
    // Computed (`NN=$SLURM_NNODES`): kept in place, as written.
    if (!option.value && carry_computed_env(site, option, false, carried, passed)) continue;
    if (std::string item = shifter_variable(site, option); option.value && !item.empty()) {
      passed.push_back(item.substr(0, item.find('=')) + " (from " + option.name + ")");
      carried.push_back({std::move(item), {}});
      continue;
    }
    const Span span = option_span(command, option);
    editor_.report(Code::container_option_dropped, site.view, span,
                   "`" + std::string(editor_.source(site.view, span)) +
                       "`: the container set this variable; it is not set now",
                   "set it on the command (NAME=value in front of it)");
  }
  if (passed.empty()) return {};
  editor_.report(Code::container_environment, site.view, command.span,
                 "the container's variables are set on the command: " + join(passed), "");
  return carried;
}

namespace {

/// Why a written `NAME=...` a container call gave its command is not given
/// to it any more, if it is not.
struct ContainerVariableFate {
  enum Kind : uint8_t { carried, set_by_runtime, slurm_gpu_list, scripts_own } kind = carried;
  std::string name;  // the variable AI Runtime sets, or the script's own
};

ContainerVariableFate container_variable_fate(std::string_view written) {
  if (std::string name = written_variable_name(written); is_runtime_variable(name)) {
    return {ContainerVariableFate::set_by_runtime, std::move(name)};
  }
  if (sets_devices_from_slurm(written)) return {ContainerVariableFate::slurm_gpu_list, {}};
  if (std::string own = passes_own_value(written); !own.empty()) {
    return {ContainerVariableFate::scripts_own, std::move(own)};
  }
  return {};
}

}  // namespace

bool SetupMapper::settle_container_variable(const Site& site, Span value, Span shown,
                                            std::vector<std::string>& passed) {
  const ContainerVariableFate fate = container_variable_fate(editor_.source(site.view, value));
  const std::string shown_text(editor_.source(site.view, shown));
  switch (fate.kind) {
    case ContainerVariableFate::carried:
      return false;
    case ContainerVariableFate::set_by_runtime:
      editor_.report(Code::provided_variable_removed, site.view, shown,
                     "`" + shown_text + "`: AI Runtime sets " + fate.name +
                         " on every node; the container's value is not carried over",
                     "");
      return true;
    case ContainerVariableFate::slurm_gpu_list:
      editor_.report(Code::visible_devices_from_slurm, site.view, shown,
                     "`" + shown_text +
                         "` sets CUDA_VISIBLE_DEVICES to Slurm's list of the job's GPUs, which AI "
                         "Runtime does not set: it would be empty and hide every GPU; the node's "
                         "GPUs are all the job's, so it is not carried over",
                     "to use fewer GPUs than the node has, set CUDA_VISIBLE_DEVICES=0,1,... to "
                     "that many");
      return true;
    case ContainerVariableFate::scripts_own:
      passed.push_back(fate.name + " (the script's own, from " + shown_text + ")");
      return true;
  }
  return false;
}

namespace {

/// One item of a computed `--env` list, as written, and what replaces the
/// comma after it so that the items become words of their own.
struct WrittenEnvItem {
  Span span;
  std::string_view after = " ";
};

/// A computed `--env` value split where apptainer splits it (a `list`; a
/// docker -e value is one item), at its commas, as it reads the expanded
/// value as one CSV line: `A=$X,B="$Y"` -> `A=$X`, `B="$Y"`; in
/// `"A=$X,B=$Y"` the comma becomes `" "`. Nothing when a comma is inside an
/// expansion (`${X:-a,b}`, `$(f a,b)`), whose fields are not known, or an
/// item is not `NAME=...`.
std::vector<WrittenEnvItem> written_env_items(std::string_view written, uint32_t begin, bool list) {
  std::vector<WrittenEnvItem> items;
  std::string closers;  // of the expansions the scan is in
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < written.size(); ++i) {
    const char c = written[i];
    if (quote == '\'' && c != '\'') continue;
    if (c == '\\') {
      ++i;
    } else if (c == '\'' || (c == '"' && closers.empty())) {
      quote = quote == c ? 0 : (quote == 0 ? c : quote);
    } else if (c == '$' && i + 1 < written.size() &&
               (written[i + 1] == '(' || written[i + 1] == '{')) {
      closers.push_back(written[++i] == '(' ? ')' : '}');
    } else if (c == '`' && (closers.empty() || closers.back() != '`')) {
      closers.push_back('`');
    } else if (!closers.empty() && c == closers.back()) {
      closers.pop_back();
    } else if (c == ',' && list) {
      if (!closers.empty()) return {};
      items.push_back({Span{static_cast<uint32_t>(begin + start), static_cast<uint32_t>(begin + i)},
                       quote == '"' ? "\" \""sv : (quote == '\'' ? "' '"sv : " "sv)});
      start = i + 1;
    }
  }
  if (!closers.empty() || quote != 0) return {};
  items.push_back(
      {Span{static_cast<uint32_t>(begin + start), static_cast<uint32_t>(begin + written.size())}});
  for (const WrittenEnvItem& item : items) {
    const std::string_view text = written.substr(item.span.begin - begin, item.span.size());
    if (text.find('=') == std::string_view::npos || written_variable_name(text).empty()) return {};
  }
  return items;
}

}  // namespace

/// `--env A=$X,B=1` -> `A=$X B=1` (docker's `-e A=$X`, one item, alike),
/// kept in place, so Slurm's variables in it are rewritten like the rest of
/// the command. Not when an item holds a credential (kept, it would be
/// printed), nor when one is taken off a list whose quotes it shares.
bool SetupMapper::carry_computed_env(const Site& site, const ContainerOption& option, bool list,
                                     std::vector<CarriedVariable>& carried,
                                     std::vector<std::string>& passed) {
  const std::string_view written = editor_.source(site.view, option.value_span);
  const std::vector<WrittenEnvItem> items =
      written_env_items(written, option.value_span.begin, list);
  if (items.empty()) return false;
  const auto text_of = [&](const WrittenEnvItem& item) {
    return editor_.source(site.view, item.span);
  };
  const bool shares_quotes =
      std::ranges::any_of(items, [](const WrittenEnvItem& item) { return item.after != " "sv; });
  for (const WrittenEnvItem& item : items) {
    const std::string_view text = text_of(item);
    const std::string name = written_variable_name(text);
    const std::string_view value = text.substr(text.find('=') + 1);
    if (holds_credential(name, value, std::nullopt)) return false;
    if (shares_quotes && container_variable_fate(text).kind != ContainerVariableFate::carried) {
      return false;
    }
  }
  const Span shown = items.size() == 1 ? option_span(*site.command, option) : Span{};
  for (const WrittenEnvItem& item : items) {
    if (settle_container_variable(site, item.span, shown.empty() ? item.span : shown, passed)) {
      continue;
    }
    passed.push_back(written_variable_name(text_of(item)) + " (from " + option.name + ")");
    carried.push_back({{}, item.span, item.after});
  }
  return true;
}

void SetupMapper::write_container_environment(const Site& site, Span prefix,
                                              const std::vector<CarriedVariable>& carried,
                                              bool through_env) {
  // The gaps between the values kept in place are replaced, each with the
  // new text that goes before the next kept value.
  std::string text = through_env ? "env " : "";
  uint32_t at = prefix.begin;
  for (const CarriedVariable& variable : carried) {
    if (variable.written.empty()) {
      text += variable.text + " ";
      continue;
    }
    editor_.edit(site.view, Span{at, variable.written.begin}, std::move(text),
                 "the command runs directly in the AI Runtime environment");
    text = variable.after;
    at = variable.written.end;
  }
  editor_.edit(site.view, Span{at, prefix.end}, std::move(text),
               "the command runs directly in the AI Runtime environment");
}

/// Docker's `-w DIR` ran the command in DIR. The script's own directory
/// (`-w $PWD`, or where a -v mounted it: `-v $PWD:/ws -w /ws`) is where the
/// command starts on AI Runtime too; any other directory is reported.
void SetupMapper::report_docker_workdir(const Site& site, const ContainerCall& call,
                                        const ContainerOption& option) {
  std::string dir =
      option.value.value_or(std::string(editor_.source(site.view, option.value_span)));
  if (under_job_directory(dir) == std::string()) return;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  for (const ContainerOption& mount : call.options) {
    if (!slurm::is_mount_option(call, mount) || !mount.has_value) continue;
    std::vector<std::string> mounts;
    slurm::split_container_mounts(
        call, mount, mount.value.value_or(std::string(editor_.source(site.view, mount.value_span))),
        mounts);
    for (std::string_view m : mounts) {
      const size_t colon = m.find(':');
      if (colon == std::string_view::npos) continue;
      std::string_view target = m.substr(colon + 1);
      target = target.substr(0, target.find(':'));
      while (target.size() > 1 && target.back() == '/') target.remove_suffix(1);
      if (target == dir && under_job_directory(m.substr(0, colon)) == std::string()) return;
    }
  }
  report_dropped_container_option(site, ContainerOption{option.word, option.last_word, "--pwd",
                                                        true, option.value, option.value_span});
}

/// `--env A=1,B=2` -> "A=1", "B=2" for the command; a credential among
/// them becomes a secret. False when the value cannot be carried over
/// (computed, or not NAME=VALUE items).
bool SetupMapper::add_env_option_items(const Site& site, const ContainerOption& option, bool list,
                                       std::vector<std::string>& env_items,
                                       std::vector<std::string>& passed) {
  if (!option.value) return false;
  const std::vector<EnvItem> items = env_option_items(*option.value, list);
  if (items.empty()) return false;
  // A secret is cut out of the script's own bytes, so its value must be
  // written there as the shell passes it: bare or inside one pair of quotes.
  const std::string_view written = editor_.source(site.view, option.value_span);
  std::optional<size_t> offset;
  if (written == *option.value) {
    offset = 0;
  } else if (written.size() == option.value->size() + 2 &&
             written.substr(1, written.size() - 2) == *option.value) {
    offset = 1;
  }
  const auto holds_secret = [](const EnvItem& item) {
    return holds_credential(item.name, item.value, item.value);
  };
  if (!offset && std::any_of(items.begin(), items.end(), holds_secret)) return false;
  for (const EnvItem& item : items) {
    std::string value = shell_word(item.value);
    if (holds_secret(item)) {
      const auto begin =
          static_cast<uint32_t>(option.value_span.begin + *offset + item.value_offset);
      const std::string secret =
          add_secret(site, std::string(item.name),
                     Span{begin, static_cast<uint32_t>(begin + item.value.size())});
      value = "\"$" + secret + "\"";
    }
    env_items.push_back(std::string(item.name) + "=" + value);
    passed.push_back(std::string(item.name) + " (from " + option.name + ")");
  }
  return true;
}

void SetupMapper::report_dropped_container_option(const Site& site, const ContainerOption& option) {
  const Span span = option_span(*site.command, option);
  if (option.name.starts_with('$')) {  // options kept in a variable: their effect is not known
    editor_.report(Code::container_option_dropped, site.view, span,
                   "`" + option.name +
                       "` holds options of the container call, which go with it: the binds, "
                       "environment or working directory they set do not carry over",
                   "set what they set on the command itself (cd, export) or in the workload");
    return;
  }
  const DroppedOptionNote* note = dropped_option_note(option.name);
  if (note == nullptr) return;
  editor_.report(
      Code::container_option_dropped, site.view, span,
      "`" + std::string(editor_.source(site.view, span)) + "`: " + std::string(note->effect),
      std::string(note->hint));
}

/// `shifter [OPTIONS] CMD` runs CMD in the job's image (`#SBATCH --image`,
/// or its own `--image`, both read by the workload mapping with its
/// `--volume` mounts). What replaces `shifter [OPTIONS] `: the variables
/// its `-e NAME=VALUE` gave the command; a working directory or env file is
/// reported, the rest (`--module gpu`, `--clearenv`) is the container's own.
void SetupMapper::unwrap_shifter(const Site& site, size_t start) {
  const auto& words = site.command->words;
  const std::optional<slurm::ShifterCall> call =
      slurm::find_shifter_call(words, start, body_.views[site.view].text);
  if (!call || call->program >= words.size()) return;
  std::string variables;
  std::vector<std::string> passed;
  for (const ContainerOption& option : call->options) {
    const Span span = option_span(*site.command, option);
    if (option.name == "-e" || option.name == "--env") {
      if (std::string item = shifter_variable(site, option); !item.empty()) {
        passed.push_back(item.substr(0, item.find('=')) + " (from " + option.name + ")");
        variables += item + " ";
        continue;
      }
      editor_.report(Code::container_option_dropped, site.view, span,
                     "`" + std::string(editor_.source(site.view, span)) +
                         "`: the container set this variable; it is not set now",
                     "set it on the command (NAME=value in front of it)");
    } else if (option.name == "-w" || option.name == "--workdir") {
      report_dropped_container_option(site, ContainerOption{option.word, option.last_word, "--pwd",
                                                            true, option.value, option.value_span});
    } else if (option.name == "--env-file") {
      report_dropped_container_option(site, option);
    }
  }
  // `srun shifter --env A=1 bash -c ...` -> `env A=1 bash -c ...`: behind
  // srun (and the shim's `exec "$@"` or torchrun --no_python that replace
  // it) `A=1` would be run as the program, as for singularity's --env.
  if (!variables.empty() && !assignments_read_at(words, start)) variables.insert(0, "env ");
  const Span prefix{words[start].span.begin, words[call->program].span.begin};
  editor_.edit(site.view, prefix, variables,
               "the command runs directly in the AI Runtime environment");
  editor_.report(Code::container_wrapper_removed, site.view,
                 Span{prefix.begin, words[call->program - 1].span.end},
                 "`shifter` is removed: the command runs directly in the workload's environment",
                 "check that environment (or the custom image) provides what the image had");
  if (!passed.empty()) {
    editor_.report(Code::container_environment, site.view, site.command->span,
                   "the container's variables are set on the command: " + join(passed), "");
  }
}

/// `-e NAME=VALUE` as an assignment in front of the command: the value
/// requoted when literal, as written when it is an unquoted `NAME=$X`;
/// empty when it cannot be carried.
std::string SetupMapper::shifter_variable(const Site& site, const ContainerOption& option) const {
  if (!option.has_value) return {};
  if (option.value) {
    const size_t eq = option.value->find('=');
    if (eq == std::string::npos || !is_variable_name(option.value->substr(0, eq))) return {};
    return option.value->substr(0, eq + 1) + shell_word(option.value->substr(eq + 1));
  }
  const std::string_view written = editor_.source(site.view, option.value_span);
  const size_t eq = written.find('=');
  if (eq == std::string_view::npos || !is_variable_name(std::string(written.substr(0, eq)))) {
    return {};
  }
  return std::string(written);
}

}  // namespace s2a::air
