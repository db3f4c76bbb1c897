// `slurm2air batch PATH... --out-dir OUT`: a whole cluster's scripts at once.
//
// Exit codes: 0 every script converted cleanly, 1 some with findings (or,
// with --check, some translation stale), 2 some failed, 3 usage, 130
// interrupted. SIGINT stops at a file boundary; nothing partial is left.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <iostream>

#include "batch/batch.hpp"
#include "cli/batch_commands.hpp"
#include "cli/profile.hpp"
#include "diag/suppress.hpp"
#include "io/files.hpp"

namespace s2a::cli {
namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void on_interrupt(int /*signal*/) { g_interrupted.store(true); }

/// Installs the SIGINT/SIGTERM handler for the run and restores the old ones.
class InterruptGuard {
 public:
  InterruptGuard() {
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &old_int_);
    ::sigaction(SIGTERM, &action, &old_term_);
  }
  ~InterruptGuard() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

struct BatchArgs {
  batch::BatchOptions options;
  std::string out_dir;
  std::vector<std::string> attention;
  bool no_comments = false;
  bool no_progress = false;
};

/// A one-line bar on stderr, redrawn only when the percentage changes.
std::function<void(size_t, size_t)> progress_bar() {
  auto last = std::make_shared<size_t>(SIZE_MAX);
  return [last](size_t done, size_t total) {
    const size_t percent = total == 0 ? 100 : done * 100 / total;
    if (percent == *last && done != total) return;
    *last = percent;
    const size_t filled = percent * 30 / 100;
    std::cerr << "\r[" << std::string(filled, '#') << std::string(30 - filled, '.') << "] " << done
              << "/" << total << " files" << (done == total ? "\n" : "") << std::flush;
  };
}

int exit_code(const batch::BatchRun& run, bool check) {
  if (run.interrupted) return 130;
  if (check) {
    // CI on a migration repository: only stale translations and unreadable files fail.
    bool stale = false;
    bool unreadable = false;
    for (const batch::FileResult& r : run.files) {
      stale = stale || r.stale;
      unreadable = unreadable || (r.status == batch::FileStatus::failed && !r.translated);
    }
    return unreadable ? 2 : stale ? 1 : 0;
  }
  bool failed = !run.run_errors.empty();
  bool findings = false;
  for (const batch::FileResult& r : run.files) {
    failed = failed || r.status == batch::FileStatus::failed;
    findings = findings || r.status == batch::FileStatus::findings;
  }
  return failed ? 2 : findings ? 1 : 0;
}

int run_batch_command(BatchArgs& args) {
  batch::BatchOptions& options = args.options;
  options.out_dir = args.out_dir;
  options.translate.provenance_comments = !args.no_comments;
  apply_site_profile(options.translate);
  options.attention = batch::default_attention_codes();
  for (const std::string& name : args.attention) {
    const std::optional<Code> code = find_code(name);
    if (!code) {
      std::cerr << "slurm2air: unknown diagnostic code " << name << "\n";
      return 3;
    }
    options.attention.push_back(*code);
  }
  if (!args.no_progress && ::isatty(STDERR_FILENO) != 0) options.progress = progress_bar();
  g_interrupted.store(false);
  options.cancel = &g_interrupted;
  batch::BatchRun run;
  {
    InterruptGuard guard;
    run = batch::run_batch(options);
  }
  if (options.check) {
    for (const batch::FileResult& r : run.files) {
      if (r.stale) std::cout << r.diff;
    }
  }
  for (const std::string& error : run.run_errors)
    std::cerr << "slurm2air: error: " << error << "\n";
  std::cout << batch::render_summary(run, options);
  return exit_code(run, options.check);
}

}  // namespace

Subcommand add_batch_command(CLI::App& app, const TranslateFlags& flags) {
  auto args = std::make_shared<BatchArgs>();
  CLI::App* cmd = app.add_subcommand(
      "batch", "convert every sbatch script under PATHs into OUT (see docs/batch.md)");
  cmd->add_option("paths", args->options.roots, "files or directories to convert")->required();
  cmd->add_option("--out-dir", args->out_dir, "output tree (mirrors the inputs)")->required();
  cmd->add_option("-j,--jobs", args->options.jobs, "parallel translations (default: all cores)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--include", args->options.include,
                  "glob of files to treat as sbatch scripts whatever their content (repeatable)");
  cmd->add_option("--exclude", args->options.exclude,
                  "glob of files or directories to leave out (repeatable)");
  cmd->add_flag("--force", args->options.force, "overwrite existing outputs");
  cmd->add_flag("--check", args->options.check,
                "write nothing; fail if OUT's translations are stale or hand-edited");
  cmd->add_option("--report-format", args->options.report_format,
                  "per-script reports (sarif also writes OUT/report.sarif)")
      ->check(CLI::IsMember({"text", "json", "gcc", "sarif"}));
  cmd->add_option("--attention", args->attention,
                  "a code that puts a script on the needs-a-person list (repeatable)");
  cmd->add_flag("--no-comments", args->no_comments, "omit provenance comments from the YAML");
  cmd->add_flag("--no-progress", args->no_progress, "no progress bar even on a terminal");
  flags(*cmd, args->options.translate);
  return {cmd, [args] { return run_batch_command(*args); }};
}

}  // namespace s2a::cli
