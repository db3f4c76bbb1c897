// Driver scripts: what a script that calls sbatch submits, in order, and how
// the submissions depend on each other (spec/slurm-sbatch.md §5.5).
//
// analyze_driver() walks the shell AST (never the raw text): it follows
// `jid=$(sbatch --parsable a.sh)` variables into later `--dependency=afterok:$jid`
// options, unrolls `for x in a b c` loops over literal words, reads
// `sbatch <<EOF` here-documents as job scripts, and reports what cannot be
// known before the driver runs. It never reads the submitted files.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "diag/diagnostic.hpp"
#include "grammar/values.hpp"
#include "slurm/body.hpp"

namespace s2a::bundle {

/// Loops over more words than this are not unrolled.
inline constexpr size_t kMaxUnrolled = 100;
/// A driver submits at most this many jobs (the Jobs API allows 1000 tasks).
inline constexpr size_t kMaxSubmissions = 1000;

/// How a task waits for earlier tasks (Databricks run_if values).
enum class RunIf : uint8_t {
  all_success,
  all_done,
  at_least_one_success,
  at_least_one_failed,
  all_failed,
};
[[nodiscard]] std::string_view run_if_name(RunIf run_if);

struct Submission {
  Span span;                                 // the sbatch command in the driver
  std::optional<std::string> script;         // the script operand, relative to the driver
  std::optional<std::string> inline_script;  // a here-document or --wrap: the job script itself
  std::vector<std::string> option_lines;     // sbatch options as `--name=value`, to override
                                             // the script's own #SBATCH lines
  std::vector<size_t> after;                 // indexes of earlier submissions it waits for
  RunIf run_if = RunIf::all_success;
  std::string label;  // loop bindings, e.g. "size=7b"; empty outside unrolled loops
};

struct DriverPlan {
  std::vector<Submission> submissions;
};

[[nodiscard]] DriverPlan analyze_driver(const SourceFile& file, const slurm::Body& body,
                                        Diagnostics& diagnostics);

/// Maps the dependency types of one task's edges to a run_if, or returns the
/// reason it cannot be mapped exactly in `why` (then the closest is returned).
/// `types` holds one entry per edge: afterok, afterany, afternotok.
[[nodiscard]] RunIf map_run_if(const std::vector<std::string>& types, bool any, std::string& why);

/// Why a dependency item has no depends_on equivalent; empty when it has one
/// (afterok, afterany, afternotok on whole jobs without +minutes).
[[nodiscard]] std::string unsupported_dependency(const values::DependencyItem& item);

/// The script operand of an sbatch command, with expansions written as in the
/// source ("$0"); empty when the command has none.
[[nodiscard]] std::optional<std::string> sbatch_script_operand(const ast::Command& command,
                                                               std::string_view text);

}  // namespace s2a::bundle
