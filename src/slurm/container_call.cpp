#include "slurm/container_call.hpp"

#include <algorithm>
#include <array>

#include "slurm/body.hpp"

namespace s2a::slurm {
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

}  // namespace

std::optional<ContainerCall> find_container_call(const std::vector<ast::Word>& words, size_t start,
                                                 std::string_view view_text,
                                                 std::span<const size_t> option_words) {
  if (start + 1 >= words.size()) return std::nullopt;
  std::optional<std::string> name_storage;
  const std::string_view wrapper = program_view(words[start], name_storage);
  if (wrapper != "singularity" && wrapper != "apptainer") return std::nullopt;
  const auto sub = literal_value(words[start + 1]);
  if (!sub || (*sub != "exec" && *sub != "run")) return std::nullopt;
  ContainerCall call{start, *sub == "run", {}, words.size()};
  size_t i = start + 2;
  for (; i < words.size(); ++i) {
    if (std::ranges::find(option_words, i) != option_words.end()) {
      const Span span = words[i].span;
      call.options.push_back(
          {i, i, std::string(view_text.substr(span.begin, span.size())), false, std::nullopt, {}});
      continue;
    }
    std::string storage;
    const std::string_view head = literal_prefix(words[i], storage);
    if (!head.starts_with('-')) break;
    const Span span = words[i].span;
    ContainerOption option{i, i, std::string(head), false, std::nullopt, {}};
    if (const size_t eq = head.find('='); eq != std::string_view::npos) {
      option.name.resize(eq);
      option.has_value = true;
      option.value = literal_value(words[i]);
      if (option.value) option.value->erase(0, option.value->find('=') + 1);
      const size_t written_eq = view_text.substr(span.begin, span.size()).find('=');
      option.value_span = written_eq == std::string_view::npos
                              ? span
                              : Span{static_cast<uint32_t>(span.begin + written_eq + 1), span.end};
    } else if (std::ranges::find(kOptionsWithValue, head) != kOptionsWithValue.end() &&
               literal_is(words[i], head) && i + 1 < words.size()) {
      option.last_word = ++i;
      option.has_value = true;
      option.value = literal_value(words[i]);
      option.value_span = words[i].span;
    }
    call.options.push_back(std::move(option));
  }
  call.image = std::min(i, words.size());
  return call;
}

}  // namespace s2a::slurm
