// Running the rehearsal's node processes: one `bash command.sh` per node,
// each in its own process group, with output to node-K.log (and optionally
// to a stream, prefixed "[node K] "). A time limit, a failing node or a
// Ctrl-C stop every group (SIGTERM, then SIGKILL after a grace period), and
// no descendant outlives the rehearsal.
#pragma once

#include <ostream>

#include "rehearse/outcome.hpp"
#include "rehearse/plan.hpp"

namespace s2a::rehearse {

struct SuperviseOptions {
  std::ostream* live = nullptr;  // prefixed live output; nullptr: logs only
  double grace_seconds = 5.0;    // between SIGTERM and SIGKILL
  bool stop_on_failure = true;   // AI Runtime fails the run when a node fails
  size_t tail_lines = 12;        // lines kept per node for the summary
};

/// Runs every node of a prepared plan and waits for all of them. SIGINT,
/// SIGTERM and SIGHUP to this process stop the nodes (a second one kills
/// them at once); the previous handlers are restored afterwards.
[[nodiscard]] RunResult run_nodes(const RehearsalPlan& plan, const SuperviseOptions& options);

}  // namespace s2a::rehearse
