// The workload `command`: the script body rewritten to run once per node.
//
// The body is the user's text with span-based edits: the srun wrapper goes,
// `bash -c '...'` under srun is unwrapped, Slurm variables become AI Runtime
// variables, launcher flags take the platform's rendezvous values, literal
// exports move to env_variables. Everything not carried over exactly is a
// diagnostic; every edit is logged with its reason for `explain`.
#pragma once

#include <string>
#include <vector>

#include "air/setup.hpp"
#include "air/workload.hpp"
#include "diag/diagnostic.hpp"
#include "edit/edits.hpp"
#include "slurm/body.hpp"
#include "slurm/job.hpp"

namespace s2a::air {

struct LoggedEdit {
  Span span;  // in the file (the quoted word for edits inside double-quoted scripts)
  std::string replacement;
  std::string reason;
};

struct CommandMapping {
  std::string command;
  std::vector<std::string> dependencies;  // pip specs from the script's setup lines
  std::vector<NamedValue> env_variables;
  std::vector<NamedValue> secrets;
  std::vector<Span> redactions;  // secret values in the file
  std::vector<LoggedEdit> edits;
  std::vector<Span>
      removed;  // in the file: statements and pipeline stages taken out of the command
};

[[nodiscard]] CommandMapping map_command(const SourceFile& file, const slurm::Body& body,
                                         const slurm::Job& job, const Compute& compute,
                                         const std::string& job_name,  // $SLURM_JOB_NAME
                                         Diagnostics& diagnostics, const SetupOptions& setup = {});

}  // namespace s2a::air
