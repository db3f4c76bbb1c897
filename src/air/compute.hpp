// Maps the job's nodes and GPUs to compute.accelerator_type and
// compute.num_accelerators; see compute.cpp for the policy.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "air/workload.hpp"
#include "diag/diagnostic.hpp"
#include "slurm/body.hpp"
#include "slurm/job.hpp"

namespace s2a::air {

/// `script` is the script's text (an --exclusive job's GPUs depend on it);
/// a job whose directives do not count its GPUs takes the count its srun
/// steps in `body` ask for; `forced_type` is --accelerator-type, already
/// checked against accelerator_types().
[[nodiscard]] Compute map_compute(const slurm::Job& job, const slurm::Body& body,
                                  std::string_view script,
                                  const std::optional<std::string>& forced_type,
                                  Diagnostics& diagnostics);

/// Slurm's tasks on each node: --ntasks-per-node, else --ntasks over the
/// job's nodes; with --ntasks alone, over the nodes the workload has
/// (`--ntasks=8 --gres=gpu:8` ran its 8 tasks on one node); else 1.
[[nodiscard]] uint64_t tasks_per_node(const slurm::Job& job, const Compute& compute);

/// A container image the job runs, as shown in the report, and where.
struct JobImage {
  std::string_view shown;
  Span from;
};

/// A job that ran on AMD GPUs (an AMD Instinct model in --constraint or
/// --partition; `module load rocm`, `singularity exec --rocm`, `hipcc`,
/// ROCm's variables; else a ROCm image among `images`, such as
/// rocm/pytorch:latest or LUMI's lumi-pytorch-rocm-6.2.4-....sif) is warned
/// once, at the first sign: every AI Runtime shape is NVIDIA's.
void report_amd_gpus(const slurm::Job& job, const slurm::Body& body, const Compute& compute,
                     std::span<const JobImage> images, Diagnostics& diagnostics);

}  // namespace s2a::air
