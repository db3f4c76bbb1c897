#include "air/map_workload.hpp"

#include <algorithm>

#include "air/compute.hpp"

namespace s2a::air {
namespace {

constexpr size_t kMaxExperimentName = 100;  // the Jobs API task_key limit

std::string file_stem(std::string_view path) {
  const size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const size_t dot = base.rfind('.');
  if (dot != std::string_view::npos && dot > 0) base = base.substr(0, dot);
  return std::string(base);
}

void map_experiment_name(const SourceFile& file, const slurm::Job& job,
                         const WorkloadOptions& options, Workload& workload,
                         Diagnostics& diagnostics) {
  if (options.experiment_name) {
    workload.experiment_name = sanitize_experiment_name(*options.experiment_name);
    return;
  }
  std::string original = job.name ? job.name->value : file_stem(file.name());
  std::string name = sanitize_experiment_name(original);
  const Span from = job.name ? job.name->from->span : Span{};
  if (name.empty()) {
    name = "slurm-job";
    diagnostics.push_back({Code::experiment_name_changed, from,
                           "no usable experiment name in \"" + original + "\"; using \"" + name +
                               "\"",
                           "set a name with --experiment-name"});
  } else if (name != original) {
    diagnostics.push_back(
        {Code::experiment_name_changed, from,
         "experiment_name allows only letters, digits, '-' and '_' (at most 100); \"" + original +
             "\" becomes \"" + name + "\"",
         "choose the name with --experiment-name"});
  }
  workload.experiment_name = name;
  workload.experiment_name_from = from;
}

void map_timeout(const slurm::Job& job, Workload& workload, Diagnostics& diagnostics) {
  if (!job.time) {
    diagnostics.push_back({Code::no_time_limit, {},
                           "the script sets no --time, so Slurm used the partition's default; "
                           "timeout_minutes is left out and AI Runtime's default applies",
                           "set timeout_minutes to bound the run"});
    return;
  }
  workload.timeout_from = job.time->from->span;
  if (job.time->value.unlimited) {
    diagnostics.push_back({Code::no_time_limit, job.time->from->span,
                           "an unlimited time limit has no equivalent; timeout_minutes is left "
                           "out and AI Runtime's default applies",
                           "set timeout_minutes to bound the run"});
    return;
  }
  workload.timeout_minutes = job.time->value.minutes;
}

void map_retries(const slurm::Job& job, Workload& workload) {
  // A requeued Slurm job restarts from the top; a retried workload does too.
  // One retry by default: Slurm requeues after node failure, not endlessly.
  workload.max_retries = job.requeue && !job.requeue->value ? 0 : 1;
  if (job.requeue) workload.max_retries_from = job.requeue->from->span;
}

}  // namespace

std::string sanitize_experiment_name(std::string_view name) {
  std::string out;
  bool last_dash = false;
  for (char c : name) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
    if (ok && static_cast<unsigned char>(c) < 0x80) {
      out.push_back(c);
      last_dash = false;
    } else if (!last_dash && !out.empty()) {
      out.push_back('-');
      last_dash = true;
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  if (out.size() > kMaxExperimentName) out.resize(kMaxExperimentName);
  return out;
}

WorkloadMapping map_workload(const SourceFile& file, const slurm::Job& job,
                             const slurm::Body& body, const WorkloadOptions& options,
                             Diagnostics& diagnostics) {
  WorkloadMapping mapping;
  Workload& workload = mapping.workload;
  map_experiment_name(file, job, options, workload, diagnostics);
  workload.compute = map_compute(job, options.accelerator_type, diagnostics);
  workload.environment.version = options.env_version;
  workload.environment.dependencies = options.dependencies;
  if (options.requirements) {
    workload.environment.dependencies.push_back("-r " + *options.requirements);
  }
  map_timeout(job, workload, diagnostics);
  map_retries(job, workload);
  CommandMapping command =
      map_command(file, body, job, workload.compute, workload.experiment_name, diagnostics);
  workload.command = std::move(command.command);
  workload.env_variables = std::move(command.env_variables);
  workload.secrets = std::move(command.secrets);
  mapping.redactions = std::move(command.redactions);
  mapping.edits = std::move(command.edits);
  return mapping;
}

}  // namespace s2a::air
