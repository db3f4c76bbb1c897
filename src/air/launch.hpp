// What the values on a launch line mean, and the launch text AI Runtime needs.
//
// Launch flags are rarely literal: `--master_addr=$head_node_ip`,
// `--nproc_per_node=$GPUS_PER_NODE`, `--nnodes ${#nodes[@]}`. To translate
// them the mapper must know that head_node_ip is "node 0's address" and
// GPUS_PER_NODE is 8, so this file tracks simple assignments of the batch
// script and classifies values by meaning. It also holds the per-node
// launcher and the SLURM_* shim used when srun started one task per GPU.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "air/assignment_index.hpp"
#include "air/workload.hpp"
#include "parse/parse_script.hpp"

namespace s2a::slurm {
struct Body;
}

namespace s2a::air {

/// What a shell value stands for, as far as a launch is concerned.
enum class Meaning : uint8_t {
  unknown,
  number,         // a known count (see ShellValue::number)
  text,           // a literal that is not a number
  node0_address,  // the first node (MASTER_ADDR on AI Runtime)
  node_list,      // every node, one per line / array element
  node_at_index,  // ${nodes[K]} of a node list: node K (see ShellValue::index)
  node_count,     // NUM_NODES
  node_rank,      // NODE_RANK, evaluated on each node
  batch_rank,     // SLURM_NODEID/PROCID/LOCALID read in the batch shell: always 0
  gpus_per_node,  // LOCAL_WORLD_SIZE
  // The GPUs a command counted on the node (`nvidia-smi -L | wc -l`) in a job
  // that asked for fewer than the shape has: the job's under Slurm
  // (Compute::narrower_gpus_per_node), every GPU of the node on AI Runtime.
  counted_gpus,
  total_gpus,  // WORLD_SIZE
  port,        // MASTER_PORT
  job_id,      // SLURM_JOB_ID, or a value computed from it
  random,      // $RANDOM: differs on every node once each node runs the command
};

struct ShellValue {
  Meaning meaning = Meaning::unknown;
  std::optional<uint64_t> number;  // set when the count is known
  // node_at_index: the index as written inside [...], digits or a variable's
  // name (`${nodes[$i]}`, `${nodes[i]}`); a view into the parsed script.
  std::string_view index{};
};

/// Simple assignments of the batch script (`X=...`, `export X=...`,
/// `X=( $(...) )`) in source order, so a later use can ask what X held.
class ShellVariables {
 public:
  void assign(uint32_t at, std::string name, ShellValue value);
  /// The value of the last assignment before offset `at`, or unknown.
  [[nodiscard]] ShellValue lookup(std::string_view name, uint32_t at) const;

 private:
  AssignmentIndex<ShellValue> assignments_;
};

/// Evaluates words in the batch shell's terms (expansions done on node 0).
class ValueReader {
 public:
  ValueReader(const ShellVariables& variables, const Compute& compute)
      : variables_(variables), compute_(compute) {}
  /// Reads text whose offsets are not the file's (a script rebuilt from a
  /// double-quoted `bash -c` word) as if it stood at file offset `at`.
  ValueReader(const ShellVariables& variables, const Compute& compute, uint32_t at)
      : variables_(variables), compute_(compute), at_(at) {}

  /// Reads only what the script itself writes (`GPUS_PER_NODE=${GPUS_PER_NODE:-8}`),
  /// for use before the job's shape is known (compute.cpp): names that hold
  /// the shape (SLURM_*, NUM_NODES, WORLD_SIZE...) stay unknown and do not
  /// fall back to a `:-` default.
  [[nodiscard]] static ValueReader literal_values(const ShellVariables& variables);

  [[nodiscard]] ShellValue word(const ast::Word& word) const;
  [[nodiscard]] ShellValue parts(std::span<const ast::WordPart> parts) const;
  /// The value of `NAME=VALUE` written as one word (`export NAME=VALUE`):
  /// `first_text` follows the `=` in the word's first, literal part, `rest`
  /// are the parts after that one. parts() of the word with its first part's
  /// text cut to `first_text`, without copying the parts.
  [[nodiscard]] ShellValue assigned_value(std::string_view first_text,
                                          std::span<const ast::WordPart> rest) const;
  [[nodiscard]] ShellValue variable(const ast::WordPart& param) const;
  [[nodiscard]] ShellValue substitution(const ast::Script& script) const;
  /// `$(( ... ))` with + - * / % and parentheses over numbers and variables.
  [[nodiscard]] ShellValue arithmetic(std::string_view expression, uint32_t at) const;

 private:
  [[nodiscard]] ShellValue named(std::string_view name, uint32_t at) const;
  [[nodiscard]] static ShellValue node_at(std::string_view op);

  /// literal_values(): a name whose value depends on the job's shape.
  [[nodiscard]] bool shape_unknown_for(std::string_view name) const;

  const ShellVariables& variables_;
  const Compute& compute_;
  std::optional<uint32_t> at_;
  bool shape_known_ = true;
};

/// Records the batch script's simple assignments (`X=...`, `export X=...`,
/// `readonly X=8`, `: ${X:=8}`, `X=( $(...) )`) into `variables`, read by
/// `reader` (which reads `variables`), so a later use can ask what X held.
/// An assignment in a branch or loop counts only when its value is known.
/// `each_assignment`, if set, also sees every plain assignment statement's
/// assignments.
void track_shell_variables(
    const slurm::Body& body, const ValueReader& reader, ShellVariables& variables,
    const std::function<void(uint32_t view, const ast::Assignment&)>& each_assignment = {});

/// The scontrol idiom for the first node: `scontrol show hostname[s] [LIST] | head -n 1`
/// (not a bare `head`, which prints ten).
[[nodiscard]] bool is_first_host_idiom(const ast::Script& script);
/// `nvidia-smi -L | wc -l`, `nvidia-smi --list-gpus | wc -l`, `nvidia-smi
/// --query-gpu=name --format=csv,noheader | wc -l`: the GPUs the node shows.
[[nodiscard]] bool counts_node_gpus(const ast::Script& script);
/// `scontrol show hostnames [LIST]` alone: every node of the job.
[[nodiscard]] bool is_host_list_command(const ast::Command& command);
/// `hostname [-s|-f|-i|-I|--ip-address]`, or `srun ... hostname ...` on the
/// first node, alone or with filters that pick from its line (`| tail -n1`,
/// `| awk '{print $1}'`, `| cut -d' ' -f2`): run in the batch shell they name
/// node 0.
[[nodiscard]] bool names_node0(const ast::Script& script);
/// The command of such a script that asks (the `hostname` or `srun` before
/// the filters), or nullptr when it does not name node 0.
[[nodiscard]] const ast::Command* node0_query(const ast::Script& script);

/// Stand-in for the job's node list: node 0's real address, then a
/// placeholder name per other node (AI Runtime does not list its nodes).
[[nodiscard]] std::string node_list_stand_in();

/// A `--hostfile` value for `deepspeed --no_ssh` when the script gives none:
/// writes one `node-K slots=$LOCAL_WORLD_SIZE` line per node to a node-local
/// file and expands to its path. DeepSpeed's runner needs the file even with
/// --no_ssh (it counts nodes and slots from it; the names are not contacted).
[[nodiscard]] std::string deepspeed_hostfile_value();

/// The per-node launcher that starts `procs_per_node` processes on each node
/// (one per GPU), ending with `--no_python ` so a program follows.
[[nodiscard]] std::string per_node_torchrun(std::string_view procs_per_node);

/// A torchrun on one node alone (a rendezvous of its own, on a free port)
/// that starts `procs` processes, ending with `--no_python `.
[[nodiscard]] std::string one_node_torchrun(std::string_view procs);

/// How Slurm bound each task of a step to GPUs, so that it saw only its own,
/// numbered from 0: `--gpus-per-task=N` or `--gpu-bind=per_task:N` (N GPUs a
/// task), `--gpu-bind=single:N` (N tasks a GPU).
struct TaskGpuBinding {
  uint64_t gpus_per_task = 0;
  uint64_t tasks_per_gpu = 0;
};

/// How many of a node's GPUs `tasks` tasks under `binding` use.
[[nodiscard]] uint64_t gpus_used(const TaskGpuBinding& binding, uint64_t tasks);

/// CUDA_VISIBLE_DEVICES for a torchrun worker under `binding`, computed from
/// its $LOCAL_RANK, as shell text to put after `=` inside single quotes.
[[nodiscard]] std::string visible_devices_for(const TaskGpuBinding& binding);

/// What the shim gives each worker besides torchrun's own counts: the job's
/// shape, which Slurm put in every task's environment and programs read
/// from there (`os.environ["SLURM_GPUS_ON_NODE"]` in Princeton's DDP
/// template, SLURM_CPUS_PER_TASK for data loaders).
struct SlurmTaskEnv {
  std::string visible_devices;  ///< CUDA_VISIBLE_DEVICES as shell text; empty: not set
  std::string step_nodes = "\"$NUM_NODES\"";  ///< SLURM_NNODES: the step's node count
  uint64_t gpus_on_node = 0;                  ///< SLURM_GPUS_ON_NODE; 0: not set
  uint64_t cpus_per_task = 0;                 ///< SLURM_CPUS_PER_TASK; 0: the job requested none
};

/// Shell text that sets the SLURM_* task variables from torchrun's per-worker
/// variables and the job's shape from `env`, and CUDA_VISIBLE_DEVICES when
/// `env.visible_devices` is not empty;
/// `bash -c '<shim> exec "$@"' slurm-task PROGRAM...`.
[[nodiscard]] std::string slurm_task_exports(const SlurmTaskEnv& env = {});
/// Whether a translated command starts processes per GPU of the node: it
/// reads $LOCAL_WORLD_SIZE other than in slurm_task_exports().
[[nodiscard]] bool counts_from_node(std::string_view command);
[[nodiscard]] std::string slurm_task_shim(const SlurmTaskEnv& env = {});

/// Variables the shim sets inside each worker.
[[nodiscard]] bool is_shim_variable(std::string_view name);

/// `--launcher=slurm` or `--launcher slurm` among a command's words from
/// `from` on, quoted or not: the word to replace and its replacement, which
/// picks `pytorch` instead. OpenMMLab's tools (mmcv, mmengine: mmdet,
/// mmseg, ...) and BasicSR name how they start torch.distributed this way;
/// `slurm` reads SLURM_PROCID, SLURM_NTASKS and SLURM_NODELIST (through
/// scontrol), `pytorch` the RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR and
/// MASTER_PORT that torchrun sets.
struct LauncherChoice {
  Span word;
  std::string_view replacement;
};
[[nodiscard]] std::optional<LauncherChoice> slurm_launcher_choice(
    const std::vector<ast::Word>& words, size_t from);

/// `--cfg-options dist_params.port=29500` (mmcv's config; mmengine's
/// `env_cfg.dist_cfg.port=`): a port only the `slurm` choice reads. The
/// `pytorch` choice passes the config's dist settings to
/// init_process_group(), which refuses `port`, so it must go: the span to
/// remove, with the `--cfg-options`/`--options` before it when it is that
/// option's only value.
[[nodiscard]] std::optional<Span> slurm_launcher_port_setting(const std::vector<ast::Word>& words,
                                                              size_t from);

/// Quotes text for the shell in single quotes.
[[nodiscard]] std::string single_quote(std::string_view text);

}  // namespace s2a::air
