// The mapping stage: job model + body -> AI Runtime workload.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "air/command.hpp"
#include "air/setup.hpp"
#include "air/workload.hpp"
#include "diag/diagnostic.hpp"
#include "slurm/body.hpp"
#include "slurm/job.hpp"

namespace s2a::air {

struct WorkloadOptions {
  std::optional<std::string> accelerator_type;
  std::optional<std::string> env_version;
  std::vector<std::string> dependencies;
  std::optional<std::string> requirements;
  std::optional<std::string> experiment_name;
  // Resolved by translate(): flags > site profile > built-in defaults.
  TargetSchema target = TargetSchema::cli_1_19;
  bool code_source_flat = false;
  std::string secret_scope = "slurm2air";
  std::optional<uint64_t> default_max_retries;  // when the script has no --requeue/--no-requeue
  std::optional<std::string> code_root;
  const profile::Profile* profile = nullptr;  // partition, GPU, module, conda, image mappings
  // --format bundle: the image goes to the task's docker_image_url, a
  // registry URL whatever the target schema (the bundle schema has no Unity
  // Catalog image field), and the report names that field.
  bool bundle = false;
};

struct WorkloadMapping {
  Workload workload;
  std::vector<Span> redactions;
  std::vector<LoggedEdit> edits;
};

[[nodiscard]] WorkloadMapping map_workload(const SourceFile& file, const slurm::Job& job,
                                           const slurm::Body& body, const WorkloadOptions& options,
                                           Diagnostics& diagnostics);

/// A container image reference split as pyxis/docker write it:
/// `[USER@][REGISTRY#]IMAGE[:TAG]`, `docker://REGISTRY/IMAGE:TAG`, `docker:IMAGE:TAG`.
struct ImageReference {
  std::string registry;  // "nvcr.io"; "docker.io" when not given
  std::string image;     // "nvidia/pytorch"
  std::string tag;       // "24.01-py3"; "latest" when not given
  [[nodiscard]] std::string url() const { return registry + "/" + image + ":" + tag; }
};
/// Empty for files (.sif, .sqsh, paths) and anything computed.
[[nodiscard]] std::optional<ImageReference> parse_image_reference(std::string_view written);
/// Whether `image` matches `<catalog>.<schema>.<image>:<tag>`.
[[nodiscard]] bool is_unity_catalog_image(std::string_view image);

/// `[A-Za-z0-9_-]`, at most 100 characters; empty if nothing usable is left.
[[nodiscard]] std::string sanitize_experiment_name(std::string_view name);

}  // namespace s2a::air
