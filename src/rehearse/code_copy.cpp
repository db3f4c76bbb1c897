// Per-node copies of code_source for `slurm2air rehearse`.
#include "rehearse/code_copy.hpp"

#include <filesystem>

#include "rehearse/workload_file.hpp"

namespace s2a::rehearse {
namespace fs = std::filesystem;
namespace {

bool is_within(const fs::path& path, const fs::path& dir) {
  if (dir.empty()) return false;
  auto p = path.begin();
  for (auto d = dir.begin(); d != dir.end(); ++d, ++p) {
    if (p == path.end() || *p != *d) return false;
  }
  return true;
}

class TreeCopier {
 public:
  TreeCopier(fs::path source, fs::path destination, fs::path exclude)
      : source_(std::move(source)),
        destination_(std::move(destination)),
        exclude_(std::move(exclude)) {}

  void copy_entry(const fs::path& from) {
    const fs::path to = destination_ / from.lexically_relative(source_);
    const fs::file_status status = fs::symlink_status(from);
    count_entry(fs::is_regular_file(status) ? fs::file_size(from) : 0);
    if (fs::is_symlink(status)) {
      fs::create_directories(to.parent_path());
      fs::copy_symlink(from, to);
    } else if (fs::is_directory(status)) {
      copy_directory(from, to);
    } else if (fs::is_regular_file(status)) {
      fs::create_directories(to.parent_path());
      fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    }
  }

  CopyStats stats() const { return stats_; }

 private:
  void copy_directory(const fs::path& from, const fs::path& to) {
    fs::create_directories(to);
    fs::recursive_directory_iterator it(from, fs::directory_options::skip_permission_denied);
    for (; it != fs::recursive_directory_iterator(); ++it) {
      const fs::path& path = it->path();
      const fs::file_status status = it->symlink_status();
      if (fs::is_directory(status) && (path.filename() == ".git" || excluded(path))) {
        it.disable_recursion_pending();
        continue;
      }
      const fs::path target = to / path.lexically_relative(from);
      count_entry(fs::is_regular_file(status) ? it->file_size() : 0);
      if (fs::is_symlink(status)) {
        fs::copy_symlink(path, target);
      } else if (fs::is_directory(status)) {
        fs::create_directories(target);
      } else if (fs::is_regular_file(status)) {
        fs::copy_file(path, target, fs::copy_options::overwrite_existing);
      }
    }
  }

  bool excluded(const fs::path& path) const {
    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(path, error);
    return !error && is_within(canonical, exclude_);
  }

  void count_entry(uintmax_t bytes) {
    ++stats_.files;
    stats_.bytes += bytes;
    if (stats_.bytes > kMaxCodeBytes || stats_.files > kMaxCodeEntries) {
      throw RehearseError("code_source " + source_.string() +
                          " is too large to copy for a rehearsal (over 1 GiB or 200000 "
                          "entries); narrow it with code_source.include_paths");
    }
  }

  fs::path source_;
  fs::path destination_;
  fs::path exclude_;
  CopyStats stats_;
};

}  // namespace

CopyStats copy_code_tree(const std::string& source, const std::string& destination,
                         const std::vector<std::string>& include_paths,
                         const std::string& exclude) {
  std::error_code error;
  const fs::path exclude_path = exclude.empty() ? fs::path() : fs::weakly_canonical(exclude, error);
  TreeCopier copier(source, destination, exclude_path);
  try {
    fs::create_directories(destination);
    if (include_paths.empty()) {
      for (const auto& entry : fs::directory_iterator(source)) {
        if (entry.path().filename() == ".git") continue;
        if (entry.is_directory() && !entry.is_symlink() &&
            is_within(fs::weakly_canonical(entry.path()), exclude_path))
          continue;
        copier.copy_entry(entry.path());
      }
    } else {
      for (const std::string& include : include_paths) {
        const fs::path from = fs::path(source) / include;
        if (!fs::exists(fs::symlink_status(from))) {
          throw RehearseError("code_source.include_paths entry '" + include +
                              "' does not exist under " + source);
        }
        copier.copy_entry(from);
      }
    }
  } catch (const fs::filesystem_error& failure) {
    throw RehearseError(std::string("cannot copy code_source: ") + failure.what());
  }
  return copier.stats();
}

}  // namespace s2a::rehearse
