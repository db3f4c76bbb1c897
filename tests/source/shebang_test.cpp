// The #! line: which program runs the job, and the `set` options it turns on
// (command.sh has no #! line, so they are set in the command).
#include "source/shebang.hpp"

#include <gtest/gtest.h>

#include <optional>

#include "translate.hpp"

namespace s2a {
namespace {

std::string options_of(std::string_view text) {
  const std::optional<Shebang> shebang = read_shebang(text);
  return shebang ? set_options_of(*shebang) : "(none)";
}

TEST(Shebang, ReadsTheProgramThroughEnv) {
  EXPECT_EQ(read_shebang("#!/bin/bash\n")->program, "bash");
  EXPECT_EQ(read_shebang("#! /usr/bin/env bash\n")->program, "bash");
  EXPECT_EQ(read_shebang("#!/usr/bin/env -S bash -l\n")->program, "bash");
  EXPECT_EQ(read_shebang("#!/usr/local_rwth/bin/zsh\n")->program, "zsh");
  EXPECT_EQ(read_shebang("#!/bin/bash -ex\n")->argument, "-ex");
  EXPECT_EQ(read_shebang("#!/bin/bash\r\n")->program, "bash");
  EXPECT_FALSE(read_shebang("# comment\n#!/bin/bash\n").has_value());
}

TEST(Shebang, SetOptionsAreTheLettersBashSets) {
  EXPECT_EQ(options_of("#!/bin/bash -ex\n"), "ex");
  EXPECT_EQ(options_of("#!/bin/bash -e\r\n"), "e");
  EXPECT_EQ(options_of("#!/bin/sh -xe\n"), "xe");
  EXPECT_EQ(options_of("#!/bin/bash -le\n"), "e");  // -l is how bash starts, not a set option
  EXPECT_EQ(options_of("#!/bin/bash -l\n"), "");
  EXPECT_EQ(options_of("#!/bin/bash --login\n"), "");
  EXPECT_EQ(options_of("#!/bin/bash\n"), "");
  // The kernel passes "-e -x" as one argument, which bash refuses.
  EXPECT_EQ(options_of("#!/bin/bash -e -x\n"), "");
  EXPECT_EQ(options_of("#!/bin/zsh -e\n"), "");
}

TEST(Shebang, OptionsAreSetAtTheStartOfTheCommand) {
  const Translation t =
      translate("job.sbatch",
                "#!/bin/bash -ex\n#SBATCH --gpus-per-node=h100:8\npython prep.py\npython t.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(t.workload->command.starts_with(
      "cd \"$CODE_SOURCE_PATH\"\nset -ex  # -ex on the #! line\npython prep.py\n"))
      << t.workload->command;
}

TEST(Shebang, OtherShellsAreReportedAndOtherLanguagesRefused) {
  const Translation zsh =
      translate("job.sbatch", "#!/bin/zsh\n#SBATCH --gpus-per-node=h100:8\npython t.py\n");
  ASSERT_TRUE(zsh.workload);
  EXPECT_TRUE(std::any_of(zsh.diagnostics.begin(), zsh.diagnostics.end(), [](const Diagnostic& d) {
    return d.code == Code::interpreter_not_bash;
  }));
  const Translation python = translate(
      "job.py", "#!/usr/bin/env python3\n#SBATCH --gpus-per-node=h100:8\nimport os\nprint(1)\n");
  EXPECT_FALSE(python.workload);
  ASSERT_EQ(python.diagnostics.size(), 1u);
  EXPECT_EQ(python.diagnostics[0].code, Code::interpreter_not_a_shell);
}

TEST(Shebang, UnknownProgramsAreReported) {
  const std::string body = "#SBATCH --gpus-per-node=h100:8\npython t.py\n";
  auto unknown_program = [&](const std::string& line) -> std::optional<Diagnostic> {
    const Translation t = translate("job.sbatch", line + body);
    EXPECT_TRUE(t.workload) << line;
    for (const Diagnostic& d : t.diagnostics) {
      if (d.code == Code::interpreter_unknown) return d;
    }
    return std::nullopt;
  };
  for (const char* line : {"#!/bin/basH\n", "#!/usr/bin bash\n", "#!/usr/bin/env nix-shell\n"}) {
    const std::optional<Diagnostic> found = unknown_program(line);
    ASSERT_TRUE(found) << line;
    EXPECT_EQ(found->span.begin, 0u);
  }
  EXPECT_NE(
      unknown_program("#!/bin/basH\n")
          ->message.find("with `basH` (its #! line), which slurm2air does not know as a shell"),
      std::string::npos);
  EXPECT_EQ(unknown_program("#!\n")->message,
            "the #! line names no program, so the kernel cannot start the script and the job "
            "fails as it starts");
  for (const char* known :
       {"#!/bin/bash\n", "#!/bin/sh\n", "#!/usr/bin/env bash\n", "#!/bin/zsh\n"}) {
    EXPECT_FALSE(unknown_program(known)) << known;
  }
}

}  // namespace
}  // namespace s2a
