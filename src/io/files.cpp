#include "io/files.hpp"

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

void write_atomically(const std::string& path, const std::string& content) {
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string temp = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) throw FileError(path + ": cannot be written (" + std::strerror(errno) + ")");
  size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n <= 0) {
      const std::string reason = std::strerror(errno);
      ::close(fd);
      ::unlink(temp.c_str());
      throw FileError(path + ": write failed (" + reason + ")");
    }
    written += static_cast<size_t>(n);
  }
  ::fchmod(fd, 0644);
  if (::close(fd) != 0 || std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp.c_str());
    throw FileError(path + ": cannot be written (" + reason + ")");
  }
}

}  // namespace s2a::io
