// `slurm2air rehearse` through the real binary: consent, errors, summary and
// exit statuses (the e2e suite covers real training under torchrun).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "support/run_process.hpp"

namespace {

namespace fs = std::filesystem;
using s2a::testing::read_file;
using s2a::testing::run_process;
using s2a::testing::write_file;

class RehearseCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("s2a-cli-" + std::string(info->name()) + "-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "code");
    write_file((dir_ / "code/hello.txt").string(), "hi from the code\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void workload(const std::string& command, const std::string& extra = "") {
    write_file((dir_ / "train.yaml").string(),
               "experiment_name: cli\ncompute:\n  accelerator_type: GPU_1xA10\n"
               "  num_accelerators: 2\ncode_source:\n  root_path: code\ncommand: |\n  " +
                   command + "\n" + extra);
  }

  s2a::testing::ProcessResult rehearse(std::vector<std::string> extra) {
    std::vector<std::string> args = {"rehearse", "train.yaml", "--workdir",
                                     "run",      "--grace",    "0.5"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_process(SLURM2AIR_BINARY, args, dir_.string());
  }

  fs::path dir_;
};

TEST_F(RehearseCli, RefusesWithoutYesWhenStdinIsNotATerminal) {
  workload("touch ran");
  const auto result = rehearse({});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(result.err,
            "slurm2air rehearse: refusing to run train.yaml without --yes: it executes the "
            "workload's command and stdin is not a terminal to ask on\n");
  EXPECT_FALSE(fs::exists(dir_ / "run"));
}

// On a terminal it asks; anything but yes leaves the command unrun. script(1)
// provides the terminal.
TEST_F(RehearseCli, AsksOnATerminalAndRespectsNo) {
  if (!fs::exists("/usr/bin/script")) GTEST_SKIP() << "script(1) (bsdutils) is not installed";
  workload("touch \"$CODE_SOURCE_PATH/../../../ran\"");
  write_file((dir_ / "answer").string(), "n\n");
  const auto result = run_process(
      "/usr/bin/script",
      {"-qec", std::string(SLURM2AIR_BINARY) + " rehearse train.yaml --workdir run", "/dev/null"},
      dir_.string(), (dir_ / "answer").string());
  EXPECT_EQ(result.exit_code, 2) << result.out;
  EXPECT_NE(result.out.find("Run this command on this machine, once per node? [y/N] "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("slurm2air rehearse: not run"), std::string::npos) << result.out;
  EXPECT_FALSE(fs::exists(dir_ / "run/ran"));
}

TEST_F(RehearseCli, RunsEveryNodeAndPrintsASummary) {
  workload("cat \"$CODE_SOURCE_PATH/hello.txt\"; echo \"rank $NODE_RANK of $NUM_NODES\"",
           "parameters:\n  lr: 0.5\n");
  const auto result = rehearse({"--yes"});
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("  nodes:          2 local processes (NODE_RANK 0..1)"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("[node 1] rank 1 of 2\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("rehearsal succeeded: 2 node(s)"), std::string::npos) << result.out;
  EXPECT_EQ(read_file((dir_ / "run/node-0.log").string()), "hi from the code\nrank 0 of 2\n");
  EXPECT_EQ(read_file((dir_ / "run/node-1/hyperparameters.yaml").string()), "lr: 0.5\n");
}

TEST_F(RehearseCli, ExitStatusIsTheWorstNodes) {
  workload("echo \"failing on $NODE_RANK\"; exit $((NODE_RANK + 5))");
  const auto result = rehearse({"--yes", "--quiet", "--keep-going"});
  EXPECT_EQ(result.exit_code, 6) << result.out;
  EXPECT_NE(result.out.find("last lines of node 1 (failed):\n  | failing on 1\n"),
            std::string::npos)
      << result.out;
  EXPECT_EQ(result.out.find("[node"), std::string::npos) << "--quiet prints no live output";
}

TEST_F(RehearseCli, TimeLimitGives124) {
  workload("sleep 30");
  const auto result = rehearse({"--yes", "--timeout", "0.5"});
  EXPECT_EQ(result.exit_code, 124) << result.out;
  EXPECT_NE(result.out.find("rehearsal timed out"), std::string::npos) << result.out;
}

TEST_F(RehearseCli, BadWorkloadIsReportedWithoutRunning) {
  write_file((dir_ / "train.yaml").string(), "experiment_name: x\n");
  const auto result = rehearse({"--yes"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "slurm2air rehearse: error: train.yaml: command is required\n");
}

TEST_F(RehearseCli, NodesOutOfRangeIsAUsageError) {
  workload("true");
  const auto result = rehearse({"--yes", "--nodes", "0"});
  EXPECT_EQ(result.exit_code, 3);
}

}  // namespace
