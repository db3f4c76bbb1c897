// Regression tests for differences the Slurm 22.05 conformance run found
// (tests/conformance): #PBS/#BSUB translation, values sbatch checks on the
// client (--distribution, --gres-flags, --begin=now+...), `--gpus-per-node=`.
// Each expectation is what the live controller read from the same lines.
#include <gtest/gtest.h>

#include <algorithm>

#include "translate.hpp"

namespace s2a {
namespace {

Translation run(const std::string& directives) {
  return translate("job.sh", "#!/bin/bash\n" + directives + "python train.py\n");
}

bool has_error(const Translation& t) {
  return std::any_of(t.diagnostics.begin(), t.diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity() == Severity::error; });
}

std::string final_value(const Translation& t, std::string_view name) {
  const auto it = t.job.final_options.find(name);
  if (it == t.job.final_options.end()) return "<unset>";
  return it->second->value.value_or("<flag>");
}

TEST(PbsTranslation, PbsLinesOverrideSbatchLines) {
  const Translation t =
      run("#PBS -N pbsname\n#SBATCH -J sbatchname\n#PBS -l walltime=01:00:00\n"
          "#SBATCH -t 30\n");
  ASSERT_TRUE(t.job.name);
  EXPECT_EQ(t.job.name->value, "pbsname");
  ASSERT_TRUE(t.job.time);
  EXPECT_EQ(t.job.time->value.minutes, 60u);
  EXPECT_FALSE(has_error(t));
}

TEST(PbsTranslation, IgnorePbsKeepsSbatchValues) {
  const Translation t = run("#SBATCH --ignore-pbs\n#PBS -N pbsname\n#SBATCH -J sbatchname\n");
  ASSERT_TRUE(t.job.name);
  EXPECT_EQ(t.job.name->value, "sbatchname");
}

TEST(PbsTranslation, TorqueNodesPpnGpus) {
  // Slurm 22.05: NumNodes=2, NumTasks=8 (2 x ppn), TresPerNode=gres:gpu:2.
  const Translation t = run("#SBATCH -N 1 -t 10\n#PBS -l nodes=2:ppn=4:gpus=2\n");
  EXPECT_EQ(t.job.node_count(), 2u);
  EXPECT_EQ(t.job.total_tasks(), 8u);
  EXPECT_FALSE(t.job.ntasks_per_node);
  EXPECT_EQ(t.job.gpus_per_node(), 2u);
}

TEST(PbsTranslation, PbsProSelect) {
  // Slurm 22.05: NumNodes=2, ntasks-per-node=4, CPUs/Task=2, MinCPUsNode=8.
  const Translation t = run("#PBS -l select=2:ncpus=8:mpiprocs=4\n");
  EXPECT_EQ(t.job.node_count(), 2u);
  EXPECT_EQ(t.job.tasks_per_node(), 4u);
  ASSERT_TRUE(t.job.cpus_per_task);
  EXPECT_EQ(t.job.cpus_per_task->value, 2u);
  EXPECT_EQ(final_value(t, "mincpus"), "8");
}

TEST(PbsTranslation, OptionLetters) {
  struct Case {
    const char* line;
    const char* option;
    const char* value;
  };
  const Case cases[] = {
      {"#PBS -q cpu\n", "partition", "cpu"},
      {"#PBS -A acct1\n", "account", "acct1"},
      {"#PBS -m abe\n", "mail-type", "FAIL,BEGIN,END"},
      {"#PBS -m n\n", "mail-type", "NONE"},
      {"#PBS -M someone@example.com\n", "mail-user", "someone@example.com"},
      {"#PBS -J 0-3\n", "array", "0-3"},
      {"#PBS -t 1-5%2\n", "array", "1-5%2"},
      {"#PBS -o pbs.out -e pbs.err\n", "error", "pbs.err"},
      {"#PBS -l walltime=2:30:00,mem=4gb\n", "mem", "4gb"},
      {"#PBS -l naccelerators=2\n", "gres", "gpu:2"},
      {"#PBS -W depend=afterany:12\n", "dependency", "afterany:12"},
      {"#PBS -l pmem=2gb\n", "mem-per-cpu", "<unset>"},  // 22.05 drops pmem
      {"#BSUB -J bsubname\n", "job-name", "bsubname"},
      {"#BSUB -W 1:30\n", "time", "1:30"},
      {"#BSUB -n 2,6\n", "ntasks", "6"},
      {"#BSUB -M 2000000\n", "mem-per-cpu", "2000000K"},
      {"#BSUB -x\n", "exclusive", "<flag>"},
      {"#BSUB -q cpu\n", "partition", "cpu"},
      // Only one family is translated: #BSUB if there is any.
      {"#PBS -q gpu\n#BSUB -J b\n", "partition", "<unset>"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.line);
    const Translation t = run(c.line);
    EXPECT_EQ(final_value(t, c.option), c.value);
  }
}

TEST(PbsTranslation, EveryLineGetsANoteSayingWhatItBecame) {
  const Translation t = run("#PBS -N x -j oe\n");
  const auto it = std::find_if(t.diagnostics.begin(), t.diagnostics.end(),
                               [](const Diagnostic& d) { return d.code == Code::pbs_directive; });
  ASSERT_NE(it, t.diagnostics.end());
  EXPECT_EQ(it->message,
            "sbatch translates this `#PBS` line into `--job-name=x`, which overrides the same "
            "settings in `#SBATCH` lines (it ignores -j)");
}

TEST(PbsTranslation, HostileLinesDoNotCrash) {
  for (const char* line :
       {"#PBS\n", "#PBS -\n", "#PBS -l\n", "#PBS -l ,,,=,:\n", "#PBS -l nodes=:::ppn=\n",
        "#PBS -l nodes=99999999999999999999:ppn=9999999999\n",
        "#PBS -lselect=1:ncpus=0:mpiprocs=0\n", "#BSUB -n ,\n", "#BSUB -cwd\n", "#PBS -W\n",
        "#PBS 'unterminated\n"}) {
    SCOPED_TRACE(line);
    (void)run(line);
  }
}

TEST(ClientSideValues, RejectedLikeSbatch) {
  for (const char* line :
       {"#SBATCH --distribution=bogus\n", "#SBATCH -m block:bogus\n",
        "#SBATCH --gres-flags=bogus\n", "#SBATCH --begin=now+1h\n", "#SBATCH --begin=now+\n"}) {
    SCOPED_TRACE(line);
    EXPECT_TRUE(has_error(run(line)));
  }
}

TEST(ClientSideValues, AcceptedLikeSbatch) {
  for (const char* line :
       {"#SBATCH --distribution=block\n", "#SBATCH -m cyclic:fcyclic\n",
        "#SBATCH --distribution=plane=4\n", "#SBATCH --distribution=block:cyclic:block,Pack\n",
        "#SBATCH --gres-flags=enforce-binding\n", "#SBATCH --begin=now+1hour\n",
        "#SBATCH --begin=now+60\n", "#SBATCH --begin=2030-01-01T10:00\n",
        "#SBATCH --gpus-per-node=\n", "#SBATCH --array=0-3,\n", "#SBATCH --array=0-9%2%3\n"}) {
    SCOPED_TRACE(line);
    EXPECT_FALSE(has_error(run(line)));
  }
}

// slurmctld keeps account names in lower case: `-A ABC123` runs as abc123
// (tests/golden/compute/gpus-from-srun-steps against the live controller).
TEST(ClientSideValues, AccountsAreLowerCase) {
  const Translation t = run("#SBATCH -A ABC123\n#SBATCH --account=Lab_GPU\n");
  ASSERT_TRUE(t.job.account);
  EXPECT_EQ(t.job.account->value, "lab_gpu");
}

}  // namespace
}  // namespace s2a
