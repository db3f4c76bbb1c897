// JAX jobs. jax.distributed.initialize() called without arguments finds its
// processes through the cluster it runs on; under Slurm it reads
// SLURM_JOB_ID (that it runs in Slurm, and the coordinator's port),
// SLURM_STEP_NODELIST (the coordinator's host), SLURM_PROCID, SLURM_NTASKS
// and SLURM_LOCALID (each process's rank, the count, its GPU). AI Runtime
// sets none of them, so such a program stops with "coordinator_address
// should be defined" unless it passes them itself. The launch rules
// (command.cpp) report it at the step; this file only says whether the job
// runs JAX.
#pragma once

#include <string_view>

#include "slurm/body.hpp"
#include "slurm/job.hpp"

namespace s2a::air {

/// Whether the job runs JAX, as its setup says: the job's container image
/// (`--image`, `--container-image`) or the image a command runs its program
/// in, a module, conda or virtual environment, or pip package whose name
/// starts with `jax` (`module load jax/0.4`, `pip install "jax[cuda12]"`,
/// `conda activate jax-env`, `nvcr.io/nvidia/jax:24.04`), or an XLA_* or
/// JAX_* variable the script sets. A program's file name (`jax_dist.py`) is
/// not enough: it says what the program is about, not what it imports.
[[nodiscard]] bool job_uses_jax(const slurm::Body& body, const slurm::Job& job);

/// Whether a word names JAX: one of its path or image components (split at
/// `/`, `=`, `#`, quotes dropped) starts with `jax`, in any case.
[[nodiscard]] bool names_jax(std::string_view word);

}  // namespace s2a::air
