// The batch script's own positional parameters: sbatch passed them, AI
// Runtime passes none (S2A3204).
#include <gtest/gtest.h>

#include "support/diagnostics.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

std::vector<Diagnostic> reports_of(Code code, const std::string& body) {
  return testing::diagnostics_with(
      translate("job.sbatch", "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n" + body), code);
}

std::vector<Diagnostic> argument_reports(const std::string& body) {
  return reports_of(Code::script_arguments, body);
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

TEST(ScriptArguments, ReadInCompoundCommandsToo) {
  const auto reports = argument_reports(
      "case \"$1\" in\n  small) N=1;;\nesac\nfor arg in \"$@\"; do echo $arg; done\n"
      "[[ $# -lt 2 ]] && exit 1\npython train.py\n");
  ASSERT_EQ(reports.size(), 1u);
  const std::string prefix = "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\ncase \"";
  EXPECT_EQ(reports[0].span.begin, prefix.size());
  EXPECT_NE(reports[0].message.find("($1, $@, $#; 3 uses)"), std::string::npos)
      << reports[0].message;
}

// `getopts OPTSTRING NAME` parses "$@"; with words of its own, or in a
// function, it parses those.
TEST(ScriptArguments, GetoptsOnTheScriptsArgumentsIsAUse) {
  const auto reports = argument_reports(
      "while getopts d:e: FLAG; do\n  case $FLAG in\n    d) DATA=$OPTARG;;\n  esac\ndone\n"
      "python train.py --data $DATA\n");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_NE(reports[0].message.find("(`getopts`)"), std::string::npos) << reports[0].message;
  EXPECT_TRUE(
      argument_reports("getopts ab opt -a\nparse() { while getopts a o; do :; done; }\n").empty());
}

TEST(ScriptArguments, NotReportedWhenTheScriptSetsItsOwn) {
  EXPECT_TRUE(
      argument_reports("set -- base.yaml 8\npython train.py --config $1 --gpus $2\n").empty());
  EXPECT_EQ(argument_reports("set -euo pipefail\npython train.py --config $1\n").size(), 1u);
}

// $0 (S2A3205): under sbatch, Slurm's spooled copy; on AI Runtime, command.sh.
TEST(ScriptOwnPath, LookingForTheScriptsDirectoryIsReportedOnce) {
  const auto reports = reports_of(Code::script_own_path,
                                  "HERE=$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\n"
                                  "ROOT=$(readlink -f $(dirname $0))/..\nLIB=${0%/*}/lib\n"
                                  "python $HERE/train.py\n");
  ASSERT_EQ(reports.size(), 1U);
  EXPECT_EQ(reports[0].message,
            "the script looks for its own directory (${BASH_SOURCE}, $0; 3 uses): under sbatch "
            "the script ran as Slurm's spooled copy in slurmd's spool directory "
            "(job<id>/slurm_script), not from where it was submitted, and on AI Runtime it is "
            "the uploaded command.sh; neither directory holds the script's files");
}

TEST(ScriptOwnPath, ReadingTheScriptsTextIsReportedAndItsNameIsNot) {
  const auto reports = reports_of(Code::script_own_path,
                                  "cp $0 $OUT/job.sh\ngrep '^#SBATCH' < \"$0\"\n"
                                  "echo \"usage: $0 CONFIG\"\nme=$(basename $0)\nNAME=$0\n"
                                  "srun bash -c 'echo $0' node\npython train.py\n");
  ASSERT_EQ(reports.size(), 1U);
  EXPECT_EQ(reports[0].message,
            "the script reads its own file ($0; 2 uses): on AI Runtime that is the uploaded "
            "command.sh, the translated command without its #SBATCH lines, not the batch script");
  EXPECT_TRUE(reports_of(Code::script_own_path, "echo \"$0 started\"\npython train.py\n").empty());
}

}  // namespace
}  // namespace s2a
