// Results written under the code root. The command starts in
// $CODE_SOURCE_PATH, the node's own unpacked copy of code_source.root_path:
// under Slurm `--output_dir checkpoints` wrote to the shared file system
// beside the script, where the files outlived the job; on AI Runtime they
// land on the node's disk and go with it when the run ends. Reported once
// per script (S2A5030), at the first such option, with a count of the rest.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "slurm/body.hpp"

namespace s2a::air {

struct CodeRootOutput {
  uint32_t view = 0;  // index into Body::views
  Span span;          // the option word, through its value
  std::string shown;  // the option as written, with the value a variable held
};

/// Whether an option name without its dashes names where a program writes
/// its results (`output_dir`, `save-dir`, `work-dir`, `logdir`; case and
/// `-`/`_` ignored). `file_like` names are as often formats or flags
/// (`--output json`, `--save`) and count only when the value looks like a path.
[[nodiscard]] bool names_output_directory(std::string_view name);
[[nodiscard]] bool names_output_file(std::string_view name);

/// Whether `value` is a path inside the code root: relative, not climbing
/// out of it (that is S2A5013), not a URL or an option.
[[nodiscard]] bool is_code_root_path(std::string_view value);

/// The output options of the body's commands whose value is a path under
/// the code root, in source order; a value that is a variable counts when
/// the script assigns it one such literal. Judged until the script changes
/// into a directory that is not inside the code root (after `cd /scratch/x`
/// or `cd $DIR`, relative paths are not the code root's).
[[nodiscard]] std::vector<CodeRootOutput> find_code_root_outputs(
    const slurm::Body& body, slurm::BatchAssignments& assignments);

}  // namespace s2a::air
