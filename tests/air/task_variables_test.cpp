// What a program srun started loses when AI Runtime starts it instead: the
// task variables of a step of one task per node (S2A4041), JAX's Slurm
// cluster detection (S2A4042), and a file sourced in a step (S2A4021).
#include <gtest/gtest.h>

#include <string>

#include "air/jax_job.hpp"
#include "support/diagnostics.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

using testing::diagnostics_with;

Translation run(const std::string& text) { return translate("job.sbatch", text); }

std::string only_message(const Translation& t, Code code) {
  const auto found = diagnostics_with(t, code);
  EXPECT_EQ(found.size(), 1u) << "code " << static_cast<int>(code);
  return found.empty() ? std::string() : found.front().message + " | " + found.front().hint;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// IDRIS's stl10 example: one task on each of two one-GPU nodes, whose
// idr_torch reads SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID.
const std::string kJeanZay =
    "#!/bin/bash\n#SBATCH --ntasks=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:1\n"
    "#SBATCH --cpus-per-task=10\nmodule load pytorch-gpu/py3/1.5.0\n"
    "srun python ./stl10_example.py\n";

TEST(TaskVariables, AProgramStartedOncePerNodeIsToldWhatItNoLongerGets) {
  const Translation t = run(kJeanZay);
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(contains(t.workload->command, "\npython ./stl10_example.py\n"))
      << t.workload->command;
  const std::string text = only_message(t, Code::task_variables_missing);
  EXPECT_TRUE(contains(text, "one task on each of the step's nodes")) << text;
  EXPECT_TRUE(contains(text, "SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID")) << text;
  EXPECT_TRUE(contains(text, "NODE_RANK is the task's rank, NUM_NODES the task count")) << text;
  const auto found = diagnostics_with(t, Code::task_variables_missing);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(t.file->line_col(found.front().span.begin).line, 7u);
}

TEST(TaskVariables, AStepScriptsProgramAndAContainersAreReportedToo) {
  const std::string job = "#!/bin/bash\n#SBATCH -N4 --ntasks-per-node=1 --gpus-per-node=h100:8\n";
  EXPECT_EQ(diagnostics_with(run(job + "srun bash -c 'cd run && python -u t.py'\n"),
                             Code::task_variables_missing)
                .size(),
            1u);
  EXPECT_EQ(diagnostics_with(run(job + "srun singularity exec --nv img.sif python3 t.py\n"),
                             Code::task_variables_missing)
                .size(),
            1u);
}

TEST(TaskVariables, OtherStartsAreNotThisReports) {
  const auto reported = [](const std::string& text) {
    return !diagnostics_with(run(text), Code::task_variables_missing).empty();
  };
  const std::string two = "#!/bin/bash\n#SBATCH -N2 --ntasks-per-node=1 --gpus-per-node=h100:8\n";
  // A launcher sets its own ranks; torchrun's workers get RANK and the rest.
  EXPECT_FALSE(reported(two + "srun torchrun --nnodes=2 --nproc_per_node=8 t.py\n"));
  EXPECT_FALSE(reported(two + "srun bash -c 'accelerate launch t.py'\n"));
  // One node: nothing was spread over nodes.
  EXPECT_FALSE(reported("#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\nsrun python t.py\n"));
  EXPECT_FALSE(reported(two + "srun -N1 -n1 python prep.py\n"));
  // One task per GPU gets the shim (S2A4012).
  EXPECT_FALSE(reported(
      "#!/bin/bash\n#SBATCH -N2 --ntasks-per-node=8 --gpus-per-node=h100:8\nsrun python t.py\n"));
  // `--launcher slurm` now starts under torchrun (S2A4039).
  EXPECT_FALSE(reported(two + "srun python tools/train.py cfg.py --launcher=slurm\n"));
  // Not a Python program: a utility or a compiled one (MPI's reports).
  EXPECT_FALSE(reported(two + "srun hostname\n"));
  // Read back in the batch shell: S2A4029's.
  EXPECT_FALSE(reported(two + "X=$(srun python -c 'print(1)')\n"));
  // A task count the script does not give: S2A4025 says so, and the shape is not known.
  EXPECT_FALSE(reported(two + "srun -n \"$NTASKS\" python t.py\n"));
}

// NERSC's JAX demo: the image names JAX; four tasks a node under the shim.
TEST(JaxCluster, AJaxStepUnderTheShimIsToldToPassTheCluster) {
  const Translation t =
      run("#!/bin/bash -l\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=4\n"
          "#SBATCH --gpus-per-node=4\n#SBATCH --image=ghcr.io/nvidia/jax:jax\n"
          "srun shifter --module=gpu python3 ./distributed.py\n");
  const std::string text = only_message(t, Code::jax_cluster_not_found);
  EXPECT_TRUE(contains(text, "not SLURM_JOB_ID or SLURM_STEP_NODELIST")) << text;
  EXPECT_TRUE(contains(text, "coordinator_address should be defined")) << text;
  EXPECT_TRUE(contains(text, "a port other than $MASTER_PORT")) << text;
  EXPECT_TRUE(contains(text, "local_device_ids=[int(os.environ['LOCAL_RANK'])]")) << text;
  // The shim still starts the tasks; no Slurm variable is emulated for JAX.
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(contains(t.workload->command, "slurm-task python3 ./distributed.py"));
  EXPECT_FALSE(contains(t.workload->command, "SLURM_JOB_ID"));
  EXPECT_FALSE(contains(t.workload->command, "SLURM_STEP_NODELIST"));
}

TEST(JaxCluster, OncePerNodeTheCountIsTheNodes) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH -N2 --ntasks-per-node=1 --gpus-per-node=h100:8\n"
          "module load jax/0.4.26\nsrun python train.py\n");
  const std::string text = only_message(t, Code::jax_cluster_not_found);
  EXPECT_TRUE(contains(text, "num_processes=int(os.environ['NUM_NODES'])")) << text;
  EXPECT_TRUE(contains(text, "process_id=int(os.environ['NODE_RANK'])")) << text;
  // One report at the step: the JAX one says what the general one would.
  EXPECT_TRUE(diagnostics_with(t, Code::task_variables_missing).empty());
}

TEST(JaxCluster, TheJobsSetupNamesJaxNotTheProgramsFileName) {
  const std::string job = "#!/bin/bash\n#SBATCH -N2 --ntasks-per-node=4 --gpus-per-node=h100:4\n";
  const auto reported = [](const std::string& text) {
    return !diagnostics_with(run(text), Code::jax_cluster_not_found).empty();
  };
  EXPECT_TRUE(reported(job + "pip install -U \"jax[cuda12]\"\nsrun python t.py\n"));
  EXPECT_TRUE(reported(job + "python -m pip install jaxlib\nsrun python t.py\n"));
  EXPECT_TRUE(reported(job + "conda activate jax-0.4\nsrun python t.py\n"));
  EXPECT_TRUE(reported(job + "source ~/envs/jax/bin/activate\nsrun python t.py\n"));
  EXPECT_TRUE(reported(job + "export XLA_PYTHON_CLIENT_MEM_FRACTION=.9\nsrun python t.py\n"));
  EXPECT_TRUE(reported(job + "srun env JAX_PLATFORMS=cuda python t.py\n") ||
              reported(job + "JAX_PLATFORMS=cuda srun python t.py\n"));
  EXPECT_TRUE(reported(job + "srun singularity exec --nv $HOME/jax_24.04.sif python t.py\n"));
  EXPECT_TRUE(reported(job + "srun --container-image=nvcr.io#nvidia/jax:24.04 python t.py\n"));
  // CINECA's user script: only the file's name says JAX.
  EXPECT_FALSE(reported(job + "source ~/.venv/main/bin/activate\nsrun python jax_dist.py\n"));
  EXPECT_FALSE(reported(job + "srun bash -c 'python jax_dist.py'\n"));
  EXPECT_FALSE(reported(job + "# module load jax\nsrun python t.py\n"));
  // A program the translation cannot see may be JAX's (JAX Toolbox's templates).
  EXPECT_TRUE(reported(job + "export XLA_FLAGS=--xla_gpu_graph_level=0\n"
                             "read -r -d '' cmd <<EOF\npython3 MaxText/train.py\nEOF\n"
                             "srun --container-image=\"$C\" bash -c \"${cmd}\"\n"));
  // JAX, but nothing the step starts is a Python program.
  EXPECT_FALSE(reported(job + "module load jax\nsrun nvidia-smi\n"));
}

TEST(JaxCluster, NamesJaxByAComponentsStart) {
  EXPECT_TRUE(air::names_jax("jax"));
  EXPECT_TRUE(air::names_jax("\"jax[cuda12_pip]==0.4.23\""));
  EXPECT_TRUE(air::names_jax("ghcr.io/nvidia/jax:jax"));
  EXPECT_TRUE(air::names_jax("--image=JAX-toolbox"));
  EXPECT_FALSE(air::names_jax("flax"));
  EXPECT_FALSE(air::names_jax("ajax"));
  EXPECT_FALSE(air::names_jax("torch"));
}

// NERSC's SC23 tutorial: the file sets RANK=$SLURM_PROCID and the rest.
TEST(SourcedInStep, AFileSourcedInEachTaskIsReported) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH --gpus-per-task 1\n#SBATCH --image=nersc/pytorch:ngc-23.07-v0\n"
          "srun -u shifter -V /d:/data bash -c \"\n    source export_DDP_vars.sh\n"
          "    python train.py\n    \"\n");
  const std::string text = only_message(t, Code::shell_script_unread);
  EXPECT_TRUE(contains(text, "`source export_DDP_vars.sh` runs in each task of this srun step"))
      << text;
  EXPECT_TRUE(contains(text, "RANK=$SLURM_PROCID leaves RANK empty")) << text;
  const auto found = diagnostics_with(t, Code::shell_script_unread);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(t.file->line_col(found.front().span.begin).line, 5u);
}

TEST(SourcedInStep, UnderTheShimOnlyTheOtherSlurmVariablesAreMissing) {
  const Translation t =
      run("#!/bin/bash\n#SBATCH -N2 --ntasks-per-node=8 --gpus-per-node=h100:8\n"
          "srun bash -c '. ./env.sh && python train.py'\n");
  const std::string text = only_message(t, Code::shell_script_unread);
  EXPECT_TRUE(contains(text, "the shim gives it SLURM_PROCID")) << text;
}

TEST(SourcedInStep, FilesSourcedOnceOrSetUpElsewhereAreNotThisReports) {
  const auto reported = [](const std::string& text) {
    return !diagnostics_with(run(text), Code::shell_script_unread).empty();
  };
  const std::string job = "#!/bin/bash\n#SBATCH -N2 --ntasks-per-node=8 --gpus-per-node=h100:8\n";
  // The batch shell's source ran once, with the batch step's variables.
  EXPECT_FALSE(reported(job + "source export_DDP_vars.sh\nsrun python train.py\n"));
  // A batch line's `bash -c` runs once too.
  EXPECT_FALSE(reported(job + "bash -c 'source env.sh; python prep.py'\n"));
  // Login files, activations (removed) and /opt (S2A5022) are other rules'.
  EXPECT_FALSE(reported(job + "srun bash -c 'source ~/.bashrc; python t.py'\n"));
  EXPECT_FALSE(reported(job + "srun bash -c 'source venv/bin/activate; python t.py'\n"));
  EXPECT_FALSE(reported(job + "srun bash -c 'source /opt/intel/setvars.sh; python t.py'\n"));
  // The cluster's or a container's own files, in a variable or under / (S2A5010's paths).
  EXPECT_FALSE(reported(job + "srun bash -c 'source /ext3/env.sh; python t.py'\n"));
  EXPECT_FALSE(reported(job + "srun bash -c 'source $MPIVARS_PATH; ./a.out'\n"));
}

}  // namespace
}  // namespace s2a
