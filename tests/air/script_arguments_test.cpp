// The batch script's own positional parameters: sbatch passed them, AI
// Runtime passes none (S2A3204).
#include <gtest/gtest.h>

#include "translate.hpp"

namespace s2a {
namespace {

std::vector<Diagnostic> argument_reports(const std::string& body) {
  const Translation t =
      translate("job.sbatch", "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n" + body);
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::script_arguments) out.push_back(d);
  }
  return out;
}

TEST(ScriptArguments, ReportedOnceAtTheFirstUseWithEveryParameter) {
  const std::string body =
      "DATA=${1:-data}\n"
      "if [ $# -gt 1 ]; then EPOCHS=$2; fi\n"
      "python train.py --data \"$DATA\" --epochs ${EPOCHS:-1} \"$@\" ${10}\n"
      "cat <<EOF > run.cfg\nrun=$3\nEOF\n";
  const auto reports = argument_reports(body);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].message,
            "the script reads the arguments given to sbatch after its name ($1, $#, $2, $@, "
            "${10}, $3; 6 uses); AI Runtime starts the command with none, so they are empty (or "
            "the default written with them)");
  const std::string prefix = "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\nDATA=";
  EXPECT_EQ(reports[0].span.begin, prefix.size());
}

TEST(ScriptArguments, NotReportedForArgumentsOfFunctionsAndBashCScripts) {
  EXPECT_TRUE(argument_reports("train() { python train.py --lr \"$1\" \"$@\"; }\n"
                               "train 0.1\n"
                               "srun bash -c 'python eval.py --rank $1' _ 0\n"
                               "awk '{print $1}' log.txt\n"
                               "echo '$1' \\$2\n")
                  .empty());
}

TEST(ScriptArguments, NotReportedWhenTheScriptSetsItsOwn) {
  EXPECT_TRUE(
      argument_reports("set -- base.yaml 8\npython train.py --config $1 --gpus $2\n").empty());
  EXPECT_EQ(argument_reports("set -euo pipefail\npython train.py --config $1\n").size(), 1u);
}

}  // namespace
}  // namespace s2a
