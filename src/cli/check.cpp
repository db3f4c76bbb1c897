// `slurm2air check job.sh train.yaml`: fails (exit 1) with a unified diff when
// the committed translation is stale or was edited by hand. For CI on a
// migration repository; pass the same flags the translation was made with.
#include <iostream>

#include "batch/check.hpp"
#include "cli/batch_commands.hpp"
#include "cli/profile.hpp"
#include "io/files.hpp"

namespace s2a::cli {
namespace {

struct CheckArgs {
  std::string script;
  std::string committed;
  bool no_comments = false;
  TranslateOptions translate;
};

int run_check(CheckArgs& args) {
  TranslateOptions options = args.translate;
  apply_site_profile(options);
  options.provenance_comments = !args.no_comments;
  const Translation t = translate(args.script, io::read_script(args.script), options);
  const std::string committed = io::read_script(args.committed);
  const batch::CheckResult result = batch::check_translation(t, committed, args.committed);
  if (!result.problem.empty()) {
    std::cerr << "slurm2air: " << result.problem << "\n";
    return 2;
  }
  if (result.up_to_date) return 0;
  std::cout << result.diff;
  std::cerr << "slurm2air: " << args.committed << " is not the translation of " << args.script
            << " (stale or edited by hand); regenerate it with `slurm2air " << args.script << " -o "
            << args.committed << "`\n";
  return 1;
}

}  // namespace

Subcommand add_check_command(CLI::App& app, const TranslateFlags& flags) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand(
      "check", "fail with a diff when a committed translation is stale or hand-edited");
  cmd->add_option("script", args->script, "the sbatch script")->required();
  cmd->add_option("yaml", args->committed, "its committed translation")->required();
  cmd->add_flag("--no-comments", args->no_comments, "the YAML was made with --no-comments");
  flags(*cmd, args->translate);
  return {cmd, [args] { return run_check(*args); }};
}

}  // namespace s2a::cli
