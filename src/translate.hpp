// The pipeline: one sbatch script in, a workload, a job model and a report out.
//
// translate() never touches argv, the filesystem or stdout: the CLI and the
// tests call it the same way.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "air/outcome.hpp"
#include "air/command.hpp"
#include "air/workload.hpp"
#include "bundle/target.hpp"
#include "bundle/workflow.hpp"
#include "diag/diagnostic.hpp"
#include "directives/directives.hpp"
#include "slurm/body.hpp"
#include "slurm/job.hpp"
#include "source/source_file.hpp"

namespace s2a {

struct TranslateOptions {
  std::optional<std::string> accelerator_type;  // --accelerator-type: overrides the policy
  std::optional<std::string> env_version;       // --env-version
  std::vector<std::string> dependencies;        // --dependency (repeatable)
  std::optional<std::string> requirements;      // --requirements FILE -> "-r FILE"
  std::optional<std::string> experiment_name;   // --experiment-name
  bool provenance_comments = true;              // --no-comments turns them off
  // --format: arrays, mail, dependencies and start times depend on the target.
  OutputTarget target = OutputTarget::workload;
  std::string yaml_name = "train.yaml";  // named in the array submit commands
};

struct Translation {
  std::unique_ptr<SourceFile> file;  // stable address: everything below points into it
  directives::ScanResult scan;
  slurm::Job job;
  slurm::Body body;
  std::optional<air::Workload> workload;  // absent when the script could not be converted
  std::string yaml;                        // the emitted train.yaml (empty if none)
  std::vector<DirectiveOutcome> directives;
  Diagnostics diagnostics;                 // sorted by position
  std::vector<Span> redactions;            // secret values: never print these bytes
  std::vector<air::LoggedEdit> edits;      // every change made to the user's command
  bundle::JobWorkflow workflow;            // arrays, mail, retries (src/bundle/workflow.hpp)
};

[[nodiscard]] Translation translate(std::string file_name, std::string text,
                                    const TranslateOptions& options = {});

}  // namespace s2a
