// `--format bundle` and the `bundle` subcommand: scripts, drivers and scrontab
// files -> a bundle directory (databricks.yml, command files).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "translate.hpp"

namespace s2a::cli {

struct BundleArgs {
  std::vector<std::string> inputs;  // files, or directories of scripts (subcommand only)
  std::string output;               // the bundle directory (-o)
  std::string report_format = "text";
  std::string report_file;
  bool force = false;
  bool workflow = false;
  std::string name;
  TranslateOptions translate;
};

/// Converts and writes the bundle; returns the exit code (docs/cli.md).
int run_bundle(const BundleArgs& args);

/// Registers `slurm2air bundle PATH... -o DIR`; returns the subcommand.
CLI::App* add_bundle_command(CLI::App& app, BundleArgs& args);

}  // namespace s2a::cli
