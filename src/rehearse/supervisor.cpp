// Process supervision for `slurm2air rehearse` (fork/exec, poll, waitid).
//
// WHY process groups: a node's command starts torchrun, which starts
// workers; killing only bash would orphan them. Each node is its own group
// and every signal goes to the whole group. This process is also a child
// subreaper while nodes run, so a descendant that escapes its group (setsid)
// is reparented here and killed at the end instead of leaking.
#include "rehearse/supervisor.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace s2a::rehearse {
namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kMaxLineBytes = 4096;     // longer output lines are cut for the live view
constexpr double kPipeDrainSeconds = 2.0;  // after the node exited, for a straggler's pipe

volatile std::sig_atomic_t g_stop_requests = 0;

extern "C" void on_stop_signal(int /*signal*/) { g_stop_requests = g_stop_requests + 1; }

double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

/// Signal handlers for the duration of a run; restored on destruction.
class SignalScope {
 public:
  SignalScope() {
    g_stop_requests = 0;
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &action, &saved_[i]);
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &saved_pipe_);  // a closed stdout must not kill the supervisor
    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  }
  ~SignalScope() {
    ::prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
    for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &saved_[i], nullptr);
    sigaction(SIGPIPE, &saved_pipe_, nullptr);
  }
  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;

 private:
  static constexpr std::array<int, 3> kSignals = {SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> saved_{};
  struct sigaction saved_pipe_ {};
};

/// argv and envp for execve, built before fork (the child must not allocate).
/// Not copyable or movable: the pointers point into `storage_`.
class ExecArgs {
 public:
  ExecArgs(const RehearsalPlan& plan, const NodePlan& node) {
    storage_.push_back("bash");
    storage_.push_back(plan.command_path);
    for (const auto& [name, value] : node.environment) storage_.push_back(name + "=" + value);
    for (size_t i = 0; i < storage_.size(); ++i) {
      (i < 2 ? argv_ : envp_).push_back(storage_[i].data());
    }
    argv_.push_back(nullptr);
    envp_.push_back(nullptr);
  }
  ExecArgs(const ExecArgs&) = delete;
  ExecArgs& operator=(const ExecArgs&) = delete;

  char* const* argv() const { return argv_.data(); }
  char* const* envp() const { return envp_.data(); }

 private:
  std::vector<std::string> storage_;
  std::vector<char*> argv_;
  std::vector<char*> envp_;
};

struct Node {
  const NodePlan* plan = nullptr;
  pid_t pid = -1;
  int pipe_fd = -1;
  std::ofstream log;
  Clock::time_point started;
  std::optional<Clock::time_point> exited;
  int wait_status = 0;
  std::optional<NodeState> stop_reason;  // set when the supervisor stopped it
  std::string partial;
  std::deque<std::string> tail;
};

/// Runs in the child between fork and exec: only async-signal-safe calls.
[[noreturn]] void exec_node(const ExecArgs& args, const NodePlan& node, int write_fd) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  struct sigaction reset {};
  reset.sa_handler = SIG_DFL;
  sigemptyset(&reset.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaction(sig, &reset, nullptr);
  const int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, 0);
  ::dup2(write_fd, 1);
  ::dup2(write_fd, 2);
  if (::chdir(node.dir.c_str()) != 0) {
    static const char message[] = "slurm2air rehearse: cannot enter the node directory\n";
    (void)!::write(2, message, sizeof(message) - 1);
    ::_exit(127);
  }
  ::execve("/bin/bash", args.argv(), args.envp());
  static const char message[] = "slurm2air rehearse: cannot run /bin/bash\n";
  (void)!::write(2, message, sizeof(message) - 1);
  ::_exit(127);
}

class Supervisor {
 public:
  Supervisor(const RehearsalPlan& plan, const SuperviseOptions& options)
      : plan_(plan), options_(options), nodes_(plan.node_plans.size()) {}

  RunResult run() {
    SignalScope signals;
    const Clock::time_point start = Clock::now();
    if (plan_.timeout_seconds) {
      deadline_ = start + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(*plan_.timeout_seconds));
    }
    for (size_t i = 0; i < nodes_.size(); ++i) start_node(nodes_[i], plan_.node_plans[i]);
    while (!all_done()) {
      pump_output();
      reap_children();
      enforce_limits();
    }
    kill_remaining_descendants();
    RunResult result;
    result.seconds = seconds_between(start, Clock::now());
    for (Node& node : nodes_) result.nodes.push_back(outcome_of(node));
    return result;
  }

 private:
  void start_node(Node& node, const NodePlan& plan) {
    node.plan = &plan;
    node.log.open(plan.log_path, std::ios::binary | std::ios::trunc);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      throw RehearseError(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    const ExecArgs args(plan_, plan);
    node.started = Clock::now();
    const pid_t pid = ::fork();
    if (pid < 0) {
      ::close(fds[0]);
      ::close(fds[1]);
      abandon_started_nodes();
      throw RehearseError(std::string("cannot start a node process: ") + std::strerror(errno));
    }
    if (pid == 0) exec_node(args, plan, fds[1]);
    ::setpgid(pid, pid);  // also in the parent, so a signal sent right away reaches the group
    ::close(fds[1]);
    node.pid = pid;
    node.pipe_fd = fds[0];
  }

  // A node could not start: the rehearsal is off, so no other node may outlive it.
  void abandon_started_nodes() {
    kill_all(SIGKILL);
    for (Node& node : nodes_) {
      if (node.pid > 0) ::waitpid(node.pid, nullptr, 0);
      if (node.pipe_fd >= 0) ::close(node.pipe_fd);
      node.pipe_fd = -1;
      node.exited = Clock::now();
    }
  }

  bool all_done() const {
    for (const Node& node : nodes_) {
      if (!node.exited || node.pipe_fd >= 0) return false;
    }
    return true;
  }

  void pump_output() {
    std::vector<pollfd> fds;
    std::vector<Node*> owners;
    for (Node& node : nodes_) {
      if (node.pipe_fd < 0) continue;
      fds.push_back(pollfd{node.pipe_fd, POLLIN, 0});
      owners.push_back(&node);
    }
    const int ready = ::poll(fds.data(), fds.size(), 100);
    if (ready <= 0) return;  // timeout or EINTR from a stop signal: the loop checks both
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      char buffer[16384];
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof(buffer));
      if (n > 0) {
        take_output(*owners[i], std::string_view(buffer, static_cast<size_t>(n)));
      } else if (n == 0 || errno != EINTR) {
        close_pipe(*owners[i]);
      }
    }
  }

  void take_output(Node& node, std::string_view bytes) {
    node.log.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    node.log.flush();
    for (char c : bytes) {
      if (c == '\n') {
        finish_line(node);
      } else if (node.partial.size() < kMaxLineBytes) {
        node.partial.push_back(c);
      }
    }
  }

  void finish_line(Node& node) {
    if (!node.partial.empty() && node.partial.back() == '\r') node.partial.pop_back();
    if (options_.live != nullptr) {
      *options_.live << "[node " << node.plan->rank << "] " << node.partial << "\n" << std::flush;
    }
    node.tail.push_back(std::move(node.partial));
    if (node.tail.size() > options_.tail_lines) node.tail.pop_front();
    node.partial.clear();
  }

  void close_pipe(Node& node) {
    if (node.pipe_fd < 0) return;
    ::close(node.pipe_fd);
    node.pipe_fd = -1;
    if (!node.partial.empty()) finish_line(node);
  }

  Node* node_with_pid(pid_t pid) {
    for (Node& node : nodes_) {
      if (node.pid == pid && !node.exited) return &node;
    }
    return nullptr;
  }

  void reap_children() {
    for (;;) {
      siginfo_t info{};
      // WNOWAIT keeps the exited leader a zombie, so its process group id
      // cannot be reused while the group's stragglers are killed.
      if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0) return;
      const pid_t pid = info.si_pid;
      if (node_with_pid(pid) != nullptr) ::kill(-pid, SIGKILL);  // its group's leftovers
      int status = 0;
      ::waitpid(pid, &status, 0);
      if (Node* node = node_with_pid(pid)) {
        node->exited = Clock::now();
        node->wait_status = status;
        if (options_.stop_on_failure && !stopping_ && !succeeded(status)) {
          stop_all(NodeState::stopped);
        }
      }
    }
  }

  static bool succeeded(int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

  void enforce_limits() {
    const Clock::time_point now = Clock::now();
    if (g_stop_requests > handled_requests_) {
      handled_requests_ = g_stop_requests;
      if (stopping_ && stop_reason_ == NodeState::interrupted) {
        kill_all(SIGKILL);  // a second Ctrl-C: no more grace
      } else {
        stop_all(NodeState::interrupted);
      }
    }
    if (deadline_ && now >= *deadline_ && !stopping_) stop_all(NodeState::timed_out);
    if (stopping_ && now >= stop_started_ + grace()) kill_all(SIGKILL);
    for (Node& node : nodes_) {
      // A process that left the group (setsid) may hold the pipe open forever.
      if (node.exited && node.pipe_fd >= 0 &&
          seconds_between(*node.exited, now) > kPipeDrainSeconds) {
        close_pipe(node);
      }
    }
  }

  Clock::duration grace() const {
    return std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(options_.grace_seconds));
  }

  void stop_all(NodeState reason) {
    stopping_ = true;
    stop_reason_ = reason;
    stop_started_ = Clock::now();
    for (Node& node : nodes_) {
      if (node.pid <= 0 || node.exited) continue;
      node.stop_reason = reason;
      ::kill(-node.pid, SIGTERM);
    }
  }

  void kill_all(int signal) {
    for (Node& node : nodes_) {
      if (node.pid > 0 && !node.exited) ::kill(-node.pid, signal);
    }
  }

  // Descendants reparented to this subreaper (they left their group before
  // their node exited): kill and reap them.
  static void kill_remaining_descendants() {
    for (int round = 0; round < 10; ++round) {
      std::vector<pid_t> children;
      std::error_code error;
      for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", error)) {
        std::ifstream in(task.path() / "children");
        pid_t pid = 0;
        while (in >> pid) children.push_back(pid);
      }
      if (children.empty()) return;
      for (pid_t pid : children) ::kill(pid, SIGKILL);
      for (pid_t pid : children) ::waitpid(pid, nullptr, 0);
    }
  }

  NodeOutcome outcome_of(const Node& node) const {
    NodeOutcome outcome;
    outcome.rank = node.plan->rank;
    outcome.log_path = node.plan->log_path;
    outcome.seconds = seconds_between(node.started, node.exited.value_or(node.started));
    outcome.last_lines.assign(node.tail.begin(), node.tail.end());
    const int status = node.wait_status;
    outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (succeeded(status)) {
      outcome.state = NodeState::succeeded;
    } else if (node.stop_reason) {
      outcome.state = *node.stop_reason;
    } else {
      outcome.state = WIFEXITED(status) ? NodeState::failed : NodeState::signaled;
    }
    return outcome;
  }

  const RehearsalPlan& plan_;
  const SuperviseOptions& options_;
  std::vector<Node> nodes_;
  std::optional<Clock::time_point> deadline_;
  bool stopping_ = false;
  NodeState stop_reason_ = NodeState::stopped;
  Clock::time_point stop_started_;
  std::sig_atomic_t handled_requests_ = 0;
};

}  // namespace

RunResult run_nodes(const RehearsalPlan& plan, const SuperviseOptions& options) {
  Supervisor supervisor(plan, options);
  return supervisor.run();
}

}  // namespace s2a::rehearse
