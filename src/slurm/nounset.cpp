#include "slurm/nounset.hpp"

#include <algorithm>
#include <iterator>
#include <optional>

#include "slurm/body.hpp"
#include "source/shebang.hpp"

namespace s2a::slurm {
namespace {

/// What one `set` argument does to nounset: `-eu`, `-euo pipefail` and
/// `-o nounset` turn it on, `+u` and `+o nounset` off; anything else leaves it.
std::optional<bool> nounset_change(std::string_view argument, std::string_view next) {
  if (argument.size() < 2 || (argument[0] != '-' && argument[0] != '+') || argument == "--") {
    return std::nullopt;
  }
  const bool on = argument[0] == '-';
  // `-o nounset`, `-eo nounset`: the last letter takes the next word.
  if (argument.back() == 'o' && next == "nounset") return on;
  if (argument.substr(1).find('u') != std::string_view::npos) return on;
  return std::nullopt;
}

}  // namespace

NounsetScopes NounsetScopes::read(const Body& body, std::string_view file_text) {
  NounsetScopes scopes;
  if (const std::optional<Shebang> shebang = read_shebang(file_text)) {
    scopes.from_start_ = set_options_of(*shebang).find('u') != std::string::npos;
  }
  if (body.views.empty()) return scopes;
  const std::string_view text = body.views[0].text;
  for (const Site& site : body.sites) {
    if (site.view != 0 || site.program != "set" || site.context.in_substitution) continue;
    const auto& words = site.command->words;
    for (size_t i = 1; i < words.size(); ++i) {
      const std::string_view argument = text.substr(words[i].span.begin, words[i].span.size());
      const std::string_view next =
          i + 1 < words.size() ? text.substr(words[i + 1].span.begin, words[i + 1].span.size())
                               : std::string_view();
      if (const std::optional<bool> on = nounset_change(argument, next)) {
        scopes.changes_.emplace_back(site.command->span.end, *on);
      }
    }
  }
  return scopes;
}

bool NounsetScopes::at(uint32_t offset) const {
  // The last change at or before `offset` (asked for each use of a variable).
  const auto after = std::partition_point(
      changes_.begin(), changes_.end(), [&](const auto& change) { return change.first <= offset; });
  return after == changes_.begin() ? from_start_ : std::prev(after)->second;
}

bool NounsetScopes::allows_unset(std::string_view param_op) {
  for (std::string_view op : {":-", ":=", ":+", ":?", "-", "=", "+", "?"}) {
    if (param_op.starts_with(op)) return true;
  }
  return false;
}

}  // namespace s2a::slurm
