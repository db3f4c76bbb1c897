// Commands that reach another machine over SSH: `ssh HOST`, `scp`/`sftp`/
// `rsync` with a HOST: operand, and `pdsh`/`pdcp`/`clush`/`rsh` running a
// command over a list of nodes. In a batch script the other machine is the
// cluster's (a login node, a storage host, a gateway) or another node of the
// job. AI Runtime nodes are on another network than the cluster's machines
// and are not set up to log in to each other, so each such command fails
// there (S2A5033).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace s2a::air {

enum class RemoteUse : uint8_t {
  tunnel,   // ssh -L/-R/-D: ports forwarded through the host
  login,    // ssh HOST [COMMAND]
  copy,     // scp, sftp, rsync to or from HOST:PATH
  fan_out,  // pdsh, pdcp, clush, rsh, pssh: a command on each node of a list
};

struct RemoteShell {
  RemoteUse use = RemoteUse::login;
  size_t host_word = 0;  // the word naming the other machine (for fan_out: the first operand)
  /// ssh's options may be kept in a variable (`ssh $SSH_OPTS host cmd`),
  /// which reads like `ssh $host cmd`. `options_word`: a lone unquoted
  /// expansion before host_word, taken for options by its name ($SSH_OPTS,
  /// $ssh_key). `other_host_word`: the operand after host_word, the
  /// destination instead when host_word (a lone expansion) holds options;
  /// set only when it could name a machine (`$addr`, `me@login1`). 0: none.
  size_t options_word = 0;
  size_t other_host_word = 0;
};

/// Whether `program` is one of the commands read_remote_shell() knows: the
/// cheap question asked of every command first.
[[nodiscard]] bool is_remote_shell_program(std::string_view program);

/// How `words` (a command's words as written, program first) reach another
/// machine, when they do: nothing for `ssh -V`, `scp a b` or `rsync -a x/ y/`.
[[nodiscard]] std::optional<RemoteShell> read_remote_shell(std::string_view program,
                                                           std::span<const std::string_view> words);

}  // namespace s2a::air
