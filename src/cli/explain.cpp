// `slurm2air explain job.sh`: every line of the script beside what became of it.
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "cli/batch_commands.hpp"
#include "cli/profile.hpp"
#include "emit/explain.hpp"
#include "io/files.hpp"

namespace s2a::cli {
namespace {

struct ExplainArgs {
  std::string input;
  unsigned width = 0;
  std::string color = "auto";
  bool no_comments = false;
  TranslateOptions translate;
};

unsigned terminal_width() {
  winsize size{};
  if (::isatty(STDOUT_FILENO) != 0 && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 &&
      size.ws_col > 0) {
    return size.ws_col;
  }
  return 80;
}

bool use_color(const std::string& choice) {
  if (choice != "auto") return choice == "always";
  const char* term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) != 0 && std::getenv("NO_COLOR") == nullptr &&
         (term == nullptr || std::string(term) != "dumb");
}

int run_explain(ExplainArgs& args) {
  TranslateOptions options = args.translate;
  apply_site_profile(options);
  options.provenance_comments = !args.no_comments;
  const std::string name = args.input == "-" ? "<stdin>" : args.input;
  const Translation t = translate(name, io::read_script(args.input), options);
  const emit::ExplainOptions explain{args.width != 0 ? args.width : terminal_width(),
                                     use_color(args.color)};
  std::cout << emit::render_explain(t, explain);
  return t.workload ? 0 : 2;
}

}  // namespace

Subcommand add_explain_command(CLI::App& app, const TranslateFlags& flags) {
  auto args = std::make_shared<ExplainArgs>();
  CLI::App* cmd =
      app.add_subcommand("explain", "show every line of a script beside what became of it");
  cmd->add_option("script", args->input, "sbatch script (- for stdin)")->required();
  cmd->add_option("--width", args->width, "columns (default: the terminal's, else 80)")
      ->check(CLI::Range(20, 1000));
  cmd->add_option("--color", args->color, "colour: auto (on a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->add_flag("--no-comments", args->no_comments, "omit provenance comments from the YAML");
  flags(*cmd, args->translate);
  return {cmd, [args] { return run_explain(*args); }};
}

}  // namespace s2a::cli
