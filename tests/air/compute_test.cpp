// The compute policy's edge cases from real scripts: GPU counts of zero,
// per-task counts with no node count, and --exclusive on CPU partitions.
#include <gtest/gtest.h>

#include <algorithm>

#include "support/diagnostics.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

struct ShapeCase {
  const char* directives;
  const char* body;
  const char* accelerator_type;
  uint64_t accelerators;
  bool no_gpu_request;  // S2A3001
};

class ComputeShape : public ::testing::TestWithParam<ShapeCase> {};

TEST_P(ComputeShape, FollowsThePolicy) {
  const ShapeCase& c = GetParam();
  const Translation t =
      translate("job.sbatch", std::string("#!/bin/bash\n#SBATCH ") + c.directives + "\n" + c.body);
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->compute.accelerator_type, c.accelerator_type);
  EXPECT_EQ(t.workload->compute.num_accelerators, c.accelerators);
  EXPECT_EQ(!testing::diagnostics_with(t, Code::no_gpu_request).empty(), c.no_gpu_request);
  // Never the false "cannot be spread evenly" of a count that divides.
  EXPECT_TRUE(testing::diagnostics_with(t, Code::gpus_not_per_node).empty());
}

INSTANTIATE_TEST_SUITE_P(
    RealScripts, ComputeShape,
    ::testing::Values(
        // Zero GPUs asked for is a CPU job, whichever option says it.
        ShapeCase{"--gpus=0", "python cpu.py\n", "GPU_1xA10", 1, true},
        ShapeCase{"--gpus-per-node=0 --nodes=2", "python cpu.py\n", "GPU_1xA10", 2, true},
        ShapeCase{"--gpus-per-task=0", "python cpu.py\n", "GPU_1xA10", 1, true},
        // Tasks with no node count: Slurm's one node holds them all.
        ShapeCase{"--ntasks=1 --gpus-per-task=1", "python t.py\n", "GPU_1xH100", 1, false},
        ShapeCase{"--ntasks=4 --gpus-per-task=2", "srun python t.py\n", "GPU_8xH100", 8, false},
        // --exclusive takes the node's GPUs: none on a CPU partition.
        ShapeCase{"--nodes=4 --exclusive --partition=EPYC", "mpirun -np 8 ./life\n", "GPU_1xA10", 4,
                  true},
        ShapeCase{"--nodes=2 --exclusive --partition=gpu", "srun python t.py\n", "GPU_8xH100", 16,
                  false},
        ShapeCase{"--nodes=2 --exclusive --constraint=a100", "srun python t.py\n", "GPU_8xH100", 16,
                  false},
        ShapeCase{"--nodes=2 --exclusive", "module load cuda/12.1\nsrun python t.py\n",
                  "GPU_8xH100", 16, false},
        ShapeCase{"--nodes=2 --exclusive", "torchrun --nproc_per_node=8 t.py\n", "GPU_8xH100", 16,
                  false},
        // Comments say nothing of the job: a licence header, a directive left out.
        ShapeCase{"--nodes=2 --exclusive",
                  "# Copyright (c) NVIDIA CORPORATION.\n  ## SBATCH --gres=gpu:3\nsrun ./solver\n",
                  "GPU_1xA10", 2, true}));

struct StepCase {
  const char* directives;
  const char* body;
  const char* accelerator_type;
  uint64_t accelerators;
  const char* reported_at;  // the step option S2A3009 points at
};

class GpusFromSteps : public ::testing::TestWithParam<StepCase> {};

// Directives that count no GPUs, srun steps that do: the shape follows the
// steps (S2A3009 at the step's option), not the 1-GPU fallback (S2A3001).
TEST_P(GpusFromSteps, TheLargestStepSetsTheShape) {
  const StepCase& c = GetParam();
  const std::string script = std::string("#!/bin/bash\n#SBATCH ") + c.directives + "\n" + c.body;
  const Translation t = translate("job.sbatch", script);
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->compute.accelerator_type, c.accelerator_type);
  EXPECT_EQ(t.workload->compute.num_accelerators, c.accelerators);
  EXPECT_TRUE(testing::diagnostics_with(t, Code::no_gpu_request).empty());
  EXPECT_TRUE(testing::diagnostics_with(t, Code::gpus_from_exclusive).empty());
  const auto reports = testing::diagnostics_with(t, Code::gpus_from_step);
  ASSERT_EQ(reports.size(), 1U);
  EXPECT_EQ(reports[0].span.begin, script.find(c.reported_at));
  // The YAML's comment on the shape names the step's option.
  EXPECT_NE(
      std::find(t.workload->compute.from.begin(), t.workload->compute.from.end(), reports[0].span),
      t.workload->compute.from.end());
}

INSTANTIATE_TEST_SUITE_P(
    RealScripts, GpusFromSteps,
    ::testing::Values(
        // OLCF Frontier: nodes in the directives, GPUs on the step.
        StepCase{"-N 2", "srun -N 2 -n 16 --gpus-per-node=8 --gpu-bind=closest python t.py\n",
                 "GPU_8xH100", 16, "--gpus-per-node=8"},
        StepCase{"-N 1", "srun --gres=gpu:a100:4 python t.py\n", "GPU_8xH100", 8,
                 "--gres=gpu:a100:4"},
        StepCase{"-N 1", "srun --gres gpu:1 python t.py\n", "GPU_1xH100", 1, "--gres gpu:1"},
        // A total over the step's nodes, as Slurm spreads it.
        StepCase{"-N 2", "srun -N 2 -G 16 python t.py\n", "GPU_8xH100", 16, "-G 16"},
        StepCase{"-N 1", "srun --gpus=1 python t.py\n", "GPU_1xH100", 1, "--gpus=1"},
        // Per task, times the step's tasks on a node (or the job's).
        StepCase{"-N 2 --ntasks-per-node=8", "srun --gpus-per-task=1 python t.py\n", "GPU_8xH100",
                 16, "--gpus-per-task=1"},
        StepCase{"-N 1", "srun -n 8 --gpus-per-task=1 python t.py\n", "GPU_8xH100", 8,
                 "--gpus-per-task=1"},
        // Steps that differ: the largest.
        StepCase{"-N 1", "srun --gpus-per-node=4 python a.py\nsrun --gpus-per-node=8 python b.py\n",
                 "GPU_8xH100", 8, "--gpus-per-node=8"},
        // --exclusive held the node's GPUs; the step says how many it used.
        StepCase{"-N 2 --exclusive", "srun --gpus-per-node=1 python t.py\n", "GPU_1xH100", 2,
                 "--gpus-per-node=1"},
        // From a variable holding the step's options.
        StepCase{"-N 1", "OPTS=\"--gpus-per-node=8\"\nsrun $OPTS python t.py\n", "GPU_8xH100", 8,
                 "$OPTS"},
        // A count the script assigns, read as the launch mapper reads it
        // (InternVL-style srun-only launchers): a `:-` default, readonly,
        // double quotes, and a task count that multiplies GPUs per task.
        StepCase{"-N 2",
                 "GPUS_PER_NODE=${GPUS_PER_NODE:-8}\n"
                 "srun --gres=gpu:${GPUS_PER_NODE} --ntasks-per-node=${GPUS_PER_NODE} "
                 "torchrun --nproc_per_node $GPUS_PER_NODE t.py\n",
                 "GPU_8xH100", 16, "--gres=gpu:${GPUS_PER_NODE}"},
        StepCase{"-N 1", "readonly NGPU=4\nsrun --gpus-per-node=\"$NGPU\" python t.py\n",
                 "GPU_8xH100", 8, "--gpus-per-node=\"$NGPU\""},
        StepCase{"-N 1", "NTASKS=8\nsrun -n $NTASKS --gpus-per-task=1 python t.py\n", "GPU_8xH100",
                 8, "--gpus-per-task=1"}));

// What Slurm sets (SLURM_*) is not read as its `:-` default before the shape
// is known, a value assigned after the step is not the step's, and a 0 is a
// default the script's own options override: each stays a computed count.
TEST(GpusFromSteps, OnlyValuesTheScriptAssignedBeforeTheStepAreRead) {
  for (const char* body :
       {"NGPU=${SLURM_GPUS_PER_NODE:-8}\nsrun --gpus-per-node=$NGPU python t.py\n",
        "srun --gpus-per-node=${SLURM_GPUS_ON_NODE:-8} python t.py\n",
        "srun --gpus-per-node=$NGPU python t.py\nNGPU=8\n",
        "if [ -n \"$X\" ]; then NGPU=$X; fi\nsrun --gres=gpu:$NGPU python t.py\n",
        "NGPU=0\ncase $1 in --gpus) NGPU=$2;; esac\nsrun --gres gpu:$NGPU python t.py\n"}) {
    const Translation t =
        translate("job.sbatch", std::string("#!/bin/bash\n#SBATCH -N 1\n") + body);
    ASSERT_TRUE(t.workload) << body;
    EXPECT_EQ(t.workload->compute.accelerator_type, "GPU_1xA10") << body;
    EXPECT_TRUE(testing::diagnostics_with(t, Code::gpus_from_step).empty()) << body;
  }
}

TEST(GpusFromSteps, StepsThatDifferAreSaidToAndTheModelIsTheSteps) {
  const Translation t = translate("job.sbatch",
                                  "#!/bin/bash\n#SBATCH -N 1\nsrun --gres=gpu:a100:8 python a.py\n"
                                  "srun --gres=gpu:2 python b.py\n");
  ASSERT_TRUE(t.workload);
  const auto reports = testing::diagnostics_with(t, Code::gpus_from_step);
  ASSERT_EQ(reports.size(), 1U);
  EXPECT_NE(reports[0].message.find("as few as 2; the largest is used"), std::string::npos)
      << reports[0].message;
  const auto substituted = testing::diagnostics_with(t, Code::gpu_model_substituted);
  ASSERT_EQ(substituted.size(), 1U);
  EXPECT_NE(substituted[0].message.find("\"a100\""), std::string::npos);
  EXPECT_TRUE(testing::diagnostics_with(t, Code::gpu_model_assumed).empty());
}

// A count the script computes cannot be read: the 1-GPU fallback stays, and
// S2A3001 says which step asked.
TEST(GpusFromSteps, ACountFromAVariableKeepsTheFallbackAndSaysWhy) {
  const std::string script =
      "#!/bin/bash\n#SBATCH -N 1\nsource env.sh\nsrun --gpus-per-node=$NGPU python t.py\n";
  const Translation t = translate("job.sbatch", script);
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->compute.accelerator_type, "GPU_1xA10");
  const auto reports = testing::diagnostics_with(t, Code::no_gpu_request);
  ASSERT_EQ(reports.size(), 1U);
  EXPECT_EQ(reports[0].span.begin, script.find("--gpus-per-node=$NGPU"));
  EXPECT_NE(reports[0].message.find("a count the script computes"), std::string::npos);
  EXPECT_TRUE(testing::diagnostics_with(t, Code::gpus_from_step).empty());
}

// GPUs per task on a step whose task count the script computes: the GPUs
// per node are unknown, and --exclusive's full node stays assumed (S2A3002).
TEST(GpusFromSteps, GpusPerTaskWithAComputedTaskCountAreNotGuessed) {
  const std::string script =
      "#!/bin/bash\n#SBATCH -N 2\n#SBATCH --exclusive\nntasks=`echo 16 | bc`\n"
      "srun -N 2 -n $ntasks --gpus-per-task=1 ./driver\n";
  const Translation t = translate("job.sbatch", script);
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->compute.accelerator_type, "GPU_8xH100");
  EXPECT_EQ(testing::diagnostics_with(t, Code::gpus_from_exclusive).size(), 1U);
  EXPECT_TRUE(testing::diagnostics_with(t, Code::gpus_from_step).empty());
}

// The directives' own count wins over any step's; zero GPUs on a step is none.
TEST(GpusFromSteps, DirectivesThatCountGpusAreKept) {
  const Translation counted = translate(
      "job.sbatch", "#!/bin/bash\n#SBATCH --gpus-per-node=1\nsrun --gpus-per-node=8 python t.py\n");
  ASSERT_TRUE(counted.workload);
  EXPECT_EQ(counted.workload->compute.accelerator_type, "GPU_1xH100");
  EXPECT_TRUE(testing::diagnostics_with(counted, Code::gpus_from_step).empty());
  const Translation zero =
      translate("job.sbatch", "#!/bin/bash\n#SBATCH -N 1\nsrun --gres=gpu:0 python t.py\n");
  ASSERT_TRUE(zero.workload);
  EXPECT_EQ(zero.workload->compute.accelerator_type, "GPU_1xA10");
  EXPECT_EQ(testing::diagnostics_with(zero, Code::no_gpu_request).size(), 1U);
}

// Every AI Runtime shape is NVIDIA's: a ROCm job is told so (S2A3008).
TEST(AmdGpus, AJobThatRanOnRocmIsReportedAtTheFirstSign) {
  const std::string script =
      "#!/bin/bash\n#SBATCH --gpus-per-node=8\n# uses no cuda\nmodule load rocm/5.6.1\n"
      "singularity exec --rocm img.sif python t.py\n";
  const Translation t = translate("job.sbatch", script);
  const auto reports = testing::diagnostics_with(t, Code::amd_gpus_replaced);
  ASSERT_EQ(reports.size(), 1U);
  EXPECT_EQ(reports[0].span.begin, script.find("module load rocm"));
  const Translation constrained = translate(
      "job.sbatch", "#!/bin/bash\n#SBATCH --gpus-per-node=8 --constraint=MI250X\nsrun ./a\n");
  EXPECT_EQ(testing::diagnostics_with(constrained, Code::amd_gpus_replaced).size(), 1U);
  const Translation nvidia = translate(
      "job.sbatch", "#!/bin/bash\n#SBATCH --gpus-per-node=8\n# not rocm\nmodule load cuda\n");
  EXPECT_TRUE(testing::diagnostics_with(nvidia, Code::amd_gpus_replaced).empty());
}

// LUMI's containers bring ROCm themselves: the image's name is the sign
// when nothing else in the script is (lumi-ai-workshop's scripts).
TEST(AmdGpus, ARocmImageIsTheSignWhenNothingElseIs) {
  const std::string script =
      "#!/bin/bash\n#SBATCH --partition=standard-g --gpus-per-node=8\nmodule load "
      "singularity-AI-bindings\n"
      "CONTAINER=/appl/local/containers/sif-images/"
      "lumi-pytorch-rocm-6.2.4-python-3.12-pytorch-v2.6.0.sif\n"
      "srun singularity exec $CONTAINER python t.py\n";
  const Translation t = translate("job.sbatch", script);
  const auto reports = testing::diagnostics_with(t, Code::amd_gpus_replaced);
  ASSERT_EQ(reports.size(), 1U);
  EXPECT_EQ(reports[0].span.begin, script.find("$CONTAINER python"));
  EXPECT_NE(reports[0].message.find("the container image /appl/local/containers/sif-images/"
                                    "lumi-pytorch-rocm-6.2.4-python-3.12-pytorch-v2.6.0.sif is "
                                    "built for ROCm"),
            std::string::npos)
      << reports[0].message;
  const Translation docker = translate(
      "job.sbatch",
      "#!/bin/bash\n#SBATCH --gpus-per-node=8\ndocker run rocm/pytorch:latest python t.py\n");
  EXPECT_EQ(testing::diagnostics_with(docker, Code::amd_gpus_replaced).size(), 1U);
  // Another sign comes first and is the one reported.
  const Translation module = translate("job.sbatch",
                                       "#!/bin/bash\n#SBATCH --gpus-per-node=8\nmodule load rocm\n"
                                       "singularity exec pytorch_rocm5.7.sif python t.py\n");
  const auto once = testing::diagnostics_with(module, Code::amd_gpus_replaced);
  ASSERT_EQ(once.size(), 1U);
  EXPECT_EQ(once[0].message.find("the container image"), std::string::npos);
  for (const char* image :
       {"nvcr.io/nvidia/pytorch:24.01-py3", "/apps/microcmos.sif", "/apps/pytorch-norocm.sif"}) {
    const Translation nvidia =
        translate("job.sbatch", std::string("#!/bin/bash\n#SBATCH --gpus-per-node=8\n"
                                            "srun singularity exec ") +
                                    image + " python t.py\n");
    EXPECT_TRUE(testing::diagnostics_with(nvidia, Code::amd_gpus_replaced).empty()) << image;
  }
}

// A ROCm module in any case, alone or as part of a name; not spack's
// `~rocm` (built without it) nor a longer word.
TEST(AmdGpus, ModulesNamingRocmInAnyCase) {
  const auto reported = [](const std::string& module_line) {
    const Translation t = translate(
        "job.sbatch", "#!/bin/bash\n#SBATCH --gpus-per-node=8\n" + module_line + "\nsrun ./a\n");
    return !testing::diagnostics_with(t, Code::amd_gpus_replaced).empty();
  };
  for (const char* line : {"module load ROCm-5.4.2/ucx", "module load cuda rocm", "ml MIOpen/2.0",
                           "module load RCCL", "module load py-torch+rocm", "ml rocm"}) {
    EXPECT_TRUE(reported(line)) << line;
  }
  for (const char* line : {"module load gcc~rocm", "module load amdrocm", "module load xrccl",
                           "module load roc", "ml miope", "module load cuda/12.1"}) {
    EXPECT_FALSE(reported(line)) << line;
  }
}

// Hygon DCUs (`--gres=dcu:N`) are the job's GPUs, and ROCm ones.
TEST(AmdGpus, DcusAreCountedAsGpusAndReported) {
  const Translation t =
      translate("job.sbatch", "#!/bin/bash\n#SBATCH -N 2 --gres=dcu:4\nsrun python t.py\n");
  ASSERT_TRUE(t.job.gpus);
  EXPECT_EQ(t.job.gpus->count, 4U);
  EXPECT_EQ(testing::diagnostics_with(t, Code::amd_gpus_replaced).size(), 1U);
  EXPECT_TRUE(testing::diagnostics_with(t, Code::gres_not_gpu).empty());
  const Translation word =
      translate("job.sbatch", "#!/bin/bash\n#SBATCH --gres=gpu:2,dcuplus:1\nsrun python t.py\n");
  EXPECT_TRUE(testing::diagnostics_with(word, Code::amd_gpus_replaced).empty());
}

}  // namespace
}  // namespace s2a
