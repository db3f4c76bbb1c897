// The job's own output files (--output/--error, or Slurm's slurm-%j.out)
// are written by slurmstepd while the script runs, and scripts read them:
// `grep loss slurm-$SLURM_JOB_ID.out`, `cp logs/%x-%j.out` spelled with
// variables. AI Runtime collects stdout and stderr itself and writes no such
// file, so those reads find nothing.
#pragma once

#include "diag/diagnostic.hpp"
#include "slurm/body.hpp"
#include "slurm/job.hpp"

namespace s2a::air {

/// Reports each command that names one of the job's output files by its
/// job-specific path (a pattern with %j or %A), or by a glob over its
/// directory that can only mean it (`grep -q ERROR slurm*`; `mv ./*.out`
/// with --output=run.out), once per command. Messages (`echo`, `printf`)
/// are not reported.
void report_job_log_reads(const slurm::Body& body, const slurm::Job& job, Diagnostics& diagnostics);

}  // namespace s2a::air
