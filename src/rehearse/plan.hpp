// Planning a local rehearsal: how many node processes, where each runs, and
// the exact environment AI Runtime would give it (spec/air-runtime.md §1.9).
//
// Planning is pure (no processes, no files) so it is unit-tested directly;
// prepare_rehearsal() then creates the directories and files the plan names.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rehearse/workload_file.hpp"

namespace s2a::rehearse {

inline constexpr uint32_t kMaxNodes = 64;  // one host: more is a fork bomb, not a test
inline constexpr uint32_t kMaxGpusPerNode = 64;
inline constexpr uint32_t kMaxWorldSize = 1024;
inline constexpr double kMaxTimeoutSeconds = 1e9;
inline constexpr const char* kSecretPlaceholder = "slurm2air-rehearse-placeholder-not-a-secret";
inline constexpr const char* kLoopback = "127.0.0.1";

struct RehearseOptions {
  std::optional<uint32_t> nodes;          // default: compute.num_accelerators / GPUs per node
  std::optional<uint32_t> gpus_per_node;  // default: from compute.accelerator_type
  std::optional<double> timeout_seconds;  // default: timeout_minutes of the YAML, else none
  std::string workdir;                    // default: a fresh directory under $TMPDIR
};

using Environment = std::map<std::string, std::string>;

struct NodePlan {
  uint32_t rank = 0;
  std::string dir;          // workdir/node-K
  std::string code_dir;     // the per-node copy of code_source (CODE_SOURCE_PATH), or dir
  std::string log_path;     // workdir/node-K.log
  Environment environment;  // the complete environment of the node's process
};

struct RehearsalPlan {
  std::string workload_path;
  std::string command;
  std::string command_path;  // workdir/command.sh: `command` verbatim, like AIR uploads it
  std::string workdir;
  std::optional<std::string> code_root;  // absolute source directory to copy, if code_source
  std::vector<std::string> include_paths;
  std::optional<std::string> parameters_yaml;  // content of hyperparameters.yaml
  uint32_t nodes = 0;
  uint32_t gpus_per_node = 0;
  uint16_t master_port = 0;
  std::optional<double> timeout_seconds;
  std::vector<std::string> secret_names;  // set to kSecretPlaceholder
  std::vector<std::string> notes;         // things the user should know (overridden vars, ...)
  std::vector<NodePlan> node_plans;
};

/// Variables AI Runtime sets itself; env_variables cannot override them.
[[nodiscard]] const std::vector<std::string>& platform_variable_names();

/// True for inherited variables that must not leak into a rehearsal because a
/// real node would not have them (SLURM_*, RANK, OMPI_*, ...).
[[nodiscard]] bool is_scheduler_variable(const std::string& name);

/// Resolves code_source.root_path like the CLI does: `~`, `$VAR`, a
/// `project_root/` prefix, and relative paths against the YAML's directory.
[[nodiscard]] std::string resolve_root_path(const std::string& root_path,
                                            const std::string& workload_path,
                                            const Environment& caller_environment);

/// Builds the plan. `caller_environment` is inherited (minus scheduler
/// variables); `workdir` must already be absolute. Throws RehearseError.
[[nodiscard]] RehearsalPlan plan_rehearsal(const WorkloadFile& workload,
                                           const RehearseOptions& options,
                                           const Environment& caller_environment,
                                           const std::string& workdir, uint16_t master_port);

/// A port that was free on 127.0.0.1 a moment ago (bind to port 0, read it back).
[[nodiscard]] uint16_t find_free_port();

/// The process environment as a map.
[[nodiscard]] Environment current_environment();

/// Creates the work directory (must be absent or empty), writes command.sh and
/// hyperparameters files, and copies code_source once per node.
void prepare_rehearsal(const RehearsalPlan& plan);

/// Creates a fresh work directory for `options.workdir` (or under $TMPDIR) and
/// returns its absolute path.
[[nodiscard]] std::string make_workdir(const std::string& requested);

/// Human-readable description of what will run (printed before confirmation).
[[nodiscard]] std::string describe_plan(const RehearsalPlan& plan);

}  // namespace s2a::rehearse
