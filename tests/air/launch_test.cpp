// The distributed-launch translation, through translate(): each launch style
// must come out as the command a careful engineer would write for AI Runtime,
// with a diagnostic for everything approximated.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "air/launch.hpp"
#include "air/variables.hpp"
#include "support/diagnostics.hpp"
#include "support/run_process.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

std::string script(const std::string& directives, const std::string& body) {
  return "#!/bin/bash\n" + directives + body;
}

const std::string k2x8 = "#SBATCH --nodes=2 --ntasks-per-node=1 --gpus-per-node=h100:8\n";
const std::string k2x8Tasks = "#SBATCH --nodes=2 --ntasks-per-node=8 --gpus-per-node=h100:8\n";

Translation run(const std::string& text) { return translate("job.sbatch", text); }

/// The command without the leading `cd "$CODE_SOURCE_PATH"` line.
std::string body_of(const Translation& t) {
  EXPECT_TRUE(t.workload.has_value());
  const std::string& command = t.workload->command;
  return command.substr(command.find('\n') + 1);
}

bool has_code(const Translation& t, Code code) {
  return std::any_of(t.diagnostics.begin(), t.diagnostics.end(),
                     [&](const Diagnostic& d) { return d.code == code; });
}

std::string message_of(const Translation& t, Code code) {
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == code) return d.message;
  }
  return "";
}

struct Case {
  const char* name;
  std::string directives;
  std::string body;
  std::string expected;
};

class LaunchCommand : public ::testing::TestWithParam<Case> {};

TEST_P(LaunchCommand, TranslatesTheLaunchLine) {
  const Case& c = GetParam();
  EXPECT_EQ(body_of(run(script(c.directives, c.body))), c.expected);
}

const std::string kPerNode =
    "torchrun --nnodes=\"$NUM_NODES\" --node_rank=\"$NODE_RANK\" "
    "--nproc_per_node=\"$LOCAL_WORLD_SIZE\" --master_addr=\"$MASTER_ADDR\" "
    "--master_port=\"$MASTER_PORT\" --no_python ";
// The task variables from torchrun's, then the job's shape on 8-GPU nodes.
std::string task_exports(std::string_view step_nodes = "\"$NUM_NODES\"") {
  return "export SLURM_PROCID=\"$RANK\" SLURM_LOCALID=\"$LOCAL_RANK\" "
         "SLURM_NTASKS=\"$WORLD_SIZE\" SLURM_NPROCS=\"$WORLD_SIZE\" "
         "SLURM_NTASKS_PER_NODE=\"$LOCAL_WORLD_SIZE\" SLURM_NODEID=\"$GROUP_RANK\" "
         "SLURM_NNODES=" +
         std::string(step_nodes) + " SLURM_JOB_NUM_NODES=\"$NUM_NODES\" SLURM_GPUS_ON_NODE=8;";
}
const std::string kShim = "bash -c '" + task_exports() + " exec \"$@\"' slurm-task ";

INSTANTIATE_TEST_SUITE_P(
    Spellings, LaunchCommand,
    ::testing::Values(
        // srun and launchers behind a wrapper that runs its arguments: the
        // wrapper stays, the step is translated as if it stood alone.
        Case{"srun_under_stdbuf", k2x8Tasks, "stdbuf -oL -eL srun python finetune.py\n",
             "stdbuf -oL -eL " + kPerNode + kShim + "python finetune.py\n"},
        Case{"srun_under_timeout", k2x8,
             "timeout -s INT 11h srun --kill-on-bad-exit=1 python t.py\n",
             "timeout -s INT 11h python t.py\n"},
        Case{"srun_under_env_and_nohup", k2x8, "nohup env A=1 -u B srun -l python t.py\n",
             "nohup env A=1 -u B python t.py\n"},
        Case{"srun_under_time_binary", k2x8, "/usr/bin/time -o t.log srun python t.py\n",
             "/usr/bin/time -o t.log python t.py\n"},
        Case{"torchrun_under_timeout", k2x8, "timeout 10h torchrun --nproc_per_node=8 t.py\n",
             "timeout 10h torchrun --nnodes=\"$NUM_NODES\" --node_rank=\"$NODE_RANK\" "
             "--master_addr=\"$MASTER_ADDR\" --master_port=\"$MASTER_PORT\" "
             "--nproc_per_node=\"${LOCAL_WORLD_SIZE:-8}\" t.py\n"},
        Case{"torchrun_equals", k2x8,
             "srun torchrun --nnodes=2 --node_rank=$SLURM_NODEID --nproc_per_node=8 "
             "--master_addr=$(hostname) --master_port=29500 train.py\n",
             "torchrun --nnodes=\"$NUM_NODES\" --node_rank=\"$NODE_RANK\" "
             "--nproc_per_node=\"${LOCAL_WORLD_SIZE:-8}\" --master_addr=\"$MASTER_ADDR\" "
             "--master_port=\"$MASTER_PORT\" train.py\n"},
        Case{"torchrun_dashes_spaces", k2x8,
             "srun bash -c 'torchrun --nnodes $SLURM_NNODES --node-rank $SLURM_NODEID "
             "--nproc-per-node 8 --master-addr $MASTER_ADDR --master-port 29500 train.py'\n",
             "torchrun --nnodes \"$NUM_NODES\" --node-rank \"$NODE_RANK\" --nproc-per-node "
             "\"${LOCAL_WORLD_SIZE:-8}\" --master-addr \"$MASTER_ADDR\" --master-port "
             "\"$MASTER_PORT\" train.py\n"},
        Case{"module_form_c10d", k2x8,
             "head=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n"
             "srun python -m torch.distributed.run --nnodes=$SLURM_NNODES --nproc_per_node=8 "
             "--rdzv_backend=c10d --rdzv_endpoint=$head:29500 --rdzv_id=$SLURM_JOB_ID x.py\n",
             "head=$MASTER_ADDR\npython -m torch.distributed.run --nnodes=\"$NUM_NODES\" "
             "--nproc_per_node=\"${LOCAL_WORLD_SIZE:-8}\" --rdzv_backend=c10d "
             "--rdzv_endpoint=\"$MASTER_ADDR:$MASTER_PORT\" --rdzv_id=\"$MLFLOW_RUN_ID\" x.py\n"},
        Case{"variables_from_the_script", k2x8,
             "GPUS_PER_NODE=8\nNNODES=$SLURM_NNODES\nnodes=( $(scontrol show hostnames) )\n"
             "head_node=${nodes[0]}\n"
             "srun torchrun --nnodes=$NNODES --nproc_per_node=$GPUS_PER_NODE "
             "--rdzv_backend=c10d --rdzv_endpoint=$head_node:29500 t.py\n",
             "GPUS_PER_NODE=$LOCAL_WORLD_SIZE\nNNODES=$NUM_NODES\nnodes=( $(printf '%s\\n' "
             "\"$MASTER_ADDR\" "
             "$(seq -f 'node-%g' 1 $((NUM_NODES - 1)))) )\nhead_node=${nodes[0]}\n"
             "torchrun --nnodes=\"$NUM_NODES\" --nproc_per_node=\"${LOCAL_WORLD_SIZE:-8}\" "
             "--rdzv_backend=c10d --rdzv_endpoint=\"$MASTER_ADDR:$MASTER_PORT\" t.py\n"},
        // A bare `head` prints ten lines: the node list stays one (sara-nl).
        Case{"node_list_through_a_bare_head", k2x8,
             "nodes=( $(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head) )\n"
             "echo ${#nodes[@]}\n",
             "nodes=( $(printf '%s\\n' \"$MASTER_ADDR\" "
             "$(seq -f 'node-%g' 1 $((NUM_NODES - 1))) | head) )\necho ${#nodes[@]}\n"},
        Case{"standalone_single_node", "#SBATCH --nodes=1 --gpus-per-node=h100:8\n",
             "torchrun --standalone --nnodes=1 --nproc-per-node=8 t.py\n",
             "torchrun --standalone --nnodes=\"$NUM_NODES\" "
             "--nproc-per-node=\"${LOCAL_WORLD_SIZE:-8}\" t.py\n"},
        Case{"standalone_multi_node", k2x8, "srun torchrun --standalone --nproc_per_node=8 t.py\n",
             "torchrun --nnodes=\"$NUM_NODES\" --node_rank=\"$NODE_RANK\" "
             "--master_addr=\"$MASTER_ADDR\" --master_port=\"$MASTER_PORT\" "
             "--nproc_per_node=\"${LOCAL_WORLD_SIZE:-8}\" t.py\n"},
        Case{"missing_flags_added", k2x8, "srun torchrun --nproc_per_node=8 t.py\n",
             "torchrun --nnodes=\"$NUM_NODES\" --node_rank=\"$NODE_RANK\" "
             "--master_addr=\"$MASTER_ADDR\" --master_port=\"$MASTER_PORT\" "
             "--nproc_per_node=\"${LOCAL_WORLD_SIZE:-8}\" t.py\n"},
        Case{"legacy_launch_local_rank", k2x8,
             "srun bash -c 'python -m torch.distributed.launch --nproc_per_node=8 "
             "--nnodes=2 --node_rank=$SLURM_NODEID --master_addr=$MASTER_ADDR "
             "--master_port=12345 main.py'\n",
             "python -m torch.distributed.launch --nproc_per_node=\"${LOCAL_WORLD_SIZE:-8}\" "
             "--nnodes=\"$NUM_NODES\" --node_rank=\"$NODE_RANK\" --master_addr=\"$MASTER_ADDR\" "
             "--master_port=\"$MASTER_PORT\" main.py\n"},
        Case{"per_gpu_python", k2x8Tasks, "srun python -u train.py --lr 1e-4\n",
             kPerNode + kShim + "python -u train.py --lr 1e-4\n"},
        Case{"per_gpu_executable_with_srun_ntasks", "#SBATCH --nodes=2 --gpus-per-node=h100:8\n",
             "srun --ntasks-per-node=8 ./train_bin --steps 10\n",
             kPerNode + kShim + "./train_bin --steps 10\n"},
        Case{"per_gpu_total_tasks", "#SBATCH --nodes=2 --ntasks=16 --gpus-per-node=h100:8\n",
             "srun python train.py\n", kPerNode + kShim + "python train.py\n"},
        Case{"escaped_rank_in_double_quotes", k2x8,
             "srun bash -c \"torchrun --nnodes=$SLURM_NNODES --node_rank=\\$SLURM_NODEID "
             "--master_addr=$MASTER_ADDR t.py\"\n",
             // The double-quoted script is parsed again and runs directly.
             "torchrun --master_port=\"$MASTER_PORT\" --nnodes=\"$NUM_NODES\" "
             "--node_rank=\"$NODE_RANK\" --master_addr=\"$MASTER_ADDR\" t.py\n"},
        Case{"accelerate", k2x8,
             "srun accelerate launch --num_processes $((SLURM_NNODES * 8)) --num_machines "
             "$SLURM_NNODES --machine_rank \\$SLURM_NODEID --main_process_ip $(hostname) "
             "--main_process_port 29500 t.py\n",
             "accelerate launch --num_processes \"$WORLD_SIZE\" --num_machines \"$NUM_NODES\" "
             "--machine_rank \"$NODE_RANK\" --main_process_ip \"$MASTER_ADDR\" "
             "--main_process_port \"$MASTER_PORT\" t.py\n"},
        Case{"accelerate_missing_machine_flags", k2x8,
             "srun accelerate launch --multi_gpu --num_processes 16 t.py\n",
             "accelerate launch --num_machines=\"$NUM_NODES\" --machine_rank=\"$NODE_RANK\" "
             "--main_process_ip=\"$MASTER_ADDR\" --main_process_port=\"$MASTER_PORT\" "
             "--multi_gpu --num_processes \"$WORLD_SIZE\" t.py\n"},
        Case{"deepspeed_pdsh", k2x8,
             "scontrol show hostnames \"$SLURM_JOB_NODELIST\" | sed 's/$/ slots=8/' > hosts\n"
             "deepspeed --hostfile hosts --num_nodes $SLURM_NNODES --num_gpus 8 t.py\n",
             "printf '%s\\n' \"$MASTER_ADDR\" $(seq -f 'node-%g' 1 $((NUM_NODES - 1))) | "
             "sed 's/$/ slots=8/' > hosts\ndeepspeed --no_ssh --node_rank=\"$NODE_RANK\" "
             "--master_addr=\"$MASTER_ADDR\" --master_port=\"$MASTER_PORT\" --hostfile hosts "
             "--num_nodes \"$NUM_NODES\" --num_gpus \"${LOCAL_WORLD_SIZE:-8}\" t.py\n"},
        // DeepSpeed's runner needs a hostfile even with --no_ssh: one is written per node.
        Case{"deepspeed_without_hostfile", k2x8,
             "srun deepspeed --num_gpus 8 --master_port 29500 train.py --deepspeed ds.json\n",
             "deepspeed --no_ssh --node_rank=\"$NODE_RANK\" --hostfile=\"$(seq -f \"node-%g "
             "slots=$LOCAL_WORLD_SIZE\" 0 $((NUM_NODES - 1)) > /tmp/slurm2air.hostfile && echo "
             "/tmp/slurm2air.hostfile)\" --master_addr=\"$MASTER_ADDR\" --num_gpus "
             "\"${LOCAL_WORLD_SIZE:-8}\" --master_port \"$MASTER_PORT\" train.py --deepspeed "
             "ds.json\n"},
        Case{"deepspeed_short_hostfile_flag_kept", k2x8,
             "srun deepspeed -H hosts --no_ssh --node_rank $SLURM_NODEID t.py\n",
             "deepspeed --master_addr=\"$MASTER_ADDR\" --master_port=\"$MASTER_PORT\" -H hosts "
             "--no_ssh --node_rank \"$NODE_RANK\" t.py\n"},
        Case{"deepspeed_single_node_unchanged", "#SBATCH --nodes=1 --gpus-per-node=h100:8\n",
             "deepspeed --num_gpus 8 t.py\n",
             "deepspeed --num_gpus \"${LOCAL_WORLD_SIZE:-8}\" t.py\n"},
        Case{"one_node_step_with_nodelist", k2x8,
             "h=$(scontrol show hostnames | head -n1)\nsrun -N1 -n1 -w \"$h\" python prep.py\n"
             "srun -r 1 -N1 python other.py\n",
             "h=$MASTER_ADDR\nif [ \"$NODE_RANK\" = 0 ]; then python prep.py; fi\n"
             "if [ \"$NODE_RANK\" = 1 ]; then python other.py; fi\n"},
        Case{"run_once_guard", k2x8,
             "python download.py --out /shared/data\nmkdir -p /shared/ckpt\n"
             "cp -r /shared/data /tmp/data\nsrun torchrun --nnodes=2 --nproc_per_node=8 "
             "--rdzv_backend=c10d --rdzv_endpoint=$(hostname):29500 t.py\n",
             "if [ \"$NODE_RANK\" = 0 ]; then python download.py --out /shared/data; fi\n"
             "mkdir -p /shared/ckpt\ncp -r /shared/data /tmp/data\ntorchrun "
             "--nnodes=\"$NUM_NODES\" --nproc_per_node=\"${LOCAL_WORLD_SIZE:-8}\" "
             "--rdzv_backend=c10d --rdzv_endpoint=\"$MASTER_ADDR:$MASTER_PORT\" t.py\n"}),
    [](const ::testing::TestParamInfo<Case>& param_info) {
      return std::string(param_info.param.name);
    });

// WORLD_SIZE set to the node count (one process per node that spawns its
// own workers) is not AI Runtime's WORLD_SIZE (the GPUs): it stays, and is
// reported; one that means the GPUs is removed as AI Runtime's.
TEST(LaunchCounts, ARuntimeCountOfTheScriptsOwnMeaningIsKept) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH -N2 --ntasks-per-node=1 --gpus-per-node=h100:8\n"
          "export WORLD_SIZE=$SLURM_NTASKS\nexport LOCAL_WORLD_SIZE=8\nNUM_NODES=$SLURM_NNODES\n"
          "srun python spawn.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_NE(t.workload->command.find("\nexport WORLD_SIZE=$NUM_NODES\n"), std::string::npos)
      << t.workload->command;
  EXPECT_NE(t.workload->command.find("# [slurm2air] export LOCAL_WORLD_SIZE=8"), std::string::npos);
  EXPECT_NE(t.workload->command.find("# [slurm2air] NUM_NODES=$SLURM_NNODES"), std::string::npos);
  EXPECT_EQ(message_of(t, Code::runtime_count_kept),
            "the script sets WORLD_SIZE to `$SLURM_NTASKS`, not AI Runtime's WORLD_SIZE (16, the "
            "GPUs of all nodes); the assignment is kept, so the program reads the script's value "
            "as it did under Slurm");
}

// LUMI's AI guide: `export WORLD_SIZE=$SLURM_NPROCS` with one task per GPU
// is AI Runtime's own count (the name is renamed to $WORLD_SIZE): removed
// as AI Runtime's, not reported as a count of the script's that is kept.
TEST(LaunchCounts, ATaskCountThatIsTheWorldSizeIsRemovedNotKept) {
  for (const std::string written : {"$SLURM_NPROCS", "${SLURM_NTASKS}"}) {
    const Translation t =
        run("#!/bin/bash\n#SBATCH -N1 --ntasks-per-node=8 --gpus-per-node=h100:8\n"
            "export WORLD_SIZE=" +
            written + "\nsrun python t.py\n");
    ASSERT_TRUE(t.workload);
    EXPECT_NE(t.workload->command.find("# [slurm2air] export WORLD_SIZE=" + written + "\n"),
              std::string::npos)
        << t.workload->command;
    EXPECT_FALSE(has_code(t, Code::runtime_count_kept)) << written;
    EXPECT_TRUE(has_code(t, Code::provided_variable_removed)) << written;
  }
}

// Jean Zay's TF MPI example, `srun --mpi=pmix python tf_mpi_mnist.py` on 8
// nodes: the plugin's report says the MPI wire-up is gone; the file named for
// MPI says the same again, and is not repeated.
TEST(LaunchCounts, AnMpiStepAcrossNodesIsReportedOnce) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH --ntasks=32 --ntasks-per-node=4 --gres=gpu:4\n"
          "srun --mpi=pmix python tf_mpi_mnist.py --mnist mnist.npz\n");
  EXPECT_EQ(testing::diagnostics_with(t, Code::mpi_launch_unsupported).size(), 1u);
  EXPECT_NE(message_of(t, Code::mpi_launch_unsupported).find("srun --mpi=pmix wires the tasks"),
            std::string::npos)
      << message_of(t, Code::mpi_launch_unsupported);
}

// mpirun with no count took the job's tasks from Slurm; off Slurm it would
// start one rank per core, so the count is written in. A given count stays.
TEST(LaunchCounts, SingleNodeMpirunGetsTheJobsTaskCount) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH -N1 --ntasks-per-node=8 --gpus-per-node=h100:8\n"
          "mpirun -bind-to none -map-by slot python train_hvd.py\nmpiexec -n 2 python eval.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_NE(t.workload->command.find("\nmpirun -np 8 -bind-to none -map-by slot python"),
            std::string::npos)
      << t.workload->command;
  EXPECT_NE(t.workload->command.find("\nmpiexec -n 2 python eval.py"), std::string::npos);
  const Translation version =
      run("#!/bin/bash\n#SBATCH -N1 --ntasks-per-node=8 --gpus-per-node=h100:8\n"
          "mpirun --version\n");
  EXPECT_NE(version.workload->command.find("\nmpirun --version\n"), std::string::npos);
  EXPECT_NE(message_of(t, Code::mpi_rank_count_written).find("one rank per Slurm task (8)"),
            std::string::npos);
}

// No --cpus-per-task: Slurm gave each task one CPU.
TEST(LaunchCounts, CpusOnNodeDefaultsToOnePerTask) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH -N1 --ntasks-per-node=8 --gpus-per-node=h100:8\n"
          "export OMP_NUM_THREADS=$SLURM_CPUS_ON_NODE\n");
  ASSERT_TRUE(t.workload);
  EXPECT_NE(t.workload->command.find("OMP_NUM_THREADS=8"), std::string::npos)
      << t.workload->command;
}

// Debian's alternatives and a launcher under a computed directory are
// mpirun too.
TEST(LaunchCounts, MpiLaunchersUnderOtherSpellingsAreMpirun) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH -N1 --ntasks-per-node=4 --gpus-per-node=h100:8\n"
          "mpirun.openmpi ./a.out\nmpiexec.hydra ./b.out\n${MPI_DIR}/bin/mpiexec ./c.out\n");
  ASSERT_TRUE(t.workload);
  EXPECT_NE(t.workload->command.find("\nmpirun.openmpi -np 4 ./a.out\nmpiexec.hydra -np 4 ./b.out\n"
                                     "${MPI_DIR}/bin/mpiexec -np 4 ./c.out"),
            std::string::npos)
      << t.workload->command;
  const Translation two =
      run("#!/bin/bash\n#SBATCH -N2 --ntasks-per-node=1 --gpus-per-node=h100:8\n"
          "$MPI_PATH/bin/mpirun -n 2 ./nccl_test\n");
  EXPECT_EQ(message_of(two, Code::mpi_launch_unsupported).find("`$MPI_PATH/bin/mpirun` starts"), 0u)
      << message_of(two, Code::mpi_launch_unsupported);
}

// A 4-GPU request on an 8-GPU shape: Slurm's GPU count stays the job's 4,
// like a count written as a number, so the world size (and the global batch
// computed from it) does not change behind the user's back.
TEST(LaunchCounts, SlurmGpuCountOfANarrowerRequestStaysTheJobs) {
  const Translation t = run(
      "#!/bin/bash\n#SBATCH --nodes=2 --gres=gpu:a100:4\n"
      "GLOBAL_BS=$((SLURM_NNODES * SLURM_GPUS_ON_NODE * 4))\n"
      "srun torchrun --nnodes 2 --nproc_per_node=$SLURM_GPUS_PER_NODE train.py --bs $GLOBAL_BS\n");
  ASSERT_TRUE(t.workload);
  EXPECT_NE(t.workload->command.find("GLOBAL_BS=$((NUM_NODES * 4 * 4))"), std::string::npos)
      << t.workload->command;
  EXPECT_NE(t.workload->command.find("--nproc_per_node=4 "), std::string::npos);
  EXPECT_EQ(t.workload->command.find("LOCAL_WORLD_SIZE"), std::string::npos);
  // The full shape is the node's count.
  const Translation full =
      run("#!/bin/bash\n#SBATCH --nodes=2 --gres=gpu:h100:8\n"
          "srun torchrun --nnodes 2 --nproc_per_node=$SLURM_GPUS_PER_NODE train.py\n");
  ASSERT_TRUE(full.workload);
  EXPECT_NE(full.workload->command.find("--nproc_per_node=\"$LOCAL_WORLD_SIZE\""),
            std::string::npos)
      << full.workload->command;
}

// Task counts AI Runtime has no variable for are Slurm's own values; in
// arithmetic `$NAME` and `${NAME}` are replaced whole (`$4` is an argument).
TEST(LaunchCounts, TaskCountsWithoutARuntimeVariableAreTheJobsValues) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH --nodes=2 --ntasks-per-node=4 --gres=gpu:a100:4\n"
          "export WORLD=$(($SLURM_NNODES * $SLURM_NTASKS_PER_NODE + ${SLURM_GPUS_ON_NODE}))\n"
          "mpirun -n $SLURM_NTASKS ./solver\n");
  ASSERT_TRUE(t.workload);
  EXPECT_NE(t.workload->command.find("WORLD=$(($NUM_NODES * 4 + 4))\nmpirun -n 8 ./solver"),
            std::string::npos)
      << t.workload->command;
  // A plain -N job: Slurm left SLURM_NTASKS_PER_NODE unset, so it is reported.
  const Translation unset =
      run("#!/bin/bash\n#SBATCH --nodes=2 --gpus-per-node=h100:8 --ntasks=4\necho "
          "$SLURM_NTASKS_PER_NODE\n");
  EXPECT_NE(message_of(unset, Code::slurm_variable_unmapped).find("SLURM_NTASKS_PER_NODE"),
            std::string::npos);
}

// srun finds `train.sh` in the working directory before PATH; bash without
// srun looks only in PATH, so the file beside the script gets its `./`.
TEST(LaunchCounts, AProgramSrunFoundInTheWorkingDirectoryKeepsIt) {
  const Translation t = run(script(k2x8,
                                   "srun --ntasks-per-node=1 train.sh --epochs 3\nsrun a.out\n"
                                   "srun hostname\nsrun ./b.sh\nsrun python t.py\n"));
  const std::string body = body_of(t);
  EXPECT_NE(body.find("./train.sh --epochs 3\n./a.out\nhostname\n./b.sh\npython t.py\n"),
            std::string::npos)
      << body;
  EXPECT_FALSE(has_code(t, Code::program_from_working_directory));
  // A module may have put it on PATH: reported, not edited.
  const Translation module =
      run(script(k2x8, "module load spark/3.1\nsrun start-worker.sh $MASTER\n"));
  EXPECT_NE(body_of(module).find("\nstart-worker.sh $MASTER\n"), std::string::npos)
      << body_of(module);
  EXPECT_NE(message_of(module, Code::program_from_working_directory)
                .find("srun looked for `start-worker.sh` in the working directory before PATH"),
            std::string::npos);
}

// trl's benchmark_vllm.slurm: GPU 0 serves vLLM, the other seven train. The
// count is the GPUs the line chose itself, not a mismatch with the node.
TEST(LaunchCounts, AProcessCountMatchingTheLinesOwnVisibleDevicesIsKept) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH --nodes=1 --gres=gpu:h100:8\n"
          "CUDA_VISIBLE_DEVICES=0 trl vllm-serve --model m &\n"
          "CUDA_VISIBLE_DEVICES=1,2,3,4,5,6,7 accelerate launch --num_processes=7 grpo.py\n");
  EXPECT_NE(body_of(t).find("accelerate launch --num_processes=7 grpo.py"), std::string::npos)
      << body_of(t);
  EXPECT_FALSE(has_code(t, Code::launcher_count_mismatch));
  // Without the line's own device list, 7 of 8 is still reported.
  const Translation bare =
      run("#!/bin/bash\n#SBATCH --nodes=1 --gres=gpu:h100:8\n"
          "accelerate launch --num_processes=7 grpo.py\n");
  EXPECT_TRUE(has_code(bare, Code::launcher_count_mismatch));
}

// A 4-GPU job on an 8-GPU shape: launchers that count the GPUs would start
// 8 processes; they keep the job's 4, as a literal count does.
TEST(LaunchCounts, LaunchersThatCountGpusKeepTheJobsCountOnAWiderNode) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH --nodes=1 --gres=gpu:a100:4\n"
          "torchrun --nproc_per_node=gpu t.py\n"
          "accelerate launch --multi_gpu eval.py\n");
  const std::string body = body_of(t);
  EXPECT_NE(body.find("torchrun --nproc_per_node=4 t.py"), std::string::npos) << body;
  EXPECT_NE(body.find("--num_processes=4"), std::string::npos) << body;
  EXPECT_NE(message_of(t, Code::launcher_count_mismatch)
                .find("--nproc_per_node=gpu counted the job's 4 GPU(s) under Slurm"),
            std::string::npos)
      << message_of(t, Code::launcher_count_mismatch);
  // The whole node: torchrun still counts for itself.
  const Translation full =
      run("#!/bin/bash\n#SBATCH --nodes=1 --gres=gpu:h100:8\n"
          "torchrun --nproc_per_node=gpu t.py\naccelerate launch e.py\n");
  EXPECT_NE(body_of(full).find("torchrun --nproc_per_node=gpu t.py\naccelerate launch e.py"),
            std::string::npos)
      << body_of(full);
}

// `gpu_count=$(nvidia-smi -L | wc -l)` (Baskerville's s1 script) counts the
// node's GPUs: on the full shape that is LOCAL_WORLD_SIZE; on a wider node
// than the job asked for it counted the job's under Slurm, and that count is
// written out, as for `--nproc_per_node=gpu`.
TEST(LaunchCounts, NvidiaSmiGpuCountIsTheNodesGpus) {
  for (const char* count :
       {"$(nvidia-smi -L | wc -l)", "$(nvidia-smi --list-gpus | wc -l)",
        "`nvidia-smi --query-gpu=name --format=csv,noheader | wc -l`",
        "$(nvidia-smi --query-gpu=index,name --format=csv,noheader,nounits | wc --lines)"}) {
    const Translation full = run(
        script(k2x8, std::string("gpu_count=") + count +
                         "\nsrun torchrun --nnodes=2 --nproc-per-node=${gpu_count} train.py\n"));
    EXPECT_NE(body_of(full).find("--nproc-per-node=\"$LOCAL_WORLD_SIZE\""), std::string::npos)
        << count << "\n"
        << body_of(full);
    EXPECT_FALSE(has_code(full, Code::launcher_count_mismatch))
        << count << ": " << message_of(full, Code::launcher_count_mismatch);
  }
  const Translation narrower =
      run("#!/bin/bash\n#SBATCH --nodes=1 --ntasks-per-node=1 --gpus-per-task=4\n"
          "gpu_count=$(nvidia-smi -L | wc -l)\n"
          "srun bash -c \"torchrun --nproc-per-node=${gpu_count} train.py\"\n");
  EXPECT_NE(body_of(narrower).find("--nproc-per-node=4 train.py"), std::string::npos)
      << body_of(narrower);
  EXPECT_NE(message_of(narrower, Code::launcher_count_mismatch)
                .find("--nproc_per_node=${gpu_count} counted the job's 4 GPU(s) under Slurm"),
            std::string::npos)
      << message_of(narrower, Code::launcher_count_mismatch);
  // A header line, a picked GPU or another output is not one line per GPU.
  for (const char* other :
       {"$(nvidia-smi --query-gpu=name --format=csv | wc -l)", "$(nvidia-smi -L -i 0 | wc -l)",
        "$(nvidia-smi -L | grep -c A100)", "$(nvidia-smi | wc -l)"}) {
    const Translation t = run(
        script(k2x8, std::string("gpu_count=") + other +
                         "\nsrun torchrun --nnodes=2 --nproc-per-node=${gpu_count} train.py\n"));
    EXPECT_TRUE(has_code(t, Code::launcher_count_mismatch)) << other;
  }
}

// accelerate's saved config stays in the cluster home: reported once, unless
// the line (or a variable it expands) names a config file.
TEST(LaunchDiagnostics, AccelerateWithoutAConfigFileIsReportedOnce) {
  const Translation t = run(script(k2x8,
                                   "srun accelerate launch t.py\n"
                                   "srun accelerate launch eval.py\n"));
  EXPECT_EQ(testing::diagnostics_with(t, Code::accelerate_default_config).size(), 1U);
  for (const char* body :
       {"srun accelerate launch --config-file ds.yaml t.py\n",
        "ARGS=\"--config_file fsdp.yaml\"\nsrun accelerate launch $ARGS t.py\n"}) {
    EXPECT_FALSE(has_code(run(script(k2x8, body)), Code::accelerate_default_config)) << body;
  }
}

// The site set TMPDIR for the job; on AI Runtime it falls back to /tmp.
TEST(LaunchCounts, ATmpdirTheScriptReadsButNeverSetsFallsBackToTmp) {
  const std::string line = "export TMPDIR=\"${TMPDIR:-/tmp}\"";
  const Translation reads = run(script(k2x8, "cp -r data ${TMPDIR}/\npython t.py\n"));
  ASSERT_TRUE(reads.workload);
  EXPECT_EQ(reads.workload->command.find("cd \"$CODE_SOURCE_PATH\"\n" + line), 0U)
      << reads.workload->command;
  for (const char* body : {"export TMPDIR=/local/$USER\ncp data $TMPDIR/\n",
                           "cp data $SLURM_TMPDIR/\n", "echo $TMPDIRS\n"}) {
    const Translation t = run(script(k2x8, body));
    ASSERT_TRUE(t.workload);
    EXPECT_EQ(t.workload->command.find(line), std::string::npos) << t.workload->command;
  }
}

// sbatch sets SLURM_GPUS_PER_TASK to --gpus-per-task as written; without
// the option it is unset there, and reported here.
TEST(LaunchCounts, GpusPerTaskIsTheValueAsWritten) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH --nodes=1 --ntasks=4 --gpus-per-task=2\n"
          "python t.py --gpus $SLURM_GPUS_PER_TASK\n");
  ASSERT_TRUE(t.workload);
  EXPECT_NE(t.workload->command.find("python t.py --gpus 2\n"), std::string::npos)
      << t.workload->command;
  const Translation unset =
      run("#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\npython t.py -g $SLURM_GPUS_PER_TASK\n");
  EXPECT_NE(message_of(unset, Code::slurm_variable_unmapped).find("SLURM_GPUS_PER_TASK"),
            std::string::npos);
}

// "Submit this with sbatch" guards: the job id, empty on AI Runtime, would
// send every run to the exit; MLFLOW_RUN_ID is set on every run.
TEST(LaunchCounts, AJobIdTestedForBeingSetBecomesTheRunId) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH --gres=gpu:1\n"
          "if [ \"x$SLURM_JOB_ID\" == \"x\" ]; then echo 'use sbatch'; exit 1; fi\n"
          "[[ -z ${SLURM_JOBID:-} ]] && exit 1\n"
          "python t.py --run $SLURM_JOB_ID\n");
  ASSERT_TRUE(t.workload);
  const std::string& command = t.workload->command;
  EXPECT_NE(command.find("if [ \"x$MLFLOW_RUN_ID\" == \"x\" ]"), std::string::npos) << command;
  EXPECT_NE(command.find("[[ -z ${MLFLOW_RUN_ID:-} ]]"), std::string::npos) << command;
  EXPECT_NE(command.find("--run $SLURM_JOB_ID"), std::string::npos) << command;  // reported
  EXPECT_EQ(testing::diagnostics_with(t, Code::slurm_variable_approximated).size(), 2U);
  EXPECT_EQ(testing::diagnostics_with(t, Code::slurm_variable_unmapped).size(), 1U);
}

// trl's gold.slurm: "must run inside a SLURM allocation" asked of the node
// list. Only -z/-n ask whether it is empty; its value stays reported.
TEST(LaunchCounts, ANodeListTestedForBeingEmptyBecomesTheRunId) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH --nodes=2 --gpus-per-node=h100:8\n"
          "if [[ -z \"${SLURM_JOB_NODELIST:-}\" ]]; then echo 'no allocation'; exit 1; fi\n"
          "[ -n \"$SLURM_NODELIST\" ] || exit 1\n"
          "[[ $SLURM_JOB_NODELIST == gpu* ]] && echo gpu\n"
          "srun python t.py\n");
  EXPECT_EQ(body_of(t),
            "if [[ -z \"${MLFLOW_RUN_ID:-}\" ]]; then echo 'no allocation'; exit 1; fi\n"
            "[ -n \"$MLFLOW_RUN_ID\" ] || exit 1\n"
            "[[ $SLURM_JOB_NODELIST == gpu* ]] && echo gpu\n"
            "python t.py\n");
  EXPECT_EQ(testing::diagnostics_with(t, Code::slurm_variable_approximated).size(), 2U);
  EXPECT_EQ(testing::diagnostics_with(t, Code::slurm_variable_unmapped).size(), 1U);
}

// Scripts written for PBS read PBS_O_WORKDIR and PBS_JOBID, which Slurm's
// spank_pbs plugin copies from SLURM_SUBMIT_DIR and SLURM_JOB_ID: each is
// rewritten, or reported, as its Slurm name is, and says where it came from.
// PBS names the plugin never sets were empty under Slurm too: inherited.
TEST(LaunchCounts, PbsNamesSlurmSetsAreMappedAsTheirSlurmNames) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH --nodes=2 --gpus-per-node=h100:8\n"
          "cd ${PBS_O_WORKDIR}\n"
          "[ -z \"$PBS_JOBID\" ] && exit 1\n"
          "srun python t.py --rank $PBS_NODENUM --id $PBS_JOBID --hosts $PBS_NODEFILE\n"
          "echo $PBS_ARRAYID $PBS_O_HOST\n");
  EXPECT_EQ(body_of(t),
            "cd ${CODE_SOURCE_PATH}\n"
            "[ -z \"$MLFLOW_RUN_ID\" ] && exit 1\n"
            "python t.py --rank $NODE_RANK --id $PBS_JOBID --hosts $PBS_NODEFILE\n"
            "echo $PBS_ARRAYID $PBS_O_HOST\n");
  const auto approximated = testing::diagnostics_with(t, Code::slurm_variable_approximated);
  ASSERT_EQ(approximated.size(), 3U);
  EXPECT_EQ(approximated[0].message,
            "$PBS_O_WORKDIR becomes $CODE_SOURCE_PATH: Slurm's spank_pbs plugin sets it from "
            "$SLURM_SUBMIT_DIR; the submission directory is uploaded as code_source");
  const auto unmapped = testing::diagnostics_with(t, Code::slurm_variable_unmapped);
  ASSERT_EQ(unmapped.size(), 1U);
  EXPECT_EQ(unmapped[0].message,
            "$PBS_JOBID is set by Slurm's spank_pbs plugin from $SLURM_JOB_ID, which has no AI "
            "Runtime equivalent: there is no job id on the nodes");
  EXPECT_NE(message_of(t, Code::batch_rank_fixed).find("`$PBS_NODENUM`"), std::string::npos);
  EXPECT_NE(message_of(t, Code::inherited_variable)
                .find("$PBS_NODEFILE, $PBS_ARRAYID, $PBS_O_HOST are never set"),
            std::string::npos)
      << message_of(t, Code::inherited_variable);
}

// A value stands for `$NAME` and for a default (`${NAME:-x}`), not for
// `${#NAME}`, `${NAME+x}` or `${NAME/o/0}`: those stay and are reported.
TEST(LaunchCounts, AKnownValueReplacesOnlyExpansionsThatGiveIt) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH -J foo --gpus-per-node=h100:8\n"
          "[ -n \"${SLURM_JOB_NAME+x}\" ] && echo ${SLURM_JOB_NAME:-none} ${#SLURM_JOB_NAME} "
          "${SLURM_JOB_NAME/o/0} $SLURM_JOB_NAME\n");
  EXPECT_EQ(body_of(t),
            "[ -n \"${SLURM_JOB_NAME+x}\" ] && echo foo ${#SLURM_JOB_NAME} ${SLURM_JOB_NAME/o/0} "
            "foo\n");
  const auto unmapped = testing::diagnostics_with(t, Code::slurm_variable_unmapped);
  ASSERT_EQ(unmapped.size(), 3U);
  EXPECT_NE(unmapped[1].message.find("but `${#SLURM_JOB_NAME}` is not that value"),
            std::string::npos)
      << unmapped[1].message;
  EXPECT_EQ(testing::diagnostics_with(t, Code::slurm_variable_approximated).size(), 2U);
}

TEST(LaunchDiagnostics, BatchExpandedNodeRankIsReportedAsFixed) {
  const Translation t = run(script(k2x8,
                                   "srun torchrun --nnodes=2 --node_rank=$SLURM_NODEID "
                                   "--nproc_per_node=8 --master_addr=$(hostname) "
                                   "--master_port=29500 t.py\n"));
  EXPECT_EQ(message_of(t, Code::batch_rank_fixed),
            "under Slurm `$SLURM_NODEID` was expanded once in the batch shell, so every node got "
            "rank 0; the translation uses each node's $NODE_RANK");
}

TEST(LaunchDiagnostics, NodeIdExpandedByTheBatchShellOnAProgramLineIsReported) {
  const Translation t = run(script(k2x8,
                                   "srun python spawn.py --nr $SLURM_NODEID\n"
                                   "srun bash -c 'python spawn.py --nr $SLURM_NODEID'\n"));
  EXPECT_EQ(body_of(t), "python spawn.py --nr $NODE_RANK\npython spawn.py --nr $NODE_RANK\n");
  std::vector<std::string> notes;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::batch_rank_fixed) notes.push_back(d.message);
  }
  // Only the first: the single-quoted script was expanded by srun's shell, on each node.
  EXPECT_EQ(notes, std::vector<std::string>{
                       "`$SLURM_NODEID` is expanded by the batch shell, which ran on the first "
                       "node only, so under Slurm it was 0 for every task of this step; as "
                       "$NODE_RANK it is each node's own rank"});
}

TEST(LaunchDiagnostics, NodeIdOnOneNodeIsNotReported) {
  const Translation t = run(script("#SBATCH --nodes=1 --gpus-per-node=h100:8\n",
                                   "srun python t.py --nr $SLURM_NODEID\n"));
  EXPECT_FALSE(has_code(t, Code::batch_rank_fixed));
}

TEST(LaunchCommand, OneNodeStepOfSeveralTasksIsStartedByAOneNodeTorchrun) {
  const Translation t = run(script(k2x8Tasks, "srun -N1 python decode.py\n"));
  EXPECT_EQ(body_of(t),
            "if [ \"$NODE_RANK\" = 0 ]; then torchrun --standalone --nnodes=1 "
            "--nproc_per_node=\"$LOCAL_WORLD_SIZE\" --no_python bash -c '" +
                task_exports("1") + " exec \"$@\"' slurm-task python decode.py; fi\n");
  EXPECT_TRUE(has_code(t, Code::tasks_started_by_torchrun));
  EXPECT_FALSE(has_code(t, Code::one_task_per_gpu));
}

TEST(LaunchCommand, OneNodeLaunchOutsideSrunStaysOnNodeZero) {
  // Under Slurm the batch shell ran it on the first node, which trained
  // alone; on every node with a rendezvous, ranks 1.. of a one-node world
  // would fail.
  const std::string launch =
      "torchrun --nnodes=1 --nproc_per_node 8 --master_addr=localhost --master_port=2120 t.py";
  const Translation t = run(script(k2x8, launch + "\n"));
  EXPECT_EQ(body_of(t), "if [ \"$NODE_RANK\" = 0 ]; then " + launch + "; fi\n");
  EXPECT_EQ(message_of(t, Code::launch_outside_srun),
            "under Slurm this launcher ran on the first node only, and --nnodes=1 trained there "
            "alone; it now runs on node 0 only and the other 1 node(s) idle");
  const Translation a = run(script(k2x8, "accelerate launch --num_machines 1 t.py\n"));
  EXPECT_EQ(body_of(a),
            "if [ \"$NODE_RANK\" = 0 ]; then accelerate launch --num_machines 1 t.py; fi\n");
  // Inside srun, or across the nodes, the launch is rewritten as before.
  EXPECT_EQ(body_of(run(script(k2x8, "torchrun --nnodes=2 t.py\n"))).find("if ["),
            std::string::npos);
  EXPECT_EQ(body_of(run(script(k2x8, "srun torchrun --nnodes=1 t.py\n"))).find("if ["),
            std::string::npos);
}

// NVIDIA DeepLearningExamples' `readonly CMD="\\n python ..."; srun bash -c "${CMD}"`.
TEST(LaunchCommand, AStepScriptKeptInAVariableRunsOnEveryNode) {
  const Translation t =
      run(script(k2x8,
                 "readonly TRAIN_CMD=\"\\\n  torchrun --nproc_per_node=8 t.py \\\n"
                 "  --epochs 3\"\nsrun -l bash -c \"${TRAIN_CMD}\"\n"));
  EXPECT_NE(body_of(t).find("\ntorchrun --nnodes=\"$NUM_NODES\""), std::string::npos) << body_of(t);
  EXPECT_NE(body_of(t).find("t.py \\\n--epochs 3\n"), std::string::npos) << body_of(t);
  EXPECT_EQ(body_of(t).find("srun"), std::string::npos) << body_of(t);
  EXPECT_FALSE(has_code(t, Code::shell_script_unread));
  EXPECT_EQ(testing::check_bash_syntax(t.workload->command).exit_code, 0);
  // stas00's layout: `CMD="$LAUNCHER $PROGRAM"`, each set once; the last
  // line continuation must not join the `}` around the step.
  const Translation joined =
      run(script(k2x8,
                 "export LAUNCHER=\"python -u -m torch.distributed.run --nproc_per_node 8 "
                 "--node_rank \\$SLURM_PROCID\"\nPROGRAM=\"t.py --lr 3 \\\n\"\n"
                 "export CMD=\"$LAUNCHER $PROGRAM\"\nsrun bash -c \"$CMD\" 2>&1 | tee log\n"));
  EXPECT_NE(body_of(joined).find("--node_rank \"$NODE_RANK\" t.py --lr 3 \n} 2>&1 | tee log"),
            std::string::npos)
      << body_of(joined);
  EXPECT_FALSE(has_code(joined, Code::shell_script_unread));
  EXPECT_EQ(testing::check_bash_syntax(joined.workload->command).exit_code, 0);
  // The program of the script a variable set once (`"${LAUNCHER} t.py"`).
  const Translation program =
      run(script(k2x8,
                 "L=\"torchrun --nproc_per_node 8 --node_rank \\${SLURM_NODEID}\"\n"
                 "srun bash -c \"${L} t.py --lr 3\"\n"));
  EXPECT_NE(body_of(program).find("\ntorchrun --nnodes=\"$NUM_NODES\""), std::string::npos)
      << body_of(program);
  EXPECT_NE(body_of(program).find("--node_rank \"$NODE_RANK\" t.py --lr 3\n"), std::string::npos)
      << body_of(program);
  // A step whose script is not known keeps `bash -c "$CMD"` and says so.
  const Translation unknown = run(script(k2x8, "srun bash -c \"$CMD\"\n"));
  EXPECT_NE(body_of(unknown).find("bash -c \"$CMD\""), std::string::npos) << body_of(unknown);
  EXPECT_TRUE(has_code(unknown, Code::shell_script_unread));
}

// EleutherAI's pythia runner: `--gpus=512 --nodes=64 --ntasks-per-gpu=1`, then
// `srun python3 ...`. Without -n, sbatch counts ntasks-per-gpu tasks per GPU.
TEST(LaunchCommand, NtasksPerGpuSetsTheTaskCount) {
  const Translation t = run(script("#SBATCH -N 2 --gpus=h100:16 --ntasks-per-gpu=1\n",
                                   "srun python t.py $SLURM_NTASKS\n"));
  EXPECT_EQ(t.job.total_tasks(), 16u);
  EXPECT_EQ(t.job.tasks_per_node(), 8u);
  EXPECT_NE(body_of(t).find("--nproc_per_node=\"$LOCAL_WORLD_SIZE\""), std::string::npos)
      << body_of(t);
  EXPECT_NE(body_of(t).find("python t.py $WORLD_SIZE"), std::string::npos) << body_of(t);
  EXPECT_FALSE(has_code(t, Code::directive_not_mapped));
  // -n wins over it, as in sbatch.
  const Translation given =
      run(script("#SBATCH -N 2 -n 4 --gpus=h100:16 --ntasks-per-gpu=1\n", "srun python t.py\n"));
  EXPECT_EQ(given.job.total_tasks(), 4u);
}

// KAUST's `--tasks-per-node=2` with no node count: slurmd sets SLURM_NTASKS to
// it times the allocated nodes (one here).
TEST(LaunchCommand, TasksPerNodeAloneCountsTheTasksOfTheNodes) {
  const Translation t =
      run(script("#SBATCH --ntasks-per-node=4\n", "mpirun -np $SLURM_NTASKS ./solver\n"));
  EXPECT_NE(body_of(t).find("mpirun -np 4 ./solver"), std::string::npos) << body_of(t);
}

// minGPT-ddp's `srun singularity exec --nv img.sif torchrun --nproc_per_node=4
// main.py`: the container call goes, and the launcher after it is mapped
// like any other (before, it ran on each node with no rendezvous).
TEST(LaunchCommand, ALauncherInsideAContainerCallIsMapped) {
  const Translation t =
      run(script(k2x8,
                 "srun singularity exec --nv img.sif torchrun --nproc_per_node=8 main.py\n"
                 "apptainer exec img.sif torchrun --nnodes 2 --nproc_per_node=8 "
                 "--rdzv_endpoint=$(hostname):29500 --rdzv_backend=c10d main.py\n"));
  EXPECT_NE(body_of(t).find("torchrun --nnodes=\"$NUM_NODES\" --node_rank=\"$NODE_RANK\" "
                            "--master_addr=\"$MASTER_ADDR\" --master_port=\"$MASTER_PORT\" "
                            "--nproc_per_node="),
            std::string::npos)
      << body_of(t);
  EXPECT_NE(body_of(t).find("--rdzv_endpoint=\"$MASTER_ADDR:$MASTER_PORT\""), std::string::npos)
      << body_of(t);
  EXPECT_EQ(body_of(t).find("singularity"), std::string::npos) << body_of(t);
  EXPECT_EQ(body_of(t).find("apptainer"), std::string::npos) << body_of(t);
}

// InteractionGraph's `srun --export=ALL,NCCL_SOCKET_IFNAME=ib0 ... ray start`:
// the variables the step got are gone with srun, so the option is reported;
// a plain --export=ALL is what the command has anyway.
TEST(LaunchCommand, AnSrunExportOtherThanAllIsReported) {
  const Translation t = run(script(
      k2x8, "srun --export=ALL,NCCL_SOCKET_IFNAME=ib0 -N1 -n1 ray start --head --block &\n"));
  EXPECT_NE(message_of(t, Code::srun_options_dropped).find("--export=ALL,NCCL_SOCKET_IFNAME=ib0"),
            std::string::npos)
      << message_of(t, Code::srun_options_dropped);
  EXPECT_FALSE(
      has_code(run(script(k2x8, "srun --export=ALL python x.py\n")), Code::srun_options_dropped));
}

// LUMI's `srun --cpu-bind=v,mask_cpu=$CPU_BIND_MASKS` placed each task on
// CPUs picked for the node's layout; that placement is gone with srun and
// named. A binding policy (`cores`, `none`, `closest`) names no CPU or GPU
// and is not.
TEST(LaunchCommand, HandMadeCpuAndGpuBindingsAreNamedWhenSrunGoes) {
  const Translation masks =
      run(script(k2x8Tasks,
                 "CPU_BIND_MASKS=\"0x00fe000000000000,0xfe00000000000000\"\n"
                 "srun --cpu-bind=v,mask_cpu=$CPU_BIND_MASKS python train.py\n"));
  EXPECT_NE(
      message_of(masks, Code::srun_options_dropped)
          .find("--cpu-bind=v,mask_cpu=$CPU_BIND_MASKS (each task was bound to the CPUs listed"),
      std::string::npos)
      << message_of(masks, Code::srun_options_dropped);
  const Translation map =
      run(script(k2x8, "srun --gpu-bind=map_gpu:0,1,2,3 --cpu_bind=map_cpu:1,9 torchrun t.py\n"));
  const std::string message = message_of(map, Code::srun_options_dropped);
  EXPECT_NE(message.find("--gpu-bind=map_gpu:0,1,2,3 (each task was bound to the GPUs listed"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("--cpu_bind=map_cpu:1,9 (each task was bound to the CPUs listed"),
            std::string::npos)
      << message;
  for (const char* policy : {"--cpu-bind=cores", "--cpu_bind=verbose,sockets", "--cpu-bind=none",
                             "--gpu-bind=closest", "--gpu-bind=none"}) {
    const Translation t = run(script(k2x8, std::string("srun ") + policy + " torchrun t.py\n"));
    EXPECT_FALSE(has_code(t, Code::srun_options_dropped))
        << policy << ": " << message_of(t, Code::srun_options_dropped);
  }
  // Tasks torchrun now starts one per GPU: the GPU binding is carried or
  // reported on its own (S2A4030), not named again.
  const Translation per_gpu =
      run(script(k2x8Tasks, "srun --gpu-bind=map_gpu:0,1,2,3,4,5,6,7 python train.py\n"));
  EXPECT_EQ(message_of(per_gpu, Code::srun_options_dropped).find("gpu-bind"), std::string::npos)
      << message_of(per_gpu, Code::srun_options_dropped);
}

// seemoo-lab's `CUDA_VISIBLE_DEVICES=${i} srun bash -c "${CMD}" 2>&1 | sed ... &`:
// the assignments before the step set its script's environment.
TEST(LaunchCommand, AssignmentsBeforeAStepScriptAreExportedToIt) {
  const Translation t =
      run(script(k2x8,
                 "CMD=\"python t.py --fold 1\"\nfor i in 0 1; do\n  CUDA_VISIBLE_DEVICES=${i} "
                 "srun -n1 bash -c \"${CMD}\" 2>&1 | sed -e \"s/^/[$i] /\" &\ndone\nwait\n"
                 "NVIDIA_VISIBLE_DEVICES=\"\" srun bash -c 'pip install x && python check.py'\n"));
  EXPECT_NE(body_of(t).find("if [ \"$NODE_RANK\" = 0 ]; then\n( export CUDA_VISIBLE_DEVICES=${i}"
                            "\npython t.py --fold 1\n)\nfi 2>&1 |"),
            std::string::npos)
      << body_of(t);
  EXPECT_NE(body_of(t).find("( export NVIDIA_VISIBLE_DEVICES=\"\"\npip install x && python "
                            "check.py\n)"),
            std::string::npos)
      << body_of(t);
  EXPECT_EQ(testing::check_bash_syntax(t.workload->command).exit_code, 0) << body_of(t);
}

// NERSC's and others' per-node loop: one background one-node step per node.
TEST(LaunchCommand, APerNodeLoopStartsEachNodesOwnIteration) {
  const Translation t = run(script(k2x8,
                                   "RANK=0\nfor node in $(scontrol show hostnames); do\n"
                                   "  srun -N 1 -n 1 -w $node torchrun --nproc_per_node=8 "
                                   "--node_rank=$RANK t.py &\n  RANK=$((RANK+1))\ndone\nwait\n"));
  EXPECT_NE(body_of(t).find("  if [ \"$NODE_RANK\" = \"$RANK\" ]; then torchrun"),
            std::string::npos)
      << body_of(t);
  EXPECT_TRUE(has_code(t, Code::per_node_loop));
  EXPECT_FALSE(has_code(t, Code::steps_side_by_side));
  EXPECT_FALSE(has_code(t, Code::srun_options_dropped));  // -w $node is the guard now
  const Translation relative =
      run(script(k2x8,
                 "for ((i=0; i<2; i++)); do\n  srun -N1 -n1 -r ${i} bash -c "
                 "\"torchrun --nproc_per_node=8 --node_rank ${i} t.py\" > log.$i &\ndone\n"));
  EXPECT_NE(body_of(relative).find("if [ \"$NODE_RANK\" = \"${i}\" ]; then\n"), std::string::npos)
      << body_of(relative);
  // Outside a loop, or with Slurm's own rank, the step stays on node 0.
  const Translation once =
      run(script(k2x8, "RANK=1\nsrun -N1 -n1 torchrun --node_rank=$RANK t.py\n"));
  EXPECT_NE(body_of(once).find("if [ \"$NODE_RANK\" = 0 ]"), std::string::npos) << body_of(once);
  EXPECT_FALSE(has_code(once, Code::per_node_loop));
}

// Ray's Slurm template: the head on node 0, worker i on element i of the node list.
TEST(LaunchCommand, AStepOnAnElementOfTheNodeListRunsOnThatNode) {
  const Translation t =
      run(script(k2x8,
                 "nodes=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\")\n"
                 "nodes_array=($nodes)\nhead_node=${nodes_array[0]}\n"
                 "srun --nodes=1 --ntasks=1 -w \"$head_node\" ray start --head --block &\n"
                 "for ((i = 1; i <= 1; i++)); do\n"
                 "  node_i=${nodes_array[$i]}\n"
                 "  srun --nodes=1 --ntasks=1 -w \"$node_i\" ray start --address x:6379 --block &\n"
                 "done\n"
                 "srun -N1 -n1 -w ${nodes_array[1]} python probe.py\n"
                 "python -u tune.py\n"));
  const std::string body = body_of(t);
  EXPECT_NE(body.find("if [ \"$NODE_RANK\" = 0 ]; then ray start --head --block; fi &"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("  if [ \"$NODE_RANK\" = \"$i\" ]; then ray start --address"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("if [ \"$NODE_RANK\" = 1 ]; then python probe.py; fi"), std::string::npos)
      << body;
  EXPECT_TRUE(has_code(t, Code::per_node_loop));
  EXPECT_FALSE(has_code(t, Code::srun_options_dropped))
      << message_of(t, Code::srun_options_dropped);
  // A -w the translation cannot place runs on node 0, and the report says -w is gone.
  const Translation unknown = run(script(k2x8, "srun -N1 -n1 -w \"$SOME_HOST\" python probe.py\n"));
  EXPECT_NE(body_of(unknown).find("if [ \"$NODE_RANK\" = 0 ]; then python probe.py"),
            std::string::npos);
  EXPECT_NE(message_of(unknown, Code::srun_options_dropped).find("-w \"$SOME_HOST\""),
            std::string::npos)
      << message_of(unknown, Code::srun_options_dropped);
}

// habitat-lab's DD-PPO scripts ask one task for its host and keep the last
// line (`srun --ntasks=1 hostname 2>&1 | tail -n1`); others pick an address
// out of `hostname -I`. Slurm placed that task on node 0; with srun gone,
// every AI Runtime node would name itself, and each would wait for a
// rendezvous at its own address.
TEST(LaunchCommand, OneTasksHostnameThroughAFilterIsNodeZero) {
  const Translation t = run(script(
      "#SBATCH --nodes=4 --ntasks-per-node=8 --gpus-per-task=1\n",
      "MAIN_ADDR=$(srun --ntasks=1 hostname 2>&1 | tail -n1)\nexport MAIN_ADDR\n"
      "nodes_array=($(scontrol show hostnames \"$SLURM_JOB_NODELIST\"))\n"
      "master_ip=$(srun -n 1 -N 1 --gpus=1 -w ${nodes_array[0]} /bin/hostname -I | cut -d \" \" "
      "-f 2)\n"
      "srun python -u -m habitat_baselines.run --exp-config ddppo.yaml --addr $master_ip\n"));
  const std::string body = body_of(t);
  EXPECT_NE(body.find("MAIN_ADDR=$MASTER_ADDR\nexport MAIN_ADDR\n"), std::string::npos) << body;
  EXPECT_NE(body.find("master_ip=$MASTER_ADDR\n"), std::string::npos) << body;
  EXPECT_EQ(body.find("hostname -I"), std::string::npos) << body;
  // Every task's line, or a count of them, is not node 0's name.
  for (const char* all : {"HOSTS=$(srun hostname | sort -u | tr '\\n' ' ')\n",
                          "N=$(srun --ntasks=1 hostname | wc -l)\n"}) {
    const Translation other = run(script(k2x8, std::string(all) + "srun python t.py\n"));
    EXPECT_EQ(body_of(other).find("=$MASTER_ADDR"), std::string::npos) << body_of(other);
  }
}

// pritamqu's OOD-VSSL and MedSAM launchers: `MASTER=`/bin/hostname -s`` in
// the batch shell, which ran on node 0, then `--dist-url tcp://${MASTER}:...`.
// On AI Runtime every node runs that line and would name itself.
TEST(LaunchCommand, TheBatchShellsHostNameUnderAMasterNameIsNodeZero) {
  const Translation t = run(script(
      k2x8Tasks,
      "MASTER=`/bin/hostname -s`\nMPORT=23456\necho \"Master: $MASTER\"\n"
      "export MAIN_HOST=\"$(hostname)\"\nLOG=log_$(hostname).txt\n"
      "srun python main_dino.py --dist-url tcp://${MASTER}:${MPORT} --world-size 2 > $LOG\n"));
  const std::string body = body_of(t);
  EXPECT_NE(body.find("MASTER=$MASTER_ADDR\n"), std::string::npos) << body;
  EXPECT_NE(body.find("export MAIN_HOST=\"$MASTER_ADDR\"\n"), std::string::npos) << body;
  EXPECT_NE(body.find("LOG=log_$(hostname).txt\n"), std::string::npos) << body;  // its own name
  EXPECT_NE(
      message_of(t, Code::launch_value_replaced)
          .find("`$(/bin/hostname -s)` ran in the batch shell, on node 0, so MASTER held node "
                "0's name"),
      std::string::npos)
      << message_of(t, Code::launch_value_replaced);
  // Each task's own host inside a step stays its own.
  const Translation step =
      run(script(k2x8, "srun bash -c 'MASTER=$(hostname); python t.py --host $MASTER'\n"));
  EXPECT_NE(body_of(step).find("MASTER=$(hostname)"), std::string::npos) << body_of(step);
}

TEST(LaunchDiagnostics, ValuesDrawnAtRandomForEveryNodeAreReportedWhereAStepReadsThem) {
  const std::string body =
      "export SEED=${_seed_override:-$RANDOM}\n"
      "redis_password=$(uuidgen)\n"
      "TAG=$(head -c 6 /dev/urandom | base64)\n"
      "port=$(shuf -i 15000-16000 -n 1)\n"
      "STAMP=$(date +%Y%m%d)\n"
      "echo \"seed $SEED\"\n"
      "srun torchrun --nnodes=2 --nproc_per_node=8 --master_port $port train.py --seed $SEED "
      "--pw \"$redis_password\" --tag=$TAG --run run_$STAMP --x $RANDOM --y $SEED\n";
  const Translation t = run(script(k2x8, body));
  std::vector<std::string> reported;
  for (const Diagnostic& d : testing::diagnostics_with(t, Code::value_drawn_per_node)) {
    reported.emplace_back(t.file->slice(d.span));
  }
  // Once per name; the port is replaced by $MASTER_PORT; a date is not drawn at random.
  EXPECT_EQ(reported, (std::vector<std::string>{"$SEED", "$redis_password", "$TAG", "$RANDOM"}));
  // One node: nothing to disagree with.
  const Translation one = run(script("#SBATCH -N1 --gpus-per-node=h100:8\n", body));
  EXPECT_FALSE(has_code(one, Code::value_drawn_per_node));
}

// The batch shell fills `$SLURM_JOB_ID` and `$ID` into the script; the
// script's torchrun replaces its rendezvous id. Only what is left is reported,
// at the column the batch script writes it.
TEST(LaunchDiagnostics, ExpansionsFilledIntoADoubleQuotedScriptAreReadAfterItsMapping) {
  const Translation t =
      run(script(k2x8,
                 "ID=$RANDOM\n"
                 "srun bash -c \"torchrun --nnodes=2 --nproc_per_node=8 --rdzv_id=$SLURM_JOB_ID "
                 "--rdzv_backend=c10d --rdzv_endpoint=$(hostname):29500 t.py --seed $ID "
                 "--tag $SLURM_JOB_ID\"\n"));
  EXPECT_NE(body_of(t).find("--rdzv_id=\"$MLFLOW_RUN_ID\""), std::string::npos) << body_of(t);
  const auto unmapped = testing::diagnostics_with(t, Code::slurm_variable_unmapped);
  ASSERT_EQ(unmapped.size(), 1U);
  EXPECT_EQ(unmapped[0].span.begin, t.file->text().rfind("$SLURM_JOB_ID"));
  const auto drawn = testing::diagnostics_with(t, Code::value_drawn_per_node);
  ASSERT_EQ(drawn.size(), 1U);
  EXPECT_EQ(drawn[0].span.begin, t.file->text().find("$ID --tag"));
  // What the script's own mapping reports points into the quoted word too.
  const auto replaced = testing::diagnostics_with(t, Code::launch_value_replaced);
  ASSERT_EQ(replaced.size(), 1U);
  EXPECT_EQ(t.file->slice(replaced[0].span), "$SLURM_JOB_ID");
  EXPECT_EQ(replaced[0].span.begin, t.file->text().find("$SLURM_JOB_ID"));
}

TEST(LaunchCommand, NamesInADoubleQuotedStepScriptAreReportedOnceWhereTheScriptIsRewritten) {
  const Translation t = run(script(
      k2x8, "srun bash -c \"cd \\$SLURM_TMPDIR && python t.py --host \\$SLURMD_NODENAME\"\n"));
  EXPECT_NE(body_of(t).find("cd ${TMPDIR:-/tmp} && python t.py --host $(hostname -s)\n"),
            std::string::npos)
      << body_of(t);
  EXPECT_EQ(testing::diagnostics_with(t, Code::slurm_variable_approximated).size(), 2U);
  EXPECT_FALSE(has_code(t, Code::slurm_variable_unmapped))
      << message_of(t, Code::slurm_variable_unmapped);
}

TEST(LaunchDiagnostics, SiteMpiLaunchersAreReportedOnOneNodeToo) {
  for (const char* line : {"ibrun python train.py\n", "aprun -n 8 ./sim\n", "jsrun -n 8 ./sim\n"}) {
    const Translation t =
        run(script("#SBATCH -N1 --ntasks-per-node=8 --gpus-per-node=h100:8\n", line));
    EXPECT_TRUE(has_code(t, Code::site_mpi_launcher)) << line;
    EXPECT_NE(body_of(t).find(line), std::string::npos) << body_of(t);  // kept, and said
  }
  const Translation mpirun = run(
      script("#SBATCH -N1 --ntasks-per-node=8 --gpus-per-node=h100:8\n", "mpirun -np 8 ./sim\n"));
  EXPECT_FALSE(has_code(mpirun, Code::site_mpi_launcher));
}

TEST(LaunchCommand, TaskRanksOfOneTaskPerNodeAreTheNodeRank) {
  // bigscience's `srun bash -c "$LAUNCHER --node_rank \$SLURM_PROCID $CMD"`.
  const Translation t = run(script(
      k2x8, "srun bash -c 'torchrun --node_rank $SLURM_PROCID --local $SLURM_LOCALID t.py'\n"));
  EXPECT_NE(body_of(t).find("--node_rank \"$NODE_RANK\""), std::string::npos) << body_of(t);
  EXPECT_NE(body_of(t).find("--local 0 t.py"), std::string::npos) << body_of(t);
  EXPECT_FALSE(has_code(t, Code::slurm_variable_unmapped));
  // Expanded by the batch shell it was 0 on every node: said, as for SLURM_NODEID.
  const Translation batch = run(script(k2x8, "srun python t.py --rank $SLURM_PROCID\n"));
  EXPECT_NE(body_of(batch).find("--rank $NODE_RANK"), std::string::npos) << body_of(batch);
  EXPECT_TRUE(has_code(batch, Code::batch_rank_fixed));
  // Several tasks per node: a task's rank is not the node's.
  const Translation tasks = run(script(k2x8Tasks, "python t.py --rank $SLURM_PROCID\n"));
  EXPECT_TRUE(has_code(tasks, Code::slurm_variable_unmapped));
}

// SLURM_JOB_NAME is Slurm's name, not the experiment name made from it: a
// config looked up by it must stay the same file.
TEST(LaunchDiagnostics, SlurmJobNameIsTheJobsOwnName) {
  const Translation named = run(script("#SBATCH -J bert.base_v1.2 --gpus-per-node=h100:8\n",
                                       "python t.py --config \"cfg/${SLURM_JOB_NAME}.yaml\"\n"));
  ASSERT_TRUE(named.workload);
  EXPECT_EQ(named.workload->experiment_name, "bert-base_v1-2");
  EXPECT_NE(named.workload->command.find("cfg/bert.base_v1.2.yaml"), std::string::npos)
      << named.workload->command;
  const Translation unnamed =
      translate("train.sbatch",
                script("#SBATCH --gpus-per-node=h100:8\n", "python t.py --name $SLURM_JOB_NAME\n"));
  ASSERT_TRUE(unnamed.workload);
  EXPECT_NE(unnamed.workload->command.find("--name train.sbatch\n"), std::string::npos)
      << unnamed.workload->command;
  // A name the shell would read is not written in; it is reported.
  const Translation spaced = run(script("#SBATCH -J \"my run\" --gpus-per-node=h100:8\n",
                                        "python t.py --name $SLURM_JOB_NAME\n"));
  ASSERT_TRUE(spaced.workload);
  EXPECT_NE(spaced.workload->command.find("--name $SLURM_JOB_NAME"), std::string::npos);
  EXPECT_NE(message_of(spaced, Code::slurm_variable_unmapped).find("`my run`"), std::string::npos);
}

TEST(LaunchDiagnostics, AValueTheTranslationCannotWriteIsGivenInTheReport) {
  // An escaped name in a script the job writes: it expands where that script runs.
  const Translation t = run(
      script("#SBATCH -J exp1 --gpus-per-node=h100:8\n",
             "cat > run.sh <<EOF\necho \\$SLURM_JOB_NAME \\$SLURM_LOCALID\nEOF\nbash run.sh\n"));
  std::vector<std::string> messages;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::slurm_variable_unmapped) messages.push_back(d.message + " / " + d.hint);
  }
  EXPECT_EQ(messages, (std::vector<std::string>{
                          "$SLURM_JOB_NAME is not set on AI Runtime; for this job it is exp1 (the "
                          "job's name (--job-name, else the script's file name)) / write exp1 in "
                          "its place",
                          "$SLURM_LOCALID is not set on AI Runtime; for this job it is 0 (one task "
                          "per node: each node's only task) / write 0 in its place"}));
}

// A here-document with #SBATCH lines writes another job's script: its
// escaped names are that job's, expanded when sbatch runs it.
TEST(LaunchDiagnostics, AJobScriptTheJobWritesKeepsItsSlurmNames) {
  const std::string heredoc =
      "cat > run_model.sh <<EOF0\n#!/bin/bash\n#SBATCH --ntasks=256\n"
      "mpirun -np \\$SLURM_NTASKS ./model > log_$SLURM_JOB_NUM_NODES\nEOF0\n";
  const Translation t = run(script(k2x8, heredoc + "srun python t.py\n"));
  ASSERT_TRUE(t.workload);
  EXPECT_NE(t.workload->command.find("mpirun -np \\$SLURM_NTASKS ./model > log_$NUM_NODES\n"),
            std::string::npos)
      << t.workload->command;
  // Without #SBATCH lines the script runs in this job, on each node.
  const Translation here = run(script(k2x8, "cat > r.sh <<EOF\necho \\$SLURM_NNODES\nEOF\n"));
  ASSERT_TRUE(here.workload);
  EXPECT_NE(here.workload->command.find("echo \\$NUM_NODES\n"), std::string::npos)
      << here.workload->command;
}

// Output read back from a step that ran a task per line: counts and host
// lists change; a program's own output sent to a log does not.
TEST(LaunchDiagnostics, ReadingAStepsOutputIsReported) {
  const Translation t = run(script(
      k2x8,
      "srun -l bash -c 'hostname' | sort -k 2 -u > nodes.txt\nNPROCS=$(srun hostname | wc -l)\n"
      "srun hostname > hosts\nsrun python t.py > train.log\nsrun python t.py | tee t.log\n"));
  std::vector<uint32_t> lines;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::step_output_per_node) lines.push_back(t.file->line_col(d.span.begin).line);
  }
  EXPECT_EQ(lines, (std::vector<uint32_t>{3, 4, 5}));
  EXPECT_NE(message_of(t, Code::step_output_per_node).find("labelled"), std::string::npos);
}

// `| tee [-a] FILE` at the end of the pipeline keeps the step's lines in a
// log, whatever the step runs (a launcher in a variable here); a tee whose
// copy another program or a substitution reads is still reported.
TEST(LaunchDiagnostics, AStepsOutputCopiedToALogByTeeIsNotRead) {
  const Translation t = run(script(
      k2x8,
      "srun --jobid $SLURM_JOBID bash -c '$LAUNCHER --node_rank $SLURM_PROCID $CMD' 2>&1 | tee "
      "-a main_log.txt\n"
      "srun -l hostname |& tee -ai a.log b.log\n"
      "srun hostname | tee hosts.txt | wc -l\n"
      "srun hostname | sort | tee hosts.txt\n"
      "N=$(srun hostname | tee hosts.txt)\n"
      "srun hostname | tee > hosts.txt\n"));
  std::vector<uint32_t> lines;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::step_output_per_node) lines.push_back(t.file->line_col(d.span.begin).line);
  }
  EXPECT_EQ(lines, (std::vector<uint32_t>{5, 6, 7, 8}));
}

// `--ntasks=8` alone: Slurm placed the 8 tasks on the one node the
// workload has, so srun still starts 8 and $SLURM_NTASKS is still 8.
TEST(LaunchCommand, TasksWithoutANodeCountRunOnTheWorkloadsNodes) {
  const Translation t = run(script("#SBATCH --ntasks=8 --gres=gpu:8\n",
                                   "srun python train.py\nmpirun -np $SLURM_NTASKS ./a.out\n"));
  EXPECT_NE(body_of(t).find("--nproc_per_node=\"$LOCAL_WORLD_SIZE\""), std::string::npos)
      << body_of(t);
  EXPECT_NE(body_of(t).find("mpirun -np $WORLD_SIZE ./a.out"), std::string::npos) << body_of(t);
}

// `SRUN_ARGS="... --jobid $SLURM_JOB_ID"` read only as the options of an
// srun the translation takes off: the job id goes with srun, as it does
// when written on srun's line. A read that stays keeps the report.
TEST(LaunchDiagnostics, ASlurmVariableOnlyInSrunOptionsThatGoIsNotReported) {
  const std::string assign = "SRUN_ARGS=\"--wait=60 --kill-on-bad-exit=1 --jobid $SLURM_JOB_ID\"\n";
  const Translation gone =
      run(script(k2x8, assign + "srun $SRUN_ARGS bash -c \"python t.py\" 2>&1 | tee -a log\n"));
  EXPECT_FALSE(has_code(gone, Code::slurm_variable_unmapped))
      << message_of(gone, Code::slurm_variable_unmapped);
  const Translation exported = run(
      script(k2x8,
             "export SRUN_ALLOC_ARGS=\"--jobid=$SLURM_JOB_ID --nodes=2\"\nsrun ${SRUN_ALLOC_ARGS} "
             "--wait=0 torchrun --nproc_per_node 8 t.py\n"));
  EXPECT_FALSE(has_code(exported, Code::slurm_variable_unmapped))
      << message_of(exported, Code::slurm_variable_unmapped);
  // Read again: by echo, by an srun that stays (the variable holds the
  // program), in arithmetic without `$`.
  const Translation echoed =
      run(script(k2x8, assign + "echo $SRUN_ARGS\nsrun $SRUN_ARGS python t.py\n"));
  EXPECT_TRUE(has_code(echoed, Code::slurm_variable_unmapped));
  const Translation kept =
      run(script(k2x8, "SRUN_ARGS=\"--jobid $SLURM_JOB_ID python\"\nsrun $SRUN_ARGS t.py\n"));
  EXPECT_TRUE(has_code(kept, Code::slurm_variable_unmapped));
  const Translation arithmetic =
      run(script(k2x8, "N=${SLURM_CPUS_PER_TASK}\nN=$((N / 2))\nsrun -c $N python t.py\n"));
  EXPECT_TRUE(has_code(arithmetic, Code::slurm_variable_unmapped));
}

// torchtune's recipes/full_finetune_multinode.slurm: `tune run` takes
// torchrun's options before the recipe and hands them to torchrun.
TEST(LaunchCommand, TuneRunIsReadAsTorchrun) {
  const Translation t = run(script(
      k2x8,
      "head_node_ip=$(srun --nodes=1 --ntasks=1 -w \"$head_node\" hostname --ip-address)\n"
      "srun tune run --nnodes 2 --nproc_per_node 8 --rdzv_id 101 --rdzv_backend c10d "
      "--rdzv_endpoint \"$head_node_ip:29500\" full_finetune_distributed --config c.yaml\n"));
  EXPECT_NE(body_of(t).find("tune run --nnodes \"$NUM_NODES\" --nproc_per_node "
                            "\"${LOCAL_WORLD_SIZE:-8}\" --rdzv_id 101 --rdzv_backend c10d "
                            "--rdzv_endpoint \"$MASTER_ADDR:$MASTER_PORT\" "
                            "full_finetune_distributed --config c.yaml\n"),
            std::string::npos)
      << body_of(t);
  // Without torchrun options it runs the recipe in one process, as before.
  const Translation single =
      run(script("#SBATCH --gpus-per-node=h100:1\n", "tune run lora_single --config c.yaml\n"));
  EXPECT_EQ(body_of(single), "tune run lora_single --config c.yaml\n");
}

// axolotl's examples/slurm/axolotl.slurm: `--launcher torchrun --` hands the
// words after `--` to torchrun, which axolotl starts once per node.
TEST(LaunchCommand, AxolotlsTorchrunOptionsAreReadAsTorchrun) {
  const Translation t =
      run(script("#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gpus-per-task=h100:8\n",
                 "srun axolotl train train.yaml --launcher torchrun -- \\\n"
                 "    --nproc_per_node=8 --nnodes=2 \\\n"
                 "    --rdzv_id axolotl-cli --rdzv_backend c10d --rdzv_endpoint "
                 "\"${PRIMARY_ADDR}:${PRIMARY_PORT}\"\n"));
  EXPECT_EQ(body_of(t),
            "axolotl train train.yaml --launcher torchrun -- \\\n"
            "    --nproc_per_node=\"${LOCAL_WORLD_SIZE:-8}\" --nnodes=\"$NUM_NODES\" \\\n"
            "    --rdzv_id axolotl-cli --rdzv_backend c10d --rdzv_endpoint "
            "\"$MASTER_ADDR:$MASTER_PORT\"\n");
  EXPECT_FALSE(has_code(t, Code::inherited_variable));
  // Without `--` axolotl's launcher runs with its own defaults: nothing to read.
  const Translation plain = run(
      script("#SBATCH --gpus-per-node=h100:8\n", "axolotl train train.yaml --launcher torchrun\n"));
  EXPECT_EQ(body_of(plain), "axolotl train train.yaml --launcher torchrun\n");
}

TEST(LaunchCommand, SrunOptionsKeptInAVariableAreOptions) {
  // The operand is `python`, not `$SRUN_ARGS`: srun and its options go.
  const Translation t = run(script(k2x8,
                                   "SRUN_ARGS=\"--wait=60 --output=x.log\"\n"
                                   "srun $SRUN_ARGS --jobid $JOB python t.py\n"));
  EXPECT_EQ(body_of(t), "SRUN_ARGS=\"--wait=60 --output=x.log\"\npython t.py\n");
  EXPECT_EQ(message_of(t, Code::srun_options_dropped),
            "srun options with no AI Runtime equivalent are dropped: --output=x.log (from "
            "$SRUN_ARGS)");
  // Options and the program in one variable: srun stays, reported.
  const Translation mixed = run(script(k2x8, "ARGS=\"-l python\"\nsrun $ARGS t.py\n"));
  EXPECT_EQ(body_of(mixed), "ARGS=\"-l python\"\nsrun $ARGS t.py\n");
  EXPECT_EQ(message_of(mixed, Code::slurm_command_in_body),
            "`$ARGS` holds srun options and the program together, so srun cannot be taken off "
            "this line, and it does not exist on AI Runtime");
  // A variable holding a program stays the program.
  const Translation program = run(script(k2x8, "PY=python3\nsrun $PY t.py\n"));
  EXPECT_EQ(body_of(program), "PY=python3\n$PY t.py\n");
  // stas00's layout: the value opens with a line continuation.
  const Translation continued =
      run(script(k2x8,
                 "SRUN_ARGS=\" \\\n    --wait=60 \\\n    --kill-on-bad-exit=1 \\\n    \"\n"
                 "srun $SRUN_ARGS --jobid $SLURM_JOB_ID python t.py\n"));
  EXPECT_NE(body_of(continued).find("\"\npython t.py\n"), std::string::npos) << body_of(continued);
  // stas00's launchers and the alignment handbook: the value has expansions
  // (`--jobid $SLURM_JOB_ID`, `--nodelist=$NODELIST`); they are option
  // values, and srun still goes with its options.
  const Translation expanded =
      run(script(k2x8,
                 "SRUN_ARGS=\" \\\n    --wait=60 \\\n    --jobid $SLURM_JOB_ID \\\n"
                 "    --nodelist=$NODELIST\n    \"\n"
                 "srun $SRUN_ARGS bash -c \"python t.py\" 2>&1\n"));
  EXPECT_NE(body_of(expanded).find("\"\n{\npython t.py\n} 2>&1\n"), std::string::npos)
      << body_of(expanded);
  EXPECT_EQ(message_of(expanded, Code::srun_options_dropped),
            "srun options with no AI Runtime equivalent are dropped: --nodelist=... (from "
            "$SRUN_ARGS)");
  // An expansion standing alone may be the program: srun stays, reported.
  const Translation unknown = run(script(k2x8, "ARGS=\"--wait=60 $EXTRA\"\nsrun $ARGS t.py\n"));
  EXPECT_EQ(body_of(unknown), "ARGS=\"--wait=60 $EXTRA\"\nsrun $ARGS t.py\n");
  EXPECT_EQ(message_of(unknown, Code::slurm_command_in_body),
            "`$ARGS` holds srun options and an expansion the translation cannot read where the "
            "program could begin, so srun cannot be taken off this line, and it does not exist "
            "on AI Runtime");
}

// smollm3's and LongCamel's launchers: `srun $SRUN_ARGS -u bash -c ...` with
// SRUN_ARGS set nowhere in the script. Under Slurm it held the submitting
// shell's srun options, if any; left as the program it ran `-u` as the
// command. Before a shell, a launcher or a container it goes with srun.
TEST(LaunchCommand, AnOptionsVariableTheScriptNeverSetsGoesWithSrun) {
  const Translation t =
      run(script(k2x8,
                 "LAUNCHER=\"torchrun --nproc_per_node 8 --nnodes $SLURM_NNODES\"\n"
                 "srun $SRUN_ARGS -u bash -c \"$LAUNCHER t.py\"\n"));
  EXPECT_EQ(body_of(t).find("$SRUN_ARGS"), std::string::npos) << body_of(t);
  EXPECT_NE(body_of(t).find("\ntorchrun --node_rank=\"$NODE_RANK\" --master_addr="),
            std::string::npos)
      << body_of(t);
  EXPECT_EQ(message_of(t, Code::srun_options_dropped),
            "srun options with no AI Runtime equivalent are dropped: `$SRUN_ARGS` (set nowhere "
            "in the script: whatever srun options the submitting shell gave it)");
  EXPECT_FALSE(has_code(t, Code::inherited_variable));  // the use is gone with srun
  const Translation python = run(script(k2x8, "srun ${EXTRA} --wait=60 python t.py\n"));
  EXPECT_EQ(body_of(python), "python t.py\n");
  // Before a program it does not know, the expansion may be the program.
  const Translation program = run(script(k2x8, "srun $PYTHON -u t.py\n"));
  EXPECT_EQ(body_of(program), "$PYTHON -u t.py\n");
  // Set in the script (here a container call), it is what it holds.
  const Translation set =
      run(script(k2x8, "RUN=\"singularity exec img.sif\"\nsrun $RUN python t.py\n"));
  EXPECT_EQ(body_of(set), "RUN=\"\"\n$RUN python t.py\n");
  EXPECT_FALSE(has_code(set, Code::srun_options_dropped));
}

// Helmholtz-AI's layout: the options in a bash array, appended to.
TEST(LaunchCommand, SrunOptionsKeptInAnArrayAreOptions) {
  const Translation t = run(script(k2x8,
                                   "SRUN_PARAMS=(\n  --mpi=\"pmi2\"\n  --output=x.log\n)\n"
                                   "SRUN_PARAMS+=(--label)\n"
                                   "srun \"${SRUN_PARAMS[@]}\" python t.py\n"));
  EXPECT_NE(body_of(t).find(")\npython t.py\n"), std::string::npos) << body_of(t);
  EXPECT_EQ(message_of(t, Code::srun_options_dropped),
            "srun options with no AI Runtime equivalent are dropped: --output=x.log (from "
            "\"${SRUN_PARAMS[@]}\")");
  EXPECT_FALSE(message_of(t, Code::mpi_launch_unsupported).empty());  // --mpi=pmi2 is seen
  // An array of something else stays the program.
  const Translation program = run(script(k2x8, "PY=(python3 -u)\nsrun \"${PY[@]}\" t.py\n"));
  EXPECT_EQ(body_of(program), "PY=(python3 -u)\n\"${PY[@]}\" t.py\n");
}

// Variables in a double-quoted `bash -c` script are the batch shell's, read
// where the word is (the script's own offsets are not the file's).
TEST(LaunchCommand, VariablesInADoubleQuotedStepScriptAreTheBatchShells) {
  const Translation t =
      run(script(k2x8,
                 "NNODES=$SLURM_NNODES\nGPUS=8\n"
                 "srun bash -c \"torchrun --nnodes $NNODES --nproc_per_node $GPUS t.py\"\n"));
  EXPECT_NE(body_of(t).find("--nnodes \"$NUM_NODES\" --nproc_per_node"), std::string::npos)
      << body_of(t);
  EXPECT_FALSE(has_code(t, Code::launcher_count_mismatch));
}

TEST(LaunchCommand, SlurmNamesTheScriptSetsItselfKeepTheScriptsValue) {
  // SDSC's spack jobs: `declare -xr SLURM_JOB_SCRIPT=...`, then read it.
  const Translation t = run(script(k2x8,
                                   "declare -xr SLURM_JOB_SCRIPT=\"$(pwd)/job.sh\"\n"
                                   "SLURM_DIR=/tmp/run\n"
                                   "md5sum ${SLURM_JOB_SCRIPT} > $SLURM_DIR/sum\n"
                                   "export SLURM_NPROCS=16\n"
                                   "echo $SLURM_NPROCS $((SLURM_NPROCS * 2))\n"));
  EXPECT_NE(body_of(t).find("md5sum ${SLURM_JOB_SCRIPT} > $SLURM_DIR/sum\n"), std::string::npos)
      << body_of(t);
  EXPECT_NE(body_of(t).find("echo $SLURM_NPROCS $((SLURM_NPROCS * 2))"), std::string::npos)
      << body_of(t);
  EXPECT_FALSE(has_code(t, Code::slurm_variable_unmapped));
  // Before the assignment, and inside its own value, the name is still Slurm's.
  const Translation before = run(script(
      k2x8, "echo $SLURM_NPROCS\nSLURM_JOB_ID=${SLURM_JOB_ID:-local}\necho $SLURM_JOB_ID\n"));
  EXPECT_EQ(body_of(before),
            "echo $NUM_NODES\nSLURM_JOB_ID=${SLURM_JOB_ID:-local}\necho $SLURM_JOB_ID\n");
  EXPECT_EQ(message_of(before, Code::slurm_variable_unmapped),
            "$SLURM_JOB_ID has no AI Runtime equivalent: there is no job id on the nodes");
  // A name Slurm never sets is the script's wherever it is assigned.
  EXPECT_TRUE(air::is_set_by_slurm("SLURM_TMPDIR"));
  EXPECT_TRUE(air::is_set_by_slurm("SLURM_JOB_NODELIST_HET_GROUP_1"));
  EXPECT_FALSE(air::is_set_by_slurm("SLURM_DIR"));
  const Translation branch =
      run(script(k2x8, "case $1 in slurm) SLURM_DIR=\"$3/logs\";; esac\nmkdir -p $SLURM_DIR\n"));
  EXPECT_FALSE(has_code(branch, Code::slurm_variable_unmapped));
  // An assignment that may not run leaves Slurm's value where Slurm set one.
  const Translation fallback =
      run(script(k2x8, "[ -z \"$SLURM_NPROCS\" ] && SLURM_NPROCS=1\nmpirun -np $SLURM_NPROCS t\n"));
  EXPECT_NE(body_of(fallback).find("-np $NUM_NODES t"), std::string::npos) << body_of(fallback);
}

TEST(LaunchDiagnostics, VariablesInSrunsOwnOptionsGoWithThem) {
  // MLPerf's `srun --mpi="${SLURM_MPI_TYPE:-pmix}" --ntasks="${SLURM_JOB_NUM_NODES}" ...`.
  const std::string text = script(
      k2x8,
      "srun --mpi=\"${SLURM_MPI_TYPE:-pmix}\" --jobid $SLURM_JOB_ID python t.py $SLURM_JOB_ID\n");
  const Translation t = run(text);
  EXPECT_EQ(body_of(t), "python t.py $SLURM_JOB_ID\n");
  std::vector<uint32_t> reported;  // S2A4002 offsets: the program's argument only
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::slurm_variable_unmapped) reported.push_back(d.span.begin);
  }
  EXPECT_EQ(reported, std::vector<uint32_t>{static_cast<uint32_t>(text.rfind("$SLURM_JOB_ID"))});
}

TEST(LaunchDiagnostics, NamesSlurmDoesNotSetAreToldApart) {
  const Translation t = run(script(
      k2x8, "echo $SLURM_ARRAY_JOB_ID_$SLURM_ARRAY_TASK_ID $SLURM_NTASKS_PER_NOD $SLURM_QUEUE\n"));
  std::vector<std::string> reports;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::slurm_variable_unmapped) reports.push_back(d.message + " / " + d.hint);
  }
  const std::string elsewhere =
      "the site or the submitting shell set it, and neither exists on AI Runtime, where it is "
      "empty";
  EXPECT_EQ(reports, (std::vector<std::string>{
                         // bash reads `$SLURM_ARRAY_JOB_ID_` as one name
                         "$SLURM_ARRAY_JOB_ID_ is not a Slurm variable: bash reads the longest "
                         "name, so if `_` was meant as text after $SLURM_ARRAY_JOB_ID, the value "
                         "was empty under Slurm too; otherwise " +
                             elsewhere + " / write ${SLURM_ARRAY_JOB_ID}_ if that was meant",
                         "$SLURM_ARRAY_TASK_ID has no AI Runtime equivalent: a workload is not an "
                         "array / submit one run per index with --override parameters.index=N "
                         "and read $HYPERPARAMETERS_PATH, or use a bundle for_each_task",
                         "$SLURM_NTASKS_PER_NOD is not a Slurm variable: if it misspells "
                         "$SLURM_NTASKS_PER_NODE, the value was empty under Slurm too; otherwise " +
                             elsewhere + " / write $SLURM_NTASKS_PER_NODE if that was meant",
                         "$SLURM_QUEUE is not a Slurm variable: " + elsewhere +
                             " / set it in the script, or in env_variables",
                     }));
}

// The closest Slurm name within two edits, wherever in the name they are:
// two swapped letters are two edits; three or more edits name none.
TEST(LaunchDiagnostics, MisspelledSlurmNamesAreMatchedByEditDistance) {
  const Translation t = run(script(
      k2x8, "echo $SLURM_CPUS_PER_TAKS $SLURM_JOB_NODLIST $SLURMX_FOO $SLURM_JOB_NUM_NDOES_X\n"));
  std::vector<std::string> hints;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::slurm_variable_unmapped) hints.push_back(d.hint);
  }
  EXPECT_EQ(hints, (std::vector<std::string>{
                       "write $SLURM_CPUS_PER_TASK if that was meant",
                       "write $SLURM_JOB_NODELIST if that was meant",
                       "set it in the script, or in env_variables",
                       "set it in the script, or in env_variables",
                   }));
}

// MedVicuna's `wget .../medVicuna.json` before a 2-node torchrun that reads
// it: each node unpacks its own code and shares no disk, so each downloads
// its own copy. An upload to a bucket or a volume still runs once.
TEST(LaunchCommand, ADownloadToTheNodeRunsOnEveryNode) {
  const Translation t = run(script(k2x8,
                                   "wget https://example.com/medVicuna.json\ncp -r data ./work\n"
                                   "aws s3 cp model.pt s3://bucket/model.pt\n"
                                   "huggingface-cli download gpt2 --local-dir /Volumes/c/s/v/gpt2\n"
                                   "torchrun --nproc_per_node=8 train.py --data medVicuna.json\n"));
  const std::string body = body_of(t);
  EXPECT_NE(body.find("wget https://example.com/medVicuna.json\ncp -r data ./work\n"),
            std::string::npos)
      << body;
  EXPECT_NE(
      body.find("if [ \"$NODE_RANK\" = 0 ]; then aws s3 cp model.pt s3://bucket/model.pt; fi"),
      std::string::npos)
      << body;
  EXPECT_NE(body.find("if [ \"$NODE_RANK\" = 0 ]; then huggingface-cli download"),
            std::string::npos)
      << body;
  EXPECT_EQ(testing::diagnostics_with(t, Code::run_once_on_every_disk).size(), 2u);
}

TEST(LaunchCommand, NodeGuardsWrapTheWholeCommandAndStayValidShell) {
  // The guard takes the command's own assignments in, and leaves its `;` out.
  EXPECT_EQ(body_of(run(
                script(k2x8, "PYTHONPATH=x srun -N1 -n1 python a.py\nmv a /Volumes/c/s/v/b ;\n"))),
            "if [ \"$NODE_RANK\" = 0 ]; then PYTHONPATH=x python a.py; fi\n"
            "if [ \"$NODE_RANK\" = 0 ]; then mv a /Volumes/c/s/v/b; fi ;\n");
  // An unwrapped script ending in a comment: `}` and `fi` on lines of their own.
  EXPECT_EQ(body_of(run(script(k2x8, "srun -N1 -n1 -r 1 bash -c \"nvidia-smi # gpus\" > log &\n"))),
            "if [ \"$NODE_RANK\" = 1 ]; then\n{\nnvidia-smi # gpus\n}\nfi > log &\n");
}

TEST(LaunchCommand, OptionsKeptInAVariableAreReadAndChecked) {
  // Megatron-LM's launch: every option in $DISTRIBUTED_ARGS, a string or an array.
  const std::string assignments =
      "GPUS_PER_NODE=8\nNNODES=$SLURM_NNODES\n"
      "MASTER_ADDR=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -n 1)\n"
      "MASTER_PORT=6000\nNODE_RANK=$SLURM_NODEID\n";
  const Translation text = run(script(
      k2x8, assignments +
                "DISTRIBUTED_ARGS=\"\\\n  --nproc_per_node $GPUS_PER_NODE --nnodes $NNODES \\\n"
                "  --node_rank $NODE_RANK --master_addr $MASTER_ADDR --master_port $MASTER_PORT\"\n"
                "srun torchrun $DISTRIBUTED_ARGS pretrain_gpt.py\n"));
  EXPECT_NE(body_of(text).find("\ntorchrun $DISTRIBUTED_ARGS pretrain_gpt.py\n"), std::string::npos)
      << body_of(text);
  EXPECT_FALSE(has_code(text, Code::launch_flags_added));  // nothing given twice
  EXPECT_FALSE(has_code(text, Code::launcher_options_in_variable));
  const Translation array = run(
      script(k2x8, assignments +
                       "DISTRIBUTED_ARGS=(\n  --nproc_per_node $GPUS_PER_NODE\n  --nnodes $NNODES\n"
                       "  --node_rank $NODE_RANK\n  --master_addr $MASTER_ADDR\n"
                       "  --master_port $MASTER_PORT\n)\n"
                       "srun torchrun \"${DISTRIBUTED_ARGS[@]}\" pretrain_gpt.py\n"));
  EXPECT_FALSE(has_code(array, Code::launch_flags_added));
  EXPECT_FALSE(has_code(array, Code::launcher_options_in_variable));
  // Values that do not fit are reported where the variable is used; the
  // options it lacks are added on the line.
  const Translation wrong = run(script(
      k2x8, "ARGS=\"--nproc_per_node 4 --nnodes=1 --master_port 6000\"\ntorchrun $ARGS t.py\n"));
  EXPECT_EQ(message_of(wrong, Code::launcher_options_in_variable),
            "launcher options in $ARGS (line 3) are not rewritten, and do not fit AI Runtime: "
            "--nproc_per_node 4 should be \"$LOCAL_WORLD_SIZE\" (8 GPU(s) a node); --nnodes 1 "
            "should be \"$NUM_NODES\" (2 node(s)); --master_port 6000 should be "
            "\"$MASTER_PORT\"");
  EXPECT_EQ(body_of(wrong),
            "ARGS=\"--nproc_per_node 4 --nnodes=1 --master_port 6000\"\n"
            "torchrun --node_rank=\"$NODE_RANK\" --master_addr=\"$MASTER_ADDR\" $ARGS t.py\n");
}

TEST(LaunchCommand, AScriptBashCannotParseStaysQuoted) {
  // A Jinja template submitted as is: `{{ args|join(' ') }}` is no shell.
  const Translation t = run(script("#SBATCH --gpus-per-node=h100:8\n",
                                   "srun sh -c \"{{ cmd }} {{ args|join(' ') }}\" &\nwait\n"));
  EXPECT_EQ(body_of(t), "sh -c \"{{ cmd }} {{ args|join(' ') }}\" &\nwait\n");
}

TEST(LaunchCommand, SiteTemporaryDirectoryBecomesTheNodesOwn) {
  const Translation t =
      run(script("#SBATCH --gpus-per-node=h100:8\n",
                 "cp *.py $SLURM_TMPDIR\ntar xf in.tar -C \"${SLURM_TMPDIR}/in\"\n"
                 "python $SLURM_TMPDIR/t.py\n"));
  EXPECT_EQ(body_of(t),
            "cp *.py ${TMPDIR:-/tmp}\ntar xf in.tar -C \"${TMPDIR:-/tmp}/in\"\n"
            "python ${TMPDIR:-/tmp}/t.py\n");
  EXPECT_FALSE(has_code(t, Code::slurm_variable_unmapped));
  EXPECT_TRUE(has_code(t, Code::slurm_variable_approximated));
}

TEST(LaunchCommand, TheNodesCpusAreWhatTheJobAskedFor) {
  const std::string body = "export OMP_NUM_THREADS=$SLURM_CPUS_ON_NODE\npython t.py\n";
  const Translation asked =
      run(script("#SBATCH --gpus-per-node=h100:8 --ntasks-per-node=2 --cpus-per-task=12\n", body));
  EXPECT_EQ(body_of(asked), "export OMP_NUM_THREADS=24\npython t.py\n");
  EXPECT_TRUE(has_code(asked, Code::slurm_variable_approximated));
  // A whole node under Slurm is a whole node on AI Runtime.
  const Translation whole = run(script("#SBATCH --gpus-per-node=h100:8 --exclusive\n", body));
  EXPECT_EQ(body_of(whole), "export OMP_NUM_THREADS=$(nproc)\npython t.py\n");
  const Translation unknown = run(script("#SBATCH --gpus-per-node=h100:8\n", body));
  EXPECT_EQ(body_of(unknown), body);
  EXPECT_TRUE(has_code(unknown, Code::slurm_variable_unmapped));
}

// `srun $LAUNCHER train.py`: the launcher is in the variable, not on the line.
TEST(LaunchDiagnostics, ALauncherKeptInAVariableHasItsOptionsChecked) {
  const Translation t = run(script(
      k2x8,
      "LAUNCHER=\"torchrun --nnodes 2 --nproc_per_node 8 --rdzv_endpoint localhost:29500\"\n"
      "srun $LAUNCHER train.py\n"
      "export L2=\"python -u -m torch.distributed.run --nproc_per_node 8\"\n"
      "srun $L2 --nnodes=2 train.py\n"
      "export L3=\"python -m torch.distributed.launch --nnodes $SLURM_NNODES --nproc_per_node 8 "
      "--master_addr $MASTER_ADDR --master_port $MASTER_PORT\"\n"
      "srun bash -c '$L3 --node_rank $SLURM_PROCID train.py'\n"));
  std::vector<std::string> messages;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::launcher_options_in_variable) messages.push_back(d.message);
  }
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0],
            "launcher options in $LAUNCHER (line 3) are not rewritten, and do not fit AI Runtime: "
            "--rdzv_endpoint localhost:29500 should be \"$MASTER_ADDR:$MASTER_PORT\"");
  EXPECT_EQ(messages[1],
            "launcher options in $L2 (line 5) are not rewritten, and do not fit AI Runtime: "
            "--node_rank is missing: it should be \"$NODE_RANK\"; --master_addr is missing: it "
            "should be \"$MASTER_ADDR\"; --master_port is missing: it should be \"$MASTER_PORT\"");
}

TEST(LaunchDiagnostics, DroppedSrunOptionsAreQuotedAsWritten) {
  const Translation t =
      run(script(k2x8, "srun --output=${OUT}/%j.out -e \"$OUT/err\" --label python t.py\n"));
  EXPECT_EQ(message_of(t, Code::srun_options_dropped),
            "srun options with no AI Runtime equivalent are dropped: --output=${OUT}/%j.out, -e "
            "\"$OUT/err\"");
  const Translation mpi = run(script(k2x8, "srun --mpi=\"$MPI\" python t.py\n"));
  EXPECT_EQ(message_of(mpi, Code::mpi_launch_unsupported),
            "srun --mpi=\"$MPI\" wires the tasks up as MPI ranks; AI Runtime has no MPI launcher "
            "across nodes");
}

TEST(LaunchDiagnostics, OneNodeStepsSideBySideInTheBackgroundAreReportedOnce) {
  const Translation t = run(script(k2x8,
                                   "srun -n1 python a.py &\n"
                                   "srun -n 1 --exclusive python b.py &\n"
                                   "srun -w \"$(hostname)\" -n1 python c.py &\n"
                                   "wait\n"));
  EXPECT_EQ(std::count_if(t.diagnostics.begin(), t.diagnostics.end(),
                          [](const Diagnostic& d) { return d.code == Code::steps_side_by_side; }),
            1);
  EXPECT_EQ(message_of(t, Code::steps_side_by_side),
            "2 one-node srun steps started in the background (lines 3, 4) ran side by side, each "
            "where Slurm found free resources; here all of them run on node 0 and share its GPUs");
  EXPECT_NE(body_of(t).find("if [ \"$NODE_RANK\" = 0 ]; then python b.py; fi &"), std::string::npos)
      << body_of(t);
  const Translation loop =
      run(script(k2x8, "for s in 1 2; do srun -N1 -n1 python a.py --seed $s & done\nwait\n"));
  EXPECT_NE(message_of(loop, Code::steps_side_by_side).find("in a loop"), std::string::npos);
  // One background step, or steps one after another, share nothing.
  EXPECT_FALSE(has_code(run(script(k2x8, "srun -n1 python a.py &\nsrun -n1 python b.py\n")),
                        Code::steps_side_by_side));
  EXPECT_FALSE(has_code(run(script(k2x8, "srun -n1 python a.py\nsrun -n1 python b.py\n")),
                        Code::steps_side_by_side));
}

TEST(LaunchDiagnostics, StepOnASubsetOfTheNodesGpusIsReported) {
  const Translation t = run(script(k2x8, "srun -N1 -n1 --gres=gpu:2 python eval.py\n"));
  EXPECT_EQ(message_of(t, Code::srun_options_dropped),
            "srun --gres=gpu:2: the step saw 2 of the node's GPUs; the command now sees all 8");
  // The whole node, or a job that itself asked for fewer GPUs (S2A3004's),
  // or one task per GPU (torchrun gives each its GPU): nothing to add.
  EXPECT_FALSE(has_code(run(script(k2x8, "srun --gpus-per-node=8 python t.py\n")),
                        Code::srun_options_dropped));
  EXPECT_FALSE(
      has_code(run(script("#SBATCH --nodes=2 --gres=gpu:2\n", "srun --gres=gpu:2 python t.py\n")),
               Code::srun_options_dropped));
  EXPECT_FALSE(has_code(run(script(k2x8Tasks, "srun --gpus-per-node=8 python t.py\n")),
                        Code::srun_options_dropped));
}

TEST(LaunchCommand, CallOfAScriptFunctionIsNotReportedButItsCommandsAre) {
  const Translation t =
      run(script(k2x8, "prep() {\n  python prep.py\n  srun python t.py\n}\nprep\n"));
  std::vector<uint32_t> lines;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::runs_on_every_node) lines.push_back(d.span.begin);
  }
  ASSERT_EQ(lines.size(), 1u);  // `python prep.py` inside the function, not the call `prep`
  const std::string text = script(k2x8, "prep() {\n  python prep.py\n");
  EXPECT_EQ(lines[0], text.find("python prep.py"));
}

TEST(LaunchCommand, ShellStateAndReadOnlyCommandsRunOnEveryNodeSilently) {
  // A directory stack or a cleared terminal is each node's own business.
  const Translation t = run(script(
      k2x8, "pushd src\nclear\nps aux | grep python\npopd\nsrun torchrun --nnodes=2 t.py\n"));
  EXPECT_FALSE(has_code(t, Code::runs_on_every_node));
  EXPECT_FALSE(has_code(t, Code::run_once_guarded));
}

TEST(LaunchDiagnostics, SlurmCommandsStoredInVariablesAreReportedWhereAssigned) {
  const std::string body =
      "export SRUN=\"srun --mpi=pmi2\"\n"
      "cmd='srun -l python t.py'\n"
      "args=(srun -n 2 hostname)\n"
      "local_cmd=\"python t.py\"\n"
      "$cmd\n";
  const Translation t = run(script(k2x8, body));
  std::vector<std::string> written;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::slurm_command_in_body) {
      written.emplace_back(t.file->slice(d.span));
    }
  }
  EXPECT_EQ(written,
            (std::vector<std::string>{"\"srun --mpi=pmi2\"", "'srun -l python t.py'", "srun"}));
  EXPECT_EQ(message_of(t, Code::slurm_command_in_body),
            "`SRUN` holds a command that starts with `srun`, a Slurm command that does not "
            "exist on AI Runtime: it fails where $SRUN runs");
}

TEST(LaunchDiagnostics, SlurmCommandsThatOnlyReportOnTheJobAreRemoved) {
  // Left in, `seff` as the last line would fail the run with exit status 127.
  const Translation t = run(script(k2x8,
                                   "srun torchrun --nnodes=2 t.py\n"
                                   "sacct -j $SLURM_JOB_ID --format=JobID,Elapsed | tee stats.txt\n"
                                   "STATE=$(squeue -j $SLURM_JOB_ID -h -o %T)\n"
                                   "scontrol show job $SLURM_JOB_ID\n"
                                   "scontrol requeue $SLURM_JOB_ID\n"
                                   "seff $SLURM_JOB_ID\n"));
  const std::string body = body_of(t);
  EXPECT_NE(body.find(": '[slurm2air] sacct -j $SLURM_JOB_ID --format=JobID,Elapsed' | tee"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("# [slurm2air] scontrol show job $SLURM_JOB_ID\n"), std::string::npos);
  EXPECT_NE(body.find("# [slurm2air] seff $SLURM_JOB_ID\n"), std::string::npos);
  // Output the script reads, and commands that act, stay (and are reported).
  EXPECT_NE(body.find("STATE=$(squeue -j"), std::string::npos);
  EXPECT_NE(body.find("\nscontrol requeue $SLURM_JOB_ID\n"), std::string::npos);
  EXPECT_EQ(testing::diagnostics_with(t, Code::slurm_command_in_body).size(), 5U);
}

// The report says the job continues by retries; train.yaml must ask for them
// (the CLI sends retry_on_timeout with any max_retries > 0).
TEST(LaunchDiagnostics, AJobThatContinuesItselfIsRetriedInTheWorkloadToo) {
  for (const char* continuation :
       {"sbatch job.sbatch\n",
        "requeue() { scontrol requeue $SLURM_JOB_ID; }\ntrap requeue USR1\n"}) {
    const Translation t =
        run(script(k2x8, std::string("#SBATCH --no-requeue\n") + continuation + "python t.py\n"));
    ASSERT_TRUE(t.workload) << continuation;
    EXPECT_EQ(t.workload->max_retries, 3U) << continuation;
    EXPECT_NE(t.yaml.find("max_retries: 3"), std::string::npos) << t.yaml;
  }
}

// An srun step of MPI ranks: torchrun's workers would each be a one-rank MPI
// job, so on one node mpirun starts them.
TEST(LaunchCommand, MpiRanksOfAOneNodeStepAreStartedByMpirun) {
  const std::string one_node = "#SBATCH --nodes=1 --ntasks-per-node=8 --gpus-per-node=h100:8\n";
  const Translation t = run(script(one_node,
                                   "module load openmpi/4.1.6 cuda/12.1\n"
                                   "srun --mpi=pmix ./solver input.dat\n"
                                   "srun ./lmp -in in.lj\n"
                                   "srun --mpi=pmix python train.py\n"));
  const std::string body = body_of(t);
  EXPECT_NE(body.find("\nmpirun -np 8 ./solver input.dat\nmpirun -np 8 ./lmp -in in.lj\n"),
            std::string::npos)
      << body;
  // Python programs (NeMo, Lightning) read SLURM_*: the per-task start stays.
  EXPECT_NE(body.find("--no_python bash -c"), std::string::npos) << body;
  const auto notes = testing::diagnostics_with(t, Code::mpi_step_to_mpirun);
  ASSERT_EQ(notes.size(), 2U);
  EXPECT_EQ(notes[0].message,
            "srun started these 8 tasks as MPI ranks (--mpi=pmix); `mpirun -np 8` starts them "
            "now: torchrun's workers would each run as a one-rank MPI job");
  EXPECT_NE(notes[1].message.find("(the script loads `openmpi/4.1.6`)"), std::string::npos);
  EXPECT_FALSE(has_code(t, Code::mpi_launch_unsupported));
}

TEST(LaunchCommand, MpiRanksAcrossNodesAreReported) {
  const Translation t = run(script(k2x8Tasks,
                                   "module load intel-mpi\n"
                                   "srun -N1 -n 8 ./prep\n"
                                   "srun ./solver\n"));
  const std::string body = body_of(t);
  EXPECT_NE(body.find("if [ \"$NODE_RANK\" = 0 ]; then mpirun -np 8 ./prep; fi"), std::string::npos)
      << body;
  EXPECT_EQ(message_of(t, Code::mpi_launch_unsupported),
            "srun wired these tasks up as MPI ranks (the script loads `intel-mpi`); AI Runtime "
            "has no MPI launcher across nodes, so each process it starts runs as a one-rank MPI "
            "job");
  // A script that loads no MPI library runs Python ranks with the shim.
  EXPECT_FALSE(has_code(run(script(k2x8Tasks, "srun ./solver\n")), Code::mpi_launch_unsupported));
  // A program named for MPI (MPI from a Cray default environment).
  const Translation named = run(script("#SBATCH --ntasks=64\n", "srun lmp_mpi -in in.lj\n"));
  EXPECT_NE(body_of(named).find("mpirun -np 64 lmp_mpi -in in.lj"), std::string::npos)
      << body_of(named);
  // Python ranks of mpi4py, and one rank per node, are MPI's too.
  const Translation mpi4py =
      run(script(k2x8, "module load openmpi\npip install mpi4py\nsrun python federated.py\n"));
  EXPECT_NE(message_of(mpi4py, Code::mpi_launch_unsupported).find("(the script uses mpi4py)"),
            std::string::npos);
  const Translation one_node = run(script("#SBATCH --ntasks=4 --gres=gpu:h100:8\n",
                                          "pip install mpi4py\nsrun python hello_mpi4py.py\n"));
  EXPECT_NE(body_of(one_node).find("mpirun -np 4 python hello_mpi4py.py"), std::string::npos)
      << body_of(one_node);
  // A Python file named for MPI imports mpi4py itself.
  const Translation named_py = run(
      script("#SBATCH --ntasks=16\n", "srun -n 16 python -u ../scripts/imglss-mpi-select.py\n"));
  EXPECT_NE(body_of(named_py).find("mpirun -np 16 python -u ../scripts/imglss-mpi-select.py"),
            std::string::npos)
      << body_of(named_py);
  EXPECT_NE(message_of(named_py, Code::mpi_step_to_mpirun)
                .find("(`imglss-mpi-select.py` is written for MPI)"),
            std::string::npos);
  EXPECT_FALSE(has_code(run(script("#SBATCH --ntasks=16\n", "srun python -u train.py\n")),
                        Code::mpi_step_to_mpirun));
}

// Horovod takes its ranks from MPI or horovodrun, never from torchrun's
// RANK: on one node horovodrun starts them, across nodes it is reported.
TEST(LaunchCommand, HorovodRanksOfAOneNodeStepAreStartedByHorovodrun) {
  const std::string one_node = "#SBATCH --nodes=1 --ntasks-per-node=4 --gpus-per-node=h100:4\n";
  const Translation t = run(script(one_node,
                                   "module load tensorflow/1.13.1-hvd\n"
                                   "srun python run_pretraining.py --use_xla\n"));
  EXPECT_NE(
      body_of(t).find("\nhorovodrun -np 4 -H localhost:4 python run_pretraining.py --use_xla\n"),
      std::string::npos)
      << body_of(t);
  EXPECT_EQ(message_of(t, Code::horovod_step_to_horovodrun),
            "srun started these 4 tasks as Horovod's ranks (the script uses Horovod); "
            "`horovodrun -np 4 -H localhost:4` starts them now: hvd.init() does not read "
            "torchrun's RANK, so each worker would train alone");
  EXPECT_FALSE(has_code(t, Code::tasks_started_by_torchrun));
  // Named in any case, anywhere: an environment, a path, a flag.
  for (const char* body : {"conda activate Horovod\nsrun python mnist.py\n",
                           "srun python horovod/examples/tensorflow2_synthetic_benchmark.py\n",
                           "srun python train.py --horovod\n"}) {
    EXPECT_TRUE(has_code(run(script(one_node, body)), Code::horovod_step_to_horovodrun)) << body;
  }
  // A step on one node of two keeps to that node.
  const Translation guarded =
      run(script(k2x8Tasks, "srun -N1 -n 8 python train_hvd.py\nsrun python eval.py\n"));
  EXPECT_NE(body_of(guarded).find("if [ \"$NODE_RANK\" = 0 ]; then horovodrun -np 8 -H "
                                  "localhost:8 python train_hvd.py; fi"),
            std::string::npos)
      << body_of(guarded);
  // Without Horovod, or with Horovod in a comment only, the per-task start stays.
  for (const char* body :
       {"srun python train.py\n", "# or: srun python hvd.py\nsrun python mwms.py\n"}) {
    EXPECT_NE(body_of(run(script(one_node, body))).find("--no_python bash -c"), std::string::npos)
        << body;
  }
}

TEST(LaunchCommand, HorovodRanksAcrossNodesAreReported) {
  const Translation t = run(script(k2x8Tasks, "source activate horovod\nsrun python train.py\n"));
  const auto reports = testing::diagnostics_with(t, Code::mpi_launch_unsupported);
  ASSERT_EQ(reports.size(), 1U);
  EXPECT_NE(reports[0].message.find("(the script uses Horovod)"), std::string::npos);
  EXPECT_NE(reports[0].hint.find("horovodrun or mpirun over ssh"), std::string::npos);
  EXPECT_FALSE(has_code(t, Code::horovod_step_to_horovodrun));
}

// SwAV's rendezvous host: the first node's name cut out of the node list.
TEST(LaunchCommand, TheFirstNodesNameCutFromTheNodeListIsMasterAddr) {
  const Translation t = run(script(k2x8Tasks,
                                   "master_node=${SLURM_NODELIST:0:9}${SLURM_NODELIST:10:4}\n"
                                   "dist_url=\"tcp://\"\ndist_url+=$master_node\ndist_url+=:40000\n"
                                   "srun python main.py --dist_url $dist_url\n"));
  EXPECT_TRUE(body_of(t).starts_with("master_node=$MASTER_ADDR\n")) << body_of(t);
  EXPECT_EQ(message_of(t, Code::launch_value_replaced),
            "`${SLURM_NODELIST:0:9}${SLURM_NODELIST:10:4}` cuts the first node's name out of "
            "Slurm's node list, which AI Runtime does not set; it becomes $MASTER_ADDR, node 0's "
            "address");
  // Other names, other offsets, other words: the node list is reported as before.
  for (const char* body : {"prefix=${SLURM_NODELIST:0:9}\n", "head=${SLURM_NODELIST:3:4}\n",
                           "MASTER=${SLURM_NODELIST:0:9}-ib\n", "MASTER=${SLURM_NODELIST}\n"}) {
    const Translation other = run(script(k2x8Tasks, std::string(body) + "srun python t.py\n"));
    EXPECT_EQ(body_of(other).find("$MASTER_ADDR\n"), std::string::npos) << body;
    EXPECT_TRUE(has_code(other, Code::slurm_variable_unmapped)) << body;
  }
}

TEST(LaunchDiagnostics, NodesNothingStartsWorkOnAreReported) {
  const std::string four_nodes = "#SBATCH --nodes=4 --gpus-per-node=h100:8\n";
  const Translation t = run(script(four_nodes, "python run_all.py --gpus 32\n"));
  EXPECT_EQ(message_of(t, Code::nodes_without_work),
            "the job asks for 4 nodes, but nothing in the script starts work on any but the "
            "first (no srun step or distributed launcher): the other 3 GPU_8xH100 nodes sit "
            "idle, as the other Slurm nodes did, unless the program reaches them on its own");
  EXPECT_EQ(message_of(t, Code::run_once_guarded),
            "`python` ran once, on the first node, under Slurm; it now runs on node 0 only");
  for (const char* body :
       {"python prep.py\nsrun python train.py\n", "python prep.py\n./solver\n"}) {
    EXPECT_FALSE(has_code(run(script(four_nodes, body)), Code::nodes_without_work)) << body;
  }
}

// The other nodes wait for node 0 only in a rendezvous that comes after the
// guarded command: not behind `srun ray start`, nor after the launch.
TEST(LaunchDiagnostics, TheRendezvousWaitIsNamedOnlyWhereALaunchFollows) {
  const std::string waits = ", and the other nodes wait for node 0 in the launcher's rendezvous";
  const auto message = [&](const std::string& body) {
    const std::string text = message_of(run(script(k2x8Tasks, body)), Code::run_once_guarded);
    EXPECT_NE(text, "") << body;
    return text;
  };
  EXPECT_NE(message("python prep.py\nsrun python train.py\n").find(waits), std::string::npos);
  EXPECT_NE(message("python prep.py\ntorchrun --nproc_per_node=8 train.py\n").find(waits),
            std::string::npos);
  EXPECT_EQ(
      message("srun -n2 --ntasks-per-node=1 ray start --block &\npython driver.py\n").find(waits),
      std::string::npos);
  EXPECT_EQ(message("srun python train.py\npython report.py\n").find(waits), std::string::npos);
}

TEST(LaunchDiagnostics, SetupScriptsOfTheClustersSoftwareUnderOptAreReported) {
  const Translation t = run(script(k2x8,
                                   "source /opt/intel/oneapi/setvars.sh\n"
                                   ". /opt/conda/etc/profile.d/conda.sh\n"
                                   "source ./env.sh\n"
                                   "srun python t.py\n"));
  const auto reports = testing::diagnostics_with(t, Code::cluster_software_sourced);
  ASSERT_EQ(reports.size(), 1U);  // conda.sh is removed as setup (S2A4007)
  EXPECT_EQ(reports[0].message,
            "`source /opt/intel/oneapi/setvars.sh` sets up software the cluster installed under "
            "/opt; an AI Runtime node's /opt holds its image's own software, and sourcing a file "
            "it does not have fails (a `set -e` script ends there)");
}

TEST(LaunchDiagnostics, ATaskCountThatDoesNotDivideByTheNodesIsReported) {
  const Translation t = run(script(k2x8, "srun -n 3 python train.py\nsrun -n 16 python eval.py\n"));
  const auto reports = testing::diagnostics_with(t, Code::launcher_count_mismatch);
  ASSERT_FALSE(reports.empty());
  EXPECT_EQ(reports[0].message,
            "srun spread 3 tasks over 2 nodes, some with 1 and some with 2; torchrun starts 2 on "
            "every node, 4 in all, and each worker's SLURM_NTASKS/WORLD_SIZE says so");
  EXPECT_EQ(std::count_if(reports.begin(), reports.end(),
                          [](const Diagnostic& d) { return d.message.starts_with("srun spread"); }),
            1);  // 16 divides by 2
}

TEST(LaunchDiagnostics, SitesJobStatisticsReportsAreRemoved) {
  const Translation t = run(script(k2x8,
                                   "srun torchrun --nnodes=2 t.py\n"
                                   "js -j $SLURM_JOB_ID\n"
                                   "jobstats $SLURM_JOB_ID\n"
                                   "my-job-stats -a -n -s\n"
                                   "js bench.js\n"));
  const std::string body = body_of(t);
  for (const char* line : {"# [slurm2air] js -j $SLURM_JOB_ID\n", "# [slurm2air] jobstats",
                           "# [slurm2air] my-job-stats -a -n -s\n"}) {
    EXPECT_NE(body.find(line), std::string::npos) << line << "\n" << body;
  }
  EXPECT_NE(body.find("\njs bench.js\n"), std::string::npos) << body;  // a JavaScript shell
  EXPECT_EQ(testing::diagnostics_with(t, Code::slurm_command_in_body).size(), 3U);
}

TEST(LaunchCommand, TerminalControlIsRemovedUnlessTheScriptNamesATerminal) {
  const Translation t = run(script(k2x8,
                                   "set -x -e\nclear; srun python t.py 2>&1 | tee log\n"
                                   "tput sgr0\nRED=$(tput setaf 1)\ntput -T xterm bold\n"));
  EXPECT_EQ(body_of(t),
            "set -x -e\n: '[slurm2air] clear'; python t.py 2>&1 | tee log\n"
            "# [slurm2air] tput sgr0\nRED=$(tput setaf 1)\ntput -T xterm bold\n");
  EXPECT_EQ(testing::diagnostics_with(t, Code::terminal_control_removed).size(), 2U);
  const Translation own =
      run(script(k2x8, "export TERM=xterm-256color\nclear\nsrun python t.py\n"));
  EXPECT_NE(body_of(own).find("\nclear\n"), std::string::npos);
  EXPECT_FALSE(has_code(own, Code::terminal_control_removed));
}

TEST(LaunchDiagnostics, ProcessesPerNodeDisagreeingWithTheGpusIsReported) {
  const Translation t = run(script(k2x8,
                                   "srun torchrun --nnodes=2 --nproc_per_node=4 "
                                   "--rdzv_backend=c10d --rdzv_endpoint=$(hostname):1 t.py\n"));
  EXPECT_EQ(message_of(t, Code::launcher_count_mismatch),
            "--nproc_per_node=4 but each node has 8 GPU(s)");
  EXPECT_NE(body_of(t).find("--nproc_per_node=4 "), std::string::npos);
}

TEST(LaunchDiagnostics, TasksPerNodeOtherThanGpusKeepsTheTaskCount) {
  const Translation t = run(script("#SBATCH --nodes=2 --ntasks-per-node=4 --gpus-per-node=h100:8\n",
                                   "srun python train.py\n"));
  EXPECT_NE(body_of(t).find("--nproc_per_node=4 "), std::string::npos);
  EXPECT_EQ(message_of(t, Code::launcher_count_mismatch),
            "srun starts 4 tasks per node but each AI Runtime node has 8 GPU(s); the translation "
            "keeps 4 processes per node");
  EXPECT_TRUE(has_code(t, Code::tasks_started_by_torchrun));
}

// srun's task counts written as expansions: what the batch shell knew is
// read; a count only a sourced file gives is reported, not guessed at.
TEST(LaunchCommand, TaskCountsFromKnownExpansionsStartOneProcessPerGpu) {
  using namespace std::string_literals;
  const std::string k2x8Job = "#SBATCH --nodes=2 --gpus-per-node=h100:8\n";
  for (const std::string& step :
       {"srun --ntasks-per-node=$SLURM_GPUS_PER_NODE python -u train.py\n"s,
        "NGPU=8\nsrun --ntasks-per-node=\"${NGPU}\" python -u train.py\n"s,
        "srun -n $((SLURM_NNODES * 8)) python -u train.py\n"s}) {
    const Translation t = run(script(k2x8Job, step));
    const std::string body = body_of(t);
    EXPECT_NE(body.find(kPerNode + kShim + "python -u train.py\n"), std::string::npos) << step;
    EXPECT_TRUE(has_code(t, Code::tasks_started_by_torchrun)) << step;
    EXPECT_FALSE(has_code(t, Code::srun_task_count_unread)) << step;
  }
}

// Princeton's DDP template (multi_gpu_training) reads
// os.environ["SLURM_GPUS_ON_NODE"] and ["SLURM_CPUS_PER_TASK"] in each task;
// Slurm set them there, so the shim does too, with the job's values (2 GPUs
// a node here, not the 8 of the AI Runtime node the job is put on).
TEST(LaunchCommand, ShimSetsTheJobsShapeAsSlurmGaveEveryTask) {
  const Translation t =
      run(script("#SBATCH --nodes=2 --ntasks-per-node=2 --cpus-per-task=8 --gres=gpu:2\n",
                 "srun python mnist_classify_ddp.py --epochs=2\n"));
  const std::string body = body_of(t);
  EXPECT_NE(body.find("SLURM_NPROCS=\"$WORLD_SIZE\" "), std::string::npos) << body;
  EXPECT_NE(body.find("SLURM_NNODES=\"$NUM_NODES\" SLURM_JOB_NUM_NODES=\"$NUM_NODES\" "
                      "SLURM_GPUS_ON_NODE=2 SLURM_CPUS_PER_TASK=8; exec"),
            std::string::npos)
      << body;
  const std::string note = message_of(t, Code::tasks_started_by_torchrun);
  EXPECT_NE(note.find("SLURM_GPUS_ON_NODE=2 and SLURM_CPUS_PER_TASK=8 as Slurm set them in "
                      "every task"),
            std::string::npos)
      << note;
  // The step's own -c is what its tasks got.
  const Translation own = run(script("#SBATCH --nodes=2 --ntasks-per-node=8 --gpus-per-node=8\n",
                                     "srun -c 6 python t.py\n"));
  EXPECT_NE(body_of(own).find("SLURM_GPUS_ON_NODE=8 SLURM_CPUS_PER_TASK=6;"), std::string::npos)
      << body_of(own);
}

// The shim leaves $SLURM_NPROCS to the worker's shell, which now has it.
TEST(LaunchCommand, NprocsInsideThePerGpuScriptIsTheWorldSize) {
  const Translation t =
      run(script(k2x8Tasks, "srun bash -c 'python t.py --world $SLURM_NPROCS'\n"));
  const std::string body = body_of(t);
  EXPECT_NE(body.find("SLURM_NPROCS=\"$WORLD_SIZE\""), std::string::npos) << body;
  EXPECT_NE(body.find("python t.py --world $SLURM_NPROCS\n"), std::string::npos) << body;
}

TEST(LaunchCommand, TaskCountRepeatingTheJobsIsTheJobs) {
  const Translation t = run(script(k2x8Tasks, "srun -n \"$SLURM_NTASKS\" python train.py\n"));
  EXPECT_EQ(body_of(t), kPerNode + kShim + "python train.py\n");
  EXPECT_FALSE(has_code(t, Code::srun_task_count_unread));
}

TEST(LaunchDiagnostics, TaskCountTheScriptDoesNotGiveIsReported) {
  const Translation t = run(script(k2x8,
                                   "source config_DGXA100.sh\n"
                                   "srun --ntasks=\"$((SLURM_JOB_NUM_NODES * DGXNGPU))\" "
                                   "--ntasks-per-node=\"${DGXNGPU}\" python train.py\n"));
  EXPECT_EQ(body_of(t).substr(body_of(t).find('\n') + 1), "python train.py\n");
  const auto unread = testing::diagnostics_with(t, Code::srun_task_count_unread);
  ASSERT_EQ(unread.size(), 1U);
  EXPECT_EQ(unread[0].message,
            "`--ntasks-per-node=\"${DGXNGPU}\"`: the translation cannot read this count from the "
            "script, so it cannot tell how many tasks the step started; it starts 1 process per "
            "node, as the step's other counts or the job's say");
}

TEST(LaunchDiagnostics, SeveralLaunchersPerNodeAreReported) {
  const Translation t = run(script(k2x8Tasks, "srun torchrun --nproc_per_node=8 t.py\n"));
  EXPECT_TRUE(has_code(t, Code::one_task_per_gpu));
}

TEST(LaunchDiagnostics, MpiAcrossNodesIsReported) {
  const Translation t = run(script(k2x8Tasks, "mpirun -np 16 python t.py\n"));
  EXPECT_EQ(message_of(t, Code::mpi_launch_unsupported),
            "`mpirun` starts ranks on other nodes through Slurm or ssh; AI Runtime has no MPI "
            "launcher across nodes");
  const Translation one = run(script("#SBATCH -N1 --ntasks-per-node=8 --gpus-per-node=h100:8\n",
                                     "mpirun -np 8 python t.py\n"));
  EXPECT_FALSE(has_code(one, Code::mpi_launch_unsupported));
  EXPECT_EQ(body_of(one), "mpirun -np 8 python t.py\n");
}

TEST(LaunchDiagnostics, RandomRendezvousIdBecomesTheRunId) {
  const Translation t = run(script(k2x8,
                                   "srun torchrun --nnodes=2 --nproc_per_node=8 "
                                   "--rdzv_id=$RANDOM --rdzv_backend=c10d "
                                   "--rdzv_endpoint=$(hostname):29500 t.py\n"));
  EXPECT_NE(body_of(t).find("--rdzv_id=\"$MLFLOW_RUN_ID\""), std::string::npos);
  EXPECT_TRUE(has_code(t, Code::launch_value_replaced));
}

TEST(LaunchDiagnostics, ShimVariablesInsideThePerGpuScriptAreNotReported) {
  const Translation t =
      run(script(k2x8Tasks, "srun bash -c 'export RANK=$SLURM_PROCID; python t.py'\n"));
  EXPECT_FALSE(has_code(t, Code::slurm_variable_unmapped));
  EXPECT_EQ(body_of(t), kPerNode + "bash -c '\n" + task_exports() +
                            "\nexport RANK=$SLURM_PROCID; python t.py\n'\n");
}

// NeMo's `DIR=`pwd`` then `srun -l bash -c "cd ${DIR} ; python -u train.py $*"`:
// the batch shell filled in ${DIR}; the worker's own shell has no DIR (it is
// not exported), so the script stays double-quoted for the batch shell.
TEST(LaunchCommand, ADoubleQuotedPerGpuScriptKeepsTheBatchShellsValues) {
  const Translation t = run(script(
      k2x8Tasks, "DIR=`pwd`\nsrun -l bash -c \"cd ${DIR} && RANK=\\$SLURM_PROCID python t.py\"\n"));
  EXPECT_EQ(
      body_of(t),
      "DIR=`pwd`\n" + kPerNode +
          "bash -c \"\nexport SLURM_PROCID=\\\"\\$RANK\\\" SLURM_LOCALID=\\\"\\$LOCAL_RANK\\\" "
          "SLURM_NTASKS=\\\"\\$WORLD_SIZE\\\" SLURM_NPROCS=\\\"\\$WORLD_SIZE\\\" "
          "SLURM_NTASKS_PER_NODE=\\\"\\$LOCAL_WORLD_SIZE\\\" SLURM_NODEID=\\\"\\$GROUP_RANK\\\" "
          "SLURM_NNODES=\\\"\\$NUM_NODES\\\" SLURM_JOB_NUM_NODES=\\\"\\$NUM_NODES\\\" "
          "SLURM_GPUS_ON_NODE=8;\n"
          "cd ${DIR} && RANK=\\$SLURM_PROCID python t.py\"\n");
  EXPECT_FALSE(has_code(t, Code::slurm_variable_unmapped));
  // `$SLURM_PROCID` left for the batch shell was 0 in every task under Slurm;
  // the worker's shell expands it now, from the shim.
  const Translation unescaped =
      run(script(k2x8Tasks, "srun bash -c \"python t.py --rank $SLURM_PROCID --out ${OUT}\"\n"));
  EXPECT_NE(body_of(unescaped).find("python t.py --rank \\$SLURM_PROCID --out ${OUT}\""),
            std::string::npos)
      << body_of(unescaped);
}

// OpenRLHF's `readonly GPUS_PER_NODE=8` and nanotron's / MLPerf's
// `: ${GPUS_PER_NODE:=8}` set the count a launcher reads: 8 is the node's GPUs.
TEST(LaunchDiagnostics, CountsSetByReadonlyOrADefaultAssignmentAreKnown) {
  for (const char* set :
       {"readonly GPUS_PER_NODE=8\n", ": ${GPUS_PER_NODE:=8}\n", ": \"${GPUS_PER_NODE=8}\"\n"}) {
    const Translation t = run(script(
        k2x8, std::string(set) + "srun torchrun --nnodes $SLURM_NNODES --nproc_per_node "
                                 "$GPUS_PER_NODE --rdzv_endpoint $MASTER_ADDR:29500 t.py\n"));
    EXPECT_FALSE(has_code(t, Code::launcher_count_mismatch))
        << set << message_of(t, Code::launcher_count_mismatch);
  }
  // A default that disagrees with the node is still the script's count.
  const Translation four = run(script(
      k2x8, ": ${GPUS:=4}\nsrun torchrun --nnodes $SLURM_NNODES --nproc_per_node $GPUS t.py\n"));
  EXPECT_NE(message_of(four, Code::launcher_count_mismatch).find("4"), std::string::npos)
      << body_of(four);
}

TEST(ValueReader, ArithmeticOverflowAndDivisionByZeroAreUnknown) {
  air::ShellVariables vars;
  air::Compute compute;
  compute.nodes = 2;
  compute.gpus_per_node = 8;
  const air::ValueReader reader(vars, compute);
  EXPECT_EQ(reader.arithmetic("SLURM_NNODES * 8", 0).number, 16u);
  EXPECT_EQ(reader.arithmetic("(1 + 2) * $NUM_NODES", 0).number, 6u);
  EXPECT_FALSE(reader.arithmetic("99999999999 * 99999999999 * 99999999999", 0).number);
  EXPECT_FALSE(reader.arithmetic("4 / 0", 0).number);
  EXPECT_EQ(reader.arithmetic("10000 + SLURM_JOB_ID % 50000", 0).meaning, air::Meaning::job_id);
  EXPECT_FALSE(reader.arithmetic(std::string(5000, '('), 0).number);
}

// `export NAME=VALUE` is read from the word's parts after the `=`, without
// copying them: the same value parts() gives the word with `NAME=` cut off.
TEST(ValueReader, AssignedValueIsTheValueAfterTheEquals) {
  air::ShellVariables vars;
  air::Compute compute;
  compute.nodes = 2;
  compute.gpus_per_node = 8;
  const air::ValueReader reader(vars, compute);
  auto words = [](const std::string& text) {
    return parse_script(text, 0).script.body.items.front().command.words;
  };
  const std::vector<ast::Word> number = words("export N=16");
  EXPECT_EQ(reader.assigned_value("16", std::span(number[1].parts).subspan(1)).number, 16u);
  const std::vector<ast::Word> nodes = words("export N=$SLURM_NNODES");
  const air::ShellValue from_nodes =
      reader.assigned_value("", std::span(nodes[1].parts).subspan(1));
  EXPECT_EQ(from_nodes.meaning, air::Meaning::node_count);
  EXPECT_EQ(from_nodes.number, 2u);
  const std::vector<ast::Word> joined = words("export N=x$SLURM_NNODES");
  EXPECT_EQ(reader.assigned_value("x", std::span(joined[1].parts).subspan(1)).meaning,
            air::Meaning::unknown);
  const std::vector<ast::Word> quoted_empty = words("export N=8''");
  EXPECT_EQ(reader.assigned_value("8", std::span(quoted_empty[1].parts).subspan(1)).number, 8u);
}

}  // namespace
}  // namespace s2a

namespace s2a {
namespace {

// Slurm variables in what compound commands expand themselves: their words
// and their arithmetic, which the parser keeps as text.
TEST(SlurmVariablesInCompoundCommands, AreRenamedLikeAnyOtherUse) {
  const Translation t = run(script(k2x8,
                                   "echo $(($SLURM_NNODES * 8)) $(( SLURM_NNODES * 8 ))\n"
                                   "(( n = ${SLURM_NNODES} + 1 ))\n"
                                   "for ((i = 0; i < $SLURM_NNODES; i++)); do echo $i; done\n"
                                   "let \"k = SLURM_NNODES * 2\" m=$SLURM_NNODES\n"
                                   "if [[ $SLURM_NNODES -gt 1 ]]; then echo multi; fi\n"
                                   "case $SLURM_NNODES in 2) echo two;; esac\n"
                                   "for n in $SLURM_NNODES; do echo $n; done\n"
                                   "srun python train.py\n"));
  EXPECT_EQ(body_of(t),
            "echo $(($NUM_NODES * 8)) $(( NUM_NODES * 8 ))\n"
            "(( n = ${NUM_NODES} + 1 ))\n"
            "for ((i = 0; i < $NUM_NODES; i++)); do echo $i; done\n"
            "let \"k = NUM_NODES * 2\" m=$NUM_NODES\n"
            "if [[ $NUM_NODES -gt 1 ]]; then echo multi; fi\n"
            "case $NUM_NODES in 2) echo two;; esac\n"
            "for n in $NUM_NODES; do echo $n; done\n"
            "python train.py\n");
}

TEST(SlurmVariablesInCompoundCommands, ThoseWithoutEquivalentAreReported) {
  const Translation t = run(script(k2x8,
                                   "if [[ -n $SLURM_JOB_PARTITION ]]; then echo p; fi\n"
                                   "(( seed = SLURM_JOB_ID % 1000 ))\n"
                                   "srun python train.py\n"));
  std::vector<uint32_t> lines;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::slurm_variable_unmapped)
      lines.push_back(t.file->line_col(d.span.begin).line);
  }
  EXPECT_EQ(lines, (std::vector<uint32_t>{3, 4}));
}

// An indexed array's subscript is arithmetic too: `${lrs[$SLURM_PROCID]}`.
TEST(SlurmVariablesInCompoundCommands, ArraySubscriptsAreRenamedOrReported) {
  const Translation t = run(script(k2x8,
                                   "lrs=(0.1 0.01)\n"
                                   "echo ${lrs[$SLURM_NNODES - 1]} ${#lrs[SLURM_NNODES]} "
                                   "${lrs[${SLURM_NNODES}]:-1}\n"
                                   "srun python train.py --lr ${lrs[$SLURM_ARRAY_TASK_ID]} "
                                   "${X#[S]}\n"));
  EXPECT_EQ(body_of(t),
            "lrs=(0.1 0.01)\n"
            "echo ${lrs[$NUM_NODES - 1]} ${#lrs[NUM_NODES]} ${lrs[${NUM_NODES}]:-1}\n"
            "python train.py --lr ${lrs[$SLURM_ARRAY_TASK_ID]} ${X#[S]}\n");
  std::vector<uint32_t> columns;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::slurm_variable_unmapped)
      columns.push_back(t.file->line_col(d.span.begin).col);
  }
  EXPECT_EQ(columns, (std::vector<uint32_t>{34}));
}

// Redirections of compound commands, and the commands in them.
TEST(SlurmVariablesInCompoundCommands, RedirectionsAreMappedToo) {
  const Translation t =
      run(script(k2x8,
                 "while read h; do echo $h; done < <(scontrol show hostnames $SLURM_JOB_NODELIST)\n"
                 "for i in 1 2; do echo $i; done > out_$SLURM_NNODES.txt\n"
                 "srun python train.py\n"));
  EXPECT_EQ(body_of(t),
            "while read h; do echo $h; done < <(printf '%s\\n' \"$MASTER_ADDR\" $(seq -f "
            "'node-%g' 1 $((NUM_NODES - 1))))\n"
            "for i in 1 2; do echo $i; done > out_$NUM_NODES.txt\n"
            "python train.py\n");
  EXPECT_TRUE(has_code(t, Code::node_list_emulated));
}

// The stand-in replaces the words only: the file the list was written to
// still gets it, wherever the redirection is written.
TEST(NodeList, RedirectionsOfTheListCommandStay) {
  const Translation t = run(script(k2x8,
                                   "scontrol show hostnames $SLURM_NODELIST > job.node.list\n"
                                   "scontrol show hostnames > h2 \"$SLURM_JOB_NODELIST\"\n"
                                   "srun python train.py\n"));
  const std::string list =
      "printf '%s\\n' \"$MASTER_ADDR\" $(seq -f 'node-%g' 1 $((NUM_NODES - 1)))";
  EXPECT_EQ(body_of(t), list + " > job.node.list\n" + list + " > h2\npython train.py\n");
}

// A double-quoted step script is rebuilt text: its arithmetic is renamed too.
TEST(SlurmVariablesInCompoundCommands, ArithmeticInADoubleQuotedStepScript) {
  const Translation t = run(script(
      k2x8, "srun bash -c \"python t.py --host \\$(((SLURM_NODEID)) && echo 0 || echo 1)\"\n"));
  EXPECT_EQ(body_of(t), "python t.py --host $(((NODE_RANK)) && echo 0 || echo 1)\n");
}

// The batch shell ran `[[ $SLURM_NODEID == 0 ]]` on the first node only.
TEST(SlurmVariablesInCompoundCommands, ABatchLevelNodeRankTestIsReported) {
  const Translation t = run(script(k2x8,
                                   "if [[ $SLURM_NODEID == 0 ]]; then python prep.py; fi\n"
                                   "srun python train.py\n"));
  EXPECT_TRUE(has_code(t, Code::batch_rank_fixed));
  EXPECT_NE(body_of(t).find("[[ $NODE_RANK == 0 ]]"), std::string::npos);
}

// OpenMMLab's and BasicSR's `--launcher slurm` started torch.distributed
// from SLURM_PROCID/SLURM_NTASKS/SLURM_NODELIST; under torchrun the same
// programs take `--launcher pytorch`, in each way the choice is written.
TEST(SlurmLauncherChoice, BecomesPytorchUnderTheTorchrunThatStartsTheTasks) {
  const std::string directives = "#SBATCH --ntasks-per-node=8 --gpus-per-node=h100:8\n";
  const std::string start = kPerNode + kShim + "python -u tools/train.py cfg.py ";
  for (const auto& [written, rewritten] : std::vector<std::pair<std::string, std::string>>{
           {"--launcher=slurm", "--launcher=pytorch"},
           {"--launcher=\"slurm\"", "--launcher=pytorch"},
           {"--launcher slurm", "--launcher pytorch"},
           {"--launcher 'slurm'", "--launcher pytorch"}}) {
    const Translation t =
        run(script(directives, "srun python -u tools/train.py cfg.py " + written + " --seed 0\n"));
    EXPECT_EQ(body_of(t), start + rewritten + " --seed 0\n") << written;
    EXPECT_TRUE(has_code(t, Code::slurm_launcher_to_pytorch)) << written;
  }
}

// srun's single task, or the batch shell's, ran as a process group of one:
// a one-process torchrun keeps it one (SyncBN and DDP need the group).
TEST(SlurmLauncherChoice, AProgramStartedAloneGetsAOneProcessTorchrun) {
  const std::string one = "torchrun --standalone --nnodes=1 --nproc_per_node=1 --no_python ";
  const Translation t = run(script("#SBATCH --ntasks=1 --gpus-per-node=h100:1\n",
                                   "srun --output=train.log python tools/train.py cfg.py \\\n"
                                   "  --launcher=\"slurm\"\\\n"
                                   "  --work-dir=out\n"
                                   "PYTHONPATH=. python tools/test.py cfg.py --launcher slurm\n"));
  EXPECT_EQ(body_of(t),
            one + "python tools/train.py cfg.py \\\n  --launcher=pytorch\\\n  --work-dir=out\n" +
                "PYTHONPATH=. " + one + "python tools/test.py cfg.py --launcher pytorch\n");
  EXPECT_NE(message_of(t, Code::slurm_launcher_to_pytorch).find("process group of one"),
            std::string::npos);
}

// mmcv passes the config's dist_params to init_dist(); only the slurm
// choice takes a port, init_process_group() refuses one: it goes, with
// --cfg-options when it was that option's only value.
TEST(SlurmLauncherChoice, ThePortOnlyTheSlurmChoiceReadsIsRemoved) {
  const std::string directives = "#SBATCH --ntasks=1 --gpus-per-node=h100:1\n";
  const std::string one = "torchrun --standalone --nnodes=1 --nproc_per_node=1 --no_python ";
  EXPECT_EQ(body_of(run(script(directives,
                               "python train.py c.py --launcher=slurm --options a=1 "
                               "dist_params.port=$PORT b=2\n"))),
            one + "python train.py c.py --launcher=pytorch --options a=1  b=2\n");
  const Translation t = run(script(directives,
                                   "python train.py c.py --launcher slurm --cfg-options "
                                   "env_cfg.dist_cfg.port=29500 --seed 1\n"));
  EXPECT_EQ(body_of(t), one + "python train.py c.py --launcher pytorch  --seed 1\n");
  EXPECT_NE(message_of(t, Code::slurm_launcher_to_pytorch)
                .find("`--cfg-options env_cfg.dist_cfg.port=29500`, which only the slurm choice "
                      "reads"),
            std::string::npos);
}

// One task on each of two nodes was a group of two: torchrun starts one
// process per node across the nodes; a step pinned to one node gets its own.
TEST(SlurmLauncherChoice, OneTaskPerNodeBecomesOneProcessPerNodeAcrossTheNodes) {
  const Translation t = run(script(k2x8,
                                   "srun python train.py --launcher slurm\n"
                                   "srun -N1 -n1 python test.py --launcher slurm\n"));
  const std::string across =
      "torchrun --nnodes=\"$NUM_NODES\" --node_rank=\"$NODE_RANK\" --nproc_per_node=1 "
      "--master_addr=\"$MASTER_ADDR\" --master_port=\"$MASTER_PORT\" --no_python ";
  EXPECT_EQ(body_of(t),
            across +
                "python train.py --launcher pytorch\n"
                "if [ \"$NODE_RANK\" = 0 ]; then torchrun --standalone --nnodes=1 "
                "--nproc_per_node=1 --no_python python test.py --launcher pytorch; fi\n");
}

TEST(SlurmLauncherChoice, UnderAWrittenTorchrunOnlyTheChoiceChanges) {
  const Translation t = run(script("#SBATCH --gpus-per-node=h100:8\n",
                                   "torchrun --nproc_per_node=8 tools/train.py c.py "
                                   "--launcher slurm\n"));
  EXPECT_EQ(body_of(t),
            "torchrun --nproc_per_node=\"${LOCAL_WORLD_SIZE:-8}\" tools/train.py c.py "
            "--launcher pytorch\n");
  EXPECT_TRUE(has_code(t, Code::slurm_launcher_to_pytorch));
}

// Where no torchrun can be put before the program (a script srun ran with
// bash -c once per node), the choice stays and is reported.
TEST(SlurmLauncherChoice, IsReportedWhereNoTorchrunStartsTheProgram) {
  const Translation t =
      run(script(k2x8, "srun bash -c 'python tools/train.py c.py --launcher slurm'\n"));
  EXPECT_TRUE(has_code(t, Code::slurm_launcher_kept));
  EXPECT_NE(body_of(t).find("--launcher slurm"), std::string::npos);
}

// Other programs' `--launcher` and other choices are not this option.
TEST(SlurmLauncherChoice, OtherLaunchersAndChoicesStay) {
  const std::string directives = "#SBATCH --gpus-per-node=h100:8\n";
  for (const std::string line :
       {"python train.py --launcher pytorch\n", "python train.py --launcher=slurm_ddp\n",
        "python train.py --launcher=$LAUNCHER\n", "python train.py --launchers slurm\n",
        "echo --launcher slurm\n"}) {
    const Translation t = run(script(directives, line));
    EXPECT_EQ(body_of(t), line);
    EXPECT_FALSE(has_code(t, Code::slurm_launcher_to_pytorch)) << line;
    EXPECT_FALSE(has_code(t, Code::slurm_launcher_kept)) << line;
  }
}

}  // namespace
}  // namespace s2a
