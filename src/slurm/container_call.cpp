#include "slurm/container_call.hpp"

#include <algorithm>
#include <array>
#include <cctype>

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

/// shifter's options that take a value (`shifter --help`); the rest
/// (`-E/--clearenv`, `-v`, `--entrypoint`) are switches.
constexpr std::array kShifterOptionsWithValue = {
    "-i"sv, "--image"sv, "-V"sv, "--volume"sv, "-e"sv, "--env"sv, "--env-file"sv,
    "-w"sv, "--workdir"sv, "-m"sv, "--module"sv};
// clang-format on

bool takes_value(std::string_view name) {
  return std::ranges::find(kShifterOptionsWithValue, name) != kShifterOptionsWithValue.end();
}

/// `--bind=a:b`: the option's name ends at the first `=` of its literal
/// text, and its value is what follows (in the written word too).
void take_value_after_equals(ContainerOption& option, const ast::Word& word,
                             std::string_view view_text) {
  option.name.resize(option.name.find('='));
  option.has_value = true;
  option.value = literal_value(word);
  if (option.value) option.value->erase(0, option.value->find('=') + 1);
  const Span span = word.span;
  const size_t written_eq = view_text.substr(span.begin, span.size()).find('=');
  option.value_span = written_eq == std::string_view::npos
                          ? span
                          : Span{static_cast<uint32_t>(span.begin + written_eq + 1), span.end};
}

/// `--bind a:b`: the next word is the value; `i` moves onto it.
void take_next_word_as_value(ContainerOption& option, const std::vector<ast::Word>& words,
                             size_t& i) {
  option.last_word = ++i;
  option.has_value = true;
  option.value = literal_value(words[i]);
  option.value_span = words[i].span;
}

/// Whether a call's options end at words[i], whose literal start is
/// `head`: at `--` (i moves past it) or at the first word that is no option.
bool options_end_at(const std::vector<ast::Word>& words, std::string_view head, size_t& i) {
  if (head == "--" && literal_is(words[i], "--")) {
    ++i;
    return true;
  }
  return !head.starts_with('-') || head == "-";
}

}  // namespace

std::optional<ShifterCall> find_shifter_call(const std::vector<ast::Word>& words, size_t start,
                                             std::string_view view_text) {
  if (start >= words.size()) return std::nullopt;
  std::optional<std::string> name_storage;
  if (program_view(words[start], name_storage) != "shifter") return std::nullopt;
  ShifterCall call{start, {}, words.size()};
  size_t i = start + 1;
  for (; i < words.size(); ++i) {
    std::string storage;
    const std::string_view head = literal_prefix(words[i], storage);
    if (options_end_at(words, head, i)) break;
    const Span span = words[i].span;
    const std::string_view written = view_text.substr(span.begin, span.size());
    ContainerOption option{i, i, std::string(head), false, std::nullopt, {}};
    const bool long_option = head.starts_with("--");
    const size_t eq = long_option ? head.find('=') : std::string_view::npos;
    if (eq != std::string_view::npos) {  // --volume=a:b
      take_value_after_equals(option, words[i], view_text);
    } else if (!long_option && head.size() > 2 && takes_value(head.substr(0, 2))) {  // -Va:b
      option.name.resize(2);
      option.has_value = true;
      option.value = literal_value(words[i]);
      if (option.value) option.value->erase(0, 2);
      option.value_span = written.starts_with(head.substr(0, 2))
                              ? Span{static_cast<uint32_t>(span.begin + 2), span.end}
                              : span;
    } else if (takes_value(head) && literal_is(words[i], head) && i + 1 < words.size()) {
      take_next_word_as_value(option, words, i);
    }
    call.options.push_back(std::move(option));
  }
  call.program = std::min(i, words.size());
  return call;
}

namespace {

/// pull/build options that take a separate value word (apptainer 1.x
/// `pull --help`, `build --help`, singularity 2.x `--name`).
// clang-format off
constexpr std::array kFetchOptionsWithValue = {
    "--name"sv, "--dir"sv, "--tmpdir"sv, "--arch"sv, "--arch-variant"sv, "--platform"sv,
    "--library"sv, "--authfile"sv, "--docker-host"sv, "-B"sv, "--bind"sv, "--mount"sv,
    "--build-arg"sv, "--build-arg-file"sv, "--section"sv, "--pem-path"sv};
// clang-format on

/// The words after `singularity SUBCOMMAND` that are not options or their
/// values, in order; `--name X` is kept apart.
std::vector<size_t> operands(const std::vector<ast::Word>& words, size_t from,
                             std::optional<size_t>& name_option) {
  std::vector<size_t> out;
  for (size_t i = from; i < words.size(); ++i) {
    std::string storage;
    const std::string_view head = literal_prefix(words[i], storage);
    if (!head.starts_with('-') || head == "-") {
      out.push_back(i);
      continue;
    }
    if (head.find('=') != std::string_view::npos || i + 1 >= words.size() ||
        std::ranges::find(kFetchOptionsWithValue, head) == kFetchOptionsWithValue.end()) {
      continue;
    }
    if (head == "--name") name_option = i + 1;
    ++i;
  }
  return out;
}

/// pull's default file name: `docker://nvcr.io/nvidia/pytorch:24.01-py3`
/// -> `pytorch_24.01-py3.sif` (the tag `latest` when none is given).
std::string default_pull_name(std::string_view source) {
  if (const size_t scheme = source.find("://"); scheme != std::string_view::npos) {
    source.remove_prefix(scheme + 3);
  }
  source = source.substr(0, source.find('@'));
  source = source.substr(source.rfind('/') + 1);
  const size_t colon = source.find(':');
  const std::string_view name = source.substr(0, colon);
  const std::string_view tag =
      colon == std::string_view::npos ? "latest"sv : source.substr(colon + 1);
  if (name.empty() || tag.empty()) return {};
  return std::string(name) + "_" + std::string(tag) + ".sif";
}

/// Reads the options from words[call.image] on (the word after `exec`,
/// `run` or `instance start`) and leaves call.image at the image word.
void read_container_options(const std::vector<ast::Word>& words, std::string_view view_text,
                            std::span<const size_t> option_words, ContainerCall& call) {
  size_t i = call.image;
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
    ContainerOption option{i, i, std::string(head), false, std::nullopt, {}};
    if (head.find('=') != std::string_view::npos) {
      take_value_after_equals(option, words[i], view_text);
    } else if ((std::ranges::find(kOptionsWithValue, head) != kOptionsWithValue.end() ||
                head == "--pid-file") &&
               literal_is(words[i], head) && i + 1 < words.size()) {
      take_next_word_as_value(option, words, i);
    }
    call.options.push_back(std::move(option));
  }
  call.image = std::min(i, words.size());
}

bool is_container_wrapper(const ast::Word& word) {
  std::optional<std::string> storage;
  const std::string_view wrapper = program_view(word, storage);
  return wrapper == "singularity" || wrapper == "apptainer";
}

}  // namespace

std::string image_file_name(std::string_view written) {
  std::string name;
  for (char c : written.substr(written.find_last_of('/') + 1)) {
    if (c != '"' && c != '\'') name.push_back(c);
  }
  if (name.find_first_of("$`") != std::string::npos) return {};
  return name;
}

std::optional<ImageFetch> find_image_fetch(const std::vector<ast::Word>& words, size_t start,
                                           std::string_view view_text) {
  if (start + 1 >= words.size() || !is_container_wrapper(words[start])) return std::nullopt;
  const bool build = literal_is(words[start + 1], "build");
  if (!build && !literal_is(words[start + 1], "pull")) return std::nullopt;
  std::optional<size_t> name_option;
  const std::vector<size_t> args = operands(words, start + 2, name_option);
  ImageFetch fetch{build, words.size(), std::nullopt, {}};
  const bool with_file = build || args.size() >= 2;
  if (args.size() > (with_file ? 1U : 0U)) {
    fetch.source = args[with_file ? 1 : 0];
    fetch.source_literal = literal_value(words[fetch.source]);
  }
  const auto written = [&](size_t word) {
    const Span span = words[word].span;
    return view_text.substr(span.begin, span.size());
  };
  if (with_file && !args.empty()) {
    fetch.file = image_file_name(written(args[0]));
  } else if (name_option) {
    fetch.file = image_file_name(written(*name_option));
  } else if (fetch.source_literal) {
    fetch.file = default_pull_name(*fetch.source_literal);
  }
  return fetch;
}

std::optional<InstanceStart> find_instance_start(const std::vector<ast::Word>& words, size_t start,
                                                 std::string_view view_text) {
  if (start + 2 >= words.size() || !literal_is(words[start + 1], "instance") ||
      !literal_is(words[start + 2], "start") || !is_container_wrapper(words[start])) {
    return std::nullopt;
  }
  InstanceStart instance{{start, false, {}, start + 3, ContainerEngine::singularity}, words.size()};
  read_container_options(words, view_text, {}, instance.call);
  if (instance.call.image + 1 < words.size()) instance.name = instance.call.image + 1;
  return instance;
}

std::optional<HeldContainerCall> find_held_container_call(const ast::Word& value,
                                                          std::string_view file_text) {
  // `PY="..."`, or `export PY="..."` (a word whose first part is `PY=`).
  const bool declared = value.parts.size() == 2 && value.parts[0].kind == ast::PartKind::literal &&
                        value.parts[0].text.ends_with('=');
  if (value.parts.size() != 1 && !declared) return std::nullopt;
  const ast::WordPart& quoted = value.parts.back();
  if (quoted.kind != ast::PartKind::double_quoted && quoted.kind != ast::PartKind::single_quoted) {
    return std::nullopt;
  }
  const std::string_view text = file_text.substr(quoted.inner.begin, quoted.inner.size());
  const std::string_view start = text.substr(std::min(text.find_first_not_of(" \t"), text.size()));
  if (!start.starts_with("singularity ") && !start.starts_with("apptainer ")) return std::nullopt;
  HeldContainerCall held{parse_script(text, quoted.inner.begin), {}, quoted.inner};
  const auto& items = held.parse.script.body.items;
  if (!held.parse.complete || items.empty() ||
      items.front().command.kind != ast::CommandKind::simple) {
    return std::nullopt;
  }
  auto call = find_container_call(held.words(), 0, file_text);
  if (!call) return std::nullopt;
  held.call = std::move(*call);
  return held;
}

namespace {

/// docker run's options that take a value (docker 24 `run --help`; podman's
/// and nerdctl's are spelled alike), and sarus' --mpi-type.
// clang-format off
constexpr std::array kDockerOptionsWithValue = {
    "--add-host"sv, "--annotation"sv, "-a"sv, "--attach"sv, "--blkio-weight"sv,
    "--blkio-weight-device"sv, "--cap-add"sv, "--cap-drop"sv, "--cgroup-parent"sv,
    "--cgroupns"sv, "--cidfile"sv, "--cpu-count"sv, "--cpu-percent"sv, "--cpu-period"sv,
    "--cpu-quota"sv, "--cpu-rt-period"sv, "--cpu-rt-runtime"sv, "-c"sv, "--cpu-shares"sv,
    "--cpus"sv, "--cpuset-cpus"sv, "--cpuset-mems"sv, "--detach-keys"sv, "--device"sv,
    "--device-cgroup-rule"sv, "--device-read-bps"sv, "--device-read-iops"sv,
    "--device-write-bps"sv, "--device-write-iops"sv, "--dns"sv, "--dns-option"sv,
    "--dns-search"sv, "--domainname"sv, "--entrypoint"sv, "-e"sv, "--env"sv, "--env-file"sv,
    "--expose"sv, "--gpus"sv, "--group-add"sv, "--health-cmd"sv, "--health-interval"sv,
    "--health-retries"sv, "--health-start-period"sv, "--health-timeout"sv, "-h"sv,
    "--hostname"sv, "--ip"sv, "--ip6"sv, "--ipc"sv, "--isolation"sv, "--kernel-memory"sv, "-l"sv,
    "--label"sv, "--label-file"sv, "--link"sv, "--link-local-ip"sv, "--log-driver"sv,
    "--log-opt"sv, "--mac-address"sv, "-m"sv, "--memory"sv, "--memory-reservation"sv,
    "--memory-swap"sv, "--memory-swappiness"sv, "--mount"sv, "--name"sv, "--network"sv,
    "--net"sv, "--network-alias"sv, "--oom-score-adj"sv, "--pid"sv, "--pids-limit"sv,
    "--platform"sv, "-p"sv, "--publish"sv, "--pull"sv, "--restart"sv, "--runtime"sv,
    "--security-opt"sv, "--shm-size"sv, "--stop-signal"sv, "--stop-timeout"sv,
    "--storage-opt"sv, "--sysctl"sv, "--tmpfs"sv, "--ulimit"sv, "-u"sv, "--user"sv,
    "--userns"sv, "--uts"sv, "-v"sv, "--volume"sv, "--volumes-from"sv, "-w"sv, "--workdir"sv,
    "--mpi-type"sv};

/// docker run's switches (and sarus run's --mpi, --ssh, --glibc,
/// --centralized-repository); `-d`/`--detach` among them stops the unwrap.
constexpr std::array kDockerSwitches = {
    "-d"sv, "--detach"sv, "-i"sv, "--interactive"sv, "-t"sv, "--tty"sv, "--init"sv,
    "--privileged"sv, "--rm"sv, "-P"sv, "--publish-all"sv, "--read-only"sv, "--sig-proxy"sv,
    "--disable-content-trust"sv, "--no-healthcheck"sv, "--oom-kill-disable"sv, "-q"sv,
    "--quiet"sv, "--mpi"sv, "--ssh"sv, "--glibc"sv, "--centralized-repository"sv};

/// podman-hpc's site switches on `run` and `shared-run`: each is a module of
/// the site's modules.d (NERSC's: GPU, MPI and NCCL hooks) that podman-hpc
/// adds as a flag without a value. A site may add others, whose arity is
/// not known here: they stop the unwrap (kUnknownOption).
constexpr std::array kPodmanHpcSwitches = {
    "--gpu"sv, "--mpi"sv, "--mpich"sv, "--cuda-mpi"sv, "--openmpi"sv, "--openmpi-pmi2"sv,
    "--openmpi-pmix"sv, "--pmi2"sv, "--pmix"sv, "--nccl"sv, "--nccl-cu12"sv, "--nccl-cu13"sv};

/// podman-hpc's own options before its subcommand (`podman-hpc --squash-dir
/// DIR run ...`); --update-conf is its one switch there.
constexpr std::array kPodmanHpcGlobalsWithValue = {
    "--additional-stores"sv, "--squash-dir"sv, "--log-level"sv};
// clang-format on

/// Letters of docker's one-letter switches and of its one-letter options
/// with a value, as they combine in one word (`-it`, `-itv a:b`, `-eA=1`).
constexpr std::string_view kDockerSwitchLetters = "ditPq";
constexpr std::string_view kDockerValueLetters = "acehlmpuvw";

constexpr std::string_view kDetached = "runs the container detached, in the background";
constexpr std::string_view kEntrypoint =
    "replaces the image's entrypoint, so the program is not the word after the image";
constexpr std::string_view kUnknownOption = "is an option not known here";
constexpr std::string_view kOptionsInVariable =
    "holds options of the call whose meaning is not known here";
constexpr std::string_view kImageFromArray =
    "expands to several words, so the image and what runs in it are not known";

/// docker, podman (and NERSC's podman-hpc wrapper of it), nvidia-docker,
/// nerdctl, sarus.
bool is_docker_style_engine(std::string_view program) {
  return program == "docker"sv || program == "podman"sv || program == "nvidia-docker"sv ||
         program == "nerdctl"sv || program == "sarus"sv || program == "podman-hpc"sv;
}

bool is_detach_switch(std::string_view name, std::string_view value) {
  return (name == "-d" || name == "--detach") && value != "false";
}

/// One docker option word from words[i] on (i moves onto its value when that
/// is the next word); the obstacle when it stops the unwrap.
/// `site_switches`: the engine's own switches beside docker's (podman-hpc's).
std::optional<std::string_view> read_docker_option(
    const std::vector<ast::Word>& words, std::string_view view_text, std::string_view head,
    size_t& i, ContainerCall& call, std::span<const std::string_view> site_switches) {
  ContainerOption option{i, i, std::string(head), false, std::nullopt, {}};
  const auto takes_value = [](std::string_view name) {
    return std::ranges::find(kDockerOptionsWithValue, name) != kDockerOptionsWithValue.end();
  };
  const auto is_switch = [&](std::string_view name) {
    return std::ranges::find(kDockerSwitches, name) != kDockerSwitches.end() ||
           std::ranges::find(site_switches, name) != site_switches.end();
  };
  if (head.starts_with("--")) {
    const size_t eq = head.find('=');
    const std::string_view name = head.substr(0, eq);
    if (!takes_value(name) && !is_switch(name)) return kUnknownOption;
    if (eq != std::string_view::npos) {
      take_value_after_equals(option, words[i], view_text);
    } else if (takes_value(name)) {
      if (!literal_is(words[i], head) || i + 1 >= words.size()) return kUnknownOption;
      take_next_word_as_value(option, words, i);
    }
    if (is_detach_switch(option.name, option.value.value_or(""))) return kDetached;
    if (option.name == "--entrypoint") return kEntrypoint;
    call.options.push_back(std::move(option));
    return std::nullopt;
  }
  // `-it`, `-itd`, `-e A=1`, `-eA=1`, `-e=A=1`, `-itv a:b`: switches, then
  // at most one option with a value, which is the rest of the word or the next.
  for (size_t letter = 1; letter < head.size(); ++letter) {
    const char c = head[letter];
    if (c == 'd') return kDetached;
    if (kDockerSwitchLetters.find(c) != std::string_view::npos) continue;
    if (kDockerValueLetters.find(c) == std::string_view::npos) return kUnknownOption;
    option.name = std::string{'-', c};
    const size_t rest = letter + 1 + (letter + 1 < head.size() && head[letter + 1] == '=' ? 1 : 0);
    if (rest < head.size() || !literal_is(words[i], head)) {
      option.has_value = true;
      option.value = literal_value(words[i]);
      if (option.value) option.value->erase(0, rest);
      const Span span = words[i].span;
      const std::string_view written = view_text.substr(span.begin, span.size());
      option.value_span = written.starts_with(head.substr(0, rest))
                              ? Span{static_cast<uint32_t>(span.begin + rest), span.end}
                              : span;
    } else if (i + 1 < words.size()) {
      take_next_word_as_value(option, words, i);
    } else {
      return kUnknownOption;
    }
    break;
  }
  call.options.push_back(std::move(option));
  return std::nullopt;
}

/// `"${ARGS[@]}"`, `"$@"`, `$*`: one word of the script, many of the call.
bool expands_to_many_words(std::string_view written) {
  return written.find("[@]") != std::string_view::npos ||
         written.find("[*]") != std::string_view::npos ||
         written.find("$@") != std::string_view::npos ||
         written.find("${@") != std::string_view::npos ||
         written.find("$*") != std::string_view::npos;
}

struct DockerRun {
  ContainerCall call;
  std::optional<DockerRunObstacle> obstacle;
};

/// `run` with its image at word `i`, the first past the options: an
/// obstacle when that word is an array's `${A[@]}` (image and command both).
DockerRun with_image_at(DockerRun run, const std::vector<ast::Word>& words,
                        std::string_view view_text, size_t i) {
  run.call.image = std::min(i, words.size());
  if (run.call.image < words.size()) {
    const Span span = words[run.call.image].span;
    if (expands_to_many_words(view_text.substr(span.begin, span.size()))) {
      run.obstacle = DockerRunObstacle{run.call.image, kImageFromArray};
    }
  }
  return run;
}

/// podman-hpc's own options from words[i] on: the index of its subcommand.
size_t after_podman_hpc_globals(const std::vector<ast::Word>& words, size_t i) {
  while (i < words.size()) {
    const std::optional<std::string> word = literal_value(words[i]);
    if (!word || !word->starts_with("--")) break;
    const bool separate_value =
        std::ranges::find(kPodmanHpcGlobalsWithValue, *word) != kPodmanHpcGlobalsWithValue.end();
    i += separate_value ? 2 : 1;
  }
  return i;
}

/// `docker|podman|nvidia-docker|nerdctl|sarus [container] run [OPTIONS]
/// IMAGE [CMD...]` read with docker's grammar, and `podman-hpc [GLOBALS]
/// run|shared-run [OPTIONS] IMAGE [CMD...]` with podman's and the site's
/// switches (shared-run starts one container per node and runs each task in
/// it: the same command); nullopt for anything else.
std::optional<DockerRun> read_docker_run(const std::vector<ast::Word>& words, size_t start,
                                         std::string_view view_text,
                                         std::span<const size_t> option_words) {
  if (start + 1 >= words.size()) return std::nullopt;
  std::optional<std::string> storage;
  const std::string_view program = program_view(words[start], storage);
  if (!is_docker_style_engine(program)) return std::nullopt;
  const bool podman_hpc = program == "podman-hpc"sv;
  size_t i = podman_hpc ? after_podman_hpc_globals(words, start + 1) : start + 1;
  if (i >= words.size()) return std::nullopt;
  if (literal_is(words[i], "container") && i + 1 < words.size()) ++i;
  if (!literal_is(words[i], "run") && !(podman_hpc && literal_is(words[i], "shared-run"))) {
    return std::nullopt;
  }
  const std::span<const std::string_view> site_switches =
      podman_hpc ? std::span<const std::string_view>(kPodmanHpcSwitches)
                 : std::span<const std::string_view>();
  DockerRun run{{start, false, {}, words.size(), ContainerEngine::docker}, std::nullopt};
  for (++i; i < words.size(); ++i) {
    if (std::ranges::find(option_words, i) != option_words.end()) {
      run.obstacle = DockerRunObstacle{i, kOptionsInVariable};
      return run;
    }
    std::string head_storage;
    const std::string_view head = literal_prefix(words[i], head_storage);
    if (options_end_at(words, head, i)) break;
    const size_t option_word = i;  // i moves onto a separate value
    if (const auto why = read_docker_option(words, view_text, head, i, run.call, site_switches)) {
      run.obstacle = DockerRunObstacle{option_word, *why};
      return run;
    }
  }
  return with_image_at(std::move(run), words, view_text, i);
}

/// The options of a call whose grammar is a list of options with a value
/// and a list of switches, no letters combined: enroot start's and udocker
/// run's. A value is the rest of the word after `=` (`--env=A=1`, udocker's
/// `-v=a:b`) or the next word.
struct OptionGrammar {
  std::span<const std::string_view> with_value;
  std::span<const std::string_view> switches;
  // Options known but not mapped: the call stays, saying why.
  std::span<const std::pair<std::string_view, std::string_view>> obstacles;
};

// clang-format off
/// enroot start's options (`enroot start --help`, enroot 3.x).
constexpr std::array kEnrootValueOptions = {
    "-e"sv, "--env"sv, "-m"sv, "--mount"sv, "-c"sv, "--conf"sv, "--rc"sv};
constexpr std::array kEnrootSwitches = {"-r"sv, "--root"sv, "-w"sv, "--rw"sv};
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kEnrootObstacles = {{
    {"-c", "runs a configuration script of the cluster's before the container starts"},
    {"--conf", "runs a configuration script of the cluster's before the container starts"},
    {"--rc", "replaces the container's command script, so the program is not the word after "
             "the image"}}};

/// udocker run's options (udocker 1.3 `run --help` and its option table);
/// --location (a directory tree in place of the image) is not among them.
constexpr std::array kUdockerValueOptions = {
    "-v"sv, "--volume"sv, "-e"sv, "--env"sv, "--env-file"sv, "-u"sv, "--user"sv, "-w"sv,
    "--workdir"sv, "--entrypoint"sv, "--cpuset-cpus"sv, "--novol"sv, "-p"sv, "--publish"sv,
    "--volumes-from"sv, "--dns"sv, "--dns-search"sv, "--kernel"sv, "--device"sv, "--name"sv,
    "--platform"sv};
constexpr std::array kUdockerSwitches = {
    "--rm"sv, "-i"sv, "-t"sv, "-a"sv, "-P"sv, "--publish-all"sv, "--netcoop"sv, "--hostauth"sv,
    "--containerauth"sv, "--nosysdirs"sv, "--hostenv"sv, "--bindhome"sv, "--nometa"sv, "--dri"sv,
    "--nobanner"sv, "--pull"sv};
constexpr std::array<std::pair<std::string_view, std::string_view>, 1> kUdockerObstacles = {{
    {"--entrypoint", kEntrypoint}}};
// clang-format on

constexpr OptionGrammar kEnrootStart{kEnrootValueOptions, kEnrootSwitches, kEnrootObstacles};
constexpr OptionGrammar kUdockerRun{kUdockerValueOptions, kUdockerSwitches, kUdockerObstacles};

/// The options from words[i] on up to the image (i ends on it); the
/// obstacle when one stops the unwrap.
std::optional<DockerRunObstacle> read_listed_options(const std::vector<ast::Word>& words,
                                                     std::string_view view_text,
                                                     std::span<const size_t> option_words,
                                                     const OptionGrammar& grammar, size_t& i,
                                                     ContainerCall& call) {
  const auto listed = [](std::span<const std::string_view> names, std::string_view name) {
    return std::ranges::find(names, name) != names.end();
  };
  for (; i < words.size(); ++i) {
    if (std::ranges::find(option_words, i) != option_words.end()) {
      return DockerRunObstacle{i, kOptionsInVariable};
    }
    std::string head_storage;
    const std::string_view head = literal_prefix(words[i], head_storage);
    if (options_end_at(words, head, i)) break;
    const std::string_view name = head.substr(0, head.find('='));
    for (const auto& [option, why] : grammar.obstacles) {
      if (option == name) return DockerRunObstacle{i, why};
    }
    ContainerOption option{i, i, std::string(head), false, std::nullopt, {}};
    const size_t option_word = i;
    if (listed(grammar.with_value, name)) {
      if (name.size() < head.size()) {
        take_value_after_equals(option, words[i], view_text);
      } else if (literal_is(words[i], head) && i + 1 < words.size()) {
        take_next_word_as_value(option, words, i);
      } else {
        return DockerRunObstacle{option_word, kUnknownOption};
      }
    } else if (!listed(grammar.switches, head)) {
      return DockerRunObstacle{option_word, kUnknownOption};
    }
    call.options.push_back(std::move(option));
  }
  return std::nullopt;
}

/// udocker's own options before its subcommand (`udocker -q run`,
/// `udocker --repo=DIR pull`): the index of the subcommand.
size_t after_udocker_globals(const std::vector<ast::Word>& words, size_t i) {
  while (i < words.size()) {
    const std::optional<std::string> word = literal_value(words[i]);
    if (!word || !word->starts_with('-')) break;
    ++i;
  }
  return i;
}

/// `enroot start [OPTIONS] [--] NAME|IMAGE [CMD...]` and `udocker
/// [GLOBAL] run [OPTIONS] CONTAINER|IMAGE [CMD...]`.
std::optional<DockerRun> read_user_space_run(const std::vector<ast::Word>& words, size_t start,
                                             std::string_view program, std::string_view view_text,
                                             std::span<const size_t> option_words) {
  const bool enroot = program == "enroot"sv;
  size_t i = enroot ? start + 1 : after_udocker_globals(words, start + 1);
  if (i >= words.size() || !literal_is(words[i], enroot ? "start" : "run")) return std::nullopt;
  DockerRun run{
      {start, false, {}, words.size(), enroot ? ContainerEngine::enroot : ContainerEngine::udocker},
      std::nullopt};
  ++i;
  run.obstacle = read_listed_options(words, view_text, option_words,
                                     enroot ? kEnrootStart : kUdockerRun, i, run.call);
  if (run.obstacle) return run;
  return with_image_at(std::move(run), words, view_text, i);
}

/// Any run find_container_call() reads with an option grammar of its own
/// engine (all but singularity's); nullopt for anything else.
std::optional<DockerRun> read_engine_run(const std::vector<ast::Word>& words, size_t start,
                                         std::string_view view_text,
                                         std::span<const size_t> option_words) {
  if (start + 1 >= words.size()) return std::nullopt;
  std::optional<std::string> storage;
  const std::string_view program = program_view(words[start], storage);
  if (program == "enroot"sv || program == "udocker"sv) {
    return read_user_space_run(words, start, program, view_text, option_words);
  }
  return read_docker_run(words, start, view_text, option_words);
}

}  // namespace

bool is_container_program(std::string_view program) {
  return program == "singularity"sv || program == "apptainer"sv ||
         is_docker_style_engine(program) || program == "enroot"sv || program == "udocker"sv;
}

size_t container_subcommand(const std::vector<ast::Word>& words, const ContainerCall& call) {
  for (size_t i = call.wrapper + 1; i < call.image && i < words.size(); ++i) {
    if (literal_is(words[i], "run") || literal_is(words[i], "exec") ||
        literal_is(words[i], "start") || literal_is(words[i], "shared-run")) {
      return i;
    }
  }
  return call.wrapper + 1;
}

std::optional<DockerRunObstacle> docker_run_obstacle(const std::vector<ast::Word>& words,
                                                     size_t start, std::string_view view_text,
                                                     std::span<const size_t> option_words) {
  const auto run = read_engine_run(words, start, view_text, option_words);
  return run ? run->obstacle : std::nullopt;
}

bool is_mount_option(const ContainerCall& call, const ContainerOption& option) {
  if (option.name == "--mount") return true;
  switch (call.engine) {
    case ContainerEngine::singularity:
      return option.name == "-B" || option.name == "--bind";
    case ContainerEngine::enroot:
      return option.name == "-m";
    case ContainerEngine::docker:
    case ContainerEngine::udocker:
      break;
  }
  return option.name == "-v" || option.name == "--volume";
}

void split_mount_list(std::string_view value, std::vector<std::string>& out) {
  size_t start = 0;
  while (start <= value.size()) {
    const size_t comma = std::min(value.find(',', start), value.size());
    if (comma > start) out.emplace_back(value.substr(start, comma - start));
    start = comma + 1;
  }
}

void split_container_mounts(const ContainerCall& call, const ContainerOption& option,
                            std::string_view value, std::vector<std::string>& out) {
  if (call.engine == ContainerEngine::singularity) {
    split_mount_list(value, out);
    return;
  }
  // docker's -v SRC:DST[:ro,z], enroot's -m SRC:DST[:TYPE:OPTIONS] (fstab
  // fields, colon-separated): one mount each.
  if (option.name != "--mount" || call.engine == ContainerEngine::enroot) {
    if (!value.empty()) out.emplace_back(value);
    return;
  }
  // type=bind,source=SRC,target=DST[,readonly]; a tmpfs mounts nothing of the host's.
  std::vector<std::string> fields;
  split_mount_list(value, fields);
  std::string_view source, target;
  for (std::string_view field : fields) {
    const size_t eq = field.find('=');
    const std::string_view key = field.substr(0, eq);
    const std::string_view field_value =
        eq == std::string_view::npos ? std::string_view() : field.substr(eq + 1);
    if (key == "type" && field_value == "tmpfs") return;
    if (key == "source" || key == "src") source = field_value;
    if (key == "target" || key == "destination" || key == "dst") target = field_value;
  }
  if (source.empty()) return;
  out.push_back(target.empty() ? std::string(source)
                               : std::string(source) + ":" + std::string(target));
}

std::optional<ContainerCall> find_container_call(const std::vector<ast::Word>& words, size_t start,
                                                 std::string_view view_text,
                                                 std::span<const size_t> option_words) {
  if (start + 1 >= words.size()) return std::nullopt;
  if (!is_container_wrapper(words[start])) {
    auto run = read_engine_run(words, start, view_text, option_words);
    if (!run || run->obstacle) return std::nullopt;
    return std::move(run->call);
  }
  const auto sub = literal_value(words[start + 1]);
  if (!sub || (*sub != "exec" && *sub != "run")) return std::nullopt;
  ContainerCall call{start, *sub == "run", {}, start + 2, ContainerEngine::singularity};
  read_container_options(words, view_text, option_words, call);
  return call;
}

std::optional<DockerImageStep> find_docker_image_step(const std::vector<ast::Word>& words,
                                                      size_t start) {
  if (start + 1 >= words.size()) return std::nullopt;
  std::optional<std::string> storage;
  const std::string_view engine = program_view(words[start], storage);
  if (engine == "sarus"sv || !is_docker_style_engine(engine)) return std::nullopt;
  size_t sub = start + 1;
  const auto is = [&](size_t i, std::initializer_list<std::string_view> names) {
    return i < words.size() && std::ranges::any_of(names, [&](std::string_view name) {
             return literal_is(words[i], name);
           });
  };
  // `image pull`, `container rm`, `system prune`: the group, then the action.
  if (is(sub, {"image"}) && is(sub + 1, {"pull", "build", "rm", "prune", "tag", "push", "ls"})) {
    ++sub;
  } else if (is(sub, {"container"}) && is(sub + 1, {"rm", "stop", "kill", "prune", "ls"})) {
    ++sub;
  } else if (is(sub, {"system"}) && is(sub + 1, {"prune"})) {
    ++sub;
  } else if (!is(sub, {"pull", "build", "rm", "rmi", "stop", "kill", "login", "logout", "tag",
                       "push", "ps", "images"}) &&
             // podman-hpc's squashed copies of images: made from, and removed after, a pull.
             !(engine == "podman-hpc"sv && is(sub, {"migrate", "rmsqi"}))) {
    return std::nullopt;
  }
  DockerImageStep step{sub,
                       is(sub, {"build"}),
                       is(sub, {"pull"}),
                       is(sub, {"login"}),
                       is(sub, {"ps", "images", "ls"}),
                       {}};
  if (!step.build) return step;
  // -t NAME, --tag NAME, --tag=NAME: the name a later `docker run NAME` uses.
  for (size_t i = sub + 1; i < words.size(); ++i) {
    const std::optional<std::string> word = literal_value(words[i]);
    if (!word) continue;
    if ((*word == "-t" || *word == "--tag") && i + 1 < words.size()) {
      step.tag = literal_value(words[i + 1]).value_or("");
    } else if (word->starts_with("--tag=")) {
      step.tag = word->substr(6);
    }
  }
  return step;
}

std::string made_image_key(std::string_view written) {
  std::string key = image_file_name(written);
  if (!key.empty()) return key;
  for (char c : written) {
    if (c != '"' && c != '{' && c != '}') key.push_back(c);
  }
  const bool variable =
      key.size() > 1 && key[0] == '$' && std::all_of(key.begin() + 1, key.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      });
  return variable ? key : std::string();
}

std::string without_enroot_user(std::string_view uri) {
  constexpr std::string_view kScheme = "docker://";
  if (!uri.starts_with(kScheme)) return std::string(uri);
  const std::string_view ref = uri.substr(kScheme.size());
  const size_t at = ref.find('@');
  if (at == std::string_view::npos || at > ref.find_first_of("#/")) return std::string(uri);
  return std::string(kScheme) + std::string(ref.substr(at + 1));
}

std::string enroot_default_import_name(std::string_view uri) {
  std::string_view ref = uri;
  std::string name;
  if (ref.starts_with("docker://")) {
    ref.remove_prefix(9);
    if (const size_t at = ref.find('@'); at != std::string_view::npos) ref.remove_prefix(at + 1);
    if (const size_t hash = ref.find('#'); hash != std::string_view::npos) {
      ref.remove_prefix(hash + 1);
    }
    const size_t colon = ref.find(':');
    name = std::string(ref.substr(0, colon));
    if (colon != std::string_view::npos) name += "+" + std::string(ref.substr(colon + 1));
    std::ranges::replace(name, '/', '+');
  } else if (const size_t scheme = ref.find("://"); scheme != std::string_view::npos) {
    name = std::string(ref.substr(scheme + 3));  // dockerd://, podman://: `:` and `/` as `+`
    std::ranges::replace(name, '/', '+');
    std::ranges::replace(name, ':', '+');
  }
  if (name.empty() || name.find_first_of("$`\"' ") != std::string::npos) return {};
  return name + ".sqsh";
}

namespace {

/// The words after `enroot|udocker SUBCOMMAND` that are not options or
/// their values (`-o FILE`, `--name NAME`), in order; the value of the
/// option `name_option` (any spelling in `names`) goes to `named`.
std::vector<size_t> step_operands(const std::vector<ast::Word>& words, size_t from,
                                  std::span<const std::string_view> with_value,
                                  std::span<const std::string_view> names,
                                  std::optional<size_t>& named, std::string& named_inline) {
  std::vector<size_t> out;
  for (size_t i = from; i < words.size(); ++i) {
    std::string storage;
    const std::string_view head = literal_prefix(words[i], storage);
    if (!head.starts_with('-') || head == "-") {
      out.push_back(i);
      continue;
    }
    const size_t eq = head.find('=');
    const std::string_view name = head.substr(0, eq);
    const bool is_name = std::ranges::find(names, name) != names.end();
    if (eq != std::string_view::npos) {
      const std::optional<std::string> literal = is_name ? literal_value(words[i]) : std::nullopt;
      if (literal) named_inline = literal->substr(literal->find('=') + 1);
      continue;
    }
    if (std::ranges::find(with_value, name) == with_value.end() || i + 1 >= words.size()) continue;
    if (is_name) named = i + 1;
    ++i;
  }
  return out;
}

/// made_image_key() of words[i] as written.
std::string written_key(const std::vector<ast::Word>& words, size_t i, std::string_view view_text) {
  const Span span = words[i].span;
  return made_image_key(view_text.substr(span.begin, span.size()));
}

}  // namespace

std::optional<ContainerImageStep> find_enroot_step(const std::vector<ast::Word>& words,
                                                   size_t start, std::string_view view_text) {
  if (start + 1 >= words.size()) return std::nullopt;
  std::optional<std::string> storage;
  if (program_view(words[start], storage) != "enroot"sv) return std::nullopt;
  const size_t sub = start + 1;
  ContainerImageStep step{ContainerImageStep::Kind::upkeep, sub, words.size(), {}, false};
  std::optional<size_t> named;
  std::string named_inline;
  if (literal_is(words[sub], "import")) {
    // enroot import [-a|--arch ARCH] [-o|--output FILE] [--] URI
    static constexpr std::array kValues = {"-o"sv, "--output"sv, "-a"sv, "--arch"sv};
    static constexpr std::array kNames = {"-o"sv, "--output"sv};
    const auto args = step_operands(words, sub + 1, kValues, kNames, named, named_inline);
    step.kind = ContainerImageStep::Kind::fetch;
    if (!args.empty()) step.source = args.back();
    if (named) {
      step.made = written_key(words, *named, view_text);
    } else if (!named_inline.empty()) {
      step.made = made_image_key(named_inline);
    } else if (step.source < words.size()) {
      step.made = enroot_default_import_name(literal_value(words[step.source]).value_or(""));
    }
    return step;
  }
  if (literal_is(words[sub], "create")) {
    // enroot create [-f|--force] [-n|--name NAME] [--] IMAGE
    static constexpr std::array kValues = {"-n"sv, "--name"sv};
    const auto args = step_operands(words, sub + 1, kValues, kValues, named, named_inline);
    step.kind = ContainerImageStep::Kind::create;
    if (!args.empty()) step.source = args.back();
    if (named) {
      step.made = literal_value(words[*named]).value_or("");
    } else if (!named_inline.empty()) {
      step.made = named_inline;
    } else if (step.source < words.size()) {
      step.made = written_key(words, step.source, view_text);
      if (step.made.ends_with(".sqsh")) step.made.resize(step.made.size() - 5);
    }
    return step;
  }
  step.lists = literal_is(words[sub], "list");
  if (step.lists || literal_is(words[sub], "remove") || literal_is(words[sub], "version")) {
    return step;
  }
  return std::nullopt;
}

std::optional<ContainerImageStep> find_udocker_step(const std::vector<ast::Word>& words,
                                                    size_t start) {
  if (start + 1 >= words.size()) return std::nullopt;
  std::optional<std::string> storage;
  if (program_view(words[start], storage) != "udocker"sv) return std::nullopt;
  const size_t sub = after_udocker_globals(words, start + 1);
  if (sub >= words.size()) return std::nullopt;
  ContainerImageStep step{ContainerImageStep::Kind::upkeep, sub, words.size(), {}, false};
  std::optional<size_t> named;
  std::string named_inline;
  const bool pull = literal_is(words[sub], "pull");
  if (pull || literal_is(words[sub], "create")) {
    // udocker pull [--registry=URL|--index=URL|--httpproxy=PROXY] IMAGE;
    // udocker create [--name=NAME] [--force] IMAGE
    static constexpr std::array kNames = {"--name"sv};
    const auto args = step_operands(words, sub + 1, kNames, kNames, named, named_inline);
    step.kind = pull ? ContainerImageStep::Kind::fetch : ContainerImageStep::Kind::create;
    if (!args.empty()) step.source = args.back();
    if (!pull) step.made = named ? literal_value(words[*named]).value_or("") : named_inline;
    return step;
  }
  step.lists = literal_is(words[sub], "ps") || literal_is(words[sub], "images");
  if (step.lists || literal_is(words[sub], "setup") || literal_is(words[sub], "rm") ||
      literal_is(words[sub], "rmi") || literal_is(words[sub], "install") ||
      literal_is(words[sub], "verify")) {
    return step;
  }
  return std::nullopt;
}

}  // namespace s2a::slurm
