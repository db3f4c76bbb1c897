// Slurm's job variables and what stands for them on AI Runtime
// (spec/slurm-sbatch.md §3, spec/air-runtime.md §1.9).
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "air/workload.hpp"
#include "slurm/job.hpp"
#include "source/ascii.hpp"

namespace s2a::air {

enum class VariableAction : uint8_t {
  keep,     // not a Slurm variable
  rename,   // $SLURM_X -> $Y, keeping any ${...} operators
  literal,  // the whole expansion becomes a known value
  report,   // no equivalent: left as is and reported
};

struct VariableRule {
  VariableAction action = VariableAction::keep;
  std::string replacement;  // variable name (rename) or text (literal)
  bool exact = true;        // rename only: same meaning on AI Runtime
  std::string reason;
  std::string hint;
};

/// The rule for one variable name in this job (some depend on its shape).
[[nodiscard]] VariableRule rule_for(std::string_view name, const slurm::Job& job,
                                    const Compute& compute, const std::string& job_name);

/// The Slurm variable whose value Slurm's spank_pbs plugin copies into the
/// PBS name `name` in each task (PBS_O_WORKDIR from SLURM_SUBMIT_DIR, ...),
/// so that scripts written for PBS run unchanged; empty for other names.
[[nodiscard]] std::string_view slurm_name_behind_pbs_name(std::string_view name);

/// Names Slurm (or a site's prolog, like SLURM_TMPDIR) sets in a job's
/// environment: its output variables. Other SLURM* names are the user's own.
[[nodiscard]] bool is_set_by_slurm(std::string_view name);

/// Variables AI Runtime sets on every node; assigning them would fight it.
[[nodiscard]] bool is_runtime_variable(std::string_view name);

/// Whether a value as written is nothing but Slurm's lists of the job's or
/// the step's GPUs (`$SLURM_JOB_GPUS`, `"${SLURM_STEP_GPUS:-$SLURM_JOB_GPUS}"`):
/// AI Runtime sets neither, so CUDA_VISIBLE_DEVICES set to it is empty and
/// hides every GPU (S2A5018).
[[nodiscard]] bool is_slurm_gpu_list(std::string_view written);

/// Names that hold credentials: *_TOKEN, *_API_KEY, *_SECRET, *PASSWORD*, AWS_*, ...
[[nodiscard]] bool is_secret_name(std::string_view name);
/// Whether `value`, written under the secret name `name`, could be the
/// credential itself (or a placeholder for it): not empty, a switch (True,
/// off, none) or a file path; and under a *_TOKEN name that may be a
/// tokenizer's (PAD_TOKEN, MAX_TOKEN: not HF_TOKEN, *_API_TOKEN, ...), not a
/// short word, number, `<pad>`-style vocabulary or text with blanks.
[[nodiscard]] bool could_be_credential(std::string_view name, std::string_view value);
/// An option name (upper case, '_' for '-') that names a credential: a secret
/// name, or a secret suffix alone (TOKEN, API_KEY, SECRET, ...).
[[nodiscard]] bool is_secret_option_name(std::string_view name);
/// False only for names is_secret_option_name refuses in any case and with
/// `-` for `_` (`--learning-rate`): lets the caller skip building the name.
[[nodiscard]] bool may_name_secret_option(std::string_view name);

}  // namespace s2a::air
