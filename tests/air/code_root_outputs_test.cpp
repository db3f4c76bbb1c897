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
                           "dbfs:/out", "-v", "", "a b", "out/*"}) {
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
