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
#include "profile/profile.hpp"
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
  std::optional<std::string> target_schema;     // --target-schema cli-1.19 | cli-1.20
  std::optional<std::string> secret_scope;      // --secret-scope
  std::optional<profile::Profile> profile;      // --profile FILE, or the documented lookup
  std::vector<Code> suppressed_codes;           // site-wide suppressions (diag/suppress.hpp)
  // --profile FILE: read by the command line (cli::apply_site_profile) into
  // `profile` before translate(), which itself never touches the filesystem.
  std::string profile_path;
  // --format: arrays, mail, dependencies and start times depend on the target.
  OutputTarget target = OutputTarget::workload;
  std::string yaml_name = "train.yaml";  // named in the array submit commands
};

/// "cli-1.19" / "cli-1.20"; empty for anything else.
[[nodiscard]] std::optional<air::TargetSchema> parse_target_schema(std::string_view name);

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
  Diagnostics suppressed;                  // silenced by `# slurm2air: disable=` or the site
  bundle::JobWorkflow workflow;            // arrays, mail, retries (src/bundle/workflow.hpp)
};

[[nodiscard]] Translation translate(std::string file_name, std::string text,
                                    const TranslateOptions& options = {});

}  // namespace s2a
