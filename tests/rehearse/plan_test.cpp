// The rehearsal planner: node count, the environment of every node
// (spec/air-runtime.md §1.9), root_path resolution, free ports, preparation.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>

#include "rehearse/plan.hpp"
#include "support/run_process.hpp"

namespace s2a::rehearse {
namespace {

namespace fs = std::filesystem;

WorkloadFile workload(const std::string& yaml) { return parse_workload("/jobs/train.yaml", yaml); }

const char* const kTwoNodes =
    "compute: {accelerator_type: GPU_8xH100, num_accelerators: 16}\ncommand: torchrun train.py\n";

TEST(RehearsePlan, EveryNodeGetsTheAiRuntimeEnvironment) {
  const RehearsalPlan plan =
      plan_rehearsal(workload(kTwoNodes), RehearseOptions{}, {{"HOME", "/root"}}, "/w", 41234);
  ASSERT_EQ(plan.node_plans.size(), 2U);
  EXPECT_EQ(plan.nodes, 2U);
  EXPECT_EQ(plan.gpus_per_node, 8U);
  for (uint32_t rank = 0; rank < 2; ++rank) {
    const NodePlan& node = plan.node_plans[rank];
    EXPECT_EQ(node.rank, rank);
    EXPECT_EQ(node.dir, "/w/node-" + std::to_string(rank));
    EXPECT_EQ(node.log_path, "/w/node-" + std::to_string(rank) + ".log");
    EXPECT_EQ(node.environment, (Environment{{"HOME", "/root"},
                                             {"LOCAL_WORLD_SIZE", "8"},
                                             {"MASTER_ADDR", "127.0.0.1"},
                                             {"MASTER_PORT", "41234"},
                                             {"NODE_RANK", std::to_string(rank)},
                                             {"NUM_NODES", "2"},
                                             {"WORLD_SIZE", "16"}}));
  }
  EXPECT_EQ(plan.command_path, "/w/command.sh");
  EXPECT_FALSE(plan.timeout_seconds);
}

TEST(RehearsePlan, GpusPerNodeOptionSetsWorldSizes) {
  RehearseOptions options;
  options.nodes = 3;
  options.gpus_per_node = 2;
  const RehearsalPlan plan = plan_rehearsal(workload(kTwoNodes), options, {}, "/w", 1);
  ASSERT_EQ(plan.node_plans.size(), 3U);
  EXPECT_EQ(plan.node_plans[2].environment.at("WORLD_SIZE"), "6");
  EXPECT_EQ(plan.node_plans[2].environment.at("LOCAL_WORLD_SIZE"), "2");
  EXPECT_EQ(plan.node_plans[2].environment.at("NUM_NODES"), "3");
  EXPECT_EQ(plan.node_plans[2].environment.at("NODE_RANK"), "2");
}

TEST(RehearsePlan, SchedulerVariablesOfTheCallerDoNotLeak) {
  const Environment caller = {
      {"SLURM_PROCID", "3"},      {"SLURM_JOB_NODELIST", "gpu[1-2]"}, {"RANK", "5"},
      {"LOCAL_RANK", "1"},        {"OMPI_COMM_WORLD_RANK", "1"},      {"TORCHELASTIC_RUN_ID", "x"},
      {"PMI_RANK", "0"},          {"CODE_SOURCE_PATH", "/old"},       {"PATH", "/usr/bin"},
      {"SLURMD_NODENAME", "kept"}};
  const RehearsalPlan plan = plan_rehearsal(workload(kTwoNodes), {}, caller, "/w", 1);
  const Environment& env = plan.node_plans[0].environment;
  for (const char* name :
       {"SLURM_PROCID", "SLURM_JOB_NODELIST", "RANK", "LOCAL_RANK", "OMPI_COMM_WORLD_RANK",
        "TORCHELASTIC_RUN_ID", "PMI_RANK", "CODE_SOURCE_PATH"}) {
    EXPECT_EQ(env.count(name), 0U) << name;
  }
  EXPECT_EQ(env.at("PATH"), "/usr/bin");
  EXPECT_EQ(env.at("SLURMD_NODENAME"), "kept");  // not SLURM_: a user's own name
}

TEST(RehearsePlan, EnvVariablesApplyButPlatformVariablesWin) {
  const RehearsalPlan plan = plan_rehearsal(
      workload(std::string(kTwoNodes) +
               "env_variables: {NCCL_DEBUG: INFO, MASTER_PORT: '29500', PATH: /opt/bin}\n"),
      {}, {{"PATH", "/usr/bin"}}, "/w", 40000);
  const Environment& env = plan.node_plans[1].environment;
  EXPECT_EQ(env.at("NCCL_DEBUG"), "INFO");
  EXPECT_EQ(env.at("PATH"), "/opt/bin");
  EXPECT_EQ(env.at("MASTER_PORT"), "40000");
  EXPECT_EQ(plan.notes, (std::vector<std::string>{
                            "env_variables sets MASTER_PORT, which AI Runtime sets itself; the "
                            "rehearsal uses the platform value"}));
}

TEST(RehearsePlan, SecretsArePlaceholdersNeverReferences) {
  const RehearsalPlan plan = plan_rehearsal(
      workload(std::string(kTwoNodes) + "secrets: {HF_TOKEN: ml/hf_token, WANDB_API_KEY: ml/wb}\n"),
      {}, {{"HF_TOKEN", "real-token-from-my-shell"}}, "/w", 1);
  for (const NodePlan& node : plan.node_plans) {
    EXPECT_EQ(node.environment.at("HF_TOKEN"), kSecretPlaceholder);
    EXPECT_EQ(node.environment.at("WANDB_API_KEY"), kSecretPlaceholder);
  }
  EXPECT_EQ(plan.secret_names, (std::vector<std::string>{"HF_TOKEN", "WANDB_API_KEY"}));
  const std::string text = describe_plan(plan);
  EXPECT_NE(text.find("secrets:        HF_TOKEN, WANDB_API_KEY = \"" +
                      std::string(kSecretPlaceholder) + "\" (placeholders, never the real values)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("real-token-from-my-shell"), std::string::npos);
}

TEST(RehearsePlan, ParametersAndCodeSourceGetPerNodePaths) {
  const fs::path root = fs::temp_directory_path() / ("s2a-plan-" + std::to_string(::getpid()));
  fs::create_directories(root / "repo");
  const RehearsalPlan plan = plan_rehearsal(
      parse_workload((root / "train.yaml").string(),
                     std::string(kTwoNodes) +
                         "code_source: {root_path: repo}\nparameters: {lr: 0.1, epochs: 3}\n"),
      {}, {}, "/w", 1);
  EXPECT_EQ(plan.code_root, (root / "repo").string());
  EXPECT_EQ(plan.parameters_yaml, std::optional<std::string>("lr: 0.1\nepochs: 3\n"));
  EXPECT_EQ(plan.node_plans[1].code_dir, "/w/node-1/code_source/repo");
  EXPECT_EQ(plan.node_plans[1].environment.at("CODE_SOURCE_PATH"), "/w/node-1/code_source/repo");
  EXPECT_EQ(plan.node_plans[1].environment.at("HYPERPARAMETERS_PATH"),
            "/w/node-1/hyperparameters.yaml");
  fs::remove_all(root);
}

TEST(RehearsePlan, TimeoutComesFromTheOptionElseTheYaml) {
  const WorkloadFile file = workload(std::string(kTwoNodes) + "timeout_minutes: 30\n");
  EXPECT_EQ(plan_rehearsal(file, {}, {}, "/w", 1).timeout_seconds, std::optional<double>(1800));
  RehearseOptions options;
  options.timeout_seconds = 2.5;
  EXPECT_EQ(plan_rehearsal(file, options, {}, "/w", 1).timeout_seconds, std::optional<double>(2.5));
}

struct ShapeError {
  const char* yaml;
  std::optional<uint32_t> nodes;
  std::optional<uint32_t> gpus;
  const char* message;
};

class RehearsePlanShapeErrors : public ::testing::TestWithParam<ShapeError> {};

TEST_P(RehearsePlanShapeErrors, SayWhatToPass) {
  RehearseOptions options;
  options.nodes = GetParam().nodes;
  options.gpus_per_node = GetParam().gpus;
  try {
    (void)plan_rehearsal(workload(GetParam().yaml), options, {}, "/w", 1);
    FAIL();
  } catch (const RehearseError& error) {
    EXPECT_EQ(std::string(error.what()), GetParam().message);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, RehearsePlanShapeErrors,
    ::testing::Values(
        ShapeError{"command: x\ncompute: {accelerator_type: TPU_v5}\n", 2, std::nullopt,
                   "/jobs/train.yaml: compute.accelerator_type 'TPU_v5' does not say how many GPUs "
                   "a node has; pass --gpus-per-node"},
        ShapeError{"command: x\ncompute: {accelerator_type: GPU_8xH100, num_accelerators: 12}\n",
                   std::nullopt, std::nullopt,
                   "/jobs/train.yaml: cannot derive the node count from compute; pass --nodes"},
        ShapeError{"command: x\ncompute: {accelerator_type: GPU_1xA10, num_accelerators: 500}\n",
                   std::nullopt, std::nullopt,
                   "/jobs/train.yaml: the workload asks for 500 nodes; a rehearsal runs at most 64 "
                   "on one machine, pass --nodes"},
        ShapeError{"command: x\n", 0, 1, "--nodes must be between 1 and 64"},
        ShapeError{"command: x\n", 1, 65, "--gpus-per-node must be between 1 and 64"},
        ShapeError{"command: x\n", 64, 64, "nodes x GPUs per node must be at most 1024"}));

TEST(RehearsePlan, MissingCodeSourceDirectoryIsAnError) {
  try {
    (void)plan_rehearsal(workload(std::string(kTwoNodes) + "code_source: {root_path: nowhere}\n"),
                         {}, {}, "/w", 1);
    FAIL();
  } catch (const RehearseError& error) {
    EXPECT_EQ(std::string(error.what()),
              "/jobs/train.yaml: code_source.root_path 'nowhere' is not a directory (resolved to "
              "/jobs/nowhere)");
  }
}

TEST(RehearsePlan, RootPathResolvesLikeTheCli) {
  const Environment env = {{"HOME", "/home/ana"}, {"REPO", "/src/repo"}};
  EXPECT_EQ(resolve_root_path(".", "/jobs/a/train.yaml", env), "/jobs/a");
  EXPECT_EQ(resolve_root_path("src", "/jobs/a/train.yaml", env), "/jobs/a/src");
  EXPECT_EQ(resolve_root_path("../lib", "/jobs/a/train.yaml", env), "/jobs/lib");
  EXPECT_EQ(resolve_root_path("project_root/src", "/jobs/a/train.yaml", env), "/jobs/a/src");
  EXPECT_EQ(resolve_root_path("~/code", "/jobs/a/train.yaml", env), "/home/ana/code");
  EXPECT_EQ(resolve_root_path("$REPO/train", "/jobs/a/train.yaml", env), "/src/repo/train");
  EXPECT_EQ(resolve_root_path("${REPO}", "/jobs/a/train.yaml", env), "/src/repo");
  EXPECT_EQ(resolve_root_path("/abs/dir", "/jobs/a/train.yaml", env), "/abs/dir");
}

TEST(RehearsePlan, FreePortIsOnLoopbackAndBindable) {
  const uint16_t port = find_free_port();
  EXPECT_GT(port, 0);
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  ::close(fd);
}

TEST(RehearsePlan, WorkdirMustBeNewOrEmpty) {
  const fs::path dir = fs::temp_directory_path() / ("s2a-workdir-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  EXPECT_EQ(make_workdir(dir.string()), dir.string());  // created
  EXPECT_EQ(make_workdir(dir.string()), dir.string());  // empty is fine
  s2a::testing::write_file((dir / "node-0.log").string(), "old run\n");
  EXPECT_THROW((void)make_workdir(dir.string()), RehearseError);
  fs::remove_all(dir);
  const std::string fresh = make_workdir("");
  EXPECT_TRUE(fs::is_directory(fresh));
  EXPECT_NE(fresh.find("slurm2air-rehearse-"), std::string::npos);
  fs::remove_all(fresh);
}

TEST(RehearsePlan, PrepareWritesCommandParametersAndCopies) {
  const fs::path root = fs::temp_directory_path() / ("s2a-prep-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "repo/pkg");
  s2a::testing::write_file((root / "repo/train.py").string(), "print('hi')\n");
  s2a::testing::write_file((root / "repo/pkg/util.py").string(), "X = 1\n");
  const std::string workdir = make_workdir((root / "repo/rehearsal").string());  // inside the code
  const RehearsalPlan plan = plan_rehearsal(
      parse_workload((root / "repo/train.yaml").string(),
                     std::string(kTwoNodes) + "code_source: {root_path: .}\nparameters: {lr: 1}\n"),
      {}, {}, workdir, 1);
  prepare_rehearsal(plan);
  EXPECT_EQ(s2a::testing::read_file(workdir + "/command.sh"), "torchrun train.py");  // verbatim
  for (const NodePlan& node : plan.node_plans) {
    EXPECT_EQ(s2a::testing::read_file(node.dir + "/hyperparameters.yaml"), "lr: 1\n");
    EXPECT_EQ(s2a::testing::read_file(node.code_dir + "/pkg/util.py"), "X = 1\n");
    EXPECT_FALSE(fs::exists(node.code_dir + "/rehearsal")) << "the work directory was copied";
  }
  fs::remove_all(root);
}

}  // namespace
}  // namespace s2a::rehearse
