// `slurm2air batch`: convert every sbatch script under some directories.
//
// Discovery walks the trees without following symlinks; which files are
// sbatch scripts is decided by their content (overridable by globs). Scripts
// are translated in-process by a pool of threads into results kept in input
// order; outputs are then written under OUT only, atomically, never over an
// existing file without `force`. The same inputs give the same OUT tree and
// reports whatever the number of threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "translate.hpp"

namespace s2a::batch {

/// Slurm's default max_script_size; larger files are refused, never read whole.
inline constexpr uint64_t kMaxScriptBytes = uint64_t{4} << 20;

/// An #SBATCH line before the first command (whatever the #! line names, if
/// any), or `#!` naming sh or bash and an #SBATCH line or an srun/sbatch
/// command anywhere.
[[nodiscard]] bool looks_like_sbatch_script(std::string_view text);

/// fnmatch(3) glob; a pattern without '/' is matched against the file name,
/// one with '/' against the whole relative path.
[[nodiscard]] bool glob_matches(const std::string& pattern, const std::string& relative);

/// One file found under an input root.
struct Candidate {
  std::filesystem::path path;  // to open
  std::string relative;        // generic path below OUT, e.g. "team a/train.sh"
  std::string display;         // as the user names it: root as given + relative
  std::string skip_reason;     // set: never opened (symlink, FIFO, device, ...)
};

struct DiscoverOptions {
  std::vector<std::string> include;  // force matching files to count as scripts
  std::vector<std::string> exclude;  // drop matching files and directories
  std::filesystem::path out_dir;     // never descended into
};

/// Every file under the roots, sorted by relative path. Roots themselves are
/// taken as given (a symlink named on the command line is followed); inside
/// a tree nothing is followed. Problems with a root are thrown as io::FileError.
[[nodiscard]] std::vector<Candidate> discover(const std::vector<std::string>& roots,
                                              const DiscoverOptions& options);

enum class FileStatus : uint8_t {
  clean,        // converted, notes only
  findings,     // converted, with warnings
  failed,       // not converted: errors in the script, unreadable, too large, output exists...
  not_script,   // content says it is not an sbatch script; nothing written
  skipped,      // never opened (symlink, special file)
  interrupted,  // abandoned after SIGINT
};
[[nodiscard]] std::string_view status_name(FileStatus status);

struct DirectiveCount {
  std::string option;  // canonical long name, e.g. "qos"
  DirectiveStatus status;
};

/// What the migration report needs of one file. Kept for every file until
/// the run ends, so it holds no text: the YAML and the per-script report are
/// staged on disk as soon as they exist (a batch of 25,000 scripts once held
/// half a gigabyte here).
/// One output of a script, ready for phase 2.
struct StagedOutput {
  std::filesystem::path staged;  // in OUT's staging area; empty: nothing to move
  bool unchanged = false;        // --force, and OUT already holds exactly this content
};

struct FileResult {
  std::string relative;
  std::string display;
  FileStatus status = FileStatus::skipped;
  std::string reason;  // failed / skipped / not_script: why
  // Before (Slurm) and after (AI Runtime); absent when unknown.
  std::optional<uint64_t> slurm_nodes;
  std::optional<uint64_t> slurm_gpus;
  std::string slurm_gpu_type;
  std::optional<uint64_t> air_nodes;
  std::optional<uint64_t> air_gpus;
  std::string air_accelerator_type;
  uint32_t directive_counts[4] = {0, 0, 0, 0};  // by DirectiveStatus
  std::vector<DirectiveCount> not_mapped;       // approximated or reported options
  std::vector<Code> codes;                      // of the diagnostics, in order
  uint32_t suppressed_count = 0;
  bool translated = false;  // read, recognised and translated (outputs to write)
  StagedOutput yaml;        // nothing staged when not converted
  StagedOutput report;      // the per-script report
  bool no_yaml = false;     // translated, but the script has errors: it has no YAML
  // Only with --report-format sarif, whose one report needs every file's text.
  std::shared_ptr<const SourceFile> file;
  Diagnostics diagnostics;
  Diagnostics suppressed;
  std::vector<Span> redactions;
  // --check
  bool stale = false;
  std::string diff;
};

struct BatchOptions {
  std::vector<std::string> roots;
  std::filesystem::path out_dir;
  unsigned jobs = 0;  // 0: hardware concurrency
  std::vector<std::string> include;
  std::vector<std::string> exclude;
  bool force = false;
  bool check = false;  // compare with OUT instead of writing
  std::string report_format =
      "text";  // per-script reports: text, json, gcc; sarif adds OUT/report.sarif
  TranslateOptions translate;
  std::vector<Code> attention;                // codes that make a script "need a person"
  const std::atomic<bool>* cancel = nullptr;  // set (e.g. by SIGINT): stop cleanly
  std::function<void(size_t done, size_t total)> progress;  // called from one thread at a time
};

struct BatchRun {
  std::vector<FileResult> files;        // every candidate, by relative path
  std::vector<std::string> written;     // outputs written, relative to OUT
  size_t unchanged = 0;                 // outputs already up to date in OUT (--force), left alone
  size_t removed = 0;                   // YAML of earlier runs for scripts that no longer convert
  std::vector<std::string> run_errors;  // problems writing run-level reports
  bool interrupted = false;
};

/// The codes that put a script on the "needs a person" list by default.
[[nodiscard]] std::vector<Code> default_attention_codes();

/// Discovers, translates and (unless options.check) writes. Throws
/// io::FileError only for problems with the roots or OUT itself.
[[nodiscard]] BatchRun run_batch(const BatchOptions& options);

/// Output path of `relative` + `suffix` under `out_dir`, or empty when the
/// result would not lie strictly inside out_dir.
[[nodiscard]] std::filesystem::path output_path(const std::filesystem::path& out_dir,
                                                const std::string& relative,
                                                std::string_view suffix);

/// OUT/migration-report.md and .json: the whole run for a planning meeting.
[[nodiscard]] std::string render_migration_markdown(const BatchRun& run,
                                                    const BatchOptions& options);
[[nodiscard]] std::string render_migration_json(const BatchRun& run, const BatchOptions& options);
/// The same JSON, handed to `sink` in pieces (large runs: no whole copy in memory).
void write_migration_json(const BatchRun& run, const BatchOptions& options,
                          const std::function<void(std::string_view)>& sink);
/// The end-of-run summary printed on stdout.
[[nodiscard]] std::string render_summary(const BatchRun& run, const BatchOptions& options);

}  // namespace s2a::batch
