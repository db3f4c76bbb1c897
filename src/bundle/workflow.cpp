// Job-level workflow constructs: arrays, mail, dependencies, start times,
// self-resubmission and requeue traps. See workflow.hpp and docs/bundle.md.
#include "bundle/workflow.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <functional>
#include <set>

#include "bundle/driver.hpp"

namespace s2a::bundle {
namespace {

/// Retries given to a job that resubmitted or requeued itself: the AI
/// Runtime default for max_retries (spec/air-runtime.md).
constexpr int64_t kContinuationRetries = 3;

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

// --- arrays ----------------------------------------------------------------

void analyze_array(const slurm::Job& job, OutputTarget target, JobWorkflow& workflow,
                   Diagnostics& diagnostics) {
  if (!job.array) return;
  const Span span = job.array->from->span;
  const auto parsed = values::parse_array(job.array->value);
  if (!parsed) return;  // build_job reported the bad value
  const uint64_t count = parsed->count();
  std::vector<uint64_t> indexes = expand_array(*parsed, kMaxArrayIndexes);
  if (indexes.empty()) {
    diagnostics.push_back({Code::array_not_expanded, span,
                           "--array=" + job.array->value + " has " + std::to_string(count) +
                               " indexes, more than the " + std::to_string(kMaxArrayIndexes) +
                               " slurm2air writes out; the job is converted as a single run",
                           "split the array into smaller ones, or iterate inside one run"});
    return;
  }
  ArrayPlan plan;
  plan.indexes = std::move(indexes);
  plan.concurrency = parsed->max_running;
  plan.spec = job.array->value;
  plan.from = span;
  const std::string shape =
      "--array=" + plan.spec + " runs " +
      (plan.indexes.size() == 1 ? std::string("1 copy")
                                : std::to_string(plan.indexes.size()) + " copies") +
      (plan.concurrency ? ", at most " + std::to_string(*plan.concurrency) + " at a time" : "");
  if (target == OutputTarget::bundle) {
    diagnostics.push_back(
        {Code::job_array, span,
         shape + "; it becomes a for_each_task whose iterations set $SLURM_ARRAY_TASK_ID, and "
                 "its code must be uploaded to ${var.code_source_path}",
         "a for_each_task cannot use a local code_source_path: upload dist/code.tgz to a "
         "/Workspace or /Volumes path and deploy with --var code_source_path=<that path>"});
  } else {
    diagnostics.push_back(
        {Code::job_array, span,
         shape + "; one workload runs one index, read from parameters.array_task_id",
         "submit one run per index with the commands listed at the top of the YAML, or use "
         "--format bundle for a for_each_task"});
  }
  workflow.array = std::move(plan);
}

// --- mail --------------------------------------------------------------------

void add_unique(std::vector<std::string>& list, const std::string& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

/// Seconds into the run at which TIME_LIMIT_<p> fires.
uint64_t percent_of(uint64_t minutes, uint64_t percent) { return minutes * 60 * percent / 100; }

void analyze_mail(const slurm::Job& job, OutputTarget target, JobWorkflow& workflow,
                  Diagnostics& diagnostics) {
  if (!job.mail_type) return;
  const Span span = job.mail_type->from->span;
  const std::string user = job.mail_user ? job.mail_user->value : "";
  std::vector<std::string> mapped;
  std::vector<std::string> unmapped;
  Notifications& n = workflow.notifications;
  std::optional<uint64_t> warn_percent;
  const bool limited = job.time && !job.time->value.unlimited;
  for (const std::string& type : job.mail_type->value) {
    if (type == "BEGIN") {
      add_unique(n.on_start, user);
      mapped.push_back("BEGIN -> on_start");
    } else if (type == "END") {
      add_unique(n.on_success, user);
      add_unique(n.on_failure, user);  // END mails on every end, failed ones too
      mapped.push_back("END -> on_success and on_failure");
    } else if (type == "FAIL") {
      add_unique(n.on_failure, user);
      mapped.push_back("FAIL -> on_failure");
    } else if (type.rfind("TIME_LIMIT", 0) == 0 && limited) {
      uint64_t percent = 100;  // TIME_LIMIT_90 -> 90
      if (type.size() > 11) {
        const std::string_view digits = std::string_view(type).substr(11);
        std::from_chars(digits.data(), digits.data() + digits.size(), percent);
      }
      warn_percent = std::min(warn_percent.value_or(percent), percent);
      add_unique(n.on_duration_warning, user);
      mapped.push_back(type + " -> on_duration_warning_threshold_exceeded");
    } else {
      unmapped.push_back(type);
    }
  }
  if (warn_percent) n.duration_warning_seconds = percent_of(job.time->value.minutes, *warn_percent);
  if (user.empty() && !n.empty()) {
    // sbatch mails the submitting user; a bundle needs an address.
    for (auto* list : {&n.on_start, &n.on_success, &n.on_failure, &n.on_duration_warning}) {
      for (std::string& address : *list) address = "${workspace.current_user.userName}";
    }
  }
  if (!mapped.empty()) {
    const std::string to = user.empty() ? "the deploying user" : user;
    diagnostics.push_back(
        {Code::mail_notifications, span,
         target == OutputTarget::bundle
             ? "mail to " + to + " becomes email_notifications: " + join(mapped, ", ")
             : "a workload sends no e-mail; with --format bundle this becomes "
               "email_notifications: " +
                   join(mapped, ", "),
         target == OutputTarget::bundle ? "" : "convert with --format bundle to keep the mail"});
  }
  if (!unmapped.empty()) {
    diagnostics.push_back(
        {Code::mail_type_unmapped, span,
         "--mail-type " + join(unmapped, ",") + " has no email_notifications equivalent" +
             (limited ? "" : " (TIME_LIMIT needs a --time limit)"),
         "Databricks jobs mail on start, success, failure and duration warnings only"});
  }
}

// --- the job's own --dependency ----------------------------------------------

void analyze_own_dependency(const slurm::Job& job, JobWorkflow& workflow,
                            Diagnostics& diagnostics) {
  if (!job.dependency) return;
  const Span span = job.dependency->from->span;
  const auto parsed = values::parse_dependency(job.dependency->value);
  if (!parsed) return;
  if (parsed->any && parsed->items.size() > 1) {
    diagnostics.push_back({Code::dependency_any, span,
                           "'?' lets any one dependency suffice; between tasks of one bundle job "
                           "it becomes run_if: AT_LEAST_ONE_SUCCESS, which also waits for the "
                           "others to finish",
                           ""});
  }
  for (const values::DependencyItem& item : parsed->items) {
    if (item.type == "singleton") {
      workflow.singleton = true;
      diagnostics.push_back({Code::dependency_singleton, span,
                             "singleton (one job of this name at a time) becomes "
                             "max_concurrent_runs: 1 on the bundle job",
                             ""});
      continue;
    }
    if (const std::string why = unsupported_dependency(item); !why.empty()) {
      diagnostics.push_back({Code::dependency_unsupported, span, why,
                             "chain the jobs as tasks of one bundle job (a driver script "
                             "converted with --format bundle)"});
      continue;
    }
    std::vector<std::string> jobs;
    for (const auto& t : item.targets) jobs.push_back(t.job);
    diagnostics.push_back(
        {Code::dependency_dropped, span,
         item.type + " on " + join(jobs, ",") +
             " names a job outside this script, so the dependency is dropped",
         "convert the script that submits both jobs (with --format bundle) to get depends_on"});
  }
}

// --- start time ----------------------------------------------------------------

void analyze_begin(const slurm::Job& job, Diagnostics& diagnostics) {
  const directives::Option* found = job.final_option("begin");
  if (found == nullptr || !found->value) return;
  const directives::Option& option = *found;
  diagnostics.push_back({Code::schedule_approximated, option.span,
                         "--begin=" + *option.value +
                             " defers one start; a bundle job starts when it is run or on a "
                             "schedule, so the delay is dropped",
                         "start it with `databricks bundle run` when due, or add a schedule "
                         "(slurm2air reads scrontab files into one)"});
}

// --- self-resubmission and requeue traps ---------------------------------------

bool is_own_path(const std::string& word, std::string_view file_name) {
  if (word == "$0" || word == "${0}" || word == "$BASH_SOURCE" || word == "${BASH_SOURCE}" ||
      word == "${BASH_SOURCE[0]}") {
    return true;
  }
  const auto base = [](std::string_view path) {
    const size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
  };
  return !word.empty() && base(word) == base(file_name);
}

void analyze_self_resubmission(const SourceFile& file, const slurm::Body& body,
                               JobWorkflow& workflow, Diagnostics& diagnostics) {
  for (const slurm::Site& site : body.sites) {
    if (site.program != "sbatch") continue;
    const std::optional<std::string> operand = sbatch_script_operand(*site.command, file.text());
    if (!operand || !is_own_path(*operand, file.name())) continue;
    workflow.retries.retry_on_timeout = true;
    workflow.retries.max_retries = kContinuationRetries;
    workflow.retries.from = site.command->span;
    diagnostics.push_back(
        {Code::self_resubmit, site.command->span,
         "the script submits itself again to continue after its time limit; on AI Runtime the "
         "task is retried instead (retry_on_timeout: true, max_retries: " +
             std::to_string(kContinuationRetries) + ")",
         "remove the sbatch line, resume from the newest checkpoint on every start, and raise "
         "max_retries if one run needs more segments"});
    return;
  }
}

/// Function names whose body runs `scontrol requeue`.
std::set<std::string> requeue_functions(const slurm::Body& body) {
  std::set<std::string> names;
  for (const slurm::Site& site : body.sites) {
    if (!site.context.in_function || site.program != "scontrol") continue;
    const auto& words = site.command->words;
    if (words.size() < 2 || slurm::literal_value(words[1]).value_or("").rfind("requeue", 0) != 0) {
      continue;
    }
    // The enclosing function: a top-level definition containing the site.
    for (const ast::ListItem& item : body.parse.script.body.items) {
      const ast::Command& c = item.command;
      if (c.kind == ast::CommandKind::function_def && c.span.begin <= site.command->span.begin &&
          site.command->span.end <= c.span.end) {
        names.insert(c.name);
      }
    }
  }
  return names;
}

void analyze_requeue_trap(const slurm::Body& body, JobWorkflow& workflow,
                          Diagnostics& diagnostics) {
  const std::set<std::string> handlers = requeue_functions(body);
  for (const slurm::Site& site : body.sites) {
    if (site.program != "trap" || site.command->words.size() < 3) continue;
    const std::string action = slurm::literal_value(site.command->words[1]).value_or("");
    const bool requeues =
        handlers.count(action) > 0 || action.find("scontrol requeue") != std::string::npos;
    if (!requeues) continue;
    workflow.retries.retry_on_timeout = true;
    workflow.retries.max_retries = kContinuationRetries;
    workflow.retries.from = site.command->span;
    diagnostics.push_back(
        {Code::requeue_trap, site.command->span,
         "the trap requeues the job when Slurm signals the time limit; AI Runtime sends no "
         "signal, so the task is retried on timeout instead (retry_on_timeout: true, "
         "max_retries: " +
             std::to_string(kContinuationRetries) + ")",
         "checkpoint periodically (not only on the signal) to a Unity Catalog volume and resume "
         "from the newest checkpoint on every start"});
    return;
  }
}

/// SLURM_ARRAY_TASK_STEP as slurmctld sets it (job_mgr.c): the number after
/// the spec's first `:` as atoi reads it ("0-15:4%2" gives 4), else 1 — even
/// for a list such as "1,3,5".
int64_t array_step(std::string_view spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string_view::npos) return 1;
  return std::atoll(std::string(spec.substr(colon + 1)).c_str());
}

}  // namespace

std::vector<uint64_t> expand_array(const values::ArraySpec& spec, uint64_t limit) {
  if (spec.count() > limit) return {};
  std::vector<uint64_t> indexes;
  indexes.reserve(spec.count());
  const auto sort_unique = [&indexes] {
    // Most arrays are ranges in increasing order, which need neither.
    const bool increasing =
        std::adjacent_find(indexes.begin(), indexes.end(), std::greater_equal<>()) == indexes.end();
    if (increasing) return;
    std::sort(indexes.begin(), indexes.end());
    indexes.erase(std::unique(indexes.begin(), indexes.end()), indexes.end());
  };
  for (const values::ArrayRange& range : spec.ranges) {
    const uint64_t step = std::max<uint64_t>(range.step, 1);
    for (uint64_t i = range.first; i <= range.last; i += step) {
      indexes.push_back(i);
      // Overlapping ranges repeat indexes. Compacting leaves at most count()
      // <= limit, so each compaction follows at least `limit` new pushes.
      if (indexes.size() > 2 * limit) sort_unique();
      if (range.last - i < step) break;  // no overflow past the end
    }
  }
  sort_unique();
  return indexes;
}

std::string json_index_list(const std::vector<uint64_t>& indexes) {
  std::string out = "[";
  for (size_t i = 0; i < indexes.size(); ++i) {
    if (i > 0) out += ",";
    out += std::to_string(indexes[i]);
  }
  return out + "]";
}

bool calls_sbatch(const slurm::Body& body) {
  return std::any_of(body.sites.begin(), body.sites.end(), [](const slurm::Site& site) {
    return site.program == "sbatch" && !site.context.in_function;
  });
}

JobWorkflow analyze_workflow(const SourceFile& file, const directives::ScanResult& scan,
                             const slurm::Job& job, const slurm::Body& body, OutputTarget target,
                             Diagnostics& diagnostics) {
  JobWorkflow workflow;
  workflow.is_driver = scan.directive_lines.empty() && calls_sbatch(body);
  if (workflow.is_driver) {
    // The driver's submissions are checked here too, so `--format yaml` says
    // what a bundle would not be able to express.
    (void)analyze_driver(file, body, diagnostics);
    diagnostics.push_back(
        {Code::workflow_driver,
         {},
         "the script has no #SBATCH lines and submits jobs with sbatch: it is a workflow driver, "
         "not a job",
         target == OutputTarget::bundle
             ? ""
             : "convert it with --format bundle -o DIR to get one bundle job with a task per "
               "submitted script"});
    return workflow;
  }
  analyze_array(job, target, workflow, diagnostics);
  analyze_mail(job, target, workflow, diagnostics);
  analyze_own_dependency(job, workflow, diagnostics);
  analyze_begin(job, diagnostics);
  analyze_self_resubmission(file, body, workflow, diagnostics);
  analyze_requeue_trap(body, workflow, diagnostics);
  return workflow;
}

void adapt_workload(const JobWorkflow& workflow, OutputTarget target, air::Workload& workload) {
  // A workload retries on timeout whenever max_retries > 0 (the CLI sends
  // retry_on_timeout with it), so train.yaml continues the job as the task does.
  if (workflow.retries.max_retries) {
    workload.max_retries = static_cast<uint64_t>(*workflow.retries.max_retries);
    workload.max_retries_from = workflow.retries.from;
  }
  if (!workflow.array) return;
  const ArrayPlan& a = *workflow.array;
  std::string preamble;
  if (target == OutputTarget::bundle) {
    // ai_runtime_task has no parameters; the for_each iteration names its
    // MLflow run "<job run id>_<index>" (mlflow_run), and the command reads
    // that name back. See docs/bundle.md, "Arrays".
    preamble =
        "# Slurm array element: the for_each_task names this MLflow run <job run id>_<index>\n"
        "run_name=$(python -c 'import os, mlflow; "
        "print(mlflow.get_run(os.environ[\"MLFLOW_RUN_ID\"]).info.run_name)')\n"
        "export SLURM_ARRAY_JOB_ID=\"${run_name%_*}\" SLURM_ARRAY_TASK_ID=\"${run_name##*_}\"\n";
  } else {
    preamble =
        "# Slurm array element: submit with --override parameters.array_task_id=N "
        "(see the top of this file)\n"
        ": \"${HYPERPARAMETERS_PATH:?submit with --override parameters.array_task_id=N}\"\n"
        "export SLURM_ARRAY_TASK_ID=\"$(sed -n 's/^array_task_id: *//p' "
        "\"$HYPERPARAMETERS_PATH\")\"\n"
        "export SLURM_ARRAY_JOB_ID=\"$(sed -n 's/^array_job_id: *//p' "
        "\"$HYPERPARAMETERS_PATH\")\"\n";
  }
  preamble +=
      "case \"$SLURM_ARRAY_TASK_ID\" in ''|*[!0-9]*) echo \"no array index for this run\" >&2; "
      "exit 2;; esac\n"
      "export SLURM_ARRAY_TASK_COUNT=" +
      std::to_string(a.indexes.size()) +
      " SLURM_ARRAY_TASK_MIN=" + std::to_string(a.indexes.front()) +
      " SLURM_ARRAY_TASK_MAX=" + std::to_string(a.indexes.back()) +
      " SLURM_ARRAY_TASK_STEP=" + std::to_string(array_step(a.spec)) + "\n";
  // After the opening `cd "$CODE_SOURCE_PATH"`, so the command still starts there.
  const std::string cd = "cd \"$CODE_SOURCE_PATH\"\n";
  std::string& command = workload.command;
  const size_t at = command.rfind(cd, 0) == 0 ? cd.size() : 0;
  command.insert(at, preamble);
}

namespace {
// Appends an array index in decimal without building a std::string for it:
// a long array writes thousands of indexes into one comment.
void append_index(std::string& out, uint64_t index) {
  char digits[24];
  const auto [end, error] = std::to_chars(digits, digits + sizeof digits, index);
  out.append(digits, end);
}

// Appends " i1 i2 ...": a long array lists thousands of indexes, so they are
// written straight into room made once for the longest spelling of each,
// rather than appended one at a time (a capacity check and copy each).
void append_index_list(std::string& out, const std::vector<uint64_t>& indexes) {
  constexpr size_t kMaxDigits = 20;  // of a uint64_t
  const size_t at = out.size();
  out.resize(at + indexes.size() * (1 + kMaxDigits));
  char* next = out.data() + at;
  for (uint64_t index : indexes) {
    *next++ = ' ';
    next = std::to_chars(next, next + kMaxDigits, index).ptr;
  }
  out.resize(static_cast<size_t>(next - out.data()));
}
}  // namespace

std::string array_submit_comment(const JobWorkflow& workflow, const std::string& yaml_name) {
  if (!workflow.array) return {};
  const ArrayPlan& a = *workflow.array;
  std::string out = "# Slurm job array --array=" + a.spec +
                    ": one run per index. Submit them with:\n"
                    "#   array_job_id=$(date +%s)\n";
  constexpr size_t kListed = 20;
  const std::string run = "#   databricks air run --file " + yaml_name +
                          " --override parameters.array_job_id=$array_job_id"
                          " --override parameters.array_task_id=";
  if (a.indexes.size() <= kListed) {
    for (uint64_t index : a.indexes) {
      out += run;
      append_index(out, index);
      out += '\n';
    }
  } else {
    // A long array is written as one loop; the index list keeps any gaps.
    out += "#   for i in";
    append_index_list(out, a.indexes);
    out += "; do\n#   " + run.substr(4) + "$i\n#   done\n";
  }
  if (a.concurrency) {
    out += "# The array ran at most " + std::to_string(*a.concurrency) +
           " at a time (%): wait for runs to finish (databricks air list) before submitting "
           "more.\n";
  }
  return out;
}

}  // namespace s2a::bundle
