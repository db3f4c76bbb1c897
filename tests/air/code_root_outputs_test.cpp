// Results written under the code root (S2A5030): the options that name
// where a program writes, with a relative value (or a variable holding one),
// reported once per script; not formats, inputs, messages, srun's own
// options, absolute paths, or anything after the script leaves the code root.
#include "air/code_root_outputs.hpp"

#include <gtest/gtest.h>

#include "translate.hpp"

namespace s2a {
namespace {

const std::string kHeader = "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n";

std::vector<std::string> reports(const std::string& body) {
  const Translation t = translate("job.sh", kHeader + body);
  std::vector<std::string> out;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code != Code::output_under_code_root) continue;
    const LineCol at = t.file->line_col(d.span.begin);
    out.push_back(std::to_string(at.line) + ":" + std::to_string(at.col) + " " + d.message);
  }
  return out;
}

TEST(CodeRootOutputs, OptionNamesThatSayWhereResultsGo) {
  for (const char* name : {"output_dir", "Output-Dir", "save-dir", "work-dir", "logdir",
                           "checkpoint_dir", "tensorboard-dir", "outdir", "save_path"}) {
    EXPECT_TRUE(air::names_output_directory(name)) << name;
  }
  // What a program loads as often as what it saves, and other directories.
  for (const char* name : {"ckpt_dir", "checkpoint_path", "model_dir", "data_dir", "cache_dir",
                           "output_format", "output", ""}) {
    EXPECT_FALSE(air::names_output_directory(name)) << name;
  }
  for (const char* name : {"output", "out", "save", "output-file"}) {
    EXPECT_TRUE(air::names_output_file(name)) << name;
  }
}

TEST(CodeRootOutputs, PathsInsideTheCodeRoot) {
  for (const char* path : {"checkpoints", "./out/run1", ".", "logs/", "model.pt"}) {
    EXPECT_TRUE(air::is_code_root_path(path)) << path;
  }
  for (const char* path : {"/scratch/u/out", "~/runs", "$OUT", "../out", "..", "s3://b/out",
                           "dbfs:/out", "-v", "", "a b", "out/*", "<PATH>/out", "#/fst"}) {
    EXPECT_FALSE(air::is_code_root_path(path)) << path;
  }
}

TEST(CodeRootOutputs, OneReportAtTheFirstWithACountOfTheRest) {
  const auto found = reports(
      "python prep.py --data data/raw\n"
      "torchrun --nproc_per_node=8 train.py --output_dir checkpoints/run1 \\\n"
      "  --logging_dir=./logs --save_total_limit 2\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0],
            "4:38 `--output_dir checkpoints/run1` writes under the code root: on AI Runtime "
            "that is the node's own copy of the code ($CODE_SOURCE_PATH), not the shared file "
            "system beside the script, and it goes with the node when the run ends (1 more "
            "output option(s) in the script)");
}

TEST(CodeRootOutputs, AVariableHoldingARelativePathCounts) {
  const auto found = reports(
      "OUT=outputs/bert\n"
      "CKPT=/Volumes/main/ml/ckpt\n"
      "python train.py --save_dir \"$CKPT\" --output_dir ${OUT}\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].find("`--output_dir ${OUT} (OUT=outputs/bert)`"), std::string::npos)
      << found[0];
}

TEST(CodeRootOutputs, TheVariableAWordStartsWith) {
  for (const char* written : {"$OUT/sub", "${OUT}/sub", "\"$OUT/sub\"", "\"${OUT}\"/sub"}) {
    const auto found = slurm::leading_variable(written);
    ASSERT_TRUE(found) << written;
    EXPECT_EQ(found->name, "OUT") << written;
    EXPECT_NE(found->rest.find("/sub"), std::string_view::npos) << written;  // quotes kept
  }
  EXPECT_EQ(slurm::leading_variable("$OUT")->rest, "");
  for (const char* written : {"'$OUT'/sub", "out/$OUT", "${OUT:-x}/sub", "$1/sub", "${OUT"}) {
    EXPECT_FALSE(slurm::leading_variable(written)) << written;
  }
}

// The common form: a variable the script sets, then a word that starts with
// it (`mkdir -p $OUT` ... `--output_dir $OUT/sub`).
TEST(CodeRootOutputs, AWordThatStartsWithSuchAVariable) {
  for (const std::string use :
       {"--output_dir $OUT/sub", "--output_dir ${OUT}/sub", "--output_dir \"$OUT/sub\"",
        "--output_dir \"${OUT}\"/sub", "--output_dir=$OUT", "--output_dir \"$OUT\""}) {
    const auto found = reports("OUT=results\nmkdir -p $OUT\ntorchrun --nproc_per_node=8 train.py " +
                               use + " --seed 1\n");
    ASSERT_EQ(found.size(), 1u) << use;
    EXPECT_EQ(found[0].substr(0, found[0].find(" writes")), "5:38 `" + use + " (OUT=results)`");
  }
  // A file name after it is what makes `--save` a path.
  EXPECT_EQ(reports("RUN=runs/a\npython t.py --save $RUN/model.pt\n").size(), 1u);
  EXPECT_TRUE(reports("FMT=json\npython t.py --output $FMT\n").empty());
}

TEST(CodeRootOutputs, AValueKnownUpToItsFirstExpansion) {
  const auto job_id =
      reports("OUT=\"outputs/${SLURM_JOB_ID}\"\npython t.py --output_dir $OUT/ckpt\n");
  ASSERT_EQ(job_id.size(), 1u);
  EXPECT_NE(job_id[0].find("`--output_dir $OUT/ckpt (OUT=\"outputs/${SLURM_JOB_ID}\")`"),
            std::string::npos)
      << job_id[0];
  EXPECT_EQ(reports("export OUT=./runs/exp1\npython t.py --output_dir ${OUT}\n").size(), 1u);
  // Its own default is what runs on AI Runtime, which has no environment
  // from sbatch to set OUT.
  const auto fallback = reports("OUT=${OUT:-ckpt}\npython t.py --save_dir \"$OUT\"\n");
  ASSERT_EQ(fallback.size(), 1u);
  EXPECT_NE(fallback[0].find("(OUT=${OUT:-ckpt})"), std::string::npos) << fallback[0];
}

// The value sits inside the message's backquotes: one with its own
// (`date`) or a line of parameters is shown by its known start.
TEST(CodeRootOutputs, AValueWithBackquotesOrALongOneIsShownByItsStart) {
  const auto dated = reports(
      "EXPERIMENT_DIR=\"experiments/inference/$DECODER/\"`date +%Y-%m-%d_%H-%M-%S`\n"
      "python run.py --output_dir ${EXPERIMENT_DIR}\n");
  ASSERT_EQ(dated.size(), 1u);
  EXPECT_NE(dated[0].find("`--output_dir ${EXPERIMENT_DIR} "
                          "(EXPERIMENT_DIR=experiments/inference/...)` writes"),
            std::string::npos)
      << dated[0];
  const auto long_one = reports(
      "resdir=results/supervised/imagenet/finetune/${final_data}_${final_wd}_${final_lr}/run${r}\n"
      "srun python supervised.py --dump_path ${resdir}\n");
  ASSERT_EQ(long_one.size(), 1u);
  EXPECT_NE(long_one[0].find("(resdir=results/supervised/imagenet/finetune/...)`"),
            std::string::npos)
      << long_one[0];
}

TEST(CodeRootOutputs, NotAVariableThatIsAbsoluteUnknownOrNotAlwaysSet) {
  for (const char* script : {
           "OUT=/Volumes/main/ml/runs\npython t.py --output_dir $OUT/sub\n",
           "OUT=$HOME/runs\npython t.py --output_dir $OUT/sub\n",
           "OUT=$(mktemp -d)\npython t.py --output_dir $OUT\n",
           "OUT=${BASE:-runs}/a\npython t.py --output_dir $OUT\n",  // BASE may be set
           "OUT=a\nOUT=b\npython t.py --output_dir $OUT\n",
           "if [ -n \"$2\" ]; then OUT=results; fi\npython t.py --output_dir $OUT/sub\n",
           "[ -z \"$OUT\" ] && OUT=results\npython t.py --output_dir $OUT/sub\n",
           "for OUT in a b; do :; done\npython t.py --output_dir $OUT\n",
           "OUT=results\npython t.py --output_dir '$OUT'/sub\n",
           "OUT=results\npython t.py --output_dir $OUTPUT/sub\n",
       }) {
    EXPECT_TRUE(reports(script).empty()) << script;
  }
}

// Names real scripts use beyond output_dir, and argparse's single-dash form:
// backward-IS's `-out_path ${OUT_PATH}`, SwAV and DINO's `--dump_path`.
TEST(CodeRootOutputs, SingleDashOptionsAndDumpPaths) {
  for (const char* name : {"dump_path", "out_path", "out-path", "results_path", "exp_root",
                           "experiment_path", "outputdir", "log_root"}) {
    EXPECT_TRUE(air::names_output_directory(name)) << name;
  }
  const auto single = reports(
      "OUT_PATH=100_runs/${SLURM_ARRAY_TASK_ID}\n"
      "srun python -u src/estimate.py -data_path $DATA_PATH -out_path ${OUT_PATH} -pms 1\n");
  ASSERT_EQ(single.size(), 1u);
  EXPECT_NE(single[0].find("`-out_path ${OUT_PATH} (OUT_PATH=100_runs/${SLURM_ARRAY_TASK_ID})`"),
            std::string::npos)
      << single[0];
  const auto dump = reports(
      "resdir=results/supervised/run${final_run}\nmkdir ${resdir} -p\n"
      "srun --output=${resdir}/%j.out python supervised.py --dump_path ${resdir} --lr 0.01\n");
  ASSERT_EQ(dump.size(), 1u);
  EXPECT_NE(dump[0].find("`--dump_path ${resdir}"), std::string::npos) << dump[0];
  // Dashes alone, a third dash, or a short option are not names.
  EXPECT_TRUE(reports("python t.py -o out -- --out_dir ---out_dir x -out\n").empty());
}

TEST(CodeRootOutputs, GenericNamesNeedAValueThatLooksLikeAPath) {
  EXPECT_TRUE(reports("python eval.py --output json --save\n").empty());
  EXPECT_EQ(reports("python eval.py --output preds.json\n").size(), 1u);
  EXPECT_EQ(reports("python eval.py --save=runs/a\n").size(), 1u);
}

TEST(CodeRootOutputs, NotMessagesSrunOptionsOrAbsolutePaths) {
  EXPECT_TRUE(reports("echo --output_dir out\n"
                      "srun --output=log.txt python t.py --output_dir /Volumes/c/s/v/out\n"
                      "python t.py --output_dir=$SCRATCH/out --log_dir ~/logs\n")
                  .empty());
}

// After `cd /scratch/u/proj` relative paths are the cluster's (S2A5010 has
// the cd); after `cd src` they are still inside the code root.
TEST(CodeRootOutputs, JudgedUntilTheScriptLeavesTheCodeRoot) {
  EXPECT_TRUE(reports("cd /scratch/u/proj\npython t.py --output_dir out\n").empty());
  EXPECT_TRUE(reports("cd \"$WORK\"\npython t.py --output_dir out\n").empty());
  EXPECT_EQ(reports("cd src\npython t.py --output_dir out\n").size(), 1u);
  EXPECT_EQ(reports("cd $SLURM_SUBMIT_DIR\npython t.py --output_dir out\n").size(), 1u);
}

}  // namespace
}  // namespace s2a
