// Variables the batch script reads but never sets: under Slurm they came from
// the submitting shell (sbatch's default --export=ALL) or a removed setup
// step; AI Runtime starts the command without them (S2A5014).
#include <gtest/gtest.h>

#include "support/diagnostics.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

const std::string kHeader = "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n";

std::vector<Diagnostic> inherited(const std::string& body, const std::string& header = kHeader) {
  return testing::diagnostics_with(translate("job.sbatch", header + body),
                                   Code::inherited_variable);
}

TEST(InheritedVariables, ReportedOnceAtTheFirstUseWithEveryName) {
  // MLPerf's workflow: `source config_DGXA100.sh; sbatch run.sub`.
  const std::string body =
      "cd $SCRATCH/run\n"
      "python train.py --nodes ${DGXNNODES} --gpus \"$DGXNGPU\" --out $SCRATCH/out\n"
      "cat <<EOF > run.cfg\nbatch=$BATCHSIZE\nEOF\n";
  const auto reports = inherited(body);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].span.begin, kHeader.size() + 3);
  EXPECT_NE(reports[0].message.find("$SCRATCH, $DGXNNODES, $DGXNGPU, $BATCHSIZE are never set in "
                                    "the script (5 uses)"),
            std::string::npos)
      << reports[0].message;
  EXPECT_NE(reports[0].message.find("AI Runtime starts the command without them"),
            std::string::npos);
}

// ltgoslo's `set -o nounset` ... `cd ${SUBMITDIR}`; ARCCA's `set -eu` ...
// `WORKDIR=.../$SLURM_JOB_ID`: under nounset bash stops at the first read of
// a variable that is not set, so the run fails there (S2A4037).
TEST(InheritedVariables, UnderSetUTheFirstUseStopsTheScript) {
  const Translation t =
      translate("job.sbatch", kHeader +
                                  "echo ${EARLY}\nset -o nounset\nWORKDIR=/tmp/$SLURM_JOB_ID\n"
                                  "echo ${OPTIONAL:-none}\ncd ${SUBMITDIR}\nset +u\necho $LATE\n");
  const auto fatal = testing::diagnostics_with(t, Code::unset_under_nounset);
  ASSERT_EQ(fatal.size(), 2u);
  EXPECT_NE(fatal[0].message.find("$SLURM_JOB_ID has no AI Runtime equivalent"), std::string::npos)
      << fatal[0].message;
  EXPECT_NE(fatal[1].message.find("$SUBMITDIR is never set in the script, and the script runs "
                                  "with `set -u`"),
            std::string::npos)
      << fatal[1].message;
  // The #! line's options count from the start.
  const Translation shebang =
      translate("job.sbatch", "#!/bin/bash -eu\n#SBATCH --gpus-per-node=h100:8\ncd $DATA\n");
  EXPECT_EQ(testing::diagnostics_with(shebang, Code::unset_under_nounset).size(), 1u);
  const Translation without = translate("job.sbatch", kHeader + "cd $DATA\necho $SLURM_JOB_ID\n");
  EXPECT_TRUE(testing::diagnostics_with(without, Code::unset_under_nounset).empty());
}

TEST(InheritedVariables, UsesInCompoundCommandsCountAndTheFirstIsShown) {
  const std::string body =
      "if [[ -d $DATA_DIR ]]; then echo ok; fi\n"
      "for f in $INPUT/*; do echo \"$f\"; done\n"
      "case $MODE in train) python train.py;; esac\n"
      "python eval.py --data $DATA_DIR\n";
  const auto reports = inherited(body);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].span.begin, kHeader.size() + 9);
  EXPECT_EQ(reports[0].message.substr(0, 49), "$DATA_DIR, $INPUT, $MODE are never set in the scr");
}

TEST(InheritedVariables, NamesTheScriptSetsAnywhereAreNotReported) {
  EXPECT_TRUE(inherited("echo $DATA $EPOCH $line $opt $n $i $f $c $x\n"  // used before set
                        "DATA=/Volumes/main/ml/data\n"
                        "export EPOCH=3\n"
                        "read -r line < list.txt\n"
                        "opt[0]=--fast\n"
                        "(( n++ ))\n"
                        "for ((i = 0; i < 2; i++)); do :; done\n"
                        "for f in a b; do :; done\n"
                        "case $1 in a) local c=1 ;; esac\n"
                        "printf -v x '%s' 1\n"
                        ": \"${LOGDIR:=./results}\" ${OUT=out}\n"
                        "echo $LOGDIR $OUT\n")
                  .empty());
}

// A word of export, declare, let... names a variable up to its operator; a
// word whose head is no name (`E.F=1`) sets nothing.
TEST(InheritedVariables, ABuiltinsWordNamesTheVariableBeforeItsOperator) {
  const auto reports = inherited(
      "echo $A $B $C $D $E $F $G\n"
      "export A+=x\ndeclare B[0]=y\nlet C*=2 \"D = 1\"\nreadonly E.F=1 F\nlet G-1\n");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].message.substr(0, 30), "$E is never set in the script:");
}

// `X=$X` passes on the value X came with (`sbatch --export=exp_group=...`).
TEST(InheritedVariables, AnAssignmentOfItsOwnValueDoesNotSetIt) {
  const auto reports = inherited(
      "exp_group=$exp_group\nexport LR=\"${LR}\"\nOUT=$OUT/run\n"
      "python run.py +experiment=${exp_group} --lr $LR --out $OUT\n");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_NE(reports[0].message.find("$exp_group, $LR are never set in the script"),
            std::string::npos)
      << reports[0].message;
}

TEST(InheritedVariables, ProvidedNamesAndOwnDefaultsAreNotReported) {
  EXPECT_TRUE(inherited("echo $HOME $USER $PWD $RANDOM $HOSTNAME $TMPDIR $LANG $LC_ALL\n"
                        "echo $SLURM_JOB_ID $SLURMD_NODENAME $CUDA_VISIBLE_DEVICES\n"
                        "echo $MASTER_ADDR $NUM_NODES $NODE_RANK $CODE_SOURCE_PATH\n"
                        "export PATH=$PATH:bin PYTHONPATH=$PYTHONPATH:src\n"
                        "python t.py --epochs ${EPOCHS:-1} --lr ${LR-0.1} ${DEBUG:+--debug} "
                        "${#NAME}\n"
                        "awk '{print $WORK}' log.txt\n")
                  .empty());
}

TEST(InheritedVariables, NotJudgedAfterASourceThatStaysOrForAJobWithoutTheShellsVariables) {
  // What ./env.sh sets is unknown; $WORK before it is still reported.
  const auto reports = inherited("cd $WORK\nsource ./env.sh\npython t.py --data $DATA\n");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_NE(reports[0].message.find("$WORK is never set"), std::string::npos);
  EXPECT_TRUE(inherited("eval \"$(cat vars)\"\necho $DATA\n").empty());
  // A removed activation sets nothing on AI Runtime: later uses are judged.
  EXPECT_EQ(inherited("source ~/venv/bin/activate\necho $DATA\n").size(), 1u);
  EXPECT_EQ(inherited("eval \"$(conda shell.bash hook)\"\necho $DATA\n").size(), 1u);
  // A removed module line takes its uses with it.
  EXPECT_TRUE(inherited("module load cuda/${CUDA_VERSION}\n").empty());
  // --export=NONE: empty under Slurm too; named exports belong to S2A5004/5005.
  const std::string none = kHeader + "#SBATCH --export=NONE\n";
  EXPECT_TRUE(inherited("echo $WORK\n", none).empty());
  const std::string named = kHeader + "#SBATCH --export=ALL,DATA=/x,WORK\n";
  EXPECT_TRUE(inherited("echo $DATA $WORK\n", named).empty());
}

// Arithmetic keeps its names as text: `$((NSEEDS))`, `(( i < N ))`, the
// `$INDEX` of a subscript. Names it assigns are the script's own.
// The command no longer has the lines the mapper took out, nor their uses:
// a registry login (a whole pipeline feeding it too), a module line.
TEST(InheritedVariables, UsesInRemovedLinesAreNotReported) {
  const auto reports = inherited(
      "echo $GHCR_PAT | docker login ghcr.io -u me --password-stdin\n"
      "docker login -u me -p $DOCKER_PAT\n"
      "module load cuda/$CUDA_VERSION\n"
      "python train.py --data $DATA_DIR\n");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_NE(reports[0].message.find("$DATA_DIR is never set in the script:"), std::string::npos)
      << reports[0].message;
}

// axolotl's examples/slurm: the rendezvous endpoint read from the submitting
// shell becomes AI Runtime's, so those uses are gone ($PORT too, although
// $MASTER_PORT ends in its name); a use elsewhere is still reported.
TEST(InheritedVariables, UsesTheMappingRewroteAwayAreNotReported) {
  const std::string header =
      "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n"
      "#SBATCH --gpus-per-node=h100:8\n";
  const auto gone = inherited(
      "srun torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend c10d "
      "--rdzv_endpoint \"${PRIMARY_ADDR}:${PRIMARY_PORT}\" train.py\n",
      header);
  EXPECT_TRUE(gone.empty()) << gone[0].message;
  const auto kept = inherited(
      "echo \"head: $PRIMARY_ADDR\"\n"
      "srun torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend c10d "
      "--rdzv_endpoint \"${PRIMARY_ADDR}:${PORT}\" train.py\n",
      header);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_NE(kept[0].message.find("$PRIMARY_ADDR is never set in the script:"), std::string::npos)
      << kept[0].message;
}

TEST(InheritedVariables, NamesReadInArithmeticAreUses) {
  const auto reports = inherited(
      "lrs=(0.1 0.01); declare -A map\n"
      "for i in $(seq 1 $((NSEEDS))); do\n"
      "  python train.py --seed $(( $OFFSET + i )) --lr ${lrs[$IDX]} --x ${map[key]}\n"
      "done\n"
      "for (( j = 0; j < ${ROUNDS}; j++ )); do :; done\n"
      "(( n = 10#$DAY + 0x1F + 2#101 ))\n"
      "echo $(( total += 1 )) $(( ++count )) $(( $(wc -l < f) + 1 ))\n"
      "echo $total $count $n $j\n");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].span.begin, kHeader.size() + 31 + 20);
  EXPECT_NE(reports[0].message.find("$NSEEDS, $OFFSET, $IDX, $ROUNDS, $DAY are never set in the "
                                    "script (5 uses)"),
            std::string::npos)
      << reports[0].message;
}

// /etc/profile and ~/.bashrc are the cluster's and the user's login files:
// what they set, AI Runtime nodes do not have either.
TEST(InheritedVariables, JudgedOnAfterSourcingALoginFile) {
  for (const char* login : {". /etc/profile", "source ~/.bashrc", "source \"$HOME/.bash_profile\"",
                            "source /etc/profile.d/site.sh"}) {
    const auto reports = inherited(std::string(login) + "\nckpt=$SCRATCH/run1\n");
    ASSERT_EQ(reports.size(), 1u) << login;
    EXPECT_NE(reports[0].message.find("$SCRATCH is never set"), std::string::npos);
  }
  EXPECT_TRUE(inherited("source ./bashrc\nckpt=$SCRATCH/run1\n").empty());
}

TEST(InheritedVariables, ABashCScriptsVariablesAreItsOwn) {
  EXPECT_TRUE(inherited("srun bash -c 'echo $RANK_FILE'\n").empty());
}

}  // namespace
}  // namespace s2a

namespace s2a {
namespace {

/// The operands S2A5029 reports, as written.
std::vector<std::string> root_removals(const std::string& body) {
  const std::string text = kHeader + body;
  std::vector<std::string> words;
  for (const Diagnostic& d :
       testing::diagnostics_with(translate("job.sbatch", text), Code::recursive_remove_from_root)) {
    words.push_back(text.substr(d.span.begin, d.span.size()));
  }
  return words;
}

// `rm -rf $SCRATCH/*` with SCRATCH empty is `rm -rf /*`.
TEST(RootRemovals, RecursiveRemovalsUnderAnEmptyVariableAreErrors) {
  EXPECT_EQ(root_removals("python t.py\nrm -rf $SCRATCH/*\nrm -r \"${WORKDIR}\"/cache\n"
                          "rm --recursive --force $OUT/ckpt tmp/\n"),
            (std::vector<std::string>{"$SCRATCH/*", "\"${WORKDIR}\"/cache", "$OUT/ckpt"}));
}

TEST(RootRemovals, SetDefaultedNonRecursiveOrNotLeadingIsNotReported) {
  EXPECT_TRUE(root_removals("W=/tmp/w\nrm -rf $W/*\n"
                            "rm -rf ${OUT:-/tmp/x}/a \"${LOGS:?}\"/b\n"
                            "rm -f $LOGS/x.log\nrm -rf run_$TAG/ $DIR\nrm -rf $HOME/.cache\n"
                            "rm -rf -- -$X/y\n")
                  .empty());
}

}  // namespace
}  // namespace s2a
