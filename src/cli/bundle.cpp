// The bundle side of the command line: reads the inputs, builds the bundle,
// prints one report per source and writes the directory only when the whole
// bundle converted and passed its schema check.
#include "cli/bundle.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "bundle/build.hpp"
#include "bundle/write.hpp"
#include "emit/report.hpp"
#include "io/files.hpp"

namespace s2a::cli {
namespace {

namespace fs = std::filesystem;

constexpr int kExitClean = 0;
constexpr int kExitFindings = 1;
constexpr int kExitFailed = 2;
constexpr int kExitUsage = 3;

bool is_script_name(const fs::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".sbatch" || ext == ".sh" || ext == ".slurm" || ext == ".batch";
}

/// Files as given; directories contribute their scripts, sorted by name.
std::vector<std::string> expand_inputs(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const std::string& input : inputs) {
    std::error_code error;
    if (!fs::is_directory(input, error)) {
      files.push_back(input);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(input, error)) {
      if (entry.is_regular_file(error) && is_script_name(entry.path())) {
        found.push_back(entry.path().string());
      }
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

std::string render_reports(const bundle::BundleBuild& build, const std::string& format,
                           int exit_code) {
  std::string out;
  if (format == "json") out += "[\n";
  bool first = true;
  for (const bundle::FileReport& report : build.reports) {
    Diagnostics sorted = report.diagnostics;
    std::stable_sort(sorted.begin(), sorted.end(), [](const Diagnostic& a, const Diagnostic& b) {
      return a.span.begin < b.span.begin;
    });
    const emit::ReportInput input{*report.file, sorted, report.redactions};
    if (format == "json") {
      if (!first) out += ",\n";
      out += emit::render_json(input, exit_code);
    } else {
      out += emit::render_text(input);
    }
    first = false;
  }
  if (format == "json") out += "]\n";
  return out;
}

int exit_code_for(const bundle::BundleBuild& build) {
  if (!build.ok) return kExitFailed;
  for (const bundle::FileReport& report : build.reports) {
    for (const Diagnostic& d : report.diagnostics) {
      if (d.severity() != Severity::note) return kExitFindings;
    }
  }
  return kExitClean;
}

}  // namespace

int run_bundle(const BundleArgs& args) {
  if (args.output.empty() || args.output == "-") {
    std::cerr << "slurm2air: a bundle is a directory: give it with -o DIR\n";
    return kExitUsage;
  }
  // Refuse before converting: the report should not end in a write error.
  std::error_code error;
  if (!args.force && fs::is_directory(args.output, error) && !fs::is_empty(args.output, error)) {
    std::cerr << "slurm2air: error: " << args.output
              << ": exists and is not empty; pass --force to replace it\n";
    return kExitFailed;
  }
  std::vector<bundle::BundleInput> inputs;
  for (const std::string& path : expand_inputs(args.inputs)) {
    inputs.push_back({path == "-" ? "<stdin>" : path, io::read_script(path)});
  }
  if (inputs.empty()) {
    std::cerr << "slurm2air: no scripts found in the given paths\n";
    return kExitUsage;
  }
  bundle::BundleOptions options;
  options.translate = args.translate;
  options.workflow = args.workflow;
  if (!args.name.empty()) options.name = args.name;
  options.bundle_dir = args.output;
  const bundle::BundleBuild build = bundle::build_bundle(
      inputs, options, [](const std::string& path) { return io::read_script(path); });
  const int code = exit_code_for(build);
  const std::string report = render_reports(build, args.report_format, code);
  if (args.report_file.empty()) {
    std::cerr << report;
  } else {
    io::write_atomically(args.report_file, report);
  }
  if (build.ok) bundle::write_bundle(args.output, build.files, args.force);
  return code;
}

CLI::App* add_bundle_command(CLI::App& app, BundleArgs& args) {
  CLI::App* command = app.add_subcommand(
      "bundle", "convert scripts (or directories of scripts) into one bundle, a job per script");
  command
      ->add_option("paths", args.inputs,
                   "sbatch scripts, driver scripts, scrontab files or "
                   "directories of scripts")
      ->required();
  command->add_option("-o,--output", args.output, "the bundle directory to write")->required();
  command->add_flag("--force", args.force, "replace a non-empty output directory");
  command->add_flag("--workflow", args.workflow, "treat every input as a driver script");
  command->add_option("--name", args.name, "bundle name (default: the first job's name)");
  command->add_option("--report-format", args.report_format, "report format")
      ->check(CLI::IsMember({"text", "json"}));
  command->add_option("--report-file", args.report_file, "write the report here");
  return command;
}

}  // namespace s2a::cli
