#include "air/container_call.hpp"

#include <algorithm>

#include "air/keyword_list.hpp"

namespace s2a::air {
namespace {

using namespace std::string_view_literals;

/// singularity/apptainer exec|run options that take a separate value word
/// (apptainer 1.x `exec --help`); every other option is a switch.
// clang-format off
constexpr std::array kOptionsWithValue = {
    "-B"sv, "--bind"sv, "--mount"sv, "-H"sv, "--home"sv, "-W"sv, "--workdir"sv, "--pwd"sv,
    "-o"sv, "--overlay"sv, "--env"sv, "--env-file"sv, "--security"sv, "--network"sv,
    "--network-args"sv, "--app"sv, "-S"sv, "--scratch"sv, "--hostname"sv, "--dns"sv,
    "--add-caps"sv, "--drop-caps"sv, "--apply-cgroups"sv, "--cpus"sv, "--cpu-shares"sv,
    "--cpuset-cpus"sv, "--cpuset-mems"sv, "--memory"sv, "--memory-reservation"sv,
    "--memory-swap"sv, "--pids-limit"sv, "--blkio-weight"sv, "--blkio-weight-device"sv,
    "--authfile"sv};
// clang-format on

constexpr std::array kContainerVariablePrefixes = {"SINGULARITYENV_"sv, "APPTAINERENV_"sv};

}  // namespace

std::optional<ContainerCall> find_container_call(const std::vector<ast::Word>& words, size_t start,
                                                 std::string_view view_text) {
  if (start + 1 >= words.size()) return std::nullopt;
  std::optional<std::string> name_storage;
  const std::string_view wrapper = slurm::program_view(words[start], name_storage);
  if (wrapper != "singularity" && wrapper != "apptainer") return std::nullopt;
  const auto sub = slurm::literal_value(words[start + 1]);
  if (!sub || (*sub != "exec" && *sub != "run")) return std::nullopt;
  ContainerCall call{start, *sub == "run", {}, words.size()};
  size_t i = start + 2;
  for (; i < words.size(); ++i) {
    std::string storage;
    const std::string_view head = slurm::literal_prefix(words[i], storage);
    if (!head.starts_with('-')) break;
    const Span span = words[i].span;
    ContainerOption option{i, i, std::string(head), false, std::nullopt, {}};
    if (const size_t eq = head.find('='); eq != std::string_view::npos) {
      option.name.resize(eq);
      option.has_value = true;
      option.value = slurm::literal_value(words[i]);
      if (option.value) option.value->erase(0, option.value->find('=') + 1);
      const size_t written_eq = view_text.substr(span.begin, span.size()).find('=');
      option.value_span = written_eq == std::string_view::npos
                              ? span
                              : Span{static_cast<uint32_t>(span.begin + written_eq + 1), span.end};
    } else if (contains(kOptionsWithValue, head) && slurm::literal_is(words[i], head) &&
               i + 1 < words.size()) {
      option.last_word = ++i;
      option.has_value = true;
      option.value = slurm::literal_value(words[i]);
      option.value_span = words[i].span;
    }
    call.options.push_back(std::move(option));
  }
  call.image = std::min(i, words.size());
  return call;
}

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
