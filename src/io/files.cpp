#include "io/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace s2a::io {
namespace fs = std::filesystem;

static std::string too_large_reason() {
  return "larger than 4 MiB, the Slurm controller's default max_script_size, so it cannot be "
         "submitted as is; move data out of the script (heredocs, embedded files)";
}

std::string read_script(const std::string& path) {
  if (path == "-") {
    // Bounded: stdin may be endless (`yes | slurm2air -`).
    std::string text(kMaxInputBytes + 1, '\0');
    std::cin.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<size_t>(std::cin.gcount()));
    if (text.size() > kMaxInputBytes) throw FileError("<stdin>: " + too_large_reason());
    return text;
  }
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status)) throw FileError(path + ": no such file");
  if (fs::is_directory(status)) {
    throw FileError(path + ": is a directory (use `slurm2air batch` for trees of scripts)");
  }
  if (!fs::is_regular_file(status)) throw FileError(path + ": not a regular file");
  if (fs::file_size(path, error) > kMaxInputBytes)
    throw FileError(path + ": " + too_large_reason());
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileError(path + ": cannot be read (" + std::strerror(errno) + ")");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw FileError(path + ": read error");
  return buffer.str();
}

namespace {

/// The process umask, read once before main() while there is one thread:
/// umask(2) can only be read by setting it, which must not race with other
/// threads creating files.
const mode_t kUmask = [] {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}();

/// Writes all of `content` to `fd`; false with errno set on failure.
bool write_all(int fd, std::string_view content) {
  size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::string path) : path_(std::move(path)) {
  const fs::path target(path_);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  temp_ = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  fd_ = ::mkstemp(temp_.data());
  if (fd_ < 0) throw FileError(path_ + ": cannot be written (" + std::strerror(errno) + ")");
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

void AtomicFileWriter::write(std::string_view text) {
  if (!write_all(fd_, text))
    throw FileError(path_ + ": write failed (" + std::strerror(errno) + ")");
}

void AtomicFileWriter::commit() {
  const bool closed = ::fchmod(fd_, 0644) == 0 && ::close(fd_) == 0;
  fd_ = -1;
  if (!closed || std::rename(temp_.c_str(), path_.c_str()) != 0) {
    throw FileError(path_ + ": cannot be written (" + std::strerror(errno) + ")");
  }
  temp_.clear();
}

void write_atomically(const std::string& path, const std::string& content) {
  AtomicFileWriter file(path);
  file.write(content);
  file.commit();
}

void write_new_file(const std::string& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw FileError(path + ": cannot be written (" + std::strerror(errno) + ")");
  // open() already gave 0644 unless the umask takes some of it away (batch
  // writes tens of thousands of files: the extra call is only made then).
  const bool written = write_all(fd, content) && ((kUmask & 0644) == 0 || ::fchmod(fd, 0644) == 0);
  const std::string reason = std::strerror(errno);
  if (::close(fd) != 0 || !written) {
    ::unlink(path.c_str());
    throw FileError(path + ": write failed (" + reason + ")");
  }
}

}  // namespace s2a::io
