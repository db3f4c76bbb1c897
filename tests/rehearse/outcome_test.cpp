// Exit status aggregation and the summary table of `slurm2air rehearse`.
#include <gtest/gtest.h>

#include "rehearse/outcome.hpp"

namespace s2a::rehearse {
namespace {

NodeOutcome node(uint32_t rank, NodeState state, int code) {
  NodeOutcome outcome;
  outcome.rank = rank;
  outcome.state = state;
  outcome.exit_code = code;
  outcome.seconds = 1.25;
  outcome.log_path = "/w/node-" + std::to_string(rank) + ".log";
  return outcome;
}

struct Aggregation {
  std::vector<NodeOutcome> nodes;
  int expected;
};

class RehearseExitStatus : public ::testing::TestWithParam<Aggregation> {};

TEST_P(RehearseExitStatus, IsThatOfTheWorstNode) {
  RunResult result;
  result.nodes = GetParam().nodes;
  EXPECT_EQ(rehearsal_exit_status(result), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Table, RehearseExitStatus,
    ::testing::Values(
        Aggregation{{node(0, NodeState::succeeded, 0), node(1, NodeState::succeeded, 0)}, 0},
        Aggregation{{node(0, NodeState::succeeded, 0), node(1, NodeState::failed, 3)}, 3},
        Aggregation{{node(0, NodeState::failed, 1), node(1, NodeState::failed, 7)}, 7},
        // A node killed by SIGSEGV counts as 128 + 11.
        Aggregation{{node(0, NodeState::failed, 1), node(1, NodeState::signaled, 139)}, 139},
        // Nodes stopped because another failed do not hide the real failure.
        Aggregation{{node(0, NodeState::failed, 2), node(1, NodeState::stopped, 143)}, 2},
        Aggregation{{node(0, NodeState::timed_out, 143), node(1, NodeState::succeeded, 0)}, 124},
        Aggregation{{node(0, NodeState::interrupted, 130), node(1, NodeState::failed, 1)}, 130},
        Aggregation{{}, 0}));

TEST(RehearseSummary, TableAndLastLinesOfFailedNodes) {
  RunResult result;
  result.seconds = 3.5;
  result.nodes = {node(0, NodeState::succeeded, 0), node(1, NodeState::failed, 1),
                  node(2, NodeState::stopped, 143)};
  result.nodes[0].last_lines = {"fine"};
  result.nodes[1].last_lines = {"Traceback (most recent call last):", "KeyError: 'SLURM_PROCID'"};
  EXPECT_EQ(render_summary(result),
            "\n"
            "node  result                          exit  time      log\n"
            "0     succeeded                       0     1.2 s     /w/node-0.log\n"
            "1     failed                          1     1.2 s     /w/node-1.log\n"
            "2     stopped (another node failed)   143   1.2 s     /w/node-2.log\n"
            "\n"
            "last lines of node 1 (failed):\n"
            "  | Traceback (most recent call last):\n"
            "  | KeyError: 'SLURM_PROCID'\n"
            "\n"
            "rehearsal failed (exit status 1)\n");
}

TEST(RehearseSummary, SuccessAndTimeoutLines) {
  RunResult ok;
  ok.seconds = 12.04;
  ok.nodes = {node(0, NodeState::succeeded, 0)};
  EXPECT_NE(render_summary(ok).find("rehearsal succeeded: 1 node(s) in 12.0 s\n"),
            std::string::npos);
  RunResult late;
  late.seconds = 60;
  late.nodes = {node(0, NodeState::timed_out, 143)};
  const std::string text = render_summary(late);
  EXPECT_NE(text.find("last lines of node 0 (timed out):\n  | (no output)\n"), std::string::npos);
  EXPECT_NE(text.find("rehearsal timed out after 60.0 s; every node was stopped (exit status 124)"),
            std::string::npos);
}

}  // namespace
}  // namespace s2a::rehearse
