// The bundle slurm2air writes: databricks.yml plus one command file per task
// (spec/air-runtime.md §3). Field names follow the bundle schema; the
// emitter (bundle/emit.hpp) writes them in a fixed order.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "air/workload.hpp"
#include "bundle/workflow.hpp"

namespace s2a::bundle {

/// Placeholder for code that must already be in the workspace (for_each_task).
inline constexpr std::string_view kCodeVariable = "${var.code_source_path}";

struct ForEach {
  std::string inputs;  // a JSON array as a string: "[0,1,2]"
  uint64_t concurrency = 1;
};

struct Schedule {
  std::string quartz_cron_expression;
  std::string timezone_id = "UTC";
  std::string pause_status = "PAUSED";  // deploying never starts runs by surprise
};

struct TaskModel {
  std::string key;
  std::string environment_key = "default";
  std::vector<std::string> depends_on;
  std::string run_if;  // empty: the default (ALL_SUCCESS) is left out
  std::string experiment;
  std::string mlflow_run;  // set for arrays: carries the iteration's index
  std::string command_path;
  std::string accelerator_type;
  uint64_t accelerator_count = 0;
  std::string code_source_path;
  std::string docker_image_url;  // the script's container image (Beta field)
  std::optional<uint64_t> timeout_seconds;
  int64_t max_retries = 0;
  bool retry_on_timeout = false;
  Notifications notifications;
  std::optional<ForEach> for_each;  // wraps the ai_runtime_task
};

struct JobModel {
  std::string key;
  std::string name;
  std::vector<TaskModel> tasks;
  air::Environment environment;  // "default"
  // A driver's task whose script needs another environment (its own pip
  // installs, or an image that replaces them): keyed by the task's key.
  std::vector<std::pair<std::string, air::Environment>> task_environments;
  std::optional<Schedule> schedule;
  std::optional<uint64_t> max_concurrent_runs;
};

struct Artifact {
  std::string name;    // "code"
  std::string path;    // the code directory, relative to the bundle directory
  std::string output;  // "./dist/code.tgz"
};

struct BundleModel {
  std::string name;
  std::vector<Artifact> artifacts;
  std::vector<JobModel> jobs;
  bool code_variable = false;  // declares variables.code_source_path
  /// Every other file of the bundle (command.sh, sidecars), by relative path.
  std::map<std::string, std::string> files;
};

}  // namespace s2a::bundle
