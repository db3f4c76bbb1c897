// The site profile: what a cluster knows and its scripts do not say.
//
// A small YAML file (`--profile site.yaml`, else ./slurm2air.yaml, else
// $XDG_CONFIG_HOME/slurm2air/profile.yaml) maps partitions, GPU types,
// modules, conda envs and container images to AI Runtime values. Unknown keys
// and wrong types are errors with line and column: a typo must not be ignored.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace s2a::profile {

/// A profile that cannot be used; what() is "FILE:LINE:COL: message".
class ProfileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What a module becomes: provided by the runtime, or pip requirements.
struct ModuleMapping {
  bool provided = false;
  std::vector<std::string> dependencies;
};

struct Profile {
  std::string path;  // where it was read from ("" when built in code)
  std::map<std::string, std::string, std::less<>> partitions;  // partition -> accelerator type
  std::map<std::string, std::string, std::less<>> gpu_types;   // "a100" -> accelerator type
  std::map<std::string, ModuleMapping, std::less<>> modules;   // "cuda" or "cuda/12.1"
  std::map<std::string, std::string, std::less<>> conda_envs;  // env name -> requirements file
  std::map<std::string, std::string, std::less<>> images;      // image as written -> UC image
  std::optional<std::string> env_version;
  std::optional<std::string> secret_scope;
  std::optional<uint64_t> max_retries;
  std::optional<std::string> code_root;
  std::optional<std::string> code_source;    // "nested" | "flat"
  std::optional<std::string> target_schema;  // "cli-1.19" | "cli-1.20"
  std::vector<std::string> suppress;         // diagnostic codes or rule names
};

/// Parses profile text; `name` prefixes error messages. Throws ProfileError.
[[nodiscard]] Profile parse_profile(const std::string& text, const std::string& name);

/// Reads and parses a profile file. Throws ProfileError (also for I/O).
[[nodiscard]] Profile load_profile(const std::string& path);

/// The documented lookup when --profile is not given: ./slurm2air.yaml, then
/// $XDG_CONFIG_HOME/slurm2air/profile.yaml ($HOME/.config when unset).
[[nodiscard]] std::optional<std::string> find_default_profile();

/// A commented starting profile (`slurm2air profile init`); it parses.
[[nodiscard]] std::string starter_profile();

/// The module mapping for `cuda/12.1`: the exact name first, then `cuda`.
[[nodiscard]] const ModuleMapping* find_module(const Profile& profile, std::string_view module);

}  // namespace s2a::profile
