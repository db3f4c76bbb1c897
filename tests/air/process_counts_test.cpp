// Literal process counts in script variables: a count equal to the node's GPUs
// that feeds a launcher's process-count option becomes $LOCAL_WORLD_SIZE (the
// same number on AI Runtime, right on any node shape); one that disagrees
// stays and is reported. Through translate(), as users see it.
#include <gtest/gtest.h>

#include "translate.hpp"

namespace s2a {
namespace {

const std::string k2x8 =
    "#!/bin/bash\n#SBATCH --nodes=2 --ntasks-per-node=1 --gpus-per-node=h100:8\n";
const std::string k8x8 =
    "#!/bin/bash\n#SBATCH --nodes=8 --ntasks-per-node=1 --gpus-per-node=h100:8\n";

std::string body_of(const Translation& t) {
  EXPECT_TRUE(t.workload.has_value());
  const std::string& command = t.workload->command;
  return command.substr(command.find('\n') + 1);
}

std::vector<std::string> messages(const Translation& t, Code code) {
  std::vector<std::string> out;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == code) out.push_back(d.message);
  }
  return out;
}

struct Case {
  const char* name;
  std::string script;
  std::string line;  // a whole line the command must hold
};

class PortableCount : public ::testing::TestWithParam<Case> {};

TEST_P(PortableCount, CommandHoldsTheLine) {
  const Translation t = translate("job.sbatch", GetParam().script);
  EXPECT_NE(("\n" + body_of(t)).find("\n" + GetParam().line + "\n"), std::string::npos)
      << body_of(t);
}

INSTANTIATE_TEST_SUITE_P(
    Spellings, PortableCount,
    ::testing::Values(
        Case{"export_into_accelerate_string",
             k2x8 + "export GPUS_PER_NODE=8\n"
                    "export LAUNCHER=\"accelerate launch --num_processes $((SLURM_NNODES * "
                    "GPUS_PER_NODE)) --num_machines $SLURM_NNODES\"\nsrun $LAUNCHER train.py\n",
             "export GPUS_PER_NODE=$LOCAL_WORLD_SIZE"},
        Case{"quoted_literal_braced_use",
             k2x8 + "NGPUS=\"8\"\nsrun torchrun --nnodes 2 --nproc_per_node=${NGPUS} t.py\n",
             "NGPUS=$LOCAL_WORLD_SIZE"},
        Case{"dashed_option_name",
             k2x8 + "G=8\nsrun torchrun --nnodes 2 --nproc-per-node \"$G\" t.py\n",
             "G=$LOCAL_WORLD_SIZE"},
        Case{"deepspeed_num_gpus",
             k2x8 + "declare -i NUM_GPUS=8\nsrun deepspeed --num_gpus $NUM_GPUS t.py\n",
             "declare -i NUM_GPUS=$LOCAL_WORLD_SIZE"},
        Case{"self_default", k2x8 + "GPUS=${GPUS:-8}\nsrun torchrun --nproc_per_node=$GPUS t.py\n",
             "GPUS=${GPUS:-$LOCAL_WORLD_SIZE}"},
        Case{"total_count_becomes_world_size",
             k2x8 + "NPROCS=16\nsrun accelerate launch --num_processes $NPROCS t.py\n",
             "NPROCS=$WORLD_SIZE"},
        Case{"use_inside_a_bash_c_script",
             k2x8 + "GPUS_PER_NODE=8\nsrun bash -c 'torchrun --nnodes 2 --node_rank "
                    "$SLURM_NODEID --nproc_per_node $GPUS_PER_NODE t.py'\n",
             "GPUS_PER_NODE=$LOCAL_WORLD_SIZE"},
        Case{"named_node_count_tells_the_factors_apart",
             k8x8 + "GPUS=8\nLAUNCHER=\"accelerate launch --num_processes "
                    "$((SLURM_NNODES * GPUS))\"\nsrun $LAUNCHER t.py\n",
             "GPUS=$LOCAL_WORLD_SIZE"},
        // Kept: not a process count, a count for another shape, ambiguous or reassigned.
        Case{"other_option_kept",
             k2x8 + "BATCH=8\nsrun torchrun --nproc_per_node=8 t.py --batch $BATCH\n", "BATCH=8"},
        Case{"disagreeing_count_kept", k2x8 + "GPUS=4\nsrun torchrun --nproc_per_node=$GPUS t.py\n",
             "GPUS=4"},
        Case{"nodes_equal_gpus_without_a_named_node_count",
             k8x8 + "NNODES=8\nGPUS=8\nLAUNCHER=\"accelerate launch --num_processes "
                    "$((NNODES * GPUS))\"\nsrun $LAUNCHER t.py\n",
             "NNODES=8"},
        Case{"reassigned_in_a_branch",
             k2x8 + "GPUS=8\nif [ -n \"$SMALL\" ]; then GPUS=4; fi\n"
                    "srun torchrun --nproc_per_node=$GPUS t.py\n",
             "GPUS=8"},
        Case{"assigned_after_the_use", k2x8 + "srun torchrun --nproc_per_node=$GPUS t.py\nGPUS=8\n",
             "GPUS=8"}),
    [](const ::testing::TestParamInfo<Case>& param) { return std::string(param.param.name); });

TEST(PortableCount, RewrittenExportStaysInTheCommandNotEnvVariables) {
  const Translation t =
      translate("job.sbatch", k2x8 +
                                  "export GPUS_PER_NODE=8\nexport OTHER=1\n"
                                  "srun torchrun --nproc_per_node=$GPUS_PER_NODE t.py\n");
  ASSERT_TRUE(t.workload.has_value());
  std::vector<std::string> names;
  for (const auto& v : t.workload->env_variables) names.push_back(v.name);
  EXPECT_EQ(names, std::vector<std::string>{"OTHER"});
  EXPECT_EQ(messages(t, Code::launch_value_replaced),
            std::vector<std::string>{
                "GPUS_PER_NODE=8 feeds --nproc_per_node; it becomes $LOCAL_WORLD_SIZE, the same 8 "
                "on this workload, and right on any other node shape"});
  bool logged = false;
  for (const auto& edit : t.edits) {
    logged = logged || (edit.replacement == "$LOCAL_WORLD_SIZE" &&
                        edit.reason.find("GPUS_PER_NODE feeds --nproc_per_node") == 0);
  }
  EXPECT_TRUE(logged);
}

TEST(PortableCount, DisagreeingCountInALauncherStringIsReported) {
  const Translation t =
      translate("job.sbatch", k2x8 +
                                  "GPUS_PER_NODE=4\n"
                                  "LAUNCHER=\"accelerate launch --num_processes $((SLURM_NNODES * "
                                  "GPUS_PER_NODE)) --num_machines 2\"\nsrun $LAUNCHER train.py\n");
  EXPECT_EQ(body_of(t).substr(0, 16), "GPUS_PER_NODE=4\n");
  EXPECT_EQ(messages(t, Code::launcher_count_mismatch),
            std::vector<std::string>{
                "--num_processes $((SLURM_NNODES * GPUS_PER_NODE)) is 8 (GPUS_PER_NODE=4) but the "
                "workload has 16 GPU(s) in total"});
  EXPECT_TRUE(messages(t, Code::launch_value_replaced).empty());
}

TEST(PortableCount, DisagreeingCountOnALauncherLineIsReportedOnce) {
  const Translation t = translate(
      "job.sbatch", k2x8 + "GPUS=4\nsrun torchrun --nnodes 2 --nproc_per_node=$GPUS t.py\n");
  EXPECT_EQ(messages(t, Code::launcher_count_mismatch),
            std::vector<std::string>{"--nproc_per_node=4 but each node has 8 GPU(s)"});
}

TEST(PortableCount, ProgramOptionsOutsideALauncherAreNotChecked) {
  const Translation t =
      translate("job.sbatch", k2x8 + "srun python train.py --num_gpus 1 --num_processes 4\n");
  EXPECT_TRUE(messages(t, Code::launcher_count_mismatch).empty());
}

}  // namespace
}  // namespace s2a
