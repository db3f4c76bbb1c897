// databricks.yml: emitted with yaml-cpp in the order of the canonical bundle
// shape (spec/air-runtime.md §3.4), then re-read and checked structurally.
#include "bundle/emit.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

#include "emit/yaml.hpp"

namespace s2a::bundle {
namespace {

/// Used when --env-version is not given: the environment the AI Runtime
/// bundle examples use.
constexpr std::string_view kDefaultEnvironmentVersion = "6";

void emit_string(YAML::Emitter& out, const std::string& value) {
  if (emit::yaml_plain_is_typed(value)) {
    out << YAML::SingleQuoted << value;
  } else {
    out << value;
  }
}

void emit_list(YAML::Emitter& out, const char* key, const std::vector<std::string>& values) {
  if (values.empty()) return;
  out << YAML::Key << key << YAML::Value << YAML::BeginSeq;
  for (const std::string& v : values) emit_string(out, v);
  out << YAML::EndSeq;
}

void emit_notifications(YAML::Emitter& out, const Notifications& n) {
  if (n.empty()) return;
  out << YAML::Key << "email_notifications" << YAML::Value << YAML::BeginMap;
  emit_list(out, "on_start", n.on_start);
  emit_list(out, "on_success", n.on_success);
  emit_list(out, "on_failure", n.on_failure);
  if (n.duration_warning_seconds) {
    emit_list(out, "on_duration_warning_threshold_exceeded", n.on_duration_warning);
  }
  out << YAML::EndMap;
  if (n.duration_warning_seconds && !n.on_duration_warning.empty()) {
    out << YAML::Key << "health" << YAML::Value << YAML::BeginMap << YAML::Key << "rules"
        << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    out << YAML::Key << "metric" << YAML::Value << "RUN_DURATION_SECONDS";
    out << YAML::Key << "op" << YAML::Value << "GREATER_THAN";
    out << YAML::Key << "value" << YAML::Value << *n.duration_warning_seconds;
    out << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
  }
}

void emit_ai_runtime_task(YAML::Emitter& out, const TaskModel& t) {
  out << YAML::Key << "ai_runtime_task" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "experiment" << YAML::Value;
  emit_string(out, t.experiment);
  out << YAML::Key << "code_source_path" << YAML::Value << t.code_source_path;
  if (!t.docker_image_url.empty()) {
    out << YAML::Key << "docker_image_url" << YAML::Value;
    emit_string(out, t.docker_image_url);
  }
  if (!t.mlflow_run.empty()) out << YAML::Key << "mlflow_run" << YAML::Value << t.mlflow_run;
  out << YAML::Key << "deployments" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  out << YAML::Key << "command_path" << YAML::Value << t.command_path;
  out << YAML::Key << "compute" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "accelerator_type" << YAML::Value << t.accelerator_type;
  out << YAML::Key << "accelerator_count" << YAML::Value << t.accelerator_count;
  out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
  out << YAML::EndMap;
}

/// The fields that belong to the task running the ai_runtime_task.
void emit_run_fields(YAML::Emitter& out, const TaskModel& t) {
  out << YAML::Key << "environment_key" << YAML::Value << t.environment_key;
  if (t.timeout_seconds) {
    out << YAML::Key << "timeout_seconds" << YAML::Value << *t.timeout_seconds;
  }
  out << YAML::Key << "max_retries" << YAML::Value << t.max_retries;
  out << YAML::Key << "retry_on_timeout" << YAML::Value << t.retry_on_timeout;
}

void emit_task(YAML::Emitter& out, const TaskModel& t) {
  out << YAML::BeginMap;
  out << YAML::Key << "task_key" << YAML::Value << t.key;
  if (!t.depends_on.empty()) {
    out << YAML::Key << "depends_on" << YAML::Value << YAML::BeginSeq;
    for (const std::string& key : t.depends_on) {
      out << YAML::BeginMap << YAML::Key << "task_key" << YAML::Value << key << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  if (!t.run_if.empty()) out << YAML::Key << "run_if" << YAML::Value << t.run_if;
  if (!t.for_each) {
    emit_run_fields(out, t);
    emit_notifications(out, t.notifications);
    emit_ai_runtime_task(out, t);
    out << YAML::EndMap;
    return;
  }
  emit_notifications(out, t.notifications);
  out << YAML::Key << "for_each_task" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "inputs" << YAML::Value << YAML::SingleQuoted << t.for_each->inputs;
  out << YAML::Key << "concurrency" << YAML::Value << t.for_each->concurrency;
  out << YAML::Key << "task" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "task_key" << YAML::Value << t.key + "_iteration";
  emit_run_fields(out, t);
  emit_ai_runtime_task(out, t);
  out << YAML::EndMap << YAML::EndMap;
  out << YAML::EndMap;
}

void emit_environment(YAML::Emitter& out, const std::string& key, const air::Environment& env) {
  out << YAML::BeginMap;
  out << YAML::Key << "environment_key" << YAML::Value << key;
  out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  const std::string version = env.version.value_or(std::string(kDefaultEnvironmentVersion));
  const bool numeric = !version.empty() && std::all_of(version.begin(), version.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
  if (numeric) {
    out << YAML::Key << "environment_version" << YAML::Value << YAML::SingleQuoted << version;
  } else {
    const bool has_prefix = version.find('/') != std::string::npos;
    out << YAML::Key << "base_environment" << YAML::Value
        << (has_prefix ? version : "workspace-base-environments/" + version);
  }
  emit_list(out, "dependencies", env.dependencies);
  out << YAML::EndMap << YAML::EndMap;
}

void emit_environments(YAML::Emitter& out, const JobModel& job) {
  out << YAML::Key << "environments" << YAML::Value << YAML::BeginSeq;
  emit_environment(out, "default", job.environment);
  for (const auto& [key, env] : job.task_environments) emit_environment(out, key, env);
  out << YAML::EndSeq;
}

void emit_job(YAML::Emitter& out, const JobModel& job) {
  out << YAML::Key << job.key << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value;
  emit_string(out, job.name);
  if (job.max_concurrent_runs) {
    out << YAML::Key << "max_concurrent_runs" << YAML::Value << *job.max_concurrent_runs;
  }
  if (job.schedule) {
    out << YAML::Key << "schedule" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "quartz_cron_expression" << YAML::Value << YAML::SingleQuoted
        << job.schedule->quartz_cron_expression;
    out << YAML::Key << "timezone_id" << YAML::Value << job.schedule->timezone_id;
    out << YAML::Key << "pause_status" << YAML::Value << job.schedule->pause_status;
    out << YAML::EndMap;
  }
  out << YAML::Key << "tasks" << YAML::Value << YAML::BeginSeq;
  for (const TaskModel& task : job.tasks) emit_task(out, task);
  out << YAML::EndSeq;
  emit_environments(out, job);
  out << YAML::EndMap;
}

}  // namespace

bool bundle_accepts_accelerator(std::string_view type) {
  return type == "GPU_1xA10" || type == "GPU_1xH100" || type == "GPU_8xH100";
}

std::string emit_bundle_yaml(const BundleModel& bundle) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "bundle" << YAML::Value << YAML::BeginMap << YAML::Key << "name"
      << YAML::Value;
  emit_string(out, bundle.name);
  out << YAML::EndMap;
  if (bundle.code_variable) {
    out << YAML::Key << "variables" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "code_source_path" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "description" << YAML::Value
        << "A /Workspace or /Volumes path holding the uploaded dist/code.tgz (for_each_task "
           "cannot use a local code_source_path)";
    out << YAML::EndMap << YAML::EndMap;
  }
  if (!bundle.artifacts.empty()) {
    out << YAML::Key << "artifacts" << YAML::Value << YAML::BeginMap;
    for (const Artifact& a : bundle.artifacts) {
      out << YAML::Key << a.name << YAML::Value << YAML::BeginMap;
      out << YAML::Key << "type" << YAML::Value << "tgz";
      out << YAML::Key << "path" << YAML::Value;
      emit_string(out, a.path);
      out << YAML::Key << "files" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key
          << "source" << YAML::Value << a.output << YAML::EndMap << YAML::EndSeq;
      out << YAML::EndMap;
    }
    out << YAML::EndMap;
  }
  out << YAML::Key << "resources" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "jobs" << YAML::Value << YAML::BeginMap;
  for (const JobModel& job : bundle.jobs) emit_job(out, job);
  out << YAML::EndMap << YAML::EndMap;
  out << YAML::Key << "targets" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "dev" << YAML::Value << YAML::BeginMap << YAML::Key << "mode" << YAML::Value
      << "development" << YAML::Key << "default" << YAML::Value << true << YAML::EndMap;
  out << YAML::Key << "prod" << YAML::Value << YAML::BeginMap << YAML::Key << "mode" << YAML::Value
      << "production" << YAML::EndMap;
  out << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

// --- the structural check ----------------------------------------------------

namespace {

using Problems = std::vector<std::string>;

class Checker {
 public:
  explicit Checker(Problems& problems) : problems_(problems) {}

  void check(const YAML::Node& root) {
    if (!root.IsMap()) return fail("", "the document is not a map");
    keys(root, "", {"bundle", "variables", "artifacts", "resources", "targets"});
    const YAML::Node bundle = root["bundle"];
    if (!bundle || !bundle.IsMap() || !non_empty(bundle["name"])) {
      fail("bundle.name", "is required");
    }
    if (root["variables"]) variables_ = root["variables"];
    check_artifacts(root["artifacts"]);
    const YAML::Node resources = root["resources"];
    if (!resources || !resources.IsMap()) return fail("resources", "is required");
    keys(resources, "resources.", {"jobs"});
    const YAML::Node jobs = resources["jobs"];
    if (!jobs || !jobs.IsMap() || jobs.size() == 0) return fail("resources.jobs", "is required");
    for (const auto& job : jobs) {
      check_job(job.second, "resources.jobs." + job.first.as<std::string>());
    }
    check_targets(root["targets"]);
  }

 private:
  void fail(const std::string& where, const std::string& what) {
    problems_.push_back(where.empty() ? what : where + ": " + what);
  }

  static bool non_empty(const YAML::Node& node) {
    return node && node.IsScalar() && !node.as<std::string>().empty();
  }

  void keys(const YAML::Node& map, const std::string& where, const std::set<std::string>& allowed) {
    for (const auto& entry : map) {
      const auto key = entry.first.as<std::string>();
      if (allowed.count(key) == 0) fail(where + key, "unknown field");
    }
  }

  void one_of(const YAML::Node& node, const std::string& where,
              const std::set<std::string>& values) {
    if (!node) return;
    if (!node.IsScalar() || values.count(node.as<std::string>()) == 0) {
      fail(where, "must be one of the schema's values");
    }
  }

  static std::optional<int64_t> integer(const YAML::Node& node) {
    if (!node || !node.IsScalar()) return std::nullopt;
    try {
      return node.as<int64_t>();
    } catch (const YAML::Exception&) {
      return std::nullopt;
    }
  }

  void check_artifacts(const YAML::Node& artifacts) {
    if (!artifacts) return;
    for (const auto& entry : artifacts) {
      const std::string where = "artifacts." + entry.first.as<std::string>();
      const YAML::Node a = entry.second;
      keys(a, where + ".", {"type", "path", "include", "files", "git"});
      one_of(a["type"], where + ".type", {"tgz"});
      if (!non_empty(a["path"])) fail(where + ".path", "is required");
      const YAML::Node files = a["files"];
      if (!files || !files.IsSequence() || files.size() == 0 || !non_empty(files[0]["source"])) {
        fail(where + ".files", "needs a source");
      } else {
        artifact_outputs_.insert(files[0]["source"].as<std::string>());
      }
    }
  }

  void check_job(const YAML::Node& job, const std::string& where) {
    keys(job, where + ".",
         {"name", "tasks", "environments", "schedule", "max_concurrent_runs", "email_notifications",
          "timeout_seconds", "parameters", "tags", "health"});
    if (!non_empty(job["name"])) fail(where + ".name", "is required");
    environment_keys_.clear();
    check_environments(job["environments"], where + ".environments");
    if (job["schedule"]) check_schedule(job["schedule"], where + ".schedule");
    if (job["max_concurrent_runs"]) {
      const auto n = integer(job["max_concurrent_runs"]);
      if (!n || *n < 1) fail(where + ".max_concurrent_runs", "must be a positive integer");
    }
    const YAML::Node tasks = job["tasks"];
    if (!tasks || !tasks.IsSequence() || tasks.size() == 0) {
      return fail(where + ".tasks", "at least one task is required");
    }
    if (tasks.size() > 1000) fail(where + ".tasks", "at most 1000 tasks");
    std::set<std::string> seen;
    for (size_t i = 0; i < tasks.size(); ++i) {
      check_task(tasks[i], where + ".tasks[" + std::to_string(i) + "]", seen, false);
    }
  }

  void check_environments(const YAML::Node& environments, const std::string& where) {
    if (!environments) return;
    if (!environments.IsSequence()) return fail(where, "must be a list");
    for (const auto& env : environments) {
      keys(env, where + "[].", {"environment_key", "spec"});
      if (!non_empty(env["environment_key"]))
        fail(where + "[].environment_key", "is required");
      else
        environment_keys_.insert(env["environment_key"].as<std::string>());
      const YAML::Node spec = env["spec"];
      if (!spec || !spec.IsMap()) {
        fail(where + "[].spec", "is required");
        continue;
      }
      keys(spec, where + "[].spec.",
           {"environment_version", "base_environment", "dependencies", "java_dependencies",
            "client"});
      if (!spec["environment_version"] && !spec["base_environment"]) {
        fail(where + "[].spec", "needs environment_version or base_environment");
      }
      if (spec["dependencies"] && !spec["dependencies"].IsSequence()) {
        fail(where + "[].spec.dependencies", "must be a list");
      }
    }
  }

  void check_schedule(const YAML::Node& schedule, const std::string& where) {
    keys(schedule, where + ".", {"quartz_cron_expression", "timezone_id", "pause_status"});
    if (!non_empty(schedule["quartz_cron_expression"])) {
      fail(where + ".quartz_cron_expression", "is required");
    }
    if (!non_empty(schedule["timezone_id"])) fail(where + ".timezone_id", "is required");
    one_of(schedule["pause_status"], where + ".pause_status", {"PAUSED", "UNPAUSED"});
  }

  static bool valid_key(const std::string& key) {
    return !key.empty() && key.size() <= 100 && std::all_of(key.begin(), key.end(), [](char c) {
      return (std::isalnum(static_cast<unsigned char>(c)) &&
              static_cast<unsigned char>(c) < 0x80) ||
             c == '-' || c == '_';
    });
  }

  void check_task(const YAML::Node& task, const std::string& where, std::set<std::string>& seen,
                  bool nested) {
    keys(task, where + ".",
         {"task_key", "depends_on", "run_if", "environment_key", "timeout_seconds", "max_retries",
          "min_retry_interval_millis", "retry_on_timeout", "email_notifications", "health",
          "ai_runtime_task", "for_each_task", "description", "disabled"});
    const std::string key = non_empty(task["task_key"]) ? task["task_key"].as<std::string>() : "";
    if (!valid_key(key)) fail(where + ".task_key", "must be 1-100 letters, digits, '-' or '_'");
    for (const auto& dep : task["depends_on"]) {
      const std::string target =
          non_empty(dep["task_key"]) ? dep["task_key"].as<std::string>() : "";
      // Tasks are emitted in order, so an edge must point at an earlier task.
      if (seen.count(target) == 0) fail(where + ".depends_on", "unknown task " + target);
    }
    if (!nested && !seen.insert(key).second) fail(where + ".task_key", "is not unique");
    one_of(task["run_if"], where + ".run_if",
           {"ALL_SUCCESS", "ALL_DONE", "NONE_FAILED", "AT_LEAST_ONE_SUCCESS", "ALL_FAILED",
            "AT_LEAST_ONE_FAILED"});
    if (task["environment_key"] &&
        environment_keys_.count(task["environment_key"].as<std::string>()) == 0) {
      fail(where + ".environment_key", "names no environment of the job");
    }
    if (task["max_retries"]) {
      const auto n = integer(task["max_retries"]);
      if (!n || *n < -1) fail(where + ".max_retries", "must be an integer >= -1");
    }
    if (task["timeout_seconds"]) {
      const auto n = integer(task["timeout_seconds"]);
      if (!n || *n < 0) fail(where + ".timeout_seconds", "must be an integer >= 0");
    }
    check_notifications(task["email_notifications"], task["health"], where);
    const bool runs = static_cast<bool>(task["ai_runtime_task"]);
    const bool loops = static_cast<bool>(task["for_each_task"]);
    if (runs == loops) return fail(where, "needs exactly one of ai_runtime_task, for_each_task");
    if (runs) check_ai_runtime_task(task["ai_runtime_task"], where + ".ai_runtime_task", nested);
    if (loops) {
      if (nested) return fail(where + ".for_each_task", "cannot be nested");
      check_for_each(task["for_each_task"], where + ".for_each_task", seen);
    }
  }

  void check_notifications(const YAML::Node& email, const YAML::Node& health,
                           const std::string& where) {
    if (email) {
      keys(email, where + ".email_notifications.",
           {"on_start", "on_success", "on_failure", "on_duration_warning_threshold_exceeded",
            "on_streaming_backlog_exceeded", "no_alert_for_skipped_runs"});
      for (const auto& entry : email) {
        if (entry.second.IsSequence() && entry.second.size() == 0) {
          fail(where + ".email_notifications", "empty address list");
        }
      }
      if (email["on_duration_warning_threshold_exceeded"] && !health) {
        fail(where + ".health", "on_duration_warning_threshold_exceeded needs a health rule");
      }
    }
    if (!health) return;
    const YAML::Node rules = health["rules"];
    if (!rules || !rules.IsSequence() || rules.size() == 0) {
      return fail(where + ".health.rules", "is required");
    }
    for (const auto& rule : rules) {
      one_of(rule["metric"], where + ".health.rules[].metric",
             {"RUN_DURATION_SECONDS", "STREAMING_BACKLOG_BYTES", "STREAMING_BACKLOG_RECORDS",
              "STREAMING_BACKLOG_SECONDS", "STREAMING_BACKLOG_FILES"});
      one_of(rule["op"], where + ".health.rules[].op", {"GREATER_THAN"});
      if (!integer(rule["value"])) fail(where + ".health.rules[].value", "must be an integer");
    }
  }

  void check_ai_runtime_task(const YAML::Node& task, const std::string& where, bool nested) {
    keys(task, where + ".",
         {"experiment", "deployments", "code_source_path", "docker_image_url", "mlflow_run",
          "mlflow_experiment_directory", "mlflow_artifact_location"});
    if (!non_empty(task["experiment"])) fail(where + ".experiment", "is required");
    const YAML::Node deployments = task["deployments"];
    if (!deployments || !deployments.IsSequence() || deployments.size() != 1) {
      return fail(where + ".deployments", "exactly one deployment is supported");
    }
    const YAML::Node d = deployments[0];
    keys(d, where + ".deployments[0].", {"command_path", "compute", "name"});
    if (!non_empty(d["command_path"])) fail(where + ".deployments[0].command_path", "is required");
    const YAML::Node compute = d["compute"];
    if (!compute || !compute.IsMap()) return fail(where + ".deployments[0].compute", "is required");
    keys(compute, where + ".deployments[0].compute.", {"accelerator_type", "accelerator_count"});
    const std::string type =
        non_empty(compute["accelerator_type"]) ? compute["accelerator_type"].as<std::string>() : "";
    if (!bundle_accepts_accelerator(type)) {
      fail(where + ".deployments[0].compute.accelerator_type",
           "\"" + type + "\" is not GPU_1xA10, GPU_1xH100 or GPU_8xH100");
    }
    const auto count = integer(compute["accelerator_count"]);
    const int64_t per_node = type == "GPU_8xH100" ? 8 : 1;
    if (!count || *count <= 0 || *count % per_node != 0) {
      fail(where + ".deployments[0].compute.accelerator_count",
           "must be a positive multiple of the GPUs per node");
    }
    if (!task["code_source_path"]) return;
    const std::string code = task["code_source_path"].as<std::string>();
    const bool remote = code.rfind("/Workspace/", 0) == 0 || code.rfind("/Volumes/", 0) == 0 ||
                        code.rfind("${var.", 0) == 0;
    if (nested && !remote) {
      fail(where + ".code_source_path",
           "a local code_source_path is not supported inside a for_each_task");
    }
    if (!remote && artifact_outputs_.count(code) == 0) {
      fail(where + ".code_source_path", "names no artifact output");
    }
    if (code.rfind("${var.", 0) == 0) {
      const std::string name = code.substr(6, code.size() - 7);
      if (!variables_ || !variables_[name])
        fail(where + ".code_source_path", "undeclared variable");
    }
  }

  void check_for_each(const YAML::Node& loop, const std::string& where,
                      std::set<std::string>& seen) {
    keys(loop, where + ".", {"inputs", "concurrency", "task"});
    const std::string inputs = non_empty(loop["inputs"]) ? loop["inputs"].as<std::string>() : "";
    if (inputs.size() < 2 || inputs.front() != '[' || inputs.back() != ']') {
      fail(where + ".inputs", "must be a JSON array string");
    }
    if (loop["concurrency"]) {
      const auto n = integer(loop["concurrency"]);
      if (!n || *n < 1) fail(where + ".concurrency", "must be a positive integer");
    }
    if (!loop["task"] || !loop["task"].IsMap()) return fail(where + ".task", "is required");
    check_task(loop["task"], where + ".task", seen, true);
  }

  void check_targets(const YAML::Node& targets) {
    if (!targets) return;
    for (const auto& entry : targets) {
      const std::string where = "targets." + entry.first.as<std::string>();
      keys(entry.second, where + ".", {"mode", "default", "workspace", "variables"});
      one_of(entry.second["mode"], where + ".mode", {"development", "production"});
    }
  }

  Problems& problems_;
  YAML::Node variables_;
  std::set<std::string> artifact_outputs_;
  std::set<std::string> environment_keys_;
};

}  // namespace

std::vector<std::string> check_bundle_yaml(const std::string& yaml) {
  Problems problems;
  try {
    Checker(problems).check(YAML::Load(yaml));
  } catch (const YAML::Exception& error) {
    problems.push_back(std::string("not readable as YAML: ") + error.what());
  }
  return problems;
}

}  // namespace s2a::bundle
