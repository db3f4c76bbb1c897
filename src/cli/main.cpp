// slurm2air command line. The only file that knows CLI11 and spdlog.
//
// Exit codes (docs/cli.md): 0 converted cleanly (notes only), 1 converted
// with findings (warnings or errors in the report), 2 could not convert,
// 3 usage error. Machine-readable output never mixes with human text:
// YAML goes to stdout or -o, the report to stderr or --report-file.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "cli/rehearse.hpp"
#include "cli/profile.hpp"
#include "cli/batch_commands.hpp"
#include "cli/bundle.hpp"
#include "diag/catalog.hpp"
#include "emit/inspect.hpp"
#include "emit/report.hpp"
#include "emit/sarif.hpp"
#include "io/files.hpp"
#include "translate.hpp"

namespace {

using s2a::Translation;

constexpr int kExitClean = 0;
constexpr int kExitFindings = 1;
constexpr int kExitFailed = 2;
constexpr int kExitUsage = 3;
void write_output(const std::string& path, const std::string& content) {
  if (path.empty() || path == "-") {
    std::cout << content << std::flush;
  } else {
    s2a::io::write_atomically(path, content);
  }
}

int exit_code_for(const Translation& t) {
  if (!t.workload) return kExitFailed;
  const bool findings = std::any_of(t.diagnostics.begin(), t.diagnostics.end(),
                                    [](const s2a::Diagnostic& d) {
                                      return d.severity() != s2a::Severity::note;
                                    });
  return findings ? kExitFindings : kExitClean;
}

struct ConvertArgs {
  std::string input;
  std::string output;
  std::string report_format = "text";
  std::string report_file;
  s2a::TranslateOptions translate;
  bool no_comments = false;
  std::string format = "yaml";  // yaml | bundle (src/cli/bundle.cpp)
  bool force = false;
  bool workflow = false;
};

void add_translate_options(CLI::App& app, s2a::TranslateOptions& options) {
  std::vector<std::string> types;
  for (const auto& type : s2a::air::accelerator_types()) types.emplace_back(type.name);
  app.add_option("--accelerator-type", options.accelerator_type,
                 "AI Runtime accelerator type (overrides the mapping policy)")
      ->check(CLI::IsMember(types));
  app.add_option("--env-version", options.env_version,
                 "environment.version (e.g. 4, or databricks_ai_v5)");
  app.add_option("--dependency", options.dependencies,
                 "a pip requirement for environment.dependencies (repeatable)");
  app.add_option("--requirements", options.requirements,
                 "a requirements file under the code root, added as `-r FILE`");
  app.add_option("--experiment-name", options.experiment_name,
                 "experiment_name (default: --job-name, else the file name)");
  app.add_option("--profile", options.profile_path,
                 "site profile (default: ./slurm2air.yaml, then $XDG_CONFIG_HOME/slurm2air/profile.yaml)");
  app.add_option("--target-schema", options.target_schema,
                 "output schema: cli-1.19 (nested code_source, docker_image; default) or cli-1.20 "
                 "(flat code_source, unity_catalog_image)")
      ->check(CLI::IsMember({"cli-1.19", "cli-1.20"}));
  app.add_option("--secret-scope", options.secret_scope,
                 "Databricks secret scope for credentials found in the script (default: slurm2air)");
}

Translation run_translate(const ConvertArgs& args) {
  std::string name = args.input == "-" ? "<stdin>" : args.input;
  s2a::TranslateOptions options = args.translate;
  options.provenance_comments = !args.no_comments;
  s2a::cli::apply_site_profile(options);
  if (!args.output.empty() && args.output != "-") {
    options.yaml_name = std::filesystem::path(args.output).filename().string();
  }
  spdlog::debug("translating {}", name);
  return s2a::translate(std::move(name), s2a::io::read_script(args.input), options);
}

std::string render_report(const Translation& t, const std::string& format, int exit_code) {
  const s2a::emit::ReportInput input{*t.file, t.diagnostics, t.redactions, &t.suppressed};
  if (format == "json") return s2a::emit::render_json(input, exit_code);
  if (format == "gcc") return s2a::emit::render_gcc(input);
  if (format == "sarif") {
    const s2a::emit::SarifFile file{input, t.file->name()};
    return s2a::emit::render_sarif({&file, 1});
  }
  return s2a::emit::render_text(input);
}

int convert(const ConvertArgs& args) {
  const Translation t = run_translate(args);
  const int code = exit_code_for(t);
  const std::string report = render_report(t, args.report_format, code);
  if (args.report_file.empty()) {
    std::cerr << report;
  } else {
    s2a::io::write_atomically(args.report_file, report);
  }
  if (t.workload) write_output(args.output, t.yaml);
  return code;
}

int inspect(const ConvertArgs& args) {
  const Translation t = run_translate(args);
  write_output(args.output, s2a::emit::render_inspect_json(t));
  return t.workload ? kExitClean : kExitFailed;
}

int explain_code(const std::string& wanted) {
  for (const s2a::CodeInfo& info : s2a::all_codes()) {
    if (s2a::code_id(info.code) != wanted && info.name != wanted) continue;
    std::cout << s2a::code_id(info.code) << " " << info.name << " ("
              << s2a::severity_name(info.severity) << ")\n"
              << info.title << "\n\nExample:\n"
              << info.positive << "\n";
    return kExitClean;
  }
  std::cerr << "slurm2air: unknown diagnostic code " << wanted << "\n";
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"slurm2air: translate Slurm sbatch scripts into Databricks AI Runtime workloads"};
  app.set_version_flag("--version", SLURM2AIR_VERSION);
  app.require_subcommand(0, 1);
  app.fallthrough();

  ConvertArgs args;
  bool verbose = false;
  std::string explain;
  app.add_option("script", args.input, "sbatch script to convert (- for stdin)");
  app.add_option("-o,--output", args.output, "write train.yaml here (default: stdout)");
  app.add_option("--report-format", args.report_format, "report format")
      ->check(CLI::IsMember({"text", "json", "gcc", "sarif"}));
  app.add_option("--report-file", args.report_file, "write the report here (default: stderr)");
  app.add_flag("--no-comments", args.no_comments, "omit provenance comments from the YAML");
  app.add_flag("-v,--verbose", verbose, "trace what slurm2air does on stderr");
  app.add_option("--explain", explain, "describe a diagnostic code, e.g. S2A3004");
  bool catalog = false;
  app.add_flag("--diagnostics-markdown", catalog, "print the diagnostics catalog (docs/diagnostics.md)");
  add_translate_options(app, args.translate);
  app.add_option("--format", args.format,
                 "yaml: one workload file; bundle: a bundle directory (-o DIR)")
      ->check(CLI::IsMember({"yaml", "bundle"}));
  app.add_flag("--force", args.force, "with --format bundle: replace a non-empty -o DIR");
  app.add_flag("--workflow", args.workflow, "with --format bundle: the script is a driver");
  s2a::cli::BundleArgs bundle_args;
  CLI::App* bundle_cmd = s2a::cli::add_bundle_command(app, bundle_args);
  ConvertArgs bundle_translate;
  add_translate_options(*bundle_cmd, bundle_translate.translate);

  ConvertArgs inspect_args;
  CLI::App* inspect_cmd = app.add_subcommand("inspect", "print what slurm2air understood the job to be");
  inspect_cmd->add_option("script", inspect_args.input, "sbatch script (- for stdin)")->required();
  bool json_flag = true;  // JSON is the only format; the flag is accepted for clarity
  inspect_cmd->add_flag("--json", json_flag, "JSON output (the default)");
  inspect_cmd->add_option("-o,--output", inspect_args.output, "write here (default: stdout)");
  add_translate_options(*inspect_cmd, inspect_args.translate);
  // Review subcommands (docs/batch.md, docs/review.md).
  const std::vector<s2a::cli::Subcommand> review = {
      s2a::cli::add_batch_command(app, add_translate_options),
      s2a::cli::add_explain_command(app, add_translate_options),
      s2a::cli::add_check_command(app, add_translate_options)};
  CLI::App* rehearse_cmd = s2a::cli::add_rehearse_command(app);

  CLI::App* profile_cmd = app.add_subcommand("profile", "site profile commands");
  profile_cmd->require_subcommand(1);
  CLI::App* profile_init_cmd =
      profile_cmd->add_subcommand("init", "write a commented starting profile (never overwrites)");
  std::string profile_path = "slurm2air.yaml";
  profile_init_cmd->add_option("path", profile_path, "where to write it (default: slurm2air.yaml)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? kExitClean : kExitUsage;
  }
  auto logger = spdlog::stderr_color_mt("slurm2air");
  spdlog::set_default_logger(logger);
  spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::warn);

  try {
    if (!explain.empty()) return explain_code(explain);
    if (catalog) {
      std::cout << s2a::diagnostics_markdown();
      return kExitClean;
    }
    if (*inspect_cmd) return inspect(inspect_args);
    if (*rehearse_cmd) return s2a::cli::run_rehearse_command();
    if (*profile_init_cmd) return s2a::cli::profile_init(profile_path);
    for (const s2a::cli::Subcommand& command : review) {
      if (*command.app) return command.run();
    }
    if (*bundle_cmd) {
      bundle_args.translate = bundle_translate.translate;
      s2a::cli::apply_site_profile(bundle_args.translate);
      return s2a::cli::run_bundle(bundle_args);
    }
    if (args.input.empty()) {
      std::cerr << app.help();
      return kExitUsage;
    }
    if (args.format == "bundle") {
      s2a::cli::BundleArgs converted{{args.input},   args.output,   args.report_format,
                                     args.report_file, args.force,  args.workflow,
                                     "",               args.translate};
      converted.translate.provenance_comments = !args.no_comments;
      s2a::cli::apply_site_profile(converted.translate);
      return s2a::cli::run_bundle(converted);
    }
    return convert(args);
  } catch (const s2a::profile::ProfileError& error) {
    std::cerr << "slurm2air: error: " << error.what() << "\n";
    return kExitUsage;
  } catch (const s2a::io::FileError& error) {
    std::cerr << "slurm2air: error: " << error.what() << "\n";
    return kExitFailed;
  } catch (const std::exception& error) {
    std::cerr << "slurm2air: internal error: " << error.what() << "\n";
    return kExitFailed;
  }
}
