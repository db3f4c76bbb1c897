// Golden tests: one directory per case under tests/golden/<area>/<case>/.
//
//   job.sbatch            the input, byte for byte
//   args                  optional: extra command-line flags, one per line
//   expected.yaml         the YAML on stdout (absent: nothing may be written)
//   expected.report.txt   the report on stderr
//   expected.exit         optional: the exit code (default 0)
//   expected/             bundle cases: the files the run wrote to `out/` (args
//                         give `-o out`), compared file by file; `out/` is
//                         removed before and after the run
//
// The binary runs in the case directory as `slurm2air job.sbatch ARGS...`.
// SLURM2AIR_UPDATE_GOLDENS=1 rewrites the expected files instead of
// comparing (`cmake --build build --target update-goldens`); refused under CI.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "support/run_process.hpp"

namespace s2a {
namespace {

namespace fs = std::filesystem;
using testing::read_file;
using testing::unified_diff;
using testing::write_file;

const fs::path kGoldenRoot = fs::path(SLURM2AIR_SOURCE_DIR) / "tests" / "golden";

std::vector<std::string> golden_cases() {
  std::vector<std::string> cases;
  for (const auto& entry : fs::recursive_directory_iterator(kGoldenRoot)) {
    if (entry.path().filename() == "job.sbatch") {
      cases.push_back(fs::relative(entry.path().parent_path(), kGoldenRoot).string());
    }
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

std::vector<std::string> read_args(const fs::path& dir) {
  std::vector<std::string> args{"job.sbatch"};
  std::istringstream lines(read_file((dir / "args").string()));
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) args.push_back(line);
  }
  return args;
}

bool updating() {
  const char* update = std::getenv("SLURM2AIR_UPDATE_GOLDENS");
  return update != nullptr && std::string(update) == "1";
}

void compare_or_update(const fs::path& file, const std::string& actual, bool present) {
  if (updating()) {
    if (present) {
      write_file(file.string(), actual);
    } else {
      fs::remove(file);
    }
    return;
  }
  if (!present) {
    EXPECT_FALSE(fs::exists(file)) << file << " exists but the run wrote nothing";
    return;
  }
  ASSERT_TRUE(fs::exists(file)) << file << " is missing; run the update-goldens target";
  const std::string expected = read_file(file.string());
  EXPECT_EQ(expected, actual) << unified_diff(expected, actual, file.filename().string());
}

/// Every regular file under `root`, by path relative to it.
std::map<std::string, std::string> read_tree(const fs::path& root) {
  std::map<std::string, std::string> files;
  if (!fs::is_directory(root)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) {
      files[fs::relative(entry.path(), root).string()] = read_file(entry.path().string());
    }
  }
  return files;
}

/// Bundle cases write a directory; it must match expected/ exactly.
void compare_or_update_tree(const fs::path& dir) {
  const fs::path out = dir / "out";
  const fs::path expected = dir / "expected";
  if (!fs::exists(out) && !fs::exists(expected)) return;
  const auto actual = read_tree(out);
  if (updating()) {
    fs::remove_all(expected);
    for (const auto& [relative, content] : actual) {
      fs::create_directories((expected / relative).parent_path());
      write_file((expected / relative).string(), content);
    }
  } else {
    const auto wanted = read_tree(expected);
    for (const auto& [relative, content] : wanted) {
      const auto found = actual.find(relative);
      if (found == actual.end()) {
        ADD_FAILURE() << "out/" << relative << " was not written";
        continue;
      }
      EXPECT_EQ(content, found->second) << unified_diff(content, found->second, relative);
    }
    for (const auto& [relative, content] : actual) {
      EXPECT_TRUE(wanted.count(relative)) << "out/" << relative << " is not in expected/";
    }
  }
  fs::remove_all(out);
}

/// A workload's command must be valid bash whatever its edits (bundles write
/// theirs to files under out/, checked as files).
void expect_valid_bash_command(const YAML::Node& document) {
  if (!document.IsMap() || !document["command"] || !document["command"].IsScalar()) return;
  const testing::ProcessResult bash =
      testing::check_bash_syntax(document["command"].as<std::string>());
  EXPECT_EQ(bash.exit_code, 0) << "the command is not valid bash:\n" << bash.err;
}

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, MatchesExpectedFiles) {
  if (updating() && std::getenv("CI") != nullptr) {
    GTEST_FAIL() << "refusing to update goldens under CI";
  }
  const fs::path dir = kGoldenRoot / GetParam();
  fs::remove_all(dir / "out");
  const auto result = testing::run_process(SLURM2AIR_BINARY, read_args(dir), dir.string());
  compare_or_update(dir / "expected.yaml", result.out, !result.out.empty());
  compare_or_update(dir / "expected.report.txt", result.err, true);
  const fs::path exit_file = dir / "expected.exit";
  if (updating()) {
    write_file(exit_file.string(), std::to_string(result.exit_code) + "\n");
  } else {
    const int expected_exit = fs::exists(exit_file) ? std::stoi(read_file(exit_file.string())) : 0;
    EXPECT_EQ(expected_exit, result.exit_code);
  }
  if (!result.out.empty()) {
    YAML::Node document;
    EXPECT_NO_THROW(document = YAML::Load(result.out)) << "stdout is not YAML";
    expect_valid_bash_command(document);
  }
  compare_or_update_tree(dir);
}

std::string case_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Cases, Golden, ::testing::ValuesIn(golden_cases()), case_name);

}  // namespace
}  // namespace s2a
