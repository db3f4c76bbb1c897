// Reads of the job's own output files (S2A3206): slurmstepd wrote them while
// the script ran; AI Runtime writes none.
#include <gtest/gtest.h>

#include "support/diagnostics.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

/// The reported words, as written, in order.
std::vector<std::string> reported_words(const std::string& directives, const std::string& body) {
  const std::string text = "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n" + directives + body;
  std::vector<std::string> words;
  for (const Diagnostic& d :
       testing::diagnostics_with(translate("job.sbatch", text), Code::reads_job_log_file)) {
    words.push_back(text.substr(d.span.begin, d.span.size()));
  }
  return words;
}

TEST(JobLogFiles, TheDefaultFileInEverySpelling) {
  EXPECT_EQ(reported_words("",
                           "python train.py\n"
                           "grep loss slurm-$SLURM_JOB_ID.out > losses.txt\n"
                           "cp \"$SLURM_SUBMIT_DIR/slurm-${SLURM_JOBID}.out\" results/\n"
                           "N=$(wc -l < slurm-${SLURM_JOB_ID}.out)\n"),
            (std::vector<std::string>{"slurm-$SLURM_JOB_ID.out",
                                      "\"$SLURM_SUBMIT_DIR/slurm-${SLURM_JOBID}.out\"",
                                      "slurm-${SLURM_JOB_ID}.out"}));
  // An array job's default is slurm-%A_%a.out.
  EXPECT_EQ(
      reported_words("#SBATCH --array=0-3\n",
                     "python t.py\ntail slurm-${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}.out\n"
                     "tail slurm-$SLURM_JOB_ID.out\n"),
      std::vector<std::string>{"slurm-${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}.out"});
}

TEST(JobLogFiles, TheFilesTheOptionsName) {
  // --error falls back to --output's file; %x is the variable or the name.
  EXPECT_EQ(reported_words("#SBATCH -J bert\n#SBATCH -o logs/%x-%j.log\n",
                           "python t.py\nmv slurm-$SLURM_JOB_ID.out old/\n"
                           "grep NaN logs/${SLURM_JOB_NAME}-${SLURM_JOB_ID}.log\n"
                           "LOG=logs/bert-$SLURM_JOB_ID.log\n"),
            (std::vector<std::string>{"logs/${SLURM_JOB_NAME}-${SLURM_JOB_ID}.log",
                                      "logs/bert-$SLURM_JOB_ID.log"}));
  EXPECT_EQ(reported_words("#SBATCH --output=out/%j.out\n#SBATCH --error=out/%j.err\n",
                           "python t.py\ncat out/$SLURM_JOB_ID.err out/$SLURM_JOB_ID.out\n"),
            std::vector<std::string>{"out/$SLURM_JOB_ID.err"});  // once per command
}

TEST(JobLogFiles, NamesNotTiedToTheJobAndMessagesAreNotReported) {
  // A fixed name, or a file name of fields alone, ties nothing to this job.
  EXPECT_TRUE(reported_words("#SBATCH --output=train.log\n", "grep loss train.log\n").empty());
  EXPECT_TRUE(
      reported_words("#SBATCH --output=/scratch/u/%j\n", "mkdir -p out/$SLURM_JOB_ID\n").empty());
  // Another directory's file of the same name, and messages.
  EXPECT_TRUE(
      reported_words("#SBATCH -o logs/%j.out\n",
                     "python t.py > $SLURM_JOB_ID.out\necho \"see logs/$SLURM_JOB_ID.out\"\n")
          .empty());
}

// Globs the shell expands over the log's directory: Slurm's default name
// (PabloPiaggi's LAMMPS chains, snakemake's log cleanup) or the name
// --output gives (ParallelFDTD's `-o parallelFDTD.out` then `mv ./*.out`).
TEST(JobLogFiles, GlobsThatMatchTheLog) {
  EXPECT_EQ(reported_words("",
                           "mpirun lmp -i in.lammps\n"
                           "if ! grep -q 'ERROR' slurm*; then sbatch next.qs; fi\n"
                           "mv -f slurm* Logs/ || true\n"
                           "cp $SLURM_SUBMIT_DIR/slurm-*.out results/\n"
                           "tail ./slurm_*\n"),
            (std::vector<std::string>{"slurm*", "slurm*", "$SLURM_SUBMIT_DIR/slurm-*.out"}));
  EXPECT_EQ(reported_words("#SBATCH -o parallelFDTD.out\n",
                           "srun python testBench.py\n"
                           "mv ./*.log ./return/\nmv ./*.hdf5 ./return/\nmv ./*.out ./return/\n"),
            std::vector<std::string>{"./*.out"});
  EXPECT_EQ(reported_words("#SBATCH -J bert\n#SBATCH -o logs/%x-%j.log\n",
                           "python t.py\ncat logs/bert-*.log\ncat logs/*.json *.log\n"),
            std::vector<std::string>{"logs/bert-*.log"});
}

TEST(JobLogFiles, GlobsThatMayMeanOtherFilesAreNotReported) {
  // `*.out` beside Slurm's default log is as often the program's output;
  // another directory's logs are other jobs'; a quoted pattern is find's.
  EXPECT_TRUE(reported_words("",
                             "python t.py\nmv *.out results/\ncat logs/slurm*\n"
                             "ls ${WORKDIR}/slurm-*.out\nfind . -name \"slurm-*.out\"\n")
                  .empty());
  EXPECT_TRUE(
      reported_words("#SBATCH -o logs/%j.out\n", "python t.py\nmv *.out results/\n").empty());
  // Removing, testing a name, excluding, and messages.
  EXPECT_TRUE(reported_words("",
                             "python t.py\nrm -f slurm*.out\n[ $f != slurm*out ] && cp $f b/\n"
                             "rsync -a --exclude slurm*.out . /backup/\necho slurm*\n")
                  .empty());
}

}  // namespace
}  // namespace s2a
