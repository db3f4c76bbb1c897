// See write.hpp. Paths inside the bundle come from task keys (letters, digits,
// '-', '_'), never from user text, so they cannot leave the directory.
#include "bundle/write.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>

#include "io/files.hpp"

namespace s2a::bundle {
namespace {

namespace fs = std::filesystem;

fs::path make_sibling(const fs::path& dir, const std::string& tag) {
  const fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  std::string pattern = (parent / ("." + dir.filename().string() + "." + tag + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw io::FileError(dir.string() + ": cannot create a directory next to it");
  }
  return pattern;
}

void write_tree(const fs::path& root, const std::map<std::string, std::string>& files) {
  for (const auto& [relative, content] : files) {
    const fs::path target = root / relative;
    fs::create_directories(target.parent_path());
    io::write_atomically(target.string(), content);
    if (target.extension() == ".sh") ::chmod(target.c_str(), 0755);
  }
}

}  // namespace

void write_bundle(const std::string& dir, const std::map<std::string, std::string>& files,
                  bool force) {
  fs::path target(dir);
  while (target.has_parent_path() && target.filename().empty()) target = target.parent_path();
  std::error_code error;
  const bool exists = fs::exists(target, error);
  if (exists && !fs::is_directory(target, error)) {
    throw io::FileError(dir + ": exists and is not a directory");
  }
  if (exists && !fs::is_empty(target, error) && !force) {
    throw io::FileError(dir + ": exists and is not empty; pass --force to replace it");
  }
  const fs::path staging = make_sibling(target, "new");
  try {
    write_tree(staging, files);
    ::chmod(staging.c_str(), 0755);
    if (exists) {
      const fs::path old = make_sibling(target, "old");
      fs::rename(target, old / "bundle");
      try {
        fs::rename(staging, target);
      } catch (...) {
        fs::rename(old / "bundle", target);
        fs::remove_all(old, error);
        throw;
      }
      fs::remove_all(old, error);
    } else {
      fs::rename(staging, target);
    }
  } catch (const fs::filesystem_error& e) {
    fs::remove_all(staging, error);
    throw io::FileError(dir + ": cannot be written (" + e.code().message() + ")");
  } catch (...) {
    fs::remove_all(staging, error);
    throw;
  }
}

}  // namespace s2a::bundle
