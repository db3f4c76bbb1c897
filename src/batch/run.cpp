// The batch engine: a thread pool translates, then one thread writes.
//
// Phase 1 (parallel) reads, classifies and translates each candidate into a
// FileResult at the candidate's index, so results never depend on timing;
// its YAML and report go straight to a private staging directory inside OUT,
// so memory does not grow with the number of scripts.
// Phase 2 (serial, in path order) resolves output collisions and renames the
// staged files into place; doing it in order keeps the OUT tree
// deterministic and an interruption easy to stop at a file boundary. The
// staging directory is removed whatever happens, so an interrupted run
// leaves nothing behind.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "batch/batch.hpp"
#include "batch/check.hpp"
#include "emit/report.hpp"
#include "emit/sarif.hpp"
#include "io/files.hpp"

namespace s2a::batch {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kYamlSuffix = ".yaml";

bool cancelled(const BatchOptions& options) {
  return options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed);
}

std::string report_suffix(const std::string& format) {
  return format == "json" ? ".report.json" : ".report.txt";
}

struct ReadResult {
  std::string text;
  std::string error;
};

/// Reads a regular file of at most kMaxScriptBytes. O_NOFOLLOW and
/// O_NONBLOCK guard against the entry having been swapped for a link or a
/// FIFO since it was listed.
ReadResult read_bounded(const fs::path& path) {
  ReadResult result;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    result.error = std::string("cannot be read (") + std::strerror(errno) + ")";
    return result;
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    result.error = "not a regular file";
    return result;
  }
  if (static_cast<uint64_t>(info.st_size) > kMaxScriptBytes) {
    ::close(fd);
    result.error = "larger than 4 MiB (Slurm's default max_script_size)";
    return result;
  }
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      result.error = std::string("read error (") + std::strerror(errno) + ")";
      break;
    }
    result.text.append(buffer, static_cast<size_t>(n));
    if (result.text.size() > kMaxScriptBytes) {
      result.error = "larger than 4 MiB (Slurm's default max_script_size)";
      break;
    }
  }
  ::close(fd);
  if (!result.error.empty()) result.text.clear();
  return result;
}

std::string render_file_report(const Translation& t, const std::string& format, int exit_code) {
  const emit::ReportInput input{*t.file, t.diagnostics, t.redactions, &t.suppressed};
  if (format == "json") return emit::render_json(input, exit_code);
  if (format == "gcc") return emit::render_gcc(input);
  return emit::render_text(input);
}

void summarize_translation(const Translation& t, FileResult& r) {
  r.slurm_nodes = t.job.node_count();
  r.slurm_gpus = t.job.total_gpus();
  r.slurm_gpu_type = t.job.gpu_type();
  for (const DirectiveOutcome& outcome : t.directives) {
    ++r.directive_counts[static_cast<size_t>(outcome.status)];
    if (outcome.status == DirectiveStatus::approximated ||
        outcome.status == DirectiveStatus::reported) {
      r.not_mapped.push_back({std::string(outcome.option->name()), outcome.status});
    }
  }
  if (t.workload) {
    r.air_nodes = t.workload->compute.nodes;
    r.air_gpus = t.workload->compute.num_accelerators;
    r.air_accelerator_type = t.workload->compute.accelerator_type;
  }
  r.codes.reserve(t.diagnostics.size());
  for (const Diagnostic& d : t.diagnostics) r.codes.push_back(d.code);
  r.suppressed_count = static_cast<uint32_t>(t.suppressed.size());
}

int exit_code_for(const FileResult& r) {
  return r.status == FileStatus::clean ? 0 : r.status == FileStatus::findings ? 1 : 2;
}

bool forced_by_include(const BatchOptions& options, const std::string& relative) {
  return std::any_of(options.include.begin(), options.include.end(),
                     [&](const std::string& glob) { return glob_matches(glob, relative); });
}

/// output_path() for a root that is already absolute and normalized.
fs::path path_under(const fs::path& root, const std::string& relative, std::string_view suffix) {
  const fs::path rel = fs::path(relative + std::string(suffix));
  if (rel.empty() || rel.is_absolute() || relative.find('\0') != std::string::npos) return {};
  for (const fs::path& part : rel) {
    if (part.empty() || part == "." || part == "..") return {};  // also a trailing '/'
  }
  const fs::path target = (root / rel).lexically_normal();
  // Strictly inside: every component of root is a prefix of target, and more follows.
  auto t = target.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++t) {
    if (r->empty()) continue;  // trailing separator of root
    if (t == target.end() || *t != *r) return {};
  }
  if (t == target.end()) return {};
  for (; t != target.end(); ++t) {
    if (*t == ".." || *t == ".") return {};
  }
  return target;
}

/// `out_root`: OUT made absolute and normalized once per run, not per script.
void compare_with_committed(const fs::path& out_root, const Translation& t, FileResult& r) {
  const fs::path committed = path_under(out_root, r.relative, kYamlSuffix);
  const ReadResult existing = read_bounded(committed);
  const std::string label = r.relative + std::string(kYamlSuffix);
  if (!t.workload) {
    // batch writes no YAML for a script with errors: only none committed is current.
    if (!existing.error.empty()) return;
    r.stale = true;
    r.diff = label + ": committed, but the script no longer converts (see its report)\n";
    return;
  }
  if (!existing.error.empty()) {
    r.stale = true;
    r.diff = label + ": no committed translation (" + existing.error + ")\n";
    return;
  }
  const CheckResult check = check_translation(t, existing.text, label);
  r.stale = !check.up_to_date;
  r.diff = check.problem.empty() ? check.diff : check.problem + "\n";
}

/// OUT/.slurm2air-staging-*: where phase 1 puts each script's outputs.
/// With --force, an output OUT already holds byte for byte is not staged:
/// re-running a conversion then rewrites only what changed, which keeps
/// modification times meaningful and spares the file system tens of
/// thousands of creations and renames.
class StagingArea {
 public:
  StagingArea(const fs::path& out_dir, bool force)
      : root_(fs::absolute(out_dir).lexically_normal()), keep_unchanged_(force) {
    for (unsigned attempt = 0; attempt < 100; ++attempt) {
      const fs::path dir = out_dir / (".slurm2air-staging-" + std::to_string(::getpid()) + "-" +
                                      std::to_string(attempt));
      std::error_code error;
      if (fs::create_directory(dir, error)) {
        dir_ = dir;
        return;
      }
      if (error && error != std::errc::file_exists) break;
    }
    throw io::FileError(out_dir.string() + ": cannot create a staging directory");
  }
  ~StagingArea() {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  StagingArea(const StagingArea&) = delete;
  StagingArea& operator=(const StagingArea&) = delete;

  /// Stages `content`, the output `relative_file` of candidate `index`.
  StagedOutput stage(size_t index, const std::string& relative_file, std::string_view suffix,
                     const std::string& content) const {
    if (keep_unchanged_ && holds(relative_file, content)) return {{}, true};
    fs::path path = dir_ / (std::to_string(index) + std::string(suffix));
    io::write_new_file(path.string(), content);
    return {std::move(path), false};
  }

 private:
  bool holds(const std::string& relative_file, const std::string& content) const {
    const fs::path target = path_under(root_, relative_file, "");
    if (target.empty()) return false;  // phase 2 reports it
    const ReadResult existing = read_bounded(target);
    return existing.error.empty() && existing.text == content;
  }

  fs::path dir_;
  fs::path root_;
  bool keep_unchanged_;
};

FileResult translate_candidate(const Candidate& candidate, size_t index,
                               const BatchOptions& options, const fs::path& out_root,
                               const StagingArea* staging) {
  FileResult r;
  r.relative = candidate.relative;
  r.display = candidate.display;
  if (!candidate.skip_reason.empty()) {
    r.status = FileStatus::skipped;
    r.reason = candidate.skip_reason;
    return r;
  }
  ReadResult read = read_bounded(candidate.path);
  if (!read.error.empty()) {
    r.status = FileStatus::failed;
    r.reason = read.error;
    return r;
  }
  if (!forced_by_include(options, candidate.relative) && !looks_like_sbatch_script(read.text)) {
    r.status = FileStatus::not_script;
    r.reason = "no #SBATCH directive, and no #! line naming sh or bash with srun/sbatch";
    return r;
  }
  Translation t = translate(candidate.display, std::move(read.text), options.translate);
  summarize_translation(t, r);
  r.translated = true;
  if (!t.workload) {
    r.status = FileStatus::failed;
    r.reason = "not converted: the script has errors";
    r.no_yaml = true;
  } else {
    const bool findings = std::any_of(r.codes.begin(), r.codes.end(), [](Code code) {
      return code_info(code).severity != Severity::note;
    });
    r.status = findings ? FileStatus::findings : FileStatus::clean;
  }
  if (options.check) compare_with_committed(out_root, t, r);
  if (staging != nullptr) {
    if (t.workload) {
      r.yaml = staging->stage(index, r.relative + std::string(kYamlSuffix), kYamlSuffix, t.yaml);
    }
    r.report = staging->stage(index, r.relative + report_suffix(options.report_format), ".report",
                              render_file_report(t, options.report_format, exit_code_for(r)));
  }
  if (options.report_format == "sarif") {
    r.file = std::shared_ptr<const SourceFile>(std::move(t.file));
    r.diagnostics = std::move(t.diagnostics);
    r.suppressed = std::move(t.suppressed);
    r.redactions = std::move(t.redactions);
  }
  return r;
}

FileResult failed_result(const Candidate& candidate, std::string reason) {
  FileResult r;
  r.relative = candidate.relative;
  r.display = candidate.display;
  r.status = FileStatus::failed;
  r.reason = std::move(reason);
  return r;
}

/// Never lets one file's problem reach the others: anything thrown becomes
/// this file's failure.
FileResult process(const Candidate& candidate, size_t index, const BatchOptions& options,
                   const fs::path& out_root, const StagingArea* staging) {
  try {
    return translate_candidate(candidate, index, options, out_root, staging);
  } catch (const io::FileError& error) {  // staging its outputs failed (disk full, ...)
    return failed_result(candidate, error.what());
  } catch (const std::exception& error) {
    return failed_result(candidate, std::string("internal error: ") + error.what());
  }
}

std::vector<FileResult> translate_all(const std::vector<Candidate>& candidates,
                                      const BatchOptions& options, const StagingArea* staging,
                                      bool& interrupted) {
  std::vector<FileResult> results(candidates.size());
  const fs::path out_root = fs::absolute(options.out_dir).lexically_normal();
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::mutex progress_mutex;
  const auto work = [&] {
    for (size_t i = next++; i < candidates.size(); i = next++) {
      if (cancelled(options)) {
        results[i].relative = candidates[i].relative;
        results[i].display = candidates[i].display;
        results[i].status = FileStatus::interrupted;
        results[i].reason = "interrupted before it was processed";
        continue;
      }
      results[i] = process(candidates[i], i, options, out_root, staging);
      const size_t finished = ++done;
      if (options.progress) {
        std::lock_guard lock(progress_mutex);
        options.progress(finished, candidates.size());
      }
    }
  };
  unsigned jobs = options.jobs != 0 ? options.jobs : std::thread::hardware_concurrency();
  jobs = std::clamp<unsigned>(jobs, 1, 256);
  std::vector<std::thread> pool;
  for (unsigned j = 1; j < jobs; ++j) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
  interrupted = cancelled(options);
  return results;
}

/// Two inputs with one output path (several roots with the same name), or an
/// output file where another output needs a directory: the later file fails,
/// decided here in path order so the outcome never depends on threads.
void fail_colliding_outputs(std::vector<FileResult>& files) {
  std::set<std::string> directories;
  std::map<std::string, std::string> owners;
  for (const FileResult& r : files) {
    if (r.status != FileStatus::clean && r.status != FileStatus::findings &&
        r.status != FileStatus::failed) {
      continue;
    }
    for (fs::path dir = fs::path(r.relative).parent_path(); !dir.empty(); dir = dir.parent_path()) {
      directories.insert(dir.generic_string());
    }
  }
  for (FileResult& r : files) {
    if (!r.translated) continue;  // nothing to write
    const std::string yaml = r.relative + std::string(kYamlSuffix);
    std::string collision;
    if (directories.count(yaml) != 0) {
      collision = "its output " + yaml + " would collide with a directory of the same name";
    } else if (const auto [owner, fresh] = owners.emplace(r.relative, r.display); !fresh) {
      collision = "its output path is also the output of " + owner->second;
    }
    if (collision.empty()) continue;
    r.status = FileStatus::failed;
    r.reason = std::move(collision);
    r.yaml = {};  // with --force, writing them would replace the other file's outputs
    r.report = {};
    r.no_yaml = false;
  }
}

/// Puts outputs under OUT, one at a time (phase 2 is serial). Every system
/// call counts on a large run, so directories already checked or created are
/// not looked at again.
class OutputTree {
 public:
  // OUT is normalized once: doing it for every output was a tenth of a large run.
  OutputTree(const fs::path& out_dir, bool force)
      : out_dir_(out_dir), root_(fs::absolute(out_dir).lexically_normal()), force_(force) {}

  /// Whether something already stands where `relative_file` would go.
  [[nodiscard]] bool exists(const std::string& relative_file) const {
    const fs::path target = path_under(root_, relative_file, "");
    std::error_code error;
    return !target.empty() && fs::exists(fs::symlink_status(target, error));
  }

  /// Puts one output by `put(target)`; returns an error message or "".
  /// `checked`: the caller already found the target absent (or --force).
  std::string place(const std::string& relative_file, bool checked,
                    const std::function<void(const fs::path&)>& put) {
    fs::path target;
    if (std::string error = checked_target(relative_file, target); !error.empty()) return error;
    if (!checked || force_) {
      std::error_code error;
      const fs::file_status status = fs::symlink_status(target, error);
      if (fs::exists(status) && !force_) {
        return relative_file + " already exists (use --force to overwrite)";
      }
      if (fs::is_directory(status)) return relative_file + " exists and is a directory";
    }
    try {
      put(target);
    } catch (const io::FileError& failure) {
      return failure.what();
    }
    return "";
  }

  /// Removes an earlier output file, if there is one; returns an error message or "".
  std::string remove(const std::string& relative_file) {
    fs::path target;
    if (std::string error = checked_target(relative_file, target); !error.empty()) return error;
    std::error_code error;
    const fs::file_status status = fs::symlink_status(target, error);
    if (!fs::exists(status)) return "";
    if (!fs::is_regular_file(status)) return relative_file + " exists and is not a regular file";
    if (!fs::remove(target, error) && error) {
      return relative_file + ": cannot remove the earlier translation (" + error.message() + ")";
    }
    ++removed_;
    return "";
  }

  [[nodiscard]] size_t removed() const { return removed_; }

  /// For an output left as it is: the same directory checks as for writing,
  /// so a symlink planted in OUT is refused whether or not the file changed.
  std::string check_in_place(const std::string& relative_file) {
    fs::path target;
    return checked_target(relative_file, target);
  }

  /// Renames a staged file into place (same file system: atomic).
  std::string move(const std::string& relative_file, const fs::path& staged, bool checked) {
    return place(relative_file, checked, [&](const fs::path& target) {
      if (std::rename(staged.c_str(), target.c_str()) != 0) {
        throw io::FileError(target.string() + ": cannot be written (" + std::strerror(errno) + ")");
      }
    });
  }

 private:
  /// The absolute path of `relative_file` under OUT, once it is known to lie
  /// inside OUT and its directories are real directories (created if
  /// missing, never followed through a symlink); else an error message.
  std::string checked_target(const std::string& relative_file, fs::path& target) {
    target = path_under(root_, relative_file, "");
    if (target.empty()) {
      return relative_file + ": the output would lie outside the output directory";
    }
    return ensure_directory(fs::path(relative_file).lexically_normal().parent_path());
  }

  /// Creates the directory under OUT one component at a time, refusing any
  /// component that exists as a symlink or a non-directory.
  std::string ensure_directory(const fs::path& relative_dir) {
    fs::path current = out_dir_;
    for (const fs::path& part : relative_dir) {
      current /= part;
      if (verified_.count(current.native()) != 0) continue;
      std::error_code error;
      const fs::file_status status = fs::symlink_status(current, error);
      if (fs::is_symlink(status)) {
        return current.string() + " is a symbolic link; refusing to write";
      }
      if (fs::exists(status)) {
        if (!fs::is_directory(status)) return current.string() + " exists and is not a directory";
      } else {
        fs::create_directory(current, error);
        if (error) return current.string() + ": cannot create (" + error.message() + ")";
      }
      verified_.insert(current.native());
    }
    return "";
  }

  fs::path out_dir_;
  fs::path root_;
  bool force_;
  std::set<std::string> verified_;  // directories under OUT known to be real directories
  size_t removed_ = 0;
};

void write_file_outputs(OutputTree& tree, const BatchOptions& options, FileResult& r,
                        BatchRun& run) {
  if (!r.translated) return;
  const std::string yaml = r.relative + std::string(kYamlSuffix);
  const std::string report = r.relative + report_suffix(options.report_format);
  // Refuse before writing either, so a script's outputs stay a matching pair.
  if (!options.force) {
    for (const std::string& name : {yaml, report}) {
      if (tree.exists(name)) {
        r.status = FileStatus::failed;
        r.reason = name + " already exists (use --force to overwrite)";
        return;
      }
    }
  }
  if (r.no_yaml && options.force) {
    // The script no longer converts: a YAML from an earlier run would
    // contradict its report, so --force takes it away.
    const std::string error = tree.remove(yaml);
    if (!error.empty()) {
      r.status = FileStatus::failed;
      r.reason = error;
      return;
    }
  }
  for (const auto& [name, output] : {std::pair{yaml, &r.yaml}, {report, &r.report}}) {
    if (!output->unchanged && output->staged.empty()) continue;  // no YAML: the script has errors
    const std::string error = output->unchanged ? tree.check_in_place(name)
                                                : tree.move(name, output->staged, /*checked=*/true);
    if (!error.empty()) {
      r.status = FileStatus::failed;
      r.reason = error;
      return;
    }
    if (output->unchanged) {
      ++run.unchanged;
    } else {
      run.written.push_back(name);
    }
  }
}

void write_run_outputs(OutputTree& tree, const BatchOptions& options, BatchRun& run) {
  // Each report is rendered and written on its own: on large runs they are
  // tens of megabytes, more than everything else the run keeps.
  using Put = std::function<void(const fs::path&)>;
  std::vector<std::pair<std::string, Put>> outputs = {
      {"migration-report.md",
       [&](const fs::path& target) {
         io::write_atomically(target.string(), render_migration_markdown(run, options));
       }},
      {"migration-report.json",
       [&](const fs::path& target) {
         io::AtomicFileWriter file(target.string());
         write_migration_json(run, options, [&](std::string_view text) { file.write(text); });
         file.commit();
       }},
  };
  if (options.report_format == "sarif") {
    outputs.emplace_back("report.sarif", [&](const fs::path& target) {
      std::vector<emit::SarifFile> files;
      for (const FileResult& r : run.files) {
        if (r.file == nullptr) continue;
        files.push_back({{*r.file, r.diagnostics, r.redactions, &r.suppressed}, r.display});
      }
      io::write_atomically(target.string(), emit::render_sarif(files));
    });
  }
  for (const auto& [name, put] : outputs) {
    const std::string error = tree.place(name, /*checked=*/false, put);
    if (error.empty()) {
      run.written.push_back(name);
    } else {
      run.run_errors.push_back(error);
    }
  }
}

}  // namespace

std::string_view status_name(FileStatus status) {
  switch (status) {
    case FileStatus::clean:
      return "clean";
    case FileStatus::findings:
      return "findings";
    case FileStatus::failed:
      return "failed";
    case FileStatus::not_script:
      return "not_script";
    case FileStatus::skipped:
      return "skipped";
    case FileStatus::interrupted:
      return "interrupted";
  }
  return "failed";
}

std::vector<Code> default_attention_codes() {
  return {
      Code::hetjob_component_ignored, Code::gpus_not_per_node,       Code::gpu_model_substituted,
      Code::directive_for_bundle,     Code::one_task_per_gpu,        Code::slurm_command_in_body,
      Code::runs_on_every_node,       Code::launcher_count_mismatch, Code::launch_outside_srun};
}

fs::path output_path(const fs::path& out_dir, const std::string& relative,
                     std::string_view suffix) {
  return path_under(fs::absolute(out_dir).lexically_normal(), relative, suffix);
}

BatchRun run_batch(const BatchOptions& options) {
  if (!options.check) {
    std::error_code error;
    fs::create_directories(options.out_dir, error);
    if (error || !fs::is_directory(options.out_dir)) {
      throw io::FileError(options.out_dir.string() + ": cannot create the output directory");
    }
  }
  const DiscoverOptions discover_options{options.include, options.exclude, options.out_dir};
  const std::vector<Candidate> candidates = discover(options.roots, discover_options);
  BatchRun run;
  std::optional<StagingArea> staging;
  if (!options.check) staging.emplace(options.out_dir, options.force);
  run.files = translate_all(candidates, options, staging ? &*staging : nullptr, run.interrupted);
  // An interrupted run writes nothing: half a migration is worse than none.
  if (run.interrupted || options.check) return run;
  fail_colliding_outputs(run.files);
  OutputTree tree(options.out_dir, options.force);
  for (FileResult& r : run.files) {
    if (cancelled(options)) {
      run.interrupted = true;
      return run;
    }
    write_file_outputs(tree, options, r, run);
  }
  run.removed = tree.removed();
  write_run_outputs(tree, options, run);
  return run;
}

}  // namespace s2a::batch
