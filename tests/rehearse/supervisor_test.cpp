// Supervising real node processes: environment, exit statuses, a failing
// node stopping the others, time limits, Ctrl-C, live output, no orphans.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>

#include "rehearse/supervisor.hpp"
#include "support/run_process.hpp"

namespace s2a::rehearse {
namespace {

namespace fs = std::filesystem;
using s2a::testing::read_file;

class RehearseSupervisor : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("s2a-sup-" + std::string(info->name()) + "-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  RehearsalPlan plan(const std::string& command, uint32_t nodes,
                     std::optional<double> timeout = std::nullopt) {
    RehearseOptions options;
    options.nodes = nodes;
    options.gpus_per_node = 2;
    options.timeout_seconds = timeout;
    const std::string workdir = make_workdir(dir_.string());
    RehearsalPlan p = plan_rehearsal(parse_workload("t.yaml", "command: |\n  " + command + "\n"),
                                     options, {{"PATH", "/usr/bin:/bin"}}, workdir, 45678);
    prepare_rehearsal(p);
    return p;
  }

  static SuperviseOptions quick() {
    SuperviseOptions options;
    options.grace_seconds = 0.5;
    return options;
  }

  // True while `pid` names a live (non-zombie) process.
  static bool alive(const std::string& pid_text) {
    const pid_t pid = static_cast<pid_t>(std::stol(pid_text));
    const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
    if (stat.empty()) return false;
    const size_t paren = stat.rfind(')');
    return paren != std::string::npos && stat.size() > paren + 2 && stat[paren + 2] != 'Z';
  }

  fs::path dir_;
};

TEST_F(RehearseSupervisor, NodesRunInParallelWithTheirEnvironment) {
  const RehearsalPlan p = plan(
      "echo \"$NODE_RANK/$NUM_NODES $WORLD_SIZE $LOCAL_WORLD_SIZE $MASTER_ADDR:$MASTER_PORT "
      "$(basename \"$PWD\")\"",
      3);
  const RunResult result = run_nodes(p, quick());
  ASSERT_EQ(result.nodes.size(), 3U);
  for (uint32_t rank = 0; rank < 3; ++rank) {
    EXPECT_EQ(result.nodes[rank].state, NodeState::succeeded);
    EXPECT_EQ(read_file(p.node_plans[rank].log_path),
              std::to_string(rank) + "/3 6 2 127.0.0.1:45678 node-" + std::to_string(rank) + "\n");
  }
  EXPECT_EQ(rehearsal_exit_status(result), 0);
}

TEST_F(RehearseSupervisor, LiveOutputIsPrefixedPerNode) {
  const RehearsalPlan p = plan("echo hello; printf 'no newline'", 1);
  std::ostringstream live;
  SuperviseOptions options = quick();
  options.live = &live;
  const RunResult result = run_nodes(p, options);
  EXPECT_EQ(live.str(), "[node 0] hello\n[node 0] no newline\n");
  EXPECT_EQ(result.nodes[0].last_lines, (std::vector<std::string>{"hello", "no newline"}));
}

TEST_F(RehearseSupervisor, AFailingNodeStopsTheOthers) {
  const RehearsalPlan p =
      plan("if [ \"$NODE_RANK\" = 1 ]; then echo boom >&2; exit 3; fi; sleep 30", 2);
  const auto start = std::chrono::steady_clock::now();
  const RunResult result = run_nodes(p, quick());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(result.nodes[0].state, NodeState::stopped);
  EXPECT_EQ(result.nodes[1].state, NodeState::failed);
  EXPECT_EQ(result.nodes[1].exit_code, 3);
  EXPECT_EQ(result.nodes[1].last_lines, (std::vector<std::string>{"boom"}));
  EXPECT_EQ(rehearsal_exit_status(result), 3);
}

TEST_F(RehearseSupervisor, KeepGoingLetsOtherNodesFinish) {
  const RehearsalPlan p = plan("if [ \"$NODE_RANK\" = 1 ]; then exit 4; fi; sleep 0.5", 2);
  SuperviseOptions options = quick();
  options.stop_on_failure = false;
  const RunResult result = run_nodes(p, options);
  EXPECT_EQ(result.nodes[0].state, NodeState::succeeded);
  EXPECT_EQ(result.nodes[1].state, NodeState::failed);
  EXPECT_EQ(rehearsal_exit_status(result), 4);
}

TEST_F(RehearseSupervisor, TimeLimitStopsEveryNodeAndItsChildren) {
  // Each node starts a background child (like torchrun's workers) and waits.
  const RehearsalPlan p = plan("sleep 300 & echo $! > child.pid; wait", 2, 0.5);
  const auto start = std::chrono::steady_clock::now();
  const RunResult result = run_nodes(p, quick());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  for (const NodePlan& node : p.node_plans) {
    EXPECT_EQ(result.nodes[node.rank].state, NodeState::timed_out);
    const std::string pid = read_file(node.dir + "/child.pid");
    ASSERT_FALSE(pid.empty());
    EXPECT_FALSE(alive(pid)) << "orphan " << pid;
  }
  EXPECT_EQ(rehearsal_exit_status(result), kExitTimedOut);
}

TEST_F(RehearseSupervisor, ANodeIgnoringSigtermIsKilled) {
  const RehearsalPlan p = plan("trap '' TERM; while :; do sleep 0.1; done", 1, 0.3);
  const RunResult result = run_nodes(p, quick());
  EXPECT_EQ(result.nodes[0].state, NodeState::timed_out);
  EXPECT_EQ(result.nodes[0].exit_code, 128 + SIGKILL);
}

TEST_F(RehearseSupervisor, DescendantsThatLeaveTheGroupAreKilledToo) {
  const RehearsalPlan p = plan("setsid sleep 300 > /dev/null 2>&1 & echo $! > escaped.pid", 1);
  const RunResult result = run_nodes(p, quick());
  EXPECT_EQ(result.nodes[0].state, NodeState::succeeded);
  const std::string pid = read_file(p.node_plans[0].dir + "/escaped.pid");
  ASSERT_FALSE(pid.empty());
  EXPECT_FALSE(alive(pid)) << "orphan " << pid;
}

TEST_F(RehearseSupervisor, CtrlCStopsAllNodes) {
  const RehearsalPlan p = plan("sleep 30", 2);
  std::thread interrupter([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    ::kill(::getpid(), SIGINT);
  });
  const RunResult result = run_nodes(p, quick());
  interrupter.join();
  EXPECT_EQ(result.nodes[0].state, NodeState::interrupted);
  EXPECT_EQ(result.nodes[1].state, NodeState::interrupted);
  EXPECT_EQ(rehearsal_exit_status(result), kExitInterrupted);
}

TEST_F(RehearseSupervisor, ASignalFromOutsideIsReported) {
  const RehearsalPlan p = plan("kill -SEGV $$", 1);
  const RunResult result = run_nodes(p, quick());
  EXPECT_EQ(result.nodes[0].state, NodeState::signaled);
  EXPECT_EQ(result.nodes[0].exit_code, 128 + SIGSEGV);
  EXPECT_EQ(rehearsal_exit_status(result), 128 + SIGSEGV);
}

}  // namespace
}  // namespace s2a::rehearse
