// Scripts in, one bundle out: a job per sbatch script, a multi-task job per
// driver script, a scheduled job per scrontab entry.
//
// build_bundle() reads submitted scripts through `read` (relative to the
// driver's directory) and runs every job script through translate(), so each
// task is converted exactly as `slurm2air job.sh` would convert it. It writes
// nothing: the caller writes `files` (see bundle/write.hpp) when `ok`.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bundle/model.hpp"
#include "translate.hpp"

namespace s2a::bundle {

struct BundleInput {
  std::string path;  // as given; relative paths resolve against the working directory
  std::string text;
};

/// Reads a script; throws io::FileError when it cannot.
using ReadFile = std::function<std::string(const std::string& path)>;

struct BundleOptions {
  TranslateOptions translate;       // target is forced to bundle
  bool workflow = false;            // --workflow: every input is a driver script
  std::optional<std::string> name;  // bundle name (default: from the first input)
  std::string bundle_dir = ".";     // where databricks.yml goes; artifact paths are relative to it
};

/// What to print about one source: a script, a driver, a crontab, or a job
/// script written inside a driver.
struct FileReport {
  const SourceFile* file = nullptr;
  Diagnostics diagnostics;
  std::vector<Span> redactions;
};

struct BundleBuild {
  std::vector<std::unique_ptr<SourceFile>> sources;  // drivers and crontabs
  std::vector<std::unique_ptr<Translation>> translations;
  std::vector<FileReport> reports;  // in input order
  BundleModel model;
  std::map<std::string, std::string> files;  // relative path -> content, databricks.yml included
  bool ok = false;                           // false: nothing may be written
};

[[nodiscard]] BundleBuild build_bundle(const std::vector<BundleInput>& inputs,
                                       const BundleOptions& options, const ReadFile& read);

/// `command.sh` for a task: a shebang, then the command, which starts in
/// $CODE_SOURCE_PATH.
[[nodiscard]] std::string command_file(const std::string& command);

/// task_key / job key spelling: letters, digits, '-' and '_', at most 100.
[[nodiscard]] std::string unique_key(const std::string& wanted, std::vector<std::string>& taken);

}  // namespace s2a::bundle
