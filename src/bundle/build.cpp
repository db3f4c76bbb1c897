// Builds the bundle model from job scripts, driver scripts and scrontab files,
// then emits databricks.yml and checks it. See docs/bundle.md.
#include "bundle/build.hpp"

#include <algorithm>
#include <filesystem>

#include "air/map_workload.hpp"
#include "bundle/cron.hpp"
#include "bundle/driver.hpp"
#include "bundle/emit.hpp"
#include "directives/directives.hpp"
#include "emit/json_writer.hpp"
#include "io/files.hpp"

namespace s2a::bundle {
namespace {

namespace fs = std::filesystem;

/// for_each_task runs at most this many iterations at once (Jobs limit).
constexpr uint64_t kMaxForEachConcurrency = 100;

std::string file_stem(std::string_view path) {
  const fs::path p{std::string(path)};
  return p.stem().string();
}

std::string directory_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

std::string line_of(const SourceFile& file, Span span) {
  return std::to_string(file.line_col(span.begin).line);
}

std::string env_json(const std::vector<air::NamedValue>& values) {
  JsonWriter json;
  json.begin_object();
  for (const air::NamedValue& v : values) json.field(v.name, v.value);
  json.end_object();
  return json.str();
}

class Builder {
 public:
  Builder(const BundleOptions& options, const ReadFile& read) : options_(options), read_(read) {
    options_.translate.target = OutputTarget::bundle;
  }

  BundleBuild run(const std::vector<BundleInput>& inputs) {
    for (const BundleInput& input : inputs) add_input(input);
    BundleModel& model = build_.model;
    if (model.jobs.empty()) {
      fail_first("nothing to convert: no job was found in the input");
      return std::move(build_);
    }
    model.name =
        options_.name ? air::sanitize_experiment_name(*options_.name) : model.jobs.front().key;
    if (model.name.empty()) model.name = "slurm2air";
    assign_command_paths();
    const std::string yaml = emit_bundle_yaml(model);
    for (const std::string& problem : check_bundle_yaml(yaml)) {
      fail_first("the emitted databricks.yml fails its check: " + problem);
    }
    if (!failed_) {
      build_.files = model.files;
      build_.files["databricks.yml"] = yaml;
      build_.ok = true;
    }
    return std::move(build_);
  }

 private:
  // --- inputs ------------------------------------------------------------------

  void add_input(const BundleInput& input) {
    if (looks_like_scrontab(input.text)) return add_scrontab(input);
    auto file = std::make_unique<SourceFile>(input.path, input.text);
    Diagnostics scan_diagnostics;
    const directives::ScanResult scan = directives::scan_directives(*file);
    const slurm::Body body = slurm::analyze_body(*file, scan.body_offset, scan_diagnostics);
    const bool driver = options_.workflow || (scan.directive_lines.empty() && calls_sbatch(body));
    if (driver) return add_driver(std::move(file), body, scan_diagnostics);
    JobModel job;
    Translation& t = translate_script(input.path, input.text);
    if (!t.workload) return;
    job.key = job_key(t.workload->experiment_name);
    job.name = job.key;
    job.environment = t.workload->environment;
    if (t.workflow.singleton) job.max_concurrent_runs = 1;
    job.tasks.push_back(make_task(t, directory_of(input.path), job));
    build_.model.jobs.push_back(std::move(job));
  }

  Translation& translate_script(const std::string& name, const std::string& text) {
    build_.translations.push_back(
        std::make_unique<Translation>(translate(name, text, options_.translate)));
    Translation& t = *build_.translations.back();
    build_.reports.push_back({t.file.get(), t.diagnostics, t.redactions});
    if (!t.workload) failed_ = true;
    return t;
  }

  // --- one task from one translated script ---------------------------------------

  TaskModel make_task(Translation& t, const std::string& code_dir, JobModel& job) {
    const air::Workload& w = *t.workload;
    TaskModel task;
    task.key = unique_key(w.experiment_name, task_keys_);
    task.experiment = w.experiment_name;
    task.accelerator_type = w.compute.accelerator_type;
    task.accelerator_count = w.compute.num_accelerators;
    // map_container() chose a registry URL for bundle output and reported it.
    task.docker_image_url = w.environment.docker_image.value_or("");
    if (!bundle_accepts_accelerator(task.accelerator_type)) substitute_accelerator(t, task);
    if (w.timeout_minutes) task.timeout_seconds = *w.timeout_minutes * 60;
    task.max_retries = t.workflow.retries.max_retries.value_or(static_cast<int64_t>(w.max_retries));
    // As `databricks air run` does: a retried task is retried on timeout too.
    task.retry_on_timeout = t.workflow.retries.retry_on_timeout || task.max_retries > 0;
    task.notifications = t.workflow.notifications;
    if (t.workflow.array) {
      const ArrayPlan& a = *t.workflow.array;
      const uint64_t all = std::min<uint64_t>(a.indexes.size(), kMaxForEachConcurrency);
      task.for_each = ForEach{json_index_list(a.indexes),
                              std::clamp<uint64_t>(a.concurrency.value_or(all), 1, all)};
      task.mlflow_run = "{{job.run_id}}_{{input}}";
      task.code_source_path = std::string(kCodeVariable);
      build_.model.code_variable = true;
      (void)artifact_for(code_dir);  // still built: it is the tgz to upload
    } else {
      task.code_source_path = artifact_for(code_dir);
    }
    std::string& command_text = pending_commands_[task.key];
    command_text = command_file(w.command);
    pending_env_[task.key] = {w.env_variables, w.secrets};
    (void)job;
    return task;
  }

  /// GPU_8xB300 is in the workload schema but not in the bundle enum.
  void substitute_accelerator(Translation& t, TaskModel& task) {
    const std::string original = task.accelerator_type;
    task.accelerator_type = "GPU_8xH100";
    const Span span = t.workload->compute.from.empty() ? Span{} : t.workload->compute.from.front();
    Diagnostic d{Code::gpu_model_substituted, span,
                 original +
                     " is not an accelerator_type of bundle jobs (GPU_1xA10, GPU_1xH100, "
                     "GPU_8xH100); the task uses GPU_8xH100",
                 "run it as a workload with `databricks air run`, or change the type once the "
                 "bundle schema accepts it"};
    build_.reports.back().diagnostics.push_back(d);
  }

  std::string artifact_for(const std::string& code_dir) {
    fs::path from = fs::absolute(options_.bundle_dir).lexically_normal();
    fs::path to = fs::absolute(code_dir).lexically_normal();
    std::string relative = to.lexically_relative(from).string();
    if (relative.empty()) relative = ".";
    if (!relative.empty() && relative.back() == '/') relative.pop_back();
    for (const Artifact& a : build_.model.artifacts) {
      if (a.path == relative) return a.output;
    }
    Artifact a;
    const size_t n = build_.model.artifacts.size();
    a.name = n == 0 ? "code" : "code_" + std::to_string(n + 1);
    a.path = relative;
    a.output = "./dist/" + a.name + ".tgz";
    build_.model.artifacts.push_back(a);
    return a.output;
  }

  std::string job_key(const std::string& wanted) { return unique_key(wanted, job_keys_); }

  // --- drivers -------------------------------------------------------------------

  void add_driver(std::unique_ptr<SourceFile> file, const slurm::Body& body,
                  Diagnostics diagnostics) {
    const SourceFile& driver = *file;
    const DriverPlan plan = analyze_driver(driver, body, diagnostics);
    build_.sources.push_back(std::move(file));
    const size_t report_index = build_.reports.size();
    build_.reports.push_back({&driver, std::move(diagnostics), {}});
    JobModel job;
    job.key = job_key(file_stem(driver.name()));
    job.name = job.key;
    job.environment.version = options_.translate.env_version;
    job.environment.dependencies = options_.translate.dependencies;
    if (options_.translate.requirements) {
      job.environment.dependencies.push_back("-r " + *options_.translate.requirements);
    }
    const std::string dir = directory_of(driver.name());
    std::vector<std::optional<std::string>> keys;  // submission -> task key
    for (const Submission& s : plan.submissions) {
      keys.push_back(add_submission(driver, report_index, dir, s, keys, job));
    }
    if (plan.submissions.empty()) {
      build_.reports[report_index].diagnostics.push_back(
          {Code::submission_not_static,
           {},
           "the driver submits no job slurm2air can find",
           "pass the job scripts themselves"});
      failed_ = true;
      return;
    }
    if (!job.tasks.empty()) build_.model.jobs.push_back(std::move(job));
  }

  std::optional<std::string> add_submission(const SourceFile& driver, size_t report_index,
                                            const std::string& dir, const Submission& s,
                                            const std::vector<std::optional<std::string>>& keys,
                                            JobModel& job) {
    Diagnostics& report = build_.reports[report_index].diagnostics;
    std::string name;
    std::string text;
    if (s.inline_script) {
      name = driver.name() + ":" + line_of(driver, s.span) +
             (s.label.empty() ? "" : " [" + s.label + "]");
      text = *s.inline_script;
    } else {
      const fs::path script(*s.script);
      const std::string path = script.is_absolute() ? *s.script : (fs::path(dir) / script).string();
      try {
        text = read_(path);
      } catch (const io::FileError& error) {
        report.push_back({Code::submission_not_static, s.span,
                          std::string("the submitted script cannot be read: ") + error.what(),
                          "keep the job scripts next to the driver, as sbatch would find them"});
        failed_ = true;
        return std::nullopt;
      }
      name = path;
    }
    if (!s.option_lines.empty()) {
      text = with_command_line_options(text, s.option_lines);
      name += " (with the sbatch options of " + driver.name() + ":" + line_of(driver, s.span) + ")";
    }
    Translation& t = translate_script(name, text);
    if (!t.workload) return std::nullopt;
    TaskModel task = make_task(t, dir, job);
    use_own_environment(t.workload->environment, task, job);
    for (size_t after : s.after) {
      if (after < keys.size() && keys[after]) {
        task.depends_on.push_back(*keys[after]);
      } else {
        report.push_back({Code::dependency_dropped, s.span,
                          "the job this one waits for was not converted, so the dependency is "
                          "dropped",
                          "fix the earlier submission first"});
      }
    }
    if (!task.depends_on.empty() && s.run_if != RunIf::all_success) {
      task.run_if = std::string(run_if_name(s.run_if));
    }
    job.tasks.push_back(task);
    return task.key;
  }

  /// A submitted script whose environment is not the driver's (its pip
  /// installs moved to dependencies, or an image replaced them) keeps it,
  /// as `slurm2air that.sbatch` would: an environment of its own.
  static void use_own_environment(const air::Environment& env, TaskModel& task, JobModel& job) {
    if (env.version == job.environment.version &&
        env.dependencies == job.environment.dependencies) {
      return;
    }
    task.environment_key = task.key;
    job.task_environments.emplace_back(task.key, env);
  }

  /// sbatch's command-line options win over the script's #SBATCH lines: they
  /// are added as the last directives, and sbatch's last-wins rule does the rest.
  static std::string with_command_line_options(const std::string& text,
                                               const std::vector<std::string>& lines) {
    const SourceFile probe("<probe>", text);
    const directives::ScanResult scan = directives::scan_directives(probe);
    std::string added = "# slurm2air: the options given to sbatch on its command line\n";
    for (const std::string& line : lines) added += "#SBATCH " + line + "\n";
    std::string out = text;
    size_t at = std::min<size_t>(scan.body_offset, out.size());
    if (at == 0 && out.rfind("#!", 0) == 0) {
      const size_t nl = out.find('\n');
      at = nl == std::string::npos ? out.size() : nl + 1;
    }
    if (at > 0 && out[at - 1] != '\n') added.insert(0, "\n");
    out.insert(at, added);
    return out;
  }

  // --- scrontab ------------------------------------------------------------------

  void add_scrontab(const BundleInput& input) {
    auto file = std::make_unique<SourceFile>(input.path, input.text);
    const SourceFile& crontab = *file;
    build_.sources.push_back(std::move(file));
    const size_t report_index = build_.reports.size();
    build_.reports.push_back({&crontab, {}, {}});
    const Scrontab parsed = parse_scrontab(crontab);
    for (Span line : parsed.unreadable) {
      build_.reports[report_index].diagnostics.push_back(
          {Code::schedule_approximated, line, "the line is not a scrontab entry and is ignored",
           "scrontab lines are `#SCRON options`, comments, or five cron fields and a command"});
    }
    for (const ScrontabEntry& entry : parsed.entries) add_cron_entry(crontab, report_index, entry);
    if (parsed.entries.empty()) failed_ = true;
  }

  void add_cron_entry(const SourceFile& crontab, size_t report_index, const ScrontabEntry& entry) {
    const CronConversion cron = cron_to_quartz(entry.cron);
    if (cron.quartz.empty()) {
      build_.reports[report_index].diagnostics.push_back(
          {Code::schedule_approximated, entry.span,
           "the schedule '" + entry.cron + "' cannot be converted: " + cron.error,
           "write the schedule as a Quartz cron expression in databricks.yml"});
      return;  // the other entries still convert
    }
    std::string script = "#!/bin/bash\n";
    for (const std::string& option : entry.options) script += "#SBATCH " + option + "\n";
    script += entry.command + "\n";
    const std::string name = crontab.name() + ":" + line_of(crontab, entry.span);
    Translation& t = translate_script(name, script);
    if (!t.workload) return;
    JobModel job;
    job.key = job_key(t.workload->experiment_name == file_stem(name)
                          ? file_stem(crontab.name()) + "-" + line_of(crontab, entry.span)
                          : t.workload->experiment_name);
    job.name = job.key;
    job.environment = t.workload->environment;
    job.schedule = Schedule{cron.quartz, "UTC", "PAUSED"};
    job.tasks.push_back(make_task(t, directory_of(crontab.name()), job));
    build_.model.jobs.push_back(std::move(job));
    std::string notes;
    for (const std::string& note : cron.notes) notes += "; " + note;
    build_.reports[report_index].diagnostics.push_back(
        {Code::schedule_approximated, entry.span,
         "'" + entry.cron + "' becomes the schedule '" + cron.quartz +
             "' in UTC (scrontab used the cluster's time zone), deployed PAUSED" + notes,
         "set timezone_id to your zone, then unpause the schedule when the job is ready"});
  }

  // --- files ---------------------------------------------------------------------

  void assign_command_paths() {
    size_t tasks = 0;
    for (const JobModel& job : build_.model.jobs) tasks += job.tasks.size();
    for (JobModel& job : build_.model.jobs) {
      for (TaskModel& task : job.tasks) {
        const std::string dir = tasks == 1 ? "" : "tasks/" + task.key + "/";
        task.command_path = "./" + dir + "command.sh";
        build_.model.files[dir + "command.sh"] = pending_commands_[task.key];
        const auto& [env, secrets] = pending_env_[task.key];
        if (!env.empty()) build_.model.files[dir + "env_vars.json"] = env_json(env);
        if (!secrets.empty()) build_.model.files[dir + "secret_env_vars.json"] = env_json(secrets);
      }
    }
  }

  void fail_first(const std::string& message) {
    failed_ = true;
    if (build_.reports.empty()) return;
    build_.reports.front().diagnostics.push_back(
        {Code::internal_error,
         {},
         message,
         "please report this input to the slurm2air maintainers"});
  }

  BundleOptions options_;
  const ReadFile& read_;
  BundleBuild build_;
  bool failed_ = false;
  std::vector<std::string> task_keys_;
  std::vector<std::string> job_keys_;
  std::map<std::string, std::string> pending_commands_;
  std::map<std::string, std::pair<std::vector<air::NamedValue>, std::vector<air::NamedValue>>>
      pending_env_;
};

}  // namespace

std::string unique_key(const std::string& wanted, std::vector<std::string>& taken) {
  std::string base = air::sanitize_experiment_name(wanted);
  if (base.empty()) base = "task";
  if (base.size() > 90) base.resize(90);
  std::string key = base;
  for (int n = 2; std::find(taken.begin(), taken.end(), key) != taken.end(); ++n) {
    key = base + "-" + std::to_string(n);
  }
  taken.push_back(key);
  return key;
}

std::string command_file(const std::string& command) {
  std::string out = "#!/bin/bash\n";
  const std::string cd = "cd \"$CODE_SOURCE_PATH\"\n";
  if (command.rfind(cd, 0) != 0) out += cd;
  out += command;
  if (!out.empty() && out.back() != '\n') out += "\n";
  return out;
}

BundleBuild build_bundle(const std::vector<BundleInput>& inputs, const BundleOptions& options,
                         const ReadFile& read) {
  return Builder(options, read).run(inputs);
}

}  // namespace s2a::bundle
