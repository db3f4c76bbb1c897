// Runs the slurm2air binary for end-to-end tests and captures its streams.
#pragma once

#include <string>
#include <vector>

namespace s2a::testing {

struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// Runs `program args...` in `cwd` with no stdin; `stdin_file` feeds stdin if set.
ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::string& cwd = ".", const std::string& stdin_file = "");

/// `bash -n` on `script`: exit code 0 when bash accepts its syntax.
ProcessResult check_bash_syntax(const std::string& script);

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& content);
/// A unified diff of two texts, for failure messages.
std::string unified_diff(const std::string& expected, const std::string& actual,
                         const std::string& label);

}  // namespace s2a::testing
