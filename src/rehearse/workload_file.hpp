// Reading an AI Runtime workload YAML (train.yaml) for a local rehearsal.
//
// Only the fields a rehearsal needs are read (spec/air-runtime.md §1.3-1.6);
// everything else is ignored, because `databricks air run --dry-run` is the
// schema's judge. Errors are RehearseError with one sentence a user can act on.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace s2a::rehearse {

/// A problem that stops the rehearsal before anything runs.
class RehearseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// code_source in either shape: flat (`root_path:`) or legacy (`type: snapshot`).
struct CodeSource {
  std::string root_path;                   // as written in the YAML
  std::vector<std::string> include_paths;  // empty: everything under root_path
};

struct WorkloadFile {
  std::string path;  // the YAML file itself
  std::string experiment_name;
  std::string command;
  std::string accelerator_type;   // may be empty or unknown
  uint64_t num_accelerators = 0;  // 0 when absent or not a number
  std::optional<uint64_t> timeout_minutes;
  std::map<std::string, std::string> env_variables;
  std::map<std::string, std::string> secrets;  // name -> "scope/key" (never a value)
  std::optional<CodeSource> code_source;
  std::optional<YAML::Node> parameters;  // written to HYPERPARAMETERS_PATH when set
};

inline constexpr uintmax_t kMaxWorkloadBytes = uintmax_t{1} << 20;  // AIR's own 1 MiB cap

/// Parses workload YAML text; `path` names it in messages.
[[nodiscard]] WorkloadFile parse_workload(const std::string& path, const std::string& text);

/// Reads and parses a workload file (refuses non-regular files and > 1 MiB).
[[nodiscard]] WorkloadFile read_workload(const std::string& path);

/// GPUs per node of an accelerator type ("GPU_8xH100" -> 8), nullopt if unknown.
[[nodiscard]] std::optional<uint32_t> gpus_per_node_of(const std::string& accelerator_type);

}  // namespace s2a::rehearse
