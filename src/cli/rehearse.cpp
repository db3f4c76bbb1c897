// The `rehearse` subcommand: read train.yaml, show what will run, ask (it runs
// the user's code), then supervise the node processes and print a summary.
//
// Exit codes: 0 every node succeeded; otherwise the worst node's exit status
// (124 time limit, 130 Ctrl-C); 2 the rehearsal could not start (bad YAML,
// not confirmed); 3 usage error.
#include "cli/rehearse.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "rehearse/plan.hpp"
#include "rehearse/supervisor.hpp"
#include "rehearse/workload_file.hpp"

namespace s2a::cli {
namespace {

namespace rh = s2a::rehearse;

constexpr int kExitNotRun = 2;
constexpr int kExitUsage = 3;

struct RehearseArgs {
  std::string workload;
  rh::RehearseOptions options;
  bool yes = false;
  bool quiet = false;
  bool keep_going = false;
  double grace_seconds = 5.0;
};

RehearseArgs& args() {
  static RehearseArgs instance;
  return instance;
}

bool confirmed() {
  std::cout << "Run this command on this machine, once per node? [y/N] " << std::flush;
  std::string answer;
  if (!std::getline(std::cin, answer)) return false;
  return answer == "y" || answer == "Y" || answer == "yes" || answer == "YES" || answer == "Yes";
}

void remove_if_empty(const std::string& dir) {
  std::error_code error;
  if (std::filesystem::is_empty(dir, error)) std::filesystem::remove(dir, error);
}

}  // namespace

CLI::App* add_rehearse_command(CLI::App& app) {
  RehearseArgs& a = args();
  CLI::App* cmd = app.add_subcommand(
      "rehearse",
      "run a workload YAML locally: one process per node on 127.0.0.1 with AI Runtime's "
      "environment (executes the command; asks first unless --yes)");
  cmd->add_option("workload", a.workload, "the workload YAML (train.yaml)")->required();
  cmd->add_option("--nodes", a.options.nodes, "node processes to start (default: from compute)")
      ->check(CLI::Range(1U, rh::kMaxNodes));
  cmd->add_option("--gpus-per-node", a.options.gpus_per_node,
                  "LOCAL_WORLD_SIZE (default: from compute.accelerator_type)")
      ->check(CLI::Range(1U, rh::kMaxGpusPerNode));
  cmd->add_option("--timeout", a.options.timeout_seconds,
                  "stop every node after this many seconds (default: timeout_minutes, else none)")
      ->check(CLI::Range(0.001, 1e9));
  cmd->add_option("--workdir", a.options.workdir,
                  "new or empty directory for logs and per-node copies (default: under $TMPDIR)");
  cmd->add_option("--grace", a.grace_seconds, "seconds between SIGTERM and SIGKILL when stopping")
      ->check(CLI::Range(0.0, 600.0));
  cmd->add_flag("-y,--yes", a.yes, "run without asking (required when stdin is not a terminal)");
  cmd->add_flag("-q,--quiet", a.quiet, "only write node-K.log files, no live output");
  cmd->add_flag("--keep-going", a.keep_going,
                "let the other nodes run on when one fails (default: stop them)");
  return cmd;
}

int run_rehearse_command() {
  const RehearseArgs& a = args();
  std::string workdir;
  try {
    const rh::WorkloadFile workload = rh::read_workload(a.workload);
    if (!a.yes && ::isatty(0) == 0) {
      std::cerr << "slurm2air rehearse: refusing to run " << a.workload
                << " without --yes: it executes the workload's command and stdin is not a "
                   "terminal to ask on\n";
      return kExitUsage;
    }
    workdir = rh::make_workdir(a.options.workdir);
    const rh::RehearsalPlan plan = rh::plan_rehearsal(
        workload, a.options, rh::current_environment(), workdir, rh::find_free_port());
    std::cout << rh::describe_plan(plan) << std::flush;
    if (!a.yes && !confirmed()) {
      std::cerr << "slurm2air rehearse: not run\n";
      remove_if_empty(workdir);
      return kExitNotRun;
    }
    rh::prepare_rehearsal(plan);
    rh::SuperviseOptions options;
    options.live = a.quiet ? nullptr : &std::cout;
    options.grace_seconds = a.grace_seconds;
    options.stop_on_failure = !a.keep_going;
    const rh::RunResult result = rh::run_nodes(plan, options);
    std::cout << rh::render_summary(result) << "logs: " << plan.workdir << "\n" << std::flush;
    return rh::rehearsal_exit_status(result);
  } catch (const rh::RehearseError& error) {
    std::cerr << "slurm2air rehearse: error: " << error.what() << "\n";
    if (!workdir.empty() && a.options.workdir.empty()) remove_if_empty(workdir);
    return kExitNotRun;
  }
}

}  // namespace s2a::cli
