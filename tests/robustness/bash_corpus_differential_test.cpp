// The shell parser against bash itself over every realistic script we have
// (corpus/ and tests/golden/*/job.sbatch): the parser accepts a script
// (no error-level shell diagnostic) exactly when `bash -n` accepts it.
// tests/parse/bash_differential_test.cpp does the same for corner cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "parse/parse_script.hpp"
#include "support/run_process.hpp"

namespace s2a {
namespace {

namespace fs = std::filesystem;

bool parser_accepts(const std::string& text) {
  const ParseResult result = parse_script(text);
  return std::none_of(result.diagnostics.begin(), result.diagnostics.end(),
                      [](const Diagnostic& d) { return d.severity() == Severity::error; });
}

TEST(BashCorpusDifferential, ParserAgreesWithBashN) {
  std::vector<fs::path> files;
  for (const char* dir : {"corpus", "tests/golden"}) {
    for (const auto& e : fs::recursive_directory_iterator(fs::path(SLURM2AIR_SOURCE_DIR) / dir)) {
      const std::string name = e.path().filename().string();
      if (e.is_regular_file() && (name.ends_with(".sbatch") || name.ends_with(".sh"))) {
        files.push_back(e.path());
      }
    }
  }
  ASSERT_GT(files.size(), 60u);
  size_t agree = 0;
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const bool ours = parser_accepts(testing::read_file(file.string()));
    const bool bash = testing::run_process("bash", {"-n", file.string()}).exit_code == 0;
    EXPECT_EQ(ours, bash);
    agree += ours == bash;
  }
  std::printf("shell parser and bash -n agree on %zu of %zu scripts\n", agree, files.size());
}

}  // namespace
}  // namespace s2a
