// Inputs shared by the stage benchmarks: the repository's corpus/ scripts and
// a synthetic "typical" sbatch script built from realistic lines.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace s2a::bench {

struct Input {
  std::string name;
  std::string text;
  size_t lines = 0;
};

/// Every regular file under corpus/ (sorted), or SLURM2AIR_BENCH_CORPUS when set.
[[nodiscard]] const std::vector<Input>& corpus_inputs();

/// One script of about `lines` lines: directives, setup, a launcher, loops.
[[nodiscard]] Input synthetic_script(size_t lines);

[[nodiscard]] size_t total_lines(const std::vector<Input>& inputs);

}  // namespace s2a::bench
