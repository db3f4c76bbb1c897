// Workflow constructs of one job script: arrays, mail, dependencies, start
// times, self-resubmission and requeue traps, and driver scripts (scripts
// that submit other jobs).
//
// analyze_workflow() runs inside translate() for both targets: it reports
// what each construct becomes (S2A6xxx) and returns the facts the bundle
// builder turns into for_each_task, email_notifications, retries and
// max_concurrent_runs. adapt_workload() prepends the array preamble to the
// command so $SLURM_ARRAY_TASK_ID keeps its meaning on AI Runtime.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "air/workload.hpp"
#include "bundle/target.hpp"
#include "diag/diagnostic.hpp"
#include "directives/directives.hpp"
#include "grammar/values.hpp"
#include "slurm/body.hpp"
#include "slurm/job.hpp"

namespace s2a::bundle {

/// Beyond this many indexes an array is not written out (Slurm's default
/// MaxArraySize is 1001).
inline constexpr uint64_t kMaxArrayIndexes = 10000;

struct ArrayPlan {
  std::vector<uint64_t> indexes;        // sorted, distinct
  std::optional<uint64_t> concurrency;  // from %P
  std::string spec;                     // as written, e.g. "0-9%2"
  Span from;
};

struct Notifications {
  std::vector<std::string> on_start;
  std::vector<std::string> on_success;
  std::vector<std::string> on_failure;
  std::vector<std::string> on_duration_warning;      // TIME_LIMIT_*
  std::optional<uint64_t> duration_warning_seconds;  // health rule threshold
  [[nodiscard]] bool empty() const {
    return on_start.empty() && on_success.empty() && on_failure.empty() &&
           on_duration_warning.empty();
  }
};

struct Retries {
  bool retry_on_timeout = false;
  std::optional<int64_t> max_retries;  // overrides the workload's when set
  Span from;                           // the line that asks for them
};

struct JobWorkflow {
  std::optional<ArrayPlan> array;
  Notifications notifications;
  Retries retries;
  bool singleton = false;  // --dependency=singleton: one run at a time
  bool is_driver = false;  // no #SBATCH lines, calls sbatch
};

/// Reports the workflow constructs of one script and returns what the bundle
/// needs. Never reads files.
[[nodiscard]] JobWorkflow analyze_workflow(const SourceFile& file,
                                           const directives::ScanResult& scan,
                                           const slurm::Job& job, const slurm::Body& body,
                                           OutputTarget target, Diagnostics& diagnostics);

/// Prepends the array preamble (SLURM_ARRAY_* from the run's parameters or
/// from the for_each iteration) to the workload's command.
void adapt_workload(const JobWorkflow& workflow, OutputTarget target, air::Workload& workload);

/// For the workload target: a YAML comment block listing the
/// `databricks air run --override parameters.array_task_id=N` commands.
[[nodiscard]] std::string array_submit_comment(const JobWorkflow& workflow,
                                               const std::string& yaml_name);

/// Every index of an array, or empty when there are more than `limit`.
[[nodiscard]] std::vector<uint64_t> expand_array(const values::ArraySpec& spec, uint64_t limit);

/// "[0,1,2]": the for_each_task inputs.
[[nodiscard]] std::string json_index_list(const std::vector<uint64_t>& indexes);

/// True when `body` calls sbatch outside a function definition.
[[nodiscard]] bool calls_sbatch(const slurm::Body& body);

}  // namespace s2a::bundle
