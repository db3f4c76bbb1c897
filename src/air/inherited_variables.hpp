// sbatch passes the submitting shell's whole environment to the job by
// default (--export=ALL), so a batch script may read variables it never sets:
// $WORK, $SCRATCH, $PROJECT, $DATA_DIR, a site's own ($six_ALL_CCFRWORK)...
// A workload's command starts without them, so each such use silently
// becomes empty. Reported once, at the first use, with every such name.
#pragma once

#include <span>

#include "air/command.hpp"
#include "diag/diagnostic.hpp"
#include "slurm/body.hpp"
#include "slurm/job.hpp"

namespace s2a::air {

/// Reports variables the batch script reads but never sets, except those the
/// shell, the node, Slurm (other rules) or AI Runtime provide, path lists a
/// script extends (`PATH=...:$PATH`), and uses that carry their own default
/// (`${X:-8}`). Uses after a `source`/`eval` that stays in the command are
/// not judged (the sourced file may set them), nor is a job that does not
/// take the submitting environment (`--export=NONE`), nor uses in the
/// statements the command mapper took out (`removed`, file spans:
/// `docker login -p $PAT` goes, and its $PAT with it), nor uses the mapper
/// rewrote away (`edits`, sorted by where they begin: `--rdzv_endpoint
/// "$HEAD:$PORT"` became `"$MASTER_ADDR:$MASTER_PORT"`).
void report_inherited_variables(const slurm::Body& body, const slurm::Job& job,
                                std::span<const Span> removed, std::span<const LoggedEdit> edits,
                                Diagnostics& diagnostics);

}  // namespace s2a::air
