#include "air/container_call.hpp"

#include <algorithm>

namespace s2a::air {
namespace {

using namespace std::string_view_literals;

constexpr std::array kContainerVariablePrefixes = {"SINGULARITYENV_"sv, "APPTAINERENV_"sv};

}  // namespace

std::string_view container_variable_target(std::string_view name) {
  for (std::string_view prefix : kContainerVariablePrefixes) {
    if (name.size() > prefix.size() && name.starts_with(prefix)) {
      return name.substr(prefix.size());
    }
  }
  return {};
}

std::vector<std::string> exported_container_variables(const slurm::Body& body) {
  std::vector<std::string> names;
  const std::string_view text = body.views.empty() ? std::string_view() : body.views[0].text;
  // Both prefixes end in "ENV_": one scan for it spares nearly every script
  // the walk (two scans for the prefixes cost more, their first letters being common).
  if (text.find("ENV_") == std::string_view::npos) return names;
  for (const slurm::Site& site : body.sites) {
    if (site.program != "export" && site.program != "declare" && site.program != "typeset") {
      continue;
    }
    const auto& words = site.command->words;
    bool exported = site.program == "export";
    if (exported && words.size() > 1 && slurm::literal_is(words[1], "-n")) continue;  // un-exports
    for (size_t i = 1; i < words.size(); ++i) {
      std::string storage;
      const std::string_view word = slurm::literal_prefix(words[i], storage);
      if (word.starts_with('-')) {
        exported =
            exported || (word.find('x') != std::string_view::npos && !word.starts_with("--"));
        continue;
      }
      const std::string_view name = word.substr(0, word.find('='));
      if (!exported || container_variable_target(name).empty()) continue;
      if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
    }
  }
  return names;
}

}  // namespace s2a::air
