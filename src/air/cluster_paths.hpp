// Paths on the cluster's own storage: home directories, scratch, project and
// parallel file systems. AI Runtime nodes mount none of them: the command
// starts in $CODE_SOURCE_PATH (the uploaded code_source.root_path), data
// lives in Unity Catalog volumes (/Volumes/...), and anything written
// elsewhere is lost when the run ends. A script that sources a file from
// such a directory, or reads and writes there, keeps its text, so the
// translator reports each one instead (S2A5010); a plain `cd` into one,
// which would fail and stop a `set -e` script, is taken out (cds_to_remove()).
//
// A relative path that climbs out of the code root (`python ../train.py`,
// `--data ../data`) is lost the same way: only code_source.root_path is
// uploaded, and the command starts in it (S2A5013). Judged only until the
// script changes directory: after `cd sub`, `..` may be inside again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.hpp"
#include "slurm/body.hpp"

namespace s2a::air {

/// How the script uses the path.
enum class PathUse : uint8_t {
  change_directory,  // cd / pushd DIR
  source_file,       // source FILE / . FILE
  argument,          // any other word, assignment value or redirect target
};

struct ClusterPath {
  uint32_t view = 0;         // index into Body::views
  Span span;                 // the word (or assignment value) holding the path
  std::string_view program;  // the command's program ("cd", "pushd", "python", ...)
  std::string_view written;  // the word as written (a view of the body's text)
  std::string path;  // as the shell would see its literal start: "/scratch/u/data", "~/code"
  std::string root;  // what the report groups by: "/scratch", "~"; ".." above the code root
  PathUse use = PathUse::argument;
  bool assignment = false;  // a variable's value: it stays in effect when the
                            // statement moves (export X=... -> env_variables)
  bool in_container = false;     // in the command of a container call that is unwrapped
  bool bound_by_engine = false;  // ... of singularity's, which binds the cluster's storage itself
  const slurm::Site* site = nullptr;  // the command the path is a word of
  bool removed = false;               // a cd the translation took out (cds_to_remove() said so)
};

/// When `path` names the job's directory — `.`, `$PWD`, `$(pwd)`,
/// `$SLURM_SUBMIT_DIR` or `$CODE_SOURCE_PATH` (quotes, braces and a trailing
/// `/` ignored), which is the uploaded code root on AI Runtime — or a plain
/// directory under it: the part under it ("" for the directory itself,
/// "data" for `./data`).
[[nodiscard]] std::optional<std::string> under_job_directory(std::string_view path);

/// The storage root of `path` when it is on the cluster rather than the node
/// image or AI Runtime's own mounts: the top directory of an absolute path
/// ("/scratch"), or "~" for the home directory ("~/x", "$HOME/x"; "~alice"
/// for another user's).
/// System directories (/usr, /tmp, /dev, ...) and AI Runtime paths
/// (/Volumes, /Workspace, /dbfs, /local_disk0) are not cluster storage.
[[nodiscard]] std::optional<std::string> cluster_storage_root(std::string_view path);

/// `path` is `directory` or inside it (`/data/x` is under `/data`, `/database` is not).
[[nodiscard]] bool is_under(std::string_view path, std::string_view directory);

/// Every use of cluster storage in the commands of the body, in source order:
/// command words, assignment values (`DATA=/scratch/u`, `export X=...`,
/// `--data=/scratch/u`) and redirect targets. Messages (echo, printf) and
/// text-processing patterns (sed, awk, grep) are not paths and are skipped,
/// and so are paths under `mount_targets`, the directories a container mount
/// shows under another name (their source is reported with the mount).
[[nodiscard]] std::vector<ClusterPath> find_cluster_paths(
    const slurm::Body& body, const std::vector<std::string>& mount_targets = {});

/// The changes of directory in `paths` the translation should take out, as
/// indexes into it, in order: each a plain `cd DIR` in the script's own text (not in a step's
/// `bash -c` script, not in `$(...)`) into the cluster's storage, which fails on
/// an AI Runtime node and so stops a `set -e` script, skips what follows
/// `&&` and takes the `|| exit` branch. Taken out, what follows runs in
/// $CODE_SOURCE_PATH, where a failed cd would have left it. Kept when the
/// script names the directory (or a path under it) anywhere else: it may
/// create it there (`mkdir -p`, `git clone`), and then the cd works.
[[nodiscard]] std::vector<size_t> cds_to_remove(const std::vector<ClusterPath>& paths);

/// One S2A5010 report (S2A5013 for a path above the code root).
struct ClusterPathReport {
  uint32_t view = 0;
  Span span;
  std::string message;
  std::string hint;
  Code code = Code::cluster_path;
};

/// The reports for `paths`: each cd and source on its own (they change what
/// runs next), other uses once per storage root, at the first, with a count.
[[nodiscard]] std::vector<ClusterPathReport> describe_cluster_paths(
    const std::vector<ClusterPath>& paths);

}  // namespace s2a::air
