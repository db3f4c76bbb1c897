// Finding sbatch scripts: walking input trees and judging files by content.
//
// The walk never follows a symlink (a link out of the tree could make us
// read, and name outputs after, anything on the machine) and never opens
// anything but regular files (a FIFO would block a worker forever).
#include <fnmatch.h>

#include <algorithm>
#include <system_error>

#include "batch/batch.hpp"
#include "io/files.hpp"
#include "source/shebang.hpp"

namespace s2a::batch {
namespace fs = std::filesystem;
namespace {

// Version-control metadata is never a job script and can be huge.
bool is_vcs_directory(const fs::path& name) {
  return name == ".git" || name == ".hg" || name == ".svn";
}

bool is_word_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.' ||
         c == '/';
}

/// `srun` or `sbatch` as a whole word on a line that is not a comment.
bool uses_slurm_launcher(std::string_view line) {
  const size_t start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos || line[start] == '#') return false;
  for (std::string_view word : {"srun", "sbatch"}) {
    for (size_t at = line.find(word); at != std::string_view::npos; at = line.find(word, at + 1)) {
      const bool starts = at == 0 || !is_word_byte(line[at - 1]);
      const size_t after = at + word.size();
      const bool ends = after == line.size() || !is_word_byte(line[after]);
      if (starts && ends) return true;
    }
  }
  return false;
}

std::string display_path(const std::string& root, const std::string& relative) {
  if (relative.empty()) return root;
  if (!root.empty() && root.back() == '/') return root + relative;
  return root + "/" + relative;
}

bool excluded(const DiscoverOptions& options, const std::string& relative) {
  return std::any_of(options.exclude.begin(), options.exclude.end(),
                     [&](const std::string& glob) { return glob_matches(glob, relative); });
}

bool same_directory(const fs::path& a, const fs::path& b) {
  std::error_code error;
  return fs::equivalent(a, b, error) && !error;
}

void walk_tree(const std::string& root, const std::string& prefix, const DiscoverOptions& options,
               std::vector<Candidate>& out) {
  std::error_code error;
  const auto flags = fs::directory_options::skip_permission_denied;
  fs::recursive_directory_iterator it(root, flags, error);
  if (error) throw io::FileError(root + ": cannot be listed (" + error.message() + ")");
  for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (error) break;  // a directory vanished or became unreadable mid-walk
    const fs::directory_entry& entry = *it;
    // Lexically: fs::relative would resolve symlinks and name the link's target.
    const std::string relative = prefix + entry.path().lexically_relative(root).generic_string();
    const fs::file_status status = entry.symlink_status(error);
    if (error) continue;
    if (fs::is_directory(status)) {
      if (is_vcs_directory(entry.path().filename()) || excluded(options, relative) ||
          same_directory(entry.path(), options.out_dir)) {
        it.disable_recursion_pending();
      }
      continue;
    }
    if (excluded(options, relative)) continue;
    Candidate candidate{entry.path(), relative, display_path(root, relative.substr(prefix.size())),
                        ""};
    if (fs::is_symlink(status)) {
      candidate.skip_reason = "a symbolic link (links inside a tree are never followed)";
    } else if (!fs::is_regular_file(status)) {
      candidate.skip_reason = "not a regular file";
    }
    out.push_back(std::move(candidate));
  }
  if (error) throw io::FileError(root + ": listing failed (" + error.message() + ")");
}

/// An `#SBATCH` line in the leading run of blank and comment lines, where
/// sbatch reads its directives.
bool has_leading_directive(std::string_view text) {
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    const std::string_view line = text.substr(0, newline);
    if (line.starts_with("#SBATCH")) return true;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && line[first] != '#') return false;
    if (newline == std::string_view::npos) break;
    text.remove_prefix(newline + 1);
  }
  return false;
}

/// With several roots, each gets its own folder under OUT (its base name).
std::string root_prefix(const std::string& root, size_t root_count) {
  if (root_count < 2) return "";
  fs::path name = fs::path(root).lexically_normal().filename();
  if (name.empty() || name == "." || name == "..") {
    name = fs::absolute(root).lexically_normal().parent_path().filename();
  }
  return name.empty() ? "root/" : name.generic_string() + "/";
}

}  // namespace

bool looks_like_sbatch_script(std::string_view text) {
  if (text.find('\0') != std::string_view::npos) return false;
  // Directives sbatch would read make a job script whatever runs it: a zsh or
  // Python job, or one without its #! line, is converted or fails with the
  // reason (S2A1007, S2A1008, S2A1002) instead of being passed over.
  if (has_leading_directive(text)) return true;
  const std::optional<Shebang> shebang = read_shebang(text);
  if (!shebang || !is_bash_or_sh(shebang->program)) return false;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    const std::string_view line = text.substr(0, newline);
    if (line.substr(0, 7) == "#SBATCH" || uses_slurm_launcher(line)) return true;
    if (newline == std::string_view::npos) break;
    text.remove_prefix(newline + 1);
  }
  return false;
}

bool glob_matches(const std::string& pattern, const std::string& relative) {
  if (pattern.find('/') == std::string::npos) {
    const size_t slash = relative.rfind('/');
    const std::string name = slash == std::string::npos ? relative : relative.substr(slash + 1);
    return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
  }
  return ::fnmatch(pattern.c_str(), relative.c_str(), 0) == 0;
}

std::vector<Candidate> discover(const std::vector<std::string>& roots,
                                const DiscoverOptions& options) {
  std::vector<Candidate> out;
  for (const std::string& root : roots) {
    std::error_code error;
    const fs::file_status status = fs::status(root, error);  // a named root may be a link
    if (error || !fs::exists(status)) throw io::FileError(root + ": no such file or directory");
    const std::string prefix = root_prefix(root, roots.size());
    if (fs::is_directory(status)) {
      walk_tree(root, prefix, options, out);
      continue;
    }
    const std::string name = fs::path(root).filename().generic_string();
    Candidate candidate{root, prefix + name, root, ""};
    if (!fs::is_regular_file(status)) candidate.skip_reason = "not a regular file";
    out.push_back(std::move(candidate));
  }
  std::sort(out.begin(), out.end(),
            [](const Candidate& a, const Candidate& b) { return a.relative < b.relative; });
  return out;
}

}  // namespace s2a::batch
