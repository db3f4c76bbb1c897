// `slurm2air rehearse`: run a translated workload locally, N node processes
// on 127.0.0.1 with AI Runtime's environment (docs/rehearse.md).
#pragma once

#include <CLI/CLI.hpp>

namespace s2a::cli {

/// Registers the subcommand on `app` and returns it.
CLI::App* add_rehearse_command(CLI::App& app);

/// Runs the rehearsal the parsed subcommand describes; returns the exit code.
int run_rehearse_command();

}  // namespace s2a::cli
