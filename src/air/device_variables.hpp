// Variables that pick a node's hardware by the cluster's names or numbers.
//
// On a shared cluster node a script often picks the GPUs it found free
// (`CUDA_VISIBLE_DEVICES=7`), by number or by UUID; Slurm numbers a job's
// GPUs from 0 only where it constrains devices. An AI Runtime node has the
// GPUs of its shape, numbered from 0, and CUDA sees only the listed GPUs
// before the first one the node does not have. Multi-node scripts also name
// the cluster's network interfaces and adapters (`NCCL_SOCKET_IFNAME=ib0`,
// `NCCL_IB_HCA=mlx5_0`, `UCX_NET_DEVICES=mlx5_0:1`), which an AI Runtime
// node does not have under those names.
#pragma once

#include <span>

#include "air/workload.hpp"
#include "diag/diagnostic.hpp"
#include "slurm/body.hpp"
#include "slurm/job.hpp"

namespace s2a::air {

struct DeviceContext {
  std::span<const NamedValue> directive_exports;  // --export items
  // The translated command starts processes per GPU of the node
  // ($LOCAL_WORLD_SIZE, which Slurm's GPU counts become).
  bool counts_from_node = false;
};

/// Reports each literal value of such a variable, where it is set: an
/// assignment or command prefix, an `export`/`declare`/`env` word, or an
/// --export item. CUDA_VISIBLE_DEVICES is reported when it names a GPU a
/// node of `compute` does not have (a value that hides every GPU on purpose,
/// `''` or `-1`, is not), or shows fewer GPUs than the node has while the
/// launch counts are the node's; an interface list when it selects rather
/// than only excludes (`^docker0,lo`). Values computed when the job runs are
/// not judged.
void report_device_variables(const slurm::Body& body, const slurm::Job& job, const Compute& compute,
                             const DeviceContext& context, Diagnostics& diagnostics);

/// `--device $CUDA_VISIBLE_DEVICES`, `NGPU=$(echo $CUDA_VISIBLE_DEVICES | tr
/// , '\n' | wc -l)`: Slurm set CUDA_VISIBLE_DEVICES to the job's GPUs on the
/// node, numbered from 0 where it constrains devices, and AI Runtime leaves
/// it unset, so such a read finds nothing. For a GPU job whose script reads
/// it and never sets it: Slurm's value for env_variables (the job's GPUs of
/// the node; the node's when the launch counts are the node's), with a note
/// at the first read.
[[nodiscard]] std::optional<NamedValue> slurm_visible_devices(const slurm::Body& body,
                                                              const slurm::Job& job,
                                                              const Compute& compute,
                                                              const DeviceContext& context,
                                                              Diagnostics& diagnostics);

}  // namespace s2a::air
