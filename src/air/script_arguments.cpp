#include "air/script_arguments.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace s2a::air {
namespace {

/// 1..9, 10 (from ${10}), @, * and #: what the script's arguments fill in.
bool is_argument_parameter(std::string_view name) {
  if (name == "@" || name == "*" || name == "#") return true;
  return !name.empty() && name != "0" &&
         std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

struct ArgumentUses {
  std::vector<std::string> names;  // distinct, in order of first use
  size_t count = 0;
  Span first;
};

using Wanted = bool (*)(std::string_view name);

void add_use(const ast::WordPart& part, ArgumentUses& uses) {
  // Compound heads are collected after the sites: keep the earliest.
  if (uses.count++ == 0 || part.span.begin < uses.first.begin) uses.first = part.span;
  if (std::find(uses.names.begin(), uses.names.end(), part.text) == uses.names.end()) {
    uses.names.push_back(part.text);
  }
}

void collect(const std::vector<ast::WordPart>& parts, ArgumentUses& uses, Wanted wanted) {
  for (const ast::WordPart& part : parts) {
    if (part.kind == ast::PartKind::param && wanted(part.text)) add_use(part, uses);
    if (!part.parts.empty()) collect(part.parts, uses, wanted);  // most parts are leaves
  }
}

void collect(const ast::Command& command, ArgumentUses& uses, Wanted wanted) {
  for (const ast::Word& word : command.words) collect(word.parts, uses, wanted);
  for (const ast::Assignment& a : command.assignments) {
    collect(a.value.parts, uses, wanted);
    for (const ast::Word& element : a.elements) collect(element.parts, uses, wanted);
  }
  for (const ast::Redirect& redirect : command.redirects) {
    collect(redirect.target.parts, uses, wanted);
    collect(redirect.heredoc_parts, uses, wanted);
  }
}

/// `set -- a b` (or `set a b`) gives the script arguments of its own.
bool sets_own_arguments(const slurm::Site& site) {
  const auto& words = site.command->words;
  if (site.program != "set" || words.size() < 2) return false;
  std::optional<std::string> storage;
  const std::optional<std::string_view> first = slurm::literal_view(words[1], storage);
  return !first || *first == "--" || (!first->starts_with('-') && !first->starts_with('+'));
}

/// 1-9, @, * and #: what follows the `$` (or `${`) of an argument. Asked at
/// every `$` of the script: no memchr over a set of characters.
bool is_argument_character(char c) {
  return (c >= '1' && c <= '9') || c == '@' || c == '*' || c == '#';
}

/// Whether `text` has a `$` that could start one ($1, ${1...}, $@, $*, $#):
/// nearly every script has none, and this byte scan spares the AST walk.
bool may_read_arguments(std::string_view text) {
  for (size_t at = text.find('$'); at != std::string_view::npos; at = text.find('$', at + 1)) {
    size_t next = at + 1;
    if (next < text.size() && text[next] == '{') ++next;
    if (next < text.size() && is_argument_character(text[next])) return true;
  }
  return false;
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ", ";
    if (name == "getopts") {
      out += "`getopts`";
      continue;
    }
    out += (name.size() > 1 && name != "@" ? "${" + name + "}" : "$" + name);
  }
  return out;
}

}  // namespace

void report_script_arguments(const slurm::Body& body, Diagnostics& diagnostics) {
  if (body.views.empty()) return;
  const std::string_view text = body.views[0].text;
  if (!may_read_arguments(text) && text.find("getopts") == std::string_view::npos) return;
  ArgumentUses uses;
  for (const slurm::Site& site : body.sites) {
    if (site.view != 0 || site.context.in_function) continue;  // views[0] is the batch script
    if (sets_own_arguments(site)) return;
    collect(*site.command, uses, is_argument_parameter);
    // `while getopts "d:h" opt`: with no words to parse it parses "$@".
    if (site.program == "getopts" && site.command->words.size() == 3) {
      ast::WordPart use;
      use.span = site.command->span;
      use.text = "getopts";
      add_use(use, uses);
    }
  }
  // `case "$1" in`, `for arg in "$@"`, `[[ $# -lt 2 ]]`.
  for (const slurm::Site& head : body.compound_heads) {
    if (head.view == 0 && !head.context.in_function) {
      collect(*head.command, uses, is_argument_parameter);
    }
  }
  if (uses.count == 0) return;
  diagnostics.push_back(
      {Code::script_arguments, uses.first,
       "the script reads the arguments given to sbatch after its name (" + listed(uses.names) +
           (uses.count > 1 ? "; " + std::to_string(uses.count) + " uses" : std::string()) +
           "); AI Runtime starts the command with none, so they are empty (or the default "
           "written with them)",
       "write the values in their place, or start the command with `set -- VALUE...`"});
}

namespace {

/// `$0`, `${BASH_SOURCE[0]}`: the running script's own path.
bool is_script_path_parameter(std::string_view name) {
  return name == "0" || name == "BASH_SOURCE";
}

/// Whether `text` has a `$` that could name the script's path ($0, ${0...},
/// $BASH_SOURCE, ${BASH_SOURCE...}): one scan from `$` to `$`.
bool may_read_script_path(std::string_view text) {
  for (size_t at = text.find('$'); at != std::string_view::npos; at = text.find('$', at + 1)) {
    size_t next = at + 1;
    if (next < text.size() && text[next] == '{') ++next;
    if (next < text.size() &&
        (text[next] == '0' || (text[next] == 'B' && text.substr(next, 11) == "BASH_SOURCE"))) {
      return true;
    }
  }
  return false;
}

/// Where the script is (`$(dirname "$0")`, `${0%/*}`, BASH_SOURCE), or what
/// it holds (`cp $0 $OUT/`, `grep '^#SBATCH' $0`).
struct ScriptPathUses {
  ArgumentUses directory;
  ArgumentUses file;
};

/// How a command uses the script's path: to find its directory, to read
/// its text, or (printing or keeping the name) in a way that loses nothing.
enum class PathUse : uint8_t { directory, file, name };

PathUse path_use_of(const slurm::Site& site) {
  const std::string& program = site.program;
  if (program == "dirname" || program == "realpath" || program == "readlink") {
    return PathUse::directory;
  }
  static constexpr std::array<std::string_view, 17> kReaders = {
      "awk",    "cat",   "cmp", "cp",      "diff",      "egrep", "fgrep", "grep", "head",
      "md5sum", "rsync", "sed", "sha1sum", "sha256sum", "tail",  "tar",   "wc"};
  return std::find(kReaders.begin(), kReaders.end(), program) != kReaders.end() ? PathUse::file
                                                                                : PathUse::name;
}

void collect_script_path(const std::vector<ast::WordPart>& parts, PathUse use,
                         ScriptPathUses& uses) {
  for (const ast::WordPart& part : parts) {
    if (part.kind == ast::PartKind::param && is_script_path_parameter(part.text)) {
      const bool directory =
          use == PathUse::directory || part.text == "BASH_SOURCE" || part.op.starts_with('%');
      if (directory || use == PathUse::file) add_use(part, directory ? uses.directory : uses.file);
    }
    if (!part.parts.empty()) collect_script_path(part.parts, use, uses);  // most are leaves
  }
}

std::string counted(const ArgumentUses& uses) {
  return listed(uses.names) +
         (uses.count > 1 ? "; " + std::to_string(uses.count) + " uses" : std::string());
}

}  // namespace

void report_script_path(const slurm::Body& body, Diagnostics& diagnostics) {
  if (body.views.empty() || !may_read_script_path(body.views[0].text)) return;
  ScriptPathUses uses;
  for (const slurm::Site& site : body.sites) {
    if (site.view != 0) continue;  // a `bash -c` script's $0 is its own
    const PathUse use = path_use_of(site);
    for (const ast::Word& word : site.command->words) collect_script_path(word.parts, use, uses);
    for (const ast::Assignment& a : site.command->assignments) {
      collect_script_path(a.value.parts, use, uses);
    }
    for (const ast::Redirect& redirect : site.command->redirects) {
      if (redirect.op == "<") collect_script_path(redirect.target.parts, PathUse::file, uses);
    }
  }
  if (uses.directory.count > 0) {
    diagnostics.push_back(
        {Code::script_own_path, uses.directory.first,
         "the script looks for its own directory (" + counted(uses.directory) +
             "): under sbatch the script ran as Slurm's spooled copy in slurmd's spool directory "
             "(job<id>/slurm_script), not from where it was submitted, and on AI Runtime it is "
             "the uploaded command.sh; neither directory holds the script's files",
         "use \"$CODE_SOURCE_PATH\", the uploaded code root (the submission directory), where "
         "the script's directory was meant"});
  }
  if (uses.file.count > 0) {
    diagnostics.push_back(
        {Code::script_own_path, uses.file.first,
         "the script reads its own file (" + counted(uses.file) +
             "): on AI Runtime that is the uploaded command.sh, the translated command without "
             "its #SBATCH lines, not the batch script",
         "read or copy the original script from the code root (\"$CODE_SOURCE_PATH\"/...) if "
         "it is uploaded with the code"});
  }
}

}  // namespace s2a::air
