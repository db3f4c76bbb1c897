// The review subcommands (batch, explain, check): each file registers its
// CLI11 subcommand and returns how to run it; main.cpp only wires them.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

#include "translate.hpp"

namespace s2a::cli {

/// Adds the translation flags (--accelerator-type, --env-version, ...) to a subcommand.
using TranslateFlags = std::function<void(CLI::App&, TranslateOptions&)>;

struct Subcommand {
  CLI::App* app = nullptr;
  std::function<int()> run;  // call when *app was parsed
};

Subcommand add_batch_command(CLI::App& app, const TranslateFlags& flags);
Subcommand add_explain_command(CLI::App& app, const TranslateFlags& flags);
Subcommand add_check_command(CLI::App& app, const TranslateFlags& flags);

}  // namespace s2a::cli
