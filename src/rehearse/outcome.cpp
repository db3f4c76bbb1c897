// Aggregating node outcomes into one exit status and a summary table.
#include "rehearse/outcome.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace s2a::rehearse {
namespace {

bool failed_on_its_own(const NodeOutcome& node) {
  return node.state == NodeState::failed || node.state == NodeState::signaled;
}

std::string format_seconds(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f s", seconds);
  return buffer;
}

std::string pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

}  // namespace

std::string_view state_name(NodeState state) {
  switch (state) {
    case NodeState::succeeded:
      return "succeeded";
    case NodeState::failed:
      return "failed";
    case NodeState::signaled:
      return "killed by signal";
    case NodeState::timed_out:
      return "timed out";
    case NodeState::stopped:
      return "stopped (another node failed)";
    case NodeState::interrupted:
      return "interrupted";
  }
  return "unknown";
}

int rehearsal_exit_status(const RunResult& result) {
  const auto any = [&](NodeState state) {
    return std::any_of(result.nodes.begin(), result.nodes.end(),
                       [&](const NodeOutcome& node) { return node.state == state; });
  };
  if (any(NodeState::interrupted)) return kExitInterrupted;
  if (any(NodeState::timed_out)) return kExitTimedOut;
  int worst = 0;
  for (const NodeOutcome& node : result.nodes) {
    if (failed_on_its_own(node)) worst = std::max(worst, node.exit_code == 0 ? 1 : node.exit_code);
  }
  return worst;
}

std::string render_summary(const RunResult& result) {
  std::ostringstream out;
  out << "\n"
      << pad("node", 6) << pad("result", 32) << pad("exit", 6) << pad("time", 10) << "log\n";
  for (const NodeOutcome& node : result.nodes) {
    out << pad(std::to_string(node.rank), 6) << pad(std::string(state_name(node.state)), 32)
        << pad(std::to_string(node.exit_code), 6) << pad(format_seconds(node.seconds), 10)
        << node.log_path << "\n";
  }
  for (const NodeOutcome& node : result.nodes) {
    if (node.state == NodeState::succeeded || node.state == NodeState::stopped) continue;
    out << "\nlast lines of node " << node.rank << " (" << state_name(node.state) << "):\n";
    if (node.last_lines.empty()) out << "  | (no output)\n";
    for (const std::string& line : node.last_lines) out << "  | " << line << "\n";
  }
  const int status = rehearsal_exit_status(result);
  out << "\n";
  if (status == 0) {
    out << "rehearsal succeeded: " << result.nodes.size() << " node(s) in "
        << format_seconds(result.seconds) << "\n";
  } else if (status == kExitTimedOut) {
    out << "rehearsal timed out after " << format_seconds(result.seconds)
        << "; every node was stopped (exit status " << status << ")\n";
  } else if (status == kExitInterrupted) {
    out << "rehearsal interrupted; every node was stopped (exit status " << status << ")\n";
  } else {
    out << "rehearsal failed (exit status " << status << ")\n";
  }
  return out.str();
}

}  // namespace s2a::rehearse
