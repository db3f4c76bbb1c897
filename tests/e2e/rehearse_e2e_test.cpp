// End-to-end: convert realistic sbatch scripts with the real slurm2air binary,
// then `slurm2air rehearse` each translation for 2 nodes x 2 processes with
// Debian's torch 1.13 on CPU (gloo). tests/e2e/probe_train.py joins the
// process group, trains a tiny DDP model and writes what each rank saw.
//
// Needs /usr/bin/python3 with torch (apt-get install python3-torch; CI installs
// it); skipped with a message otherwise. Each case takes 15-35 s.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>

#include "support/run_process.hpp"

namespace {

namespace fs = std::filesystem;
using s2a::testing::read_file;
using s2a::testing::run_process;

constexpr uint32_t kNodes = 2;
constexpr uint32_t kProcsPerNode = 2;
constexpr uint32_t kWorldSize = kNodes * kProcsPerNode;

const std::string kSourceDir = SLURM2AIR_SOURCE_DIR;
const std::string kE2eDir = kSourceDir + "/tests/e2e";

struct E2eCase {
  const char* name;
  const char* script;  // under tests/e2e/scripts/
  bool static_ranks;   // node K holds ranks 2K, 2K+1 (not so for a c10d rendezvous)
  // Set while the translation of a launch style is not done yet: the case is
  // skipped unless S2A_E2E_RUN_PENDING=1. No case is pending today.
  const char* pending_reason;
};

std::ostream& operator<<(std::ostream& out, const E2eCase& c) { return out << c.name; }

const E2eCase kCases[] = {
    {"torchrun_srun_bash", "torchrun_srun_bash.sbatch", true, nullptr},
    {"per_task_procid", "per_task_procid.sbatch", true, nullptr},
    {"torch_distributed_launch", "torch_distributed_launch.sbatch", true, nullptr},
    // The script's `export GPUS_PER_NODE=8` feeds --num_processes; the
    // translation makes it $LOCAL_WORLD_SIZE, so 2 processes per node here.
    {"accelerate_launch", "accelerate_launch.sbatch", false, nullptr},
};

std::string torch_missing_reason() {
  static const std::string reason = [] {
    if (!fs::exists("/usr/bin/python3")) return std::string("/usr/bin/python3 is missing");
    const auto probe = run_process(
        "/usr/bin/python3",
        {"-c",
         "import torch.distributed as d; raise SystemExit(0 if d.is_gloo_available() else 1)"});
    if (probe.exit_code != 0) {
      return std::string(
          "python3-torch (with gloo) is not installed: apt-get install python3-torch "
          "(CI installs it)");
    }
    return std::string();
  }();
  return reason;
}

/// One integer field of the probe's flat JSON object.
std::optional<long> json_int(const std::string& json, const std::string& key) {
  const std::regex pattern("\"" + key + "\": (-?[0-9]+)(\\.0)?");
  std::smatch match;
  if (!std::regex_search(json, match, pattern)) return std::nullopt;
  return std::stol(match[1]);
}

struct RankReport {
  long rank, local_rank, world_size, node_rank, all_reduce_sum;
  bool in_sync;
};

class RehearseE2e : public ::testing::TestWithParam<E2eCase> {
 protected:
  void SetUp() override {
    if (const std::string reason = torch_missing_reason(); !reason.empty()) GTEST_SKIP() << reason;
    const E2eCase& c = GetParam();
    const char* run_pending = std::getenv("S2A_E2E_RUN_PENDING");
    if (c.pending_reason != nullptr &&
        (run_pending == nullptr || std::string(run_pending) != "1")) {
      GTEST_SKIP() << c.name << ": " << c.pending_reason
                   << " (run anyway with S2A_E2E_RUN_PENDING=1)";
    }
    dir_ = fs::temp_directory_path() /
           ("s2a-e2e-" + std::string(c.name) + "-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    for (const char* sub : {"code", "probe", "bin"}) fs::create_directories(dir_ / sub);
    fs::copy_file(kE2eDir + "/scripts/" + c.script, dir_ / "code/job.sbatch");
    fs::copy_file(kE2eDir + "/probe_train.py", dir_ / "code/train.py");
    // `python` in a script must be Debian's python3 (the one with torch).
    fs::create_symlink("/usr/bin/python3", dir_ / "bin/python");
    fs::copy_file(kE2eDir + "/bin/accelerate", dir_ / "bin/accelerate");
  }

  void TearDown() override {
    if (!dir_.empty() && !HasFailure()) fs::remove_all(dir_);
  }

  std::vector<RankReport> reports() const {
    std::vector<RankReport> out;
    for (const auto& entry : fs::directory_iterator(dir_ / "probe")) {
      const std::string json = read_file(entry.path().string());
      RankReport r{};
      r.rank = json_int(json, "rank").value_or(-1);
      r.local_rank = json_int(json, "local_rank").value_or(-1);
      r.world_size = json_int(json, "world_size").value_or(-1);
      r.node_rank = json_int(json, "node_rank").value_or(-1);
      r.all_reduce_sum = json_int(json, "all_reduce_sum").value_or(-1);
      r.in_sync = json.find("\"weights_in_sync\": true") != std::string::npos;
      out.push_back(r);
    }
    return out;
  }

  fs::path dir_;
};

TEST_P(RehearseE2e, TranslationTrainsOnTwoNodesOfTwoProcesses) {
  const std::string code = (dir_ / "code").string();
  const auto convert = run_process(SLURM2AIR_BINARY, {"job.sbatch", "-o", "train.yaml"}, code);
  ASSERT_LE(convert.exit_code, 1) << convert.err;
  ASSERT_TRUE(fs::exists(dir_ / "code/train.yaml")) << convert.err;

  const auto rehearse = run_process(
      "/usr/bin/env",
      {"PATH=" + (dir_ / "bin").string() + ":/usr/bin:/bin",
       "PYTHONPATH=" + kE2eDir + "/pythonpath", "S2A_PROBE_DIR=" + (dir_ / "probe").string(),
       "OMP_NUM_THREADS=1", SLURM2AIR_BINARY, "rehearse", "code/train.yaml", "--nodes",
       std::to_string(kNodes), "--gpus-per-node", std::to_string(kProcsPerNode), "--timeout", "90",
       "--grace", "2", "--workdir", "run", "--yes"},
      dir_.string());
  const std::string context = "train.yaml:\n" + read_file((dir_ / "code/train.yaml").string()) +
                              "\nrehearse output:\n" + rehearse.out + rehearse.err;
  ASSERT_EQ(rehearse.exit_code, 0) << context;

  const std::vector<RankReport> ranks = reports();
  ASSERT_EQ(ranks.size(), kWorldSize) << context;
  std::set<long> seen;
  std::map<long, std::set<long>> ranks_by_node;
  for (const RankReport& r : ranks) {
    seen.insert(r.rank);
    ranks_by_node[r.node_rank].insert(r.rank);
    EXPECT_EQ(r.world_size, kWorldSize) << "rank " << r.rank;
    EXPECT_EQ(r.local_rank, r.rank % kProcsPerNode) << "rank " << r.rank;
    EXPECT_EQ(r.all_reduce_sum, kWorldSize * (kWorldSize + 1) / 2) << "rank " << r.rank;
    EXPECT_TRUE(r.in_sync) << "rank " << r.rank << " ended with different weights";
    if (GetParam().static_ranks) {
      EXPECT_EQ(r.node_rank, r.rank / kProcsPerNode) << "rank " << r.rank;
    }
  }
  EXPECT_EQ(seen, (std::set<long>{0, 1, 2, 3})) << context;
  ASSERT_EQ(ranks_by_node.size(), kNodes) << "every node runs its own processes\n" << context;
  for (const auto& [node, node_ranks] : ranks_by_node) {
    EXPECT_EQ(node_ranks.size(), kProcsPerNode) << "node " << node;
  }
  EXPECT_TRUE(fs::exists(dir_ / "run/node-0.log"));
  EXPECT_TRUE(fs::exists(dir_ / "run/node-1.log"));
}

INSTANTIATE_TEST_SUITE_P(LaunchStyles, RehearseE2e, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<E2eCase>& param) {
                           return std::string(param.param.name);
                         });

}  // namespace
