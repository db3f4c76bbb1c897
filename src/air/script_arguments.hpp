// The arguments given to sbatch after the script's name (`sbatch job.sh
// data/ 8`) are the batch script's $1, $2, ..., "$@" and $#. A workload's
// command is started with none, so each such use silently becomes empty:
// reported once, at the first use, with every parameter the script reads.
// Its $0 (where the script is) changes too, and is reported the same way.
#pragma once

#include "diag/diagnostic.hpp"
#include "slurm/body.hpp"

namespace s2a::air {

/// Reports the batch script's own positional parameters (not a function's,
/// and not those of a `bash -c` script, which have their own arguments),
/// unless the script sets them itself with `set -- ...`.
void report_script_arguments(const slurm::Body& body, Diagnostics& diagnostics);

/// Reports the batch script reading its own path (`$0`, `${BASH_SOURCE[0]}`),
/// mostly to find its directory: under sbatch that is Slurm's spooled copy,
/// on AI Runtime the uploaded command.sh. Printing it is not reported.
void report_script_path(const slurm::Body& body, Diagnostics& diagnostics);

}  // namespace s2a::air
