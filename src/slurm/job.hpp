// What the #SBATCH directives mean: typed job options with their provenance.
//
// build_job() reads the final (last-wins) value of every option of het
// component 0 through the value grammars and derives the totals a translator
// needs (spec/slurm-sbatch.md §2.21). Each field remembers the option it came
// from, so the YAML can say where a value came from and diagnostics can point
// at the directive.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "diag/diagnostic.hpp"
#include "directives/directives.hpp"
#include "grammar/values.hpp"

namespace s2a::slurm {

/// A value and the directive option it was read from.
template <class T>
struct Sourced {
  T value;
  const directives::Option* from = nullptr;
};

/// How GPUs were requested; decides how the per-node count is derived.
enum class GpuScope : uint8_t { per_node, per_task, total, exclusive_node };

struct GpuRequest {
  GpuScope scope = GpuScope::per_node;
  uint64_t count = 0;  // in the unit of `scope` (unknown for exclusive_node)
  std::string type;    // lower case, e.g. "h100"; empty when not given
  const directives::Option* from = nullptr;
};

struct Job {
  std::optional<Sourced<std::string>> name;
  std::optional<Sourced<std::string>> partition;
  std::optional<Sourced<std::string>> constraint;
  std::optional<Sourced<values::NodeCount>> nodes;
  std::optional<Sourced<uint64_t>> ntasks;
  std::optional<Sourced<uint64_t>> ntasks_per_node;
  std::optional<Sourced<uint64_t>> ntasks_per_gpu;
  std::optional<Sourced<uint64_t>> cpus_per_task;
  std::optional<GpuRequest> gpus;
  std::optional<Sourced<values::TimeLimit>> time;
  std::optional<Sourced<uint64_t>> mem_per_node_mib;
  std::optional<Sourced<uint64_t>> mem_per_cpu_mib;
  std::optional<Sourced<uint64_t>> mem_per_gpu_mib;
  std::optional<Sourced<bool>> requeue;           // --requeue (true) / --no-requeue (false)
  std::optional<Sourced<std::string>> exclusive;  // "" for plain --exclusive
  std::optional<Sourced<std::string>> array;
  std::optional<Sourced<std::string>> dependency;
  std::optional<Sourced<std::vector<std::string>>> mail_type;
  std::optional<Sourced<std::string>> mail_user;
  std::optional<Sourced<std::string>> account;
  std::optional<Sourced<std::string>> qos;
  std::optional<Sourced<std::string>> reservation;
  std::optional<Sourced<std::string>> chdir;
  std::optional<Sourced<std::string>> container_image;

  /// The final occurrence of every option of component 0, by canonical name.
  /// Keys view the static option tables.
  directives::NameMap<const directives::Option*> final_options;
  /// final_options' entry for `option_name`, or nullptr.
  [[nodiscard]] const directives::Option* final_option(std::string_view option_name) const;

  // Derived (spec/slurm-sbatch.md §2.21); empty when the script does not say.
  [[nodiscard]] std::optional<uint64_t> node_count() const;  // min nodes
  [[nodiscard]] std::optional<uint64_t> tasks_per_node() const;
  [[nodiscard]] std::optional<uint64_t> total_tasks() const;
  [[nodiscard]] std::optional<uint64_t> gpus_per_node() const;
  [[nodiscard]] std::optional<uint64_t> total_gpus() const;
  [[nodiscard]] std::string gpu_type() const;  // from the request, else ""

 private:
  [[nodiscard]] bool tasks_follow_gpus() const;
};

/// The job as one srun step sees it: the step's own options (`srun -N 2
/// --gpus-per-node=8`) over the job's, whose node, task and GPU counts srun
/// inherits otherwise. Only the counts and the GPU request are read again.
[[nodiscard]] Job step_view(const Job& job, std::span<const directives::Option> step_options);

/// Reads typed values from the scanned directives. Values sbatch would
/// reject are reported as errors; the field is then left empty.
[[nodiscard]] Job build_job(const directives::ScanResult& scan, Diagnostics& diagnostics);

}  // namespace s2a::slurm
