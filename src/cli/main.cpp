// slurm2air command line. The only file that knows CLI11 and spdlog.
#include <CLI/CLI.hpp>
#include <iostream>

int main(int argc, char** argv) {
  CLI::App app{"slurm2air: translate Slurm sbatch scripts to Databricks AI Runtime"};
  app.set_version_flag("--version", SLURM2AIR_VERSION);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
