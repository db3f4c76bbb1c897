// CUDA_VISIBLE_DEVICES set to fixed GPUs. On a shared cluster node a script
// often picks the GPUs it found free (`CUDA_VISIBLE_DEVICES=7`), by number
// or by UUID; Slurm numbers a job's GPUs from 0 only where it constrains
// devices. An AI Runtime node has the GPUs of its shape, numbered from 0,
// and CUDA sees only the listed GPUs before the first one the node does not
// have: a number past the node's GPUs or a UUID of the cluster's hides them.
#pragma once

#include <span>

#include "air/workload.hpp"
#include "diag/diagnostic.hpp"
#include "slurm/body.hpp"
#include "slurm/job.hpp"

namespace s2a::air {

/// Reports each literal CUDA_VISIBLE_DEVICES value (an assignment, an
/// `export`/`declare`/`env` word, or an --export item in `directive_exports`)
/// that names a GPU a node of `compute` does not have. A value that hides
/// every GPU on purpose (`''`, `-1`) or is computed when the job runs is not
/// judged.
void report_visible_devices(const slurm::Body& body, const slurm::Job& job, const Compute& compute,
                            std::span<const NamedValue> directive_exports,
                            Diagnostics& diagnostics);

}  // namespace s2a::air
