#include "air/remote_shells.hpp"

#include <algorithm>
#include <array>

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

/// `ssh [options] HOST [COMMAND]`: the destination is the first word that is
/// not an option or an option's value; forwarding options make a tunnel.
std::optional<RemoteShell> read_ssh(std::span<const std::string_view> words) {
  bool forwards = false;
  const auto at_word = [&](size_t i) -> std::optional<RemoteShell> {
    if (i >= words.size()) return std::nullopt;
    return RemoteShell{forwards ? RemoteUse::tunnel : RemoteUse::login, i};
  };
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string_view word = unquoted(words[i]);
    if (word == "--") return at_word(i + 1);
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
  return std::nullopt;  // `ssh -V`, `ssh -Q cipher`: no other machine
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
