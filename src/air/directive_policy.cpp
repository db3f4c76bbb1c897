// What becomes of each #SBATCH option: one table row per option.
//
// Rows say whether the option is mapped exactly, approximated or has no AI
// Runtime equivalent, and what the user should do instead. Options with no
// row fall back to "no equivalent", so a new Slurm option is reported, never
// dropped silently (tested over the corpus).
#include "air/directive_policy.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "directives/name_map.hpp"

namespace s2a::air {
namespace {

struct Row {
  std::string_view option;
  DirectiveStatus status;
  Code code;
  std::string_view what;  // what happens to it on AI Runtime
  std::string_view hint;
};

// Sorted by option name (binary search).
constexpr std::array kRows = {
    Row{"account", DirectiveStatus::reported, Code::directive_not_mapped,
        "accounts have no workload field; billing follows the submitting identity",
        "set usage_policy_name or usage_policy_id in train.yaml if a budget policy applies"},
    Row{"array", DirectiveStatus::reported, Code::directive_for_bundle,
        "job arrays are not a workload feature",
        "submit one run per index with `databricks air run --override`, or use a bundle "
        "for_each_task"},
    Row{"begin", DirectiveStatus::reported, Code::directive_for_bundle,
        "a deferred start is not a workload feature", "use a bundle job with a schedule"},
    Row{"chdir", DirectiveStatus::approximated, Code::directive_approximated,
        "the command starts in $CODE_SOURCE_PATH, the uploaded code_source.root_path",
        "point code_source.root_path at this directory's contents"},
    Row{"comment", DirectiveStatus::no_effect, Code::directive_no_effect,
        "job comments have no workload field", ""},
    Row{"constraint", DirectiveStatus::approximated, Code::directive_approximated,
        "node features only inform the choice of accelerator_type",
        "check compute.accelerator_type"},
    Row{"cpus-per-task", DirectiveStatus::approximated, Code::directive_approximated,
        "AI Runtime nodes have a fixed number of CPUs for each accelerator type",
        "check that the node shape has enough CPUs for the data loaders"},
    Row{"deadline", DirectiveStatus::reported, Code::directive_not_mapped,
        "deadlines have no equivalent", "use timeout_minutes to bound the run"},
    Row{"dependency", DirectiveStatus::reported, Code::directive_for_bundle,
        "dependencies between jobs are not a workload feature",
        "chain the steps as tasks with depends_on in one bundle job"},
    // EAR's options (`--ear=off`, `--ear-policy=...`) share this row: find_row.
    Row{"ear", DirectiveStatus::no_effect, Code::directive_no_effect,
        "EAR's energy policy (CPU and GPU frequencies) has no AI Runtime counterpart; nodes "
        "run at their own clocks",
        ""},
    Row{"error", DirectiveStatus::reported, Code::directive_logs,
        "stderr is collected by AI Runtime, not written to a file",
        "read it with `databricks air logs <run-id>` or in the MLflow run"},
    Row{"exclusive", DirectiveStatus::mapped, Code::directive_not_mapped,
        "AI Runtime always allocates whole nodes", ""},
    Row{"export", DirectiveStatus::reported, Code::directive_not_mapped,
        "the submitting shell's environment does not travel to AI Runtime",
        "list the variables the job needs under env_variables"},
    Row{"get-user-env", DirectiveStatus::reported, Code::directive_not_mapped,
        "sbatch loaded the user's login environment (their login shell's variables) for the job; "
        "AI Runtime nodes have no user login environment",
        "set the variables the job needs in env_variables or at the top of the command"},
    // Carried into each torchrun worker's CUDA_VISIBLE_DEVICES, or reported at
    // the srun step it would bind (src/air/command.cpp).
    Row{"gpu-bind", DirectiveStatus::mapped, Code::directive_not_mapped, "", ""},
    Row{"gpus", DirectiveStatus::mapped, Code::directive_not_mapped, "", ""},
    Row{"gpus-per-node", DirectiveStatus::mapped, Code::directive_not_mapped, "", ""},
    Row{"gpus-per-task", DirectiveStatus::mapped, Code::directive_not_mapped, "", ""},
    Row{"gres", DirectiveStatus::mapped, Code::directive_not_mapped, "", ""},
    Row{"input", DirectiveStatus::reported, Code::directive_logs,
        "the command's stdin is empty on AI Runtime", "read the file from $CODE_SOURCE_PATH"},
    Row{"job-name", DirectiveStatus::mapped, Code::directive_not_mapped, "", ""},
    Row{"mail-type", DirectiveStatus::reported, Code::directive_for_bundle,
        "e-mail notifications are not a workload feature",
        "use email_notifications of a bundle job"},
    Row{"mail-user", DirectiveStatus::reported, Code::directive_for_bundle,
        "e-mail notifications are not a workload feature",
        "use email_notifications of a bundle job"},
    Row{"mem", DirectiveStatus::approximated, Code::directive_approximated,
        "AI Runtime nodes have a fixed memory size for each accelerator type",
        "check that the node shape has enough host memory"},
    Row{"mem-per-cpu", DirectiveStatus::approximated, Code::directive_approximated,
        "AI Runtime nodes have a fixed memory size for each accelerator type",
        "check that the node shape has enough host memory"},
    Row{"mem-per-gpu", DirectiveStatus::approximated, Code::directive_approximated,
        "AI Runtime nodes have a fixed memory size for each accelerator type",
        "check that the node shape has enough host memory"},
    Row{"no-requeue", DirectiveStatus::mapped, Code::directive_not_mapped, "", ""},
    Row{"nodes", DirectiveStatus::mapped, Code::directive_not_mapped, "", ""},
    Row{"ntasks", DirectiveStatus::mapped, Code::directive_not_mapped, "", ""},
    Row{"ntasks-per-gpu", DirectiveStatus::mapped, Code::directive_not_mapped, "", ""},
    Row{"ntasks-per-node", DirectiveStatus::mapped, Code::directive_not_mapped, "", ""},
    Row{"open-mode", DirectiveStatus::reported, Code::directive_logs,
        "logs are collected by AI Runtime per attempt", "use `databricks air logs`"},
    Row{"output", DirectiveStatus::reported, Code::directive_logs,
        "stdout is collected by AI Runtime, not written to a file",
        "read it with `databricks air logs <run-id>` (--download-to saves every node)"},
    Row{"parsable", DirectiveStatus::no_effect, Code::directive_no_effect,
        "it only changes what sbatch prints when the job is submitted (the job id alone)",
        "`databricks air run` prints the run's id"},
    Row{"partition", DirectiveStatus::approximated, Code::directive_approximated,
        "partitions do not exist; the name only informs the choice of accelerator_type",
        "check compute.accelerator_type"},
    Row{"qos", DirectiveStatus::reported, Code::directive_not_mapped,
        "quality of service has no workload field",
        "with a GPU pool, use compute.pool_id and compute.priority_class"},
    Row{"requeue", DirectiveStatus::mapped, Code::directive_not_mapped, "", ""},
    Row{"reservation", DirectiveStatus::reported, Code::directive_not_mapped,
        "reservations have no workload field",
        "a pre-provisioned GPU pool is set with compute.pool_id"},
    Row{"signal", DirectiveStatus::reported, Code::directive_not_mapped,
        "AI Runtime sends no warning signal before the time limit",
        "checkpoint periodically to a Unity Catalog volume and rely on max_retries"},
    Row{"time", DirectiveStatus::mapped, Code::directive_not_mapped, "", ""},
    Row{"time-min", DirectiveStatus::reported, Code::directive_not_mapped,
        "a minimum time for backfill has no equivalent", "timeout_minutes comes from --time"},
};

/// The rows by option name, built once: find_row runs for nearly every option
/// of every script, and a binary search over the names compared strings about
/// seven times a lookup.
const directives::NameMap<const Row*>& rows_by_name() {
  static const directives::NameMap<const Row*> rows = [] {
    directives::NameMap<const Row*> map;
    map.reserve(kRows.size());
    for (const Row& row : kRows) map.try_emplace(row.option, &row);
    return map;
  }();
  return rows;
}

const Row* find_row(std::string_view option) {
  if (option.starts_with("ear-")) option = "ear";
  const auto& rows = rows_by_name();
  const auto it = rows.find(option);
  return it == rows.end() ? nullptr : it->second;
}

/// An option sbatch rejects was already reported as an error where it was
/// read; a second "not mapped" line for it would only repeat that. The
/// position is compared first: severity() looks the code up out of line, and
/// this runs over every diagnostic for every option.
bool already_rejected(const directives::Option& option, const Diagnostics& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) {
    return d.span.begin == option.span.begin && d.severity() == Severity::error;
  });
}

}  // namespace

bool policy_table_is_sorted() {
  return std::is_sorted(kRows.begin(), kRows.end(),
                        [](const Row& a, const Row& b) { return a.option < b.option; });
}

/// Options a bundle job expresses itself (for_each_task, email_notifications,
/// depends_on, schedule); the workflow stage reports each of them.
std::optional<DirectiveStatus> bundle_status(std::string_view option) {
  if (option == "array" || option == "mail-type" || option == "mail-user") {
    return DirectiveStatus::mapped;
  }
  if (option == "dependency" || option == "begin") return DirectiveStatus::approximated;
  return std::nullopt;
}

std::vector<DirectiveOutcome> apply_directive_policy(const directives::ScanResult& scan,
                                                     Diagnostics& diagnostics, bool bundle_target) {
  std::vector<DirectiveOutcome> outcomes;
  outcomes.reserve(scan.options.size());
  for (const directives::Option& option : scan.options) {
    // Earlier occurrences and later het-job components were reported when the
    // job was built; sbatch-only options (--help, plugins) by the scanner.
    if (option.overridden || option.component != 0) {
      outcomes.push_back({&option, DirectiveStatus::reported});
      continue;
    }
    if (already_rejected(option, diagnostics)) {
      outcomes.push_back({&option, DirectiveStatus::reported});
      continue;
    }
    if (option.spec->origin == directives::OptionOrigin::early_pass) {
      outcomes.push_back({&option, DirectiveStatus::no_effect});
      continue;
    }
    if (const auto status = bundle_status(option.name()); bundle_target && status) {
      outcomes.push_back({&option, *status});
      continue;
    }
    // For a workload the workflow stage (src/bundle/workflow.cpp) reports
    // arrays and mail itself, with what --format bundle would make of them.
    if (!bundle_target && (option.name() == "array" || option.name() == "mail-type")) {
      outcomes.push_back({&option, DirectiveStatus::reported});
      continue;
    }
    const Row* row = find_row(option.name());
    if (row != nullptr && row->status == DirectiveStatus::mapped) {
      outcomes.push_back({&option, DirectiveStatus::mapped});
      continue;
    }
    if (row == nullptr) {
      std::string message = option.text();
      message += " has no AI Runtime equivalent and is dropped";
      diagnostics.push_back({Code::directive_not_mapped, option.span, std::move(message),
                             "check whether the job depends on it"});
      outcomes.push_back({&option, DirectiveStatus::reported});
      continue;
    }
    // Appended to the option's text in place: one string, not three temporaries.
    std::string message = option.text();
    message += ": ";
    message += row->what;
    diagnostics.push_back({row->code, option.span, std::move(message), std::string(row->hint)});
    outcomes.push_back({&option, row->status});
  }
  return outcomes;
}

}  // namespace s2a::air
