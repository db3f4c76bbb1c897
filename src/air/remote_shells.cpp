#include "air/remote_shells.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "source/ascii.hpp"

namespace s2a::air {
namespace {

using namespace std::string_view_literals;

constexpr std::array kCopyPrograms = {"scp"sv, "sftp"sv, "rsync"sv};
constexpr std::array kFanOutPrograms = {"pdsh"sv,  "pdcp"sv,         "clush"sv,
                                        "rsh"sv,   "pssh"sv,         "parallel-ssh"sv,
                                        "mpssh"sv, "parallel-scp"sv, "pscp.pssh"sv};

/// ssh's options that take a value (OpenSSH's ssh(1)), as in `-p 22` or `-p22`.
constexpr std::string_view kSshValueOptions = "BbcDEeFIiJLlmOoPpQRSWw";

bool is_one_of(std::string_view program, std::span<const std::string_view> names) {
  return std::find(names.begin(), names.end(), program) != names.end();
}

std::string_view unquoted(std::string_view word) {
  if (word.size() >= 2 && (word.front() == '"' || word.front() == '\'') &&
      word.back() == word.front()) {
    return word.substr(1, word.size() - 2);
  }
  return word;
}

/// NAME of `$NAME` or `${NAME}` written alone and unquoted, whose value the
/// shell splits into words; empty for any other word.
std::string_view lone_expansion_name(std::string_view word) {
  if (!word.starts_with('$')) return {};
  word.remove_prefix(1);
  if (word.starts_with('{') && word.ends_with('}')) word = word.substr(1, word.size() - 2);
  const bool name = !word.empty() &&
                    (std::isalpha(static_cast<unsigned char>(word[0])) != 0 || word[0] == '_') &&
                    std::all_of(word.begin(), word.end(), [](char c) {
                      return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
                    });
  return name ? word : std::string_view();
}

/// `$SSH_OPTS`, `$ssh_args`, `$EXTRA_FLAGS`, `$ssh_key`: a variable named for
/// options (`-p 2222`, `-i ~/.ssh/id`), not for a machine.
bool names_options(std::string_view name) {
  return std::ranges::any_of(
      std::array{"opt"sv, "arg"sv, "flag"sv, "key"sv},
      [&](std::string_view part) { return ascii_contains_ignoring_case(name, part); });
}

/// Whether an operand after the destination could name a machine instead:
/// another lone expansion, `user@host`, a dotted name (`login1.hpc.edu`).
/// A command's first word (`hostname`, `dask-worker`, a quoted script, a
/// variable named for one: `$node_cmd`) cannot.
bool could_name_machine(std::string_view word) {
  if (const std::string_view name = lone_expansion_name(word); !name.empty()) {
    return std::ranges::none_of(std::array{"cmd"sv, "command"sv, "script"sv}, [&](auto part) {
      return ascii_contains_ignoring_case(name, part);
    });
  }
  const bool plain = std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("._-@${}").find(c) != std::string_view::npos;
  });
  return plain && (word.find('@') != std::string_view::npos ||
                   (word.find('.') != std::string_view::npos && !word.starts_with('.')));
}

/// `ssh [options] HOST [COMMAND]`: the destination is the first word that is
/// not an option or an option's value; forwarding options make a tunnel.
/// A lone `$X` there may hold options instead (RemoteShell::options_word,
/// other_host_word).
std::optional<RemoteShell> read_ssh(std::span<const std::string_view> words) {
  bool forwards = false;
  size_t options_word = 0;
  const auto at_word = [&](size_t i) -> std::optional<RemoteShell> {
    if (i >= words.size()) return std::nullopt;
    RemoteShell shell{forwards ? RemoteUse::tunnel : RemoteUse::login, i, options_word, 0};
    if (!lone_expansion_name(words[i]).empty() && i + 1 < words.size() &&
        could_name_machine(words[i + 1])) {
      shell.other_host_word = i + 1;
    }
    return shell;
  };
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string_view word = unquoted(words[i]);
    if (word == "--") return at_word(i + 1);
    if (const std::string_view name = lone_expansion_name(words[i]);
        !name.empty() && names_options(name) && i + 1 < words.size()) {
      if (options_word == 0) options_word = i;
      continue;
    }
    if (word.size() < 2 || word.front() != '-') return at_word(i);
    // Grouped flags (`-fNT`) end at the first option that takes a value,
    // whose value is the rest of the word or the next word.
    for (size_t at = 1; at < word.size(); ++at) {
      const char letter = word[at];
      if (letter == 'L' || letter == 'R' || letter == 'D') forwards = true;
      if (kSshValueOptions.find(letter) == std::string_view::npos) continue;
      if (at + 1 == word.size()) ++i;  // the value is the next word
      break;
    }
  }
  // `ssh -V`, `ssh -Q cipher`: no other machine; `ssh $SSH_OPTS` alone: the
  // variable names it after all.
  if (options_word != 0) return RemoteShell{RemoteUse::login, options_word, 0, 0};
  return std::nullopt;
}

/// `user@host:path`, `host:path`, `$HOST:/data`, `scp://host/path`: a name
/// before a colon, with no `/` in it. `${X:-y}` is not one, and neither are
/// rsync's daemon addresses (`host::module`, `rsync://mirror/pub`): those are
/// a TCP service, often a public mirror, not a login.
bool names_remote_path(std::string_view word) {
  word = unquoted(word);
  if (word.starts_with('-') || word.starts_with("rsync://")) return false;
  const size_t colon = word.find(':');
  if (colon == 0 || colon == std::string_view::npos) return false;
  if (word.substr(colon).starts_with("::")) return false;
  const std::string_view host = word.substr(0, colon);
  if (host.find("${") != std::string_view::npos && host.find('}') == std::string_view::npos) {
    return false;  // a parameter's operator: ${X:-y}
  }
  return std::all_of(host.begin(), host.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-' || c == '@' || c == '$' || c == '{' || c == '}';
  });
}

}  // namespace

bool is_remote_shell_program(std::string_view program) {
  return program == "ssh"sv || is_one_of(program, kCopyPrograms) ||
         is_one_of(program, kFanOutPrograms);
}

std::optional<RemoteShell> read_remote_shell(std::string_view program,
                                             std::span<const std::string_view> words) {
  if (program == "ssh"sv) return read_ssh(words);
  if (is_one_of(program, kCopyPrograms)) {
    for (size_t i = 1; i < words.size(); ++i) {
      if (names_remote_path(words[i])) return RemoteShell{RemoteUse::copy, i};
    }
    // `sftp host` takes the host alone.
    if (program == "sftp"sv && words.size() > 1 && !words.back().starts_with('-')) {
      return RemoteShell{RemoteUse::copy, words.size() - 1};
    }
    return std::nullopt;
  }
  if (is_one_of(program, kFanOutPrograms) && words.size() > 1) {
    return RemoteShell{RemoteUse::fan_out, 1};
  }
  return std::nullopt;
}

}  // namespace s2a::air
