// What happened to each rehearsal node, the exit status of the whole
// rehearsal and the summary table. Pure functions, unit-tested on their own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace s2a::rehearse {

enum class NodeState {
  succeeded,    // exit status 0
  failed,       // non-zero exit status
  signaled,     // killed by a signal nobody in the rehearsal sent
  timed_out,    // stopped because the time limit passed
  stopped,      // stopped because another node failed
  interrupted,  // stopped by Ctrl-C (SIGINT/SIGTERM/SIGHUP to slurm2air)
};

struct NodeOutcome {
  uint32_t rank = 0;
  NodeState state = NodeState::succeeded;
  int exit_code = 0;  // the exit status, or 128 + signal number
  double seconds = 0;
  std::string log_path;
  std::vector<std::string> last_lines;  // the end of the node's output
};

struct RunResult {
  std::vector<NodeOutcome> nodes;
  double seconds = 0;
};

inline constexpr int kExitTimedOut = 124;     // timeout(1)'s convention
inline constexpr int kExitInterrupted = 130;  // 128 + SIGINT, as shells report Ctrl-C

[[nodiscard]] std::string_view state_name(NodeState state);

/// 0 when every node succeeded; 130 if interrupted; 124 on the time limit;
/// otherwise the worst status of a node that failed on its own (a signal
/// counts as 128 + signal). Nodes stopped because of another node do not count.
[[nodiscard]] int rehearsal_exit_status(const RunResult& result);

/// The table (node, result, exit, duration, log) and, for each node that
/// failed on its own, its last log lines.
[[nodiscard]] std::string render_summary(const RunResult& result);

}  // namespace s2a::rehearse
