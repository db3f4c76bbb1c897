// Reading scripts and writing outputs safely: inputs must be regular files of
// sane size; outputs are written whole or not at all (temp file + rename).
#pragma once

#include <stdexcept>
#include <string>

namespace s2a::io {

/// A user-facing I/O problem ("job.sh: is a directory").
class FileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The Slurm controller refuses batch scripts over 4 MiB unless the site
// raised SchedulerParameters=max_script_size; reading (and analysing) more
// would only burn time and memory on something that cannot be submitted.
inline constexpr uintmax_t kMaxInputBytes = uintmax_t{4} << 20;

/// Reads a script; "-" is stdin. Refuses directories, FIFOs and devices (a
/// FIFO would block) and inputs over kMaxInputBytes (stdin included).
[[nodiscard]] std::string read_script(const std::string& path);

/// Writes `content` to `path` atomically: a temporary file in the same
/// directory, then rename(2). Never leaves a partial file behind.
void write_atomically(const std::string& path, const std::string& content);

}  // namespace s2a::io
