// Helpers for end-to-end tests: run the binary, read files, diff texts.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/run_process.hpp"

namespace s2a::testing {
namespace {

std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) {
    if (c == '\'')
      out += "'\\''";
    else
      out.push_back(c);
  }
  return out + "'";
}

}  // namespace

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void write_file(const std::string& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

ProcessResult check_bash_syntax(const std::string& script) {
  const auto file =
      std::filesystem::temp_directory_path() / ("s2a-syntax-" + std::to_string(::getpid()) + ".sh");
  write_file(file.string(), script);
  ProcessResult bash = run_process("bash", {"-n", file.string()});
  std::filesystem::remove(file);
  return bash;
}

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::string& cwd, const std::string& stdin_file) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("s2a-run-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
  std::filesystem::create_directories(dir);
  std::string command = "cd " + shell_quote(cwd) + " && " + shell_quote(program);
  for (const std::string& arg : args) command += " " + shell_quote(arg);
  command +=
      " >" + shell_quote((dir / "out").string()) + " 2>" + shell_quote((dir / "err").string());
  command += " <" + shell_quote(stdin_file.empty() ? "/dev/null" : stdin_file);
  const int status = std::system(command.c_str());
  ProcessResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_file((dir / "out").string());
  result.err = read_file((dir / "err").string());
  std::filesystem::remove_all(dir);
  return result;
}

std::string unified_diff(const std::string& expected, const std::string& actual,
                         const std::string& label) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("s2a-diff-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
  std::filesystem::create_directories(dir);
  write_file((dir / "expected").string(), expected);
  write_file((dir / "actual").string(), actual);
  const std::string command =
      "diff -u --label " + shell_quote("expected/" + label) + " --label " +
      shell_quote("actual/" + label) + " " + shell_quote((dir / "expected").string()) + " " +
      shell_quote((dir / "actual").string()) + " > " + shell_quote((dir / "diff").string());
  (void)std::system(command.c_str());
  std::string diff = read_file((dir / "diff").string());
  std::filesystem::remove_all(dir);
  return diff;
}

}  // namespace s2a::testing
