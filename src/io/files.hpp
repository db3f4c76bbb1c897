// Reading scripts and writing outputs safely: inputs must be regular files of
// sane size; outputs are written whole or not at all (temp file + rename).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

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

/// A file written in pieces and then put in place atomically: a temporary
/// file in the same directory until commit() renames it; never committed,
/// it is removed.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::string path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(std::string_view text);
  void commit();

 private:
  std::string path_;
  std::string temp_;
  int fd_ = -1;
};

/// Creates `path`, which must not exist, with mode 0644 and `content`; on
/// failure removes what it created. For files in a private staging area that
/// are renamed into place later.
void write_new_file(const std::string& path, const std::string& content);

}  // namespace s2a::io
