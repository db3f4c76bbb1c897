#include "emit/inspect.hpp"

#include <algorithm>

#include "emit/json_writer.hpp"
#include "emit/mask_secrets.hpp"
#include "emit/report.hpp"

namespace s2a::emit {
namespace {

/// Values and messages quote the script: its secrets are masked there too.
std::string redact(const SecretMasker& secrets, std::string text) {
  return secrets.mask(std::move(text), "<redacted>");
}

std::optional<std::string> value_of(const SecretMasker& secrets,
                                    const std::optional<slurm::Sourced<std::string>>& field) {
  return field ? std::optional<std::string>(redact(secrets, field->value)) : std::nullopt;
}

template <class T>
std::optional<T> value_of(const std::optional<slurm::Sourced<T>>& field) {
  return field ? std::optional<T>(field->value) : std::nullopt;
}

void write_job(JsonWriter& json, const Translation& t, const SecretMasker& secrets) {
  const slurm::Job& job = t.job;
  json.key("job").begin_object();
  json.field("name", value_of(secrets, job.name));
  json.field("partition", value_of(secrets, job.partition));
  json.key("nodes_min");
  job.nodes ? json.value(job.nodes->value.min) : json.null();
  json.key("nodes_max");
  job.nodes ? json.value(job.nodes->value.max) : json.null();
  json.field("tasks", job.total_tasks());
  json.field("tasks_per_node", value_of(job.ntasks_per_node));  // as requested
  json.field("cpus_per_task", value_of(job.cpus_per_task));
  json.field("gpus_per_node", job.gpus_per_node());
  json.key("gpu_type");
  job.gpu_type().empty() ? json.null() : json.value(job.gpu_type());
  json.field("gpus_total", job.total_gpus());
  json.key("gpus_per_task");
  job.gpus && job.gpus->scope == slurm::GpuScope::per_task ? json.value(job.gpus->count)
                                                           : json.null();
  json.key("time_limit_minutes");
  job.time && !job.time->value.unlimited ? json.value(job.time->value.minutes) : json.null();
  json.field("time_unlimited", job.time ? job.time->value.unlimited : false);
  json.field("array", value_of(secrets, job.array));
  json.field("dependency", value_of(secrets, job.dependency));
  json.field("mem_per_node_mib", value_of(job.mem_per_node_mib));
  json.field("mem_per_cpu_mib", value_of(job.mem_per_cpu_mib));
  json.field("mem_per_gpu_mib", value_of(job.mem_per_gpu_mib));
  json.field("exclusive", job.exclusive.has_value());
  json.field("requeue", value_of(job.requeue));
  json.field("constraint", value_of(secrets, job.constraint));
  json.field("account", value_of(secrets, job.account));
  json.field("qos", value_of(job.qos));
  json.field("reservation", value_of(job.reservation));
  json.key("mail_type");
  if (job.mail_type) {
    json.begin_array();
    for (const auto& type : job.mail_type->value) json.value(type);
    json.end_array();
  } else {
    json.null();
  }
  json.field("mail_user", value_of(secrets, job.mail_user));
  json.end_object();
}

void write_directives(JsonWriter& json, const Translation& t, const SecretMasker& secrets) {
  json.key("directives").begin_array();
  for (const DirectiveOutcome& outcome : t.directives) {
    const directives::Option& option = *outcome.option;
    const LineCol at = t.file->line_col(option.span.begin);
    json.begin_object();
    json.field("line", at.line);
    json.field("col", at.col);
    json.field("option", option.name());
    json.field("spelling", option.spelling);
    json.field("value", option.value ? std::optional<std::string>(redact(secrets, *option.value))
                                     : std::nullopt);
    json.field("component", option.component);
    json.field("overridden", option.overridden);
    json.field("status", status_name(outcome.status));
    json.end_object();
  }
  json.end_array();
}

void write_steps(JsonWriter& json, const Translation& t) {
  json.key("steps").begin_array();
  for (const slurm::Site& site : t.body.sites) {
    const bool is_step = site.program == "srun" || site.launcher.kind != slurm::Launcher::none;
    if (!is_step) continue;
    const Span span = t.body.file_span(site, site.command->span);
    const LineCol at = t.file->line_col(span.begin);
    json.begin_object();
    json.field("line", at.line);
    json.field("col", at.col);
    json.field("srun", site.program == "srun" || site.context.in_srun);
    json.field("launcher", slurm::launcher_name(site.launcher.kind));
    json.field("background", site.context.background);
    json.field("in_loop", site.context.in_loop);
    json.field("in_function", site.context.in_function);
    json.field("in_branch", site.context.in_branch);
    json.end_object();
  }
  json.end_array();
}

void write_diagnostics(JsonWriter& json, const Translation& t, const SecretMasker& secrets) {
  json.key("diagnostics").begin_array();
  for (const Diagnostic& d : t.diagnostics) {
    const LineCol at = t.file->line_col(d.span.begin);
    json.begin_object();
    json.field("code", code_id(d.code));
    json.field("severity", severity_name(d.severity()));
    json.field("line", at.line);
    json.field("col", at.col);
    json.field("message", redact(secrets, d.message));
    json.end_object();
  }
  json.end_array();
}

}  // namespace

std::string render_inspect_json(const Translation& t) {
  JsonWriter json;
  json.begin_object();
  json.field("schema", "slurm2air.inspect/1");
  json.field("file", t.file->name());
  json.field("accepted_by_sbatch", !t.scan.fatal && !std::any_of(t.diagnostics.begin(), t.diagnostics.end(), [](const Diagnostic& d) {
               return d.code == Code::invalid_option_value;
             }));
  const SecretMasker secrets(*t.file, t.redactions);
  write_job(json, t, secrets);
  write_directives(json, t, secrets);
  write_steps(json, t);
  write_diagnostics(json, t, secrets);
  json.end_object();
  return std::move(json).str();
}

}  // namespace s2a::emit
