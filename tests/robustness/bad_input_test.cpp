// Hostile and broken inputs through the real binary: every one ends with a
// clear message, a bounded run time and no partial output file.
//
// Unreadable files: the tests run as root in CI, and root reads a chmod-000
// file anyway, so "cannot be read" is exercised with a dangling symlink and
// with a path through a regular file (ENOTDIR) instead.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "emit/text_scan.hpp"
#include "source/utf8.hpp"
#include "support/run_process.hpp"

namespace s2a {
namespace {

namespace fs = std::filesystem;
using testing::ProcessResult;

class BadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("s2a-bad-input-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& content) {
    const std::string path = (dir_ / name).string();
    testing::write_file(path, content);
    return path;
  }

  /// Runs the binary; fails the test if it takes longer than `limit_s`.
  ProcessResult run(const std::vector<std::string>& args, double limit_s = 20) {
    const auto start = std::chrono::steady_clock::now();
    ProcessResult r = testing::run_process(SLURM2AIR_BINARY, args, dir_.string());
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(took, limit_s) << "slurm2air took " << took << " s";
    return r;
  }

  fs::path dir_;
};

std::string script(const std::string& body) { return "#!/bin/bash\n#SBATCH -N 1\n" + body; }

TEST_F(BadInput, RefusedScriptsSayWhyAndWriteNothing) {
  struct Case {
    const char* name;
    std::string content;
    const char* message;
  };
  const Case cases[] = {
      {"empty", "", "the script is empty, so sbatch refuses it [S2A1001]"},
      {"blank", "\n\n  \n", "[S2A1001]"},
      {"binary",
       std::string("\x7f"
                   "ELF\x02\x01\x01\0\0\0",
                   10) +
           "\xff\xfe\x80",
       "[S2A1002]"},
      {"nul", script(std::string("echo a\0b\n", 9)), "contains a NUL byte"},
      {"bom", "\xEF\xBB\xBF" + script("python x.py\n"), "byte order mark"},
      {"crlf", "#!/bin/bash\r\n#SBATCH -N 2\r\npython x.py\r\n", "CRLF"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = write(std::string(c.name) + ".sh", c.content);
    const std::string out = (dir_ / (std::string(c.name) + ".yaml")).string();
    const ProcessResult r = run({path, "-o", out});
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out) && c.message[1] == 'S') << "output written for a refused script";
  }
}

TEST_F(BadInput, InvalidUtf8IsAWarningNotACrash) {
  const ProcessResult r = run({write("u.sh", script("#SBATCH -J \xff\xfe\npython x.py\n"))});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("[S2A1006]"), std::string::npos) << r.err;
}

// Latin-1 in the body (an accented word in an echo): still translated, the
// byte shown as U+FFFD, and the YAML is UTF-8.
TEST_F(BadInput, InvalidUtf8InTheBodyIsTranslated) {
  const ProcessResult r = run({write("latin1.sh", script("echo \"caf\xe9 \xff\"\npython x.py\n"))});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("[S2A1006]"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("[S2A1000]"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("echo \"caf\xEF\xBF\xBD \xEF\xBF\xBD\""), std::string::npos) << r.out;
  EXPECT_EQ(with_valid_utf8(r.out), r.out);  // nothing left to replace: valid UTF-8
}

// sbatch refuses a CRLF script; its translation reads it with Unix line
// ends: `\` continues the line and no word ends in a CR.
TEST_F(BadInput, CrlfScriptIsReadWithUnixLineEnds) {
  const ProcessResult r = run({write("dos.sh",
                                     "#!/bin/bash\r\n#SBATCH --gpus-per-node=h100:8\r\n"
                                     "pip install scons\r\npython train.py \\\r\n"
                                     "  --epochs 3\r\n")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("[S2A1005]"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find('\r'), std::string::npos) << r.out;
  const YAML::Node yaml = YAML::Load(r.out);
  EXPECT_EQ(yaml["environment"]["dependencies"][0].as<std::string>(), "scons");
  EXPECT_NE(yaml["command"].as<std::string>().find("python train.py \\\n  --epochs 3\n"),
            std::string::npos)
      << r.out;
}

// DEL and C0 and C1 controls are characters YAML does not allow as they
// are: values and the command escape them (double quotes), provenance
// comments show '?' for them and for U+2028 (a line break to YAML 1.1).
TEST_F(BadInput, ControlCharactersStayOutOfTheYaml) {
  const std::string odd =
      "a\x7F\x01\xC2\x9B\xE2\x80\xA8"
      "b";
  const ProcessResult r =
      run({write("ctl.sh", "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8 --job-name=" + odd +
                               "\nexport X=" + odd + "\npython x.py # " + odd + "\n")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(emit::find_character_yaml_forbids(r.out), std::string::npos) << r.out;
  const YAML::Node yaml = YAML::Load(r.out);
  EXPECT_EQ(yaml["env_variables"]["X"].as<std::string>(), odd);
  EXPECT_NE(yaml["command"].as<std::string>().find("python x.py # " + odd + "\n"),
            std::string::npos);
  EXPECT_NE(r.out.find("# line 3: export X=a???????b"), std::string::npos) << r.out;
}

TEST_F(BadInput, HugeScriptIsRefusedQuickly) {
  std::string body;
  body.reserve(50u << 20);
  while (body.size() < (50u << 20)) body += "echo hello world this is one line of a huge script\n";
  const ProcessResult r = run({write("big.sh", script(body)), "-o", "big.yaml"}, 10);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("larger than 4 MiB"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "big.yaml"));
}

TEST_F(BadInput, HugeStdinIsRefused) {
  const std::string path = write("big.sh", script(std::string(5u << 20, '#') + "\n"));
  const ProcessResult r = testing::run_process(SLURM2AIR_BINARY, {"-"}, dir_.string(), path);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("<stdin>: larger than 4 MiB"), std::string::npos) << r.err;
}

TEST_F(BadInput, OneMegabyteLine) {
  const ProcessResult r =
      run({write("line.sh", script("echo " + std::string(1u << 20, 'a') + "\n"))});
  EXPECT_LE(r.exit_code, 1) << r.err;
}

TEST_F(BadInput, DeepNestingIsReportedNotRecursed) {
  std::string subst = "echo ";
  for (int i = 0; i < 10000; ++i) subst += "$(";
  subst += std::string(10000, ')') + "\n";
  std::string ifs;
  for (int i = 0; i < 10000; ++i) ifs += "if true; then\n";
  ifs += "echo deep\n";
  for (int i = 0; i < 10000; ++i) ifs += "fi\n";
  for (const auto& [name, body] : {std::pair{"subst", subst}, std::pair{"ifs", ifs}}) {
    SCOPED_TRACE(name);
    const ProcessResult r = run({write(std::string(name) + ".sh", script(body))});
    EXPECT_NE(r.err.find("nest deeper than 200 levels"), std::string::npos) << r.err;
    EXPECT_NE(r.exit_code, -1);
  }
}

TEST_F(BadInput, UnterminatedConstructs) {
  const std::pair<const char*, const char*> cases[] = {
      {"echo \"abc\n", "unterminated double quote"},
      {"echo 'abc\n", "unterminated single quote"},
      {"echo $(ls\n", "unterminated command substitution"},
      {"cat <<EOF\nabc\n", "[S2A1104]"},
      {"echo ${HOME\n", "S2A110"},
  };
  for (const auto& [body, message] : cases) {
    SCOPED_TRACE(body);
    const ProcessResult r = run({write("u.sh", script(body))});
    EXPECT_NE(r.exit_code, -1);
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

TEST_F(BadInput, AbsurdNumbers) {
  const std::pair<const char*, const char*> cases[] = {
      {"#SBATCH --nodes=99999999999999\n", "99999999999999 is too large"},
      {"#SBATCH --time=-5\n", "negative time limits are not allowed"},
      {"#SBATCH --gpus-per-node=4294967297\n", "sbatch rejects --gpus-per-node=4294967297"},
      {"#SBATCH --array=0-99999999999999999999999\n", "is too large"},
      {"#SBATCH --mem=999999999999999999999G\n", "sbatch rejects --mem="},
      {"#SBATCH --cpus-per-task=18446744073709551617\n", "sbatch rejects --cpus-per-task="},
  };
  for (const auto& [line, message] : cases) {
    SCOPED_TRACE(line);
    const ProcessResult r =
        run({write("n.sh", "#!/bin/bash\n" + std::string(line) + "python x\n")});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

TEST_F(BadInput, InputsThatAreNotReadableFiles) {
  fs::create_directory(dir_ / "adir");
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);  // must not block
  fs::create_symlink(dir_ / "nowhere", dir_ / "dangling.sh");
  write("afile", "x");
  const std::pair<const char*, const char*> cases[] = {
      {"adir", "adir: is a directory"},
      {"fifo", "fifo: not a regular file"},
      {"dangling.sh", "dangling.sh: no such file"},
      {"missing.sh", "missing.sh: no such file"},
      {"afile/job.sh", "afile/job.sh: no such file"},
  };
  for (const auto& [name, message] : cases) {
    SCOPED_TRACE(name);
    const ProcessResult r = run({name}, 10);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
}

TEST_F(BadInput, OutputThatCannotBeWrittenLeavesNothing) {
  const std::string job = write("job.sh", script("python x.py\n"));
  write("afile", "x");
  const std::pair<const char*, const char*> cases[] = {
      {"/proc/forbidden/x.yaml", "cannot be written"},
      {"afile/x.yaml", "cannot be written (Not a directory)"},
      {"nodir/x.yaml", "cannot be written (No such file or directory)"},
  };
  for (const auto& [out, message] : cases) {
    SCOPED_TRACE(out);
    const ProcessResult r = run({job, "-o", out});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  // No temporary file is left next to a target that failed.
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_FALSE(entry.path().filename().string().starts_with(".")) << entry.path();
  }
}

}  // namespace
}  // namespace s2a
