// Proves the one-task-per-GPU translation with a real torchrun (Debian's
// python3-torch, CPU, gloo): the translated command runs for two simulated
// nodes on 127.0.0.1, and a program that reads SLURM_PROCID/SLURM_NTASKS and
// calls init_process_group(init_method="tcp://$MASTER_ADDR:$MASTER_PORT")
// sees the right ranks and completes an all-reduce; with a per-task GPU
// binding each worker sees only its own devices. Skipped without torchrun.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/run_process.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

namespace fs = std::filesystem;

constexpr const char* kProgram = R"(import os, torch, torch.distributed as dist
rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
dist.init_process_group("gloo", init_method="tcp://%s:%s" % (os.environ["MASTER_ADDR"],
                        os.environ["MASTER_PORT"]), rank=rank, world_size=world)
t = torch.ones(1) * rank
dist.all_reduce(t)
print("rank=%d local=%s node=%s ntasks=%d sum=%d devices=%s" % (rank,
      os.environ["SLURM_LOCALID"], os.environ["SLURM_NODEID"], world, int(t.item()),
      os.environ.get("CUDA_VISIBLE_DEVICES", "all")), flush=True)
)";

// How OpenMMLab's and BasicSR's tools start torch.distributed for each
// --launcher choice: `slurm` from Slurm's task variables, `pytorch` from
// torchrun's (init_process_group with env://).
constexpr const char* kLauncherProgram = R"(import os, sys, torch, torch.distributed as dist
choice = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--launcher=")]
choice = choice[0] if choice else sys.argv[sys.argv.index("--launcher") + 1]
if choice == "slurm":
    os.environ["RANK"], os.environ["WORLD_SIZE"] = os.environ["SLURM_PROCID"], os.environ["SLURM_NTASKS"]
    os.environ["MASTER_ADDR"] = os.environ["SLURM_NODELIST"].split(",")[0]
dist.init_process_group("gloo")
t = torch.ones(1) * dist.get_rank()
dist.all_reduce(t)
print("%s launcher=%s rank=%d world=%d sum=%d" % (sys.argv[1], choice, dist.get_rank(),
      dist.get_world_size(), int(t.item())), flush=True)
)";

// torch 1.13 on Python 3.11: Std.from_str("0") returns None; map it to Std.NONE.
constexpr const char* kSiteCustomize = R"(try:
    from torch.distributed.elastic.multiprocessing import api as _api
    _orig = _api.Std.from_str
    _api.Std.from_str = staticmethod(lambda vm: _orig(vm) or _api.Std.NONE)
except Exception:
    pass
)";

/// Runs the translation of `script` for two simulated nodes of two GPUs
/// each, with `program` as train.py, and returns both nodes' output.
std::string run_on_two_nodes(const std::string& script, const char* program = kProgram) {
  const Translation t = translate("job.sbatch", script);
  EXPECT_TRUE(t.workload.has_value());
  if (!t.workload) return "";
  const fs::path dir = fs::temp_directory_path() / ("s2a-shim-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "bin");
  fs::create_directories(dir / "site");
  testing::write_file((dir / "train.py").string(), program);
  testing::write_file((dir / "site" / "sitecustomize.py").string(), kSiteCustomize);
  testing::write_file((dir / "command.sh").string(), t.workload->command);
  fs::create_symlink("/usr/bin/python3", dir / "bin" / "python");
  const int port = 20000 + ::getpid() % 20000;
  std::string driver = "cd '" + dir.string() + "' && export PATH='" + (dir / "bin").string() +
                       "':/usr/bin:/bin PYTHONPATH='" + (dir / "site").string() +
                       "' CODE_SOURCE_PATH='" + dir.string() +
                       "' NUM_NODES=2 LOCAL_WORLD_SIZE=2 WORLD_SIZE=4 MASTER_ADDR=127.0.0.1 "
                       "MASTER_PORT=" +
                       std::to_string(port) +
                       " && "
                       "(NODE_RANK=0 timeout 120 bash command.sh > node0.log 2>&1 &"
                       " NODE_RANK=1 timeout 120 bash command.sh > node1.log 2>&1 & wait)";
  EXPECT_EQ(std::system(driver.c_str()), 0);
  const std::string logs = testing::read_file((dir / "node0.log").string()) +
                           testing::read_file((dir / "node1.log").string());
  fs::remove_all(dir);
  return logs;
}

TEST(ShimWithTorchrun, PerGpuTasksGetSlurmRanksOnTwoNodes) {
  if (!fs::exists("/usr/bin/torchrun")) GTEST_SKIP() << "torchrun is not installed";
  const std::string logs = run_on_two_nodes(
      "#!/bin/bash\n#SBATCH --nodes=2 --ntasks-per-node=2 --gpus-per-node=h100:8\n"
      "srun python -u train.py\n");
  for (const char* line : {"rank=0 local=0 node=0 ntasks=4 sum=6 devices=all",
                           "rank=1 local=1 node=0 ntasks=4 sum=6 devices=all",
                           "rank=2 local=0 node=1 ntasks=4 sum=6 devices=all",
                           "rank=3 local=1 node=1 ntasks=4 sum=6 devices=all"}) {
    EXPECT_NE(logs.find(line), std::string::npos) << line << "\n" << logs;
  }
}

// --gpus-per-task=2: each task saw its own two GPUs, as devices 0 and 1.
TEST(ShimWithTorchrun, PerTaskGpuBindingBecomesEachWorkersVisibleDevices) {
  if (!fs::exists("/usr/bin/torchrun")) GTEST_SKIP() << "torchrun is not installed";
  const std::string logs = run_on_two_nodes(
      "#!/bin/bash\n#SBATCH --nodes=2 --ntasks-per-node=2 --gpus-per-task=h100:2\n"
      "srun python -u train.py\n");
  for (const char* line : {"rank=0 local=0 node=0 ntasks=4 sum=6 devices=0,1",
                           "rank=1 local=1 node=0 ntasks=4 sum=6 devices=2,3",
                           "rank=2 local=0 node=1 ntasks=4 sum=6 devices=0,1",
                           "rank=3 local=1 node=1 ntasks=4 sum=6 devices=2,3"}) {
    EXPECT_NE(logs.find(line), std::string::npos) << line << "\n" << logs;
  }
}

// Princeton's DDP template picks its GPU from the job's shape, which Slurm
// put in each task's environment: local = rank % SLURM_GPUS_ON_NODE.
constexpr const char* kShapeProgram = R"(import os
rank, gpus = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_GPUS_ON_NODE"])
print("rank=%d gpu=%d nodes=%s nprocs=%s cpus=%s" % (rank, rank - gpus * (rank // gpus),
      os.environ["SLURM_NNODES"], os.environ["SLURM_NPROCS"],
      os.environ["SLURM_CPUS_PER_TASK"]), flush=True)
)";

TEST(ShimWithTorchrun, TasksReadTheJobsShapeAsUnderSlurm) {
  if (!fs::exists("/usr/bin/torchrun")) GTEST_SKIP() << "torchrun is not installed";
  const std::string logs = run_on_two_nodes(
      "#!/bin/bash\n#SBATCH --nodes=2 --ntasks-per-node=2 --cpus-per-task=4 --gres=gpu:2\n"
      "srun python -u train.py\n",
      kShapeProgram);
  for (const char* line :
       {"rank=0 gpu=0 nodes=2 nprocs=4 cpus=4", "rank=1 gpu=1 nodes=2 nprocs=4 cpus=4",
        "rank=2 gpu=0 nodes=2 nprocs=4 cpus=4", "rank=3 gpu=1 nodes=2 nprocs=4 cpus=4"}) {
    EXPECT_NE(logs.find(line), std::string::npos) << line << "\n" << logs;
  }
}

// `--launcher slurm` became `pytorch` under the torchrun that now starts the
// program: one process on each node is still a group of two, and srun's one
// task on node 0 a group of one.
TEST(ShimWithTorchrun, SlurmLauncherChoiceRunsAsPytorchUnderTorchrun) {
  if (!fs::exists("/usr/bin/torchrun")) GTEST_SKIP() << "torchrun is not installed";
  const std::string logs = run_on_two_nodes(
      "#!/bin/bash\n#SBATCH --nodes=2 --ntasks-per-node=1 --gpus-per-node=h100:8\n"
      "srun python -u train.py train --launcher=slurm\n"
      "srun -N1 -n1 python -u train.py test --launcher \"slurm\"\n",
      kLauncherProgram);
  for (const char* line : {"train launcher=pytorch rank=0 world=2 sum=1",
                           "train launcher=pytorch rank=1 world=2 sum=1",
                           "test launcher=pytorch rank=0 world=1 sum=0"}) {
    EXPECT_NE(logs.find(line), std::string::npos) << line << "\n" << logs;
  }
  EXPECT_EQ(logs.find("test launcher=pytorch rank=1"), std::string::npos) << logs;
}

}  // namespace
}  // namespace s2a
