#include "air/script_arguments.hpp"

#include <algorithm>
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

void collect(const std::vector<ast::WordPart>& parts, ArgumentUses& uses) {
  for (const ast::WordPart& part : parts) {
    if (part.kind == ast::PartKind::param && is_argument_parameter(part.text)) {
      if (uses.count++ == 0) uses.first = part.span;
      if (std::find(uses.names.begin(), uses.names.end(), part.text) == uses.names.end()) {
        uses.names.push_back(part.text);
      }
    }
    collect(part.parts, uses);
  }
}

void collect(const ast::Command& command, ArgumentUses& uses) {
  for (const ast::Word& word : command.words) collect(word.parts, uses);
  for (const ast::Assignment& a : command.assignments) {
    collect(a.value.parts, uses);
    for (const ast::Word& element : a.elements) collect(element.parts, uses);
  }
  for (const ast::Redirect& redirect : command.redirects) {
    collect(redirect.target.parts, uses);
    collect(redirect.heredoc_parts, uses);
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

/// Whether `text` has a `$` that could start one ($1, ${1...}, $@, $*, $#):
/// nearly every script has none, and this byte scan spares the AST walk.
bool may_read_arguments(std::string_view text) {
  for (size_t at = text.find('$'); at != std::string_view::npos; at = text.find('$', at + 1)) {
    size_t next = at + 1;
    if (next < text.size() && text[next] == '{') ++next;
    if (next < text.size() &&
        std::string_view("123456789@*#").find(text[next]) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ", ";
    out += (name.size() > 1 && name != "@" ? "${" + name + "}" : "$" + name);
  }
  return out;
}

}  // namespace

void report_script_arguments(const slurm::Body& body, Diagnostics& diagnostics) {
  if (body.views.empty() || !may_read_arguments(body.views[0].text)) return;
  ArgumentUses uses;
  for (const slurm::Site& site : body.sites) {
    if (site.view != 0 || site.context.in_function) continue;  // views[0] is the batch script
    if (sets_own_arguments(site)) return;
    collect(*site.command, uses);
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

}  // namespace s2a::air
