// `slurm2air profile init [PATH]`: writes a commented starting site profile
// (docs/profile.md). It never overwrites: an existing file is the user's.
#include "cli/profile.hpp"

#include <spdlog/spdlog.h>

#include "diag/suppress.hpp"

#include <filesystem>
#include <iostream>

#include "io/files.hpp"
#include "profile/profile.hpp"

namespace s2a::cli {

int profile_init(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
    std::cerr << "slurm2air: error: " << path << " already exists; not overwriting it\n";
    return 2;
  }
  io::write_atomically(path, profile::starter_profile());
  std::cerr << "slurm2air: wrote " << path << "\n";
  return 0;
}

std::optional<profile::Profile> load_profile_for(const std::string& flag) {
  if (!flag.empty()) return profile::load_profile(flag);
  if (auto found = profile::find_default_profile()) return profile::load_profile(*found);
  return std::nullopt;
}

void apply_site_profile(TranslateOptions& options) {
  options.profile = load_profile_for(options.profile_path);
  if (!options.profile) return;
  spdlog::debug("site profile {}", options.profile->path);
  for (const std::string& entry : options.profile->suppress) {
    const std::optional<Code> code = find_code(entry);
    if (!code) throw profile::ProfileError(options.profile->path + ": suppress: unknown code \"" + entry + "\"");
    options.suppressed_codes.push_back(*code);
  }
}

}  // namespace s2a::cli
