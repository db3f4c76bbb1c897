// The mapping stage: job model + body -> AI Runtime workload.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "air/command.hpp"
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
};

struct WorkloadMapping {
  Workload workload;
  std::vector<Span> redactions;
  std::vector<LoggedEdit> edits;
};

[[nodiscard]] WorkloadMapping map_workload(const SourceFile& file, const slurm::Job& job,
                                           const slurm::Body& body, const WorkloadOptions& options,
                                           Diagnostics& diagnostics);

/// `[A-Za-z0-9_-]`, at most 100 characters; empty if nothing usable is left.
[[nodiscard]] std::string sanitize_experiment_name(std::string_view name);

}  // namespace s2a::air
