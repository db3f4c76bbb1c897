// Variables that pick hardware by the cluster's names: CUDA_VISIBLE_DEVICES
// naming GPUs an AI Runtime node does not have (S2A5016), network interfaces
// and adapters (S2A5017); Slurm's value for a CUDA_VISIBLE_DEVICES the script
// reads (S2A5021).
#include <gtest/gtest.h>

#include "support/diagnostics.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

std::vector<Diagnostic> reports_of(Code code, const std::string& gpus, const std::string& body) {
  return testing::diagnostics_with(
      translate("job.sbatch", "#!/bin/bash\n#SBATCH " + gpus + "\n" + body), code);
}

std::vector<Diagnostic> device_reports(const std::string& gpus, const std::string& body) {
  return reports_of(Code::visible_devices_missing, gpus, body);
}

std::vector<Diagnostic> network_reports(const std::string& body) {
  return reports_of(Code::cluster_network_devices, "--nodes=2 --gpus-per-node=h100:8", body);
}

TEST(VisibleDevices, AGpuNumberPastTheNodesGpusHidesThemAll) {
  const std::string body = "export CUDA_VISIBLE_DEVICES=7\npython train.py\n";
  const auto reports = device_reports("--gres=gpu:1", body);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].message,
            "CUDA_VISIBLE_DEVICES=7 names GPU 7, but a GPU_1xH100 node has 1 GPU, numbered 0: "
            "CUDA sees no GPU");
  EXPECT_EQ(reports[0].hint, "drop the assignment: the node's one GPU (0) is the job's");
  const std::string before = "#!/bin/bash\n#SBATCH --gres=gpu:1\nexport ";
  EXPECT_EQ(reports[0].span.begin, before.size());
  EXPECT_EQ(reports[0].span.size(), std::string("CUDA_VISIBLE_DEVICES=7").size());
}

TEST(VisibleDevices, CudaShowsTheGpusListedBeforeTheFirstMissingOne) {
  const auto reports =
      device_reports("--gpus-per-node=h100:8", "CUDA_VISIBLE_DEVICES=6,7,8,9 python train.py\n");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].message,
            "CUDA_VISIBLE_DEVICES=6,7,8,9 names GPU 8, but a GPU_8xH100 node has 8 GPUs, "
            "numbered 0 to 7: CUDA stops at the first GPU that is missing, so the program sees "
            "2 GPUs of the list");
  EXPECT_EQ(reports[0].hint,
            "drop the assignment (every GPU of the node is the job's), or pick GPUs by their "
            "number on the node, 0 to 7");
}

TEST(VisibleDevices, AJobThatAskedForNoGpusIsToldToChooseAShape) {
  const auto reports =
      device_reports("--ntasks=32", "export CUDA_VISIBLE_DEVICES=0,1\npmemd.cuda\n");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].hint,
            "the script asks Slurm for no GPUs, so GPU_1xA10 was assumed: if the job uses the 2 "
            "GPUs it lists, translate it with --accelerator-type GPU_8xH100; otherwise drop the "
            "assignment");
}

TEST(VisibleDevices, GpusOfTheNodeAreNotReported) {
  EXPECT_TRUE(device_reports("--gpus-per-node=h100:8",
                             "export CUDA_VISIBLE_DEVICES=0,1,2,3\n"
                             "CUDA_VISIBLE_DEVICES=4,5,6,7 python eval.py\n"
                             "declare -x CUDA_VISIBLE_DEVICES=\" 0, 7\"\n")
                  .empty());
  EXPECT_TRUE(device_reports("--gres=gpu:1", "CUDA_VISIBLE_DEVICES=0 python train.py\n").empty());
}

TEST(VisibleDevices, ValuesThatHideEveryGpuOrAreComputedAreNotJudged) {
  EXPECT_TRUE(device_reports("--gres=gpu:1",
                             "CUDA_VISIBLE_DEVICES='' python prep.py\n"
                             "CUDA_VISIBLE_DEVICES=-1 python prep.py\n"
                             "export CUDA_VISIBLE_DEVICES=NoDevFiles\n"
                             "for i in 0 1 2; do CUDA_VISIBLE_DEVICES=$i python a.py & done\n"
                             "export CUDA_VISIBLE_DEVICES=$(free_gpu)\n"
                             "CUDA_VISIBLE_DEVICES+=,3 python b.py\n")
                  .empty());
}

TEST(VisibleDevices, GpuUuidsAreTheClustersOwn) {
  const auto reports = device_reports(
      "--gres=gpu:1", "export CUDA_VISIBLE_DEVICES=GPU-5c1f0a2e-9b1d-4e0a-8d1c-3f6a7b8c9d0e\n");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_NE(reports[0].message.find("by its UUID (GPU-5c1f0a2e-9b1d-4e0a-8d1c-3f6a7b8c9d0e)"),
            std::string::npos);
}

TEST(VisibleDevices, EveryWayOfSettingItIsRead) {
  const auto reports =
      device_reports("--gres=gpu:1",
                     "#SBATCH --export=ALL,CUDA_VISIBLE_DEVICES=1\n"
                     "readonly CUDA_VISIBLE_DEVICES=2\n"
                     "env -u X OMP_NUM_THREADS=1 CUDA_VISIBLE_DEVICES=3 python t.py\n"
                     "env python t.py CUDA_VISIBLE_DEVICES=4\n"
                     "srun bash -c \"CUDA_VISIBLE_DEVICES=5 python t.py\"\n");
  ASSERT_EQ(reports.size(), 4u);
  EXPECT_EQ(reports[0].message.substr(0, 22), "CUDA_VISIBLE_DEVICES=1");
  EXPECT_EQ(reports[1].message.substr(0, 22), "CUDA_VISIBLE_DEVICES=2");
  EXPECT_EQ(reports[2].message.substr(0, 22), "CUDA_VISIBLE_DEVICES=3");
  EXPECT_EQ(reports[3].message.substr(0, 22), "CUDA_VISIBLE_DEVICES=5");
}

// S2A5018: Slurm's list of the job's GPUs is unset on AI Runtime; an empty
// CUDA_VISIBLE_DEVICES would hide every GPU.
TEST(VisibleDevices, SlurmsGpuListIsRemoved) {
  const Translation t =
      translate("job.sbatch",
                "#!/bin/bash\n#SBATCH --nodes=2 --gres=gpu:8\n"
                "export CUDA_VISIBLE_DEVICES=${SLURM_STEP_GPUS:-$SLURM_JOB_GPUS}\n"
                "CUDA_VISIBLE_DEVICES=\"$SLURM_JOB_GPUS\"\n"
                "export CUDA_VISIBLE_DEVICES=${SLURM_JOB_GPUS},0\n"
                "srun torchrun --nnodes 2 --nproc_per_node 8 train.py\n");
  ASSERT_TRUE(t.workload);
  const std::string& command = t.workload->command;
  EXPECT_NE(command.find("# [slurm2air] export CUDA_VISIBLE_DEVICES=${SLURM_STEP_GPUS:-$SLURM_"
                         "JOB_GPUS}\n# [slurm2air] CUDA_VISIBLE_DEVICES=\"$SLURM_JOB_GPUS\"\n"
                         "export CUDA_VISIBLE_DEVICES=${SLURM_JOB_GPUS},0\n"),
            std::string::npos)
      << command;
  size_t removed = 0;
  size_t unknown_variable_lines = 0;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::visible_devices_from_slurm) ++removed;
    if (d.code == Code::slurm_variable_unmapped) {
      EXPECT_EQ(t.file->line_col(d.span.begin).line, 5u);  // only the mixed value
      ++unknown_variable_lines;
    }
  }
  EXPECT_EQ(removed, 2u);
  EXPECT_EQ(unknown_variable_lines, 1u);
}

// S2A5019: a 4-GPU job on an 8-GPU shape keeps its 4 GPUs visible, while the
// launch counts the translation writes (deepspeed's hostfile) are the node's.
TEST(VisibleDevices, PartOfTheNodeIsReportedWhenLaunchCountsAreTheNodes) {
  const std::string gpus = "--nodes=2 --gres=gpu:4";
  const auto reports = reports_of(Code::visible_devices_subset, gpus + " --ntasks-per-node=1",
                                  "export CUDA_VISIBLE_DEVICES=0,1,2,3\nsrun deepspeed train.py\n");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].message,
            "CUDA_VISIBLE_DEVICES=0,1,2,3 shows 4 of the 8 GPUs of a GPU_8xH100 node, but launch "
            "counts on AI Runtime are the node's ($LOCAL_WORLD_SIZE = 8): a launcher started with "
            "them runs processes that find no GPU of their own");
  EXPECT_EQ(reports[0].hint,
            "drop the assignment to use the whole node, or give the launcher 4 processes per node");
  // Four tasks a node start four workers: the task shim's $LOCAL_WORLD_SIZE
  // is torchrun's own count.
  EXPECT_TRUE(reports_of(Code::visible_devices_subset, gpus + " --ntasks-per-node=4",
                         "export CUDA_VISIBLE_DEVICES=0,1,2,3\nsrun python train.py\n")
                  .empty());
  // Slurm's GPU count stays the job's 4, like a count written as a number.
  EXPECT_TRUE(reports_of(Code::visible_devices_subset, gpus,
                         "export CUDA_VISIBLE_DEVICES=0,1,2,3\n"
                         "srun torchrun --nnodes 2 --nproc_per_node $SLURM_GPUS_ON_NODE train.py\n")
                  .empty());
  // A count written as a number stays the script's own.
  EXPECT_TRUE(reports_of(Code::visible_devices_subset, gpus,
                         "export CUDA_VISIBLE_DEVICES=0,1,2,3\n"
                         "srun torchrun --nnodes 2 --nproc_per_node 4 train.py\n")
                  .empty());
}

TEST(NetworkDevices, InterfacesPickedByNameAreReportedWhereTheyAreSet) {
  const std::string body =
      "export NCCL_SOCKET_IFNAME=ib0\n"
      "export GLOO_SOCKET_IFNAME=ens,ib\n"
      "NCCL_IB_HCA=mlx5_0,mlx5_2 UCX_NET_DEVICES=mlx5_0:1 srun python train.py\n";
  const auto reports = network_reports(body);
  ASSERT_EQ(reports.size(), 4u);
  EXPECT_EQ(reports[0].message,
            "NCCL_SOCKET_IFNAME=ib0 picks network interfaces by the names they have on the "
            "cluster's nodes; an AI Runtime node's interfaces may be named otherwise, and when "
            "none matches, the library finds no interface and the job fails as it starts");
  const std::string before = "#!/bin/bash\n#SBATCH --nodes=2 --gpus-per-node=h100:8\nexport ";
  EXPECT_EQ(reports[0].span.begin, before.size());
  EXPECT_EQ(reports[1].message.substr(0, 30), "GLOO_SOCKET_IFNAME=ens,ib pick");
  EXPECT_EQ(reports[2].message,
            "NCCL_IB_HCA=mlx5_0,mlx5_2 picks the cluster's network adapters by name; an AI "
            "Runtime node has adapters of its own (EFA on GPU_8xH100), which this setting does "
            "not select");
  EXPECT_EQ(reports[3].message.substr(0, 26), "UCX_NET_DEVICES=mlx5_0:1 p");
}

TEST(NetworkDevices, ExclusionsAndComputedValuesAreNotReported) {
  EXPECT_TRUE(network_reports("export NCCL_SOCKET_IFNAME=^docker0,lo\n"
                              "export NCCL_SOCKET_IFNAME=$(ip route | awk '/default/ {print $5}')\n"
                              "export GLOO_SOCKET_IFNAME=$NCCL_SOCKET_IFNAME\n"
                              "export NCCL_DEBUG=INFO FI_PROVIDER=efa\n"
                              "export NCCL_SOCKET_IFNAME=eth0,en,eth,em,bond UCX_NET_DEVICES=all\n"
                              "export GLOO_SOCKET_IFNAME=lo\n"
                              "srun python train.py\n")
                  .empty());
}

// --- CUDA_VISIBLE_DEVICES read, never set (S2A5021) -----------------------------------

std::optional<std::string> visible_devices_env(const Translation& t) {
  if (!t.workload) return std::nullopt;
  for (const auto& v : t.workload->env_variables) {
    if (v.name == "CUDA_VISIBLE_DEVICES") return v.value;
  }
  return std::nullopt;
}

TEST(VisibleDevicesRead, GetsTheGpusSlurmGaveTheJobOnTheNode) {
  const std::string script =
      "#!/bin/bash\n#SBATCH --gres=gpu:h100:8\n"
      "NGPU=$(echo $CUDA_VISIBLE_DEVICES | tr , '\\n' | wc -l)\npython t.py --gpus $NGPU\n";
  const Translation t = translate("job.sbatch", script);
  EXPECT_EQ(visible_devices_env(t), "0,1,2,3,4,5,6,7");
  const auto notes = testing::diagnostics_with(t, Code::visible_devices_given);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].span.begin, script.find("$CUDA_VISIBLE_DEVICES"));
  EXPECT_EQ(notes[0].hint, "nothing else changes: CUDA shows every GPU of the node either way");
}

TEST(VisibleDevicesRead, AJobOfFewerGpusThanTheNodeSeesItsOwn) {
  const Translation t = translate("job.sbatch",
                                  "#!/bin/bash\n#SBATCH --gres=gpu:h100:2\npython detect.py "
                                  "--device \"$CUDA_VISIBLE_DEVICES\"\n");
  EXPECT_EQ(visible_devices_env(t), "0,1");
  const auto notes = testing::diagnostics_with(t, Code::visible_devices_given);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].hint.find("the job's 2 of the node's 8 GPUs"), std::string::npos);
}

TEST(VisibleDevicesRead, NotGivenWhenTheScriptSetsItOrHasNoGpus) {
  for (const char* script : {
           "#!/bin/bash\n#SBATCH --gres=gpu:h100:8\nexport CUDA_VISIBLE_DEVICES=0,1\n"
           "echo $CUDA_VISIBLE_DEVICES\n",
           "#!/bin/bash\n#SBATCH --ntasks=4\necho $CUDA_VISIBLE_DEVICES\n",
           "#!/bin/bash\n#SBATCH --gres=gpu:h100:8\n# echo $CUDA_VISIBLE_DEVICES\npython t.py\n",
       }) {
    const Translation t = translate("job.sbatch", script);
    // The script's own literal export moves to env_variables as it is.
    EXPECT_NE(visible_devices_env(t).value_or(""), "0,1,2,3,4,5,6,7") << script;
    EXPECT_TRUE(testing::diagnostics_with(t, Code::visible_devices_given).empty()) << script;
  }
}

}  // namespace
}  // namespace s2a
