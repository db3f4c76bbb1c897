// The line diff behind `check`, and check_translation itself.
#include <gtest/gtest.h>

#include "batch/check.hpp"

namespace s2a::batch {
namespace {

TEST(UnifiedDiff, EqualTextsGiveNothing) {
  EXPECT_EQ(unified_diff("a\nb\n", "a\nb\n", "x", "y"), "");
  EXPECT_EQ(unified_diff("", "", "x", "y"), "");
}

TEST(UnifiedDiff, OneChangedLineWithContext) {
  const std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  const std::string after = "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n";
  EXPECT_EQ(unified_diff(before, after, "old", "new"),
            "--- old\n+++ new\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+FIVE\n 6\n 7\n 8\n");
}

TEST(UnifiedDiff, DistantChangesMakeTwoHunks) {
  std::string before;
  for (int i = 1; i <= 20; ++i) before += std::to_string(i) + "\n";
  std::string after = before;
  after.replace(after.find("2\n"), 2, "two\n");
  after.replace(after.find("19\n"), 3, "");
  EXPECT_EQ(unified_diff(before, after, "a", "b"),
            "--- a\n+++ b\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n"
            "@@ -16,5 +16,4 @@\n 16\n 17\n 18\n-19\n 20\n");
}

TEST(UnifiedDiff, InsertIntoEmptyAndMissingNewline) {
  EXPECT_EQ(unified_diff("", "a\n", "a", "b"), "--- a\n+++ b\n@@ -0,0 +1 @@\n+a\n");
  EXPECT_EQ(unified_diff("a\n", "a", "x", "y"),
            "--- x\n+++ y\n@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file\n");
}

TEST(UnifiedDiff, LargeInputsStayBounded) {
  std::string before;
  std::string after;
  for (int i = 0; i < 5000; ++i) {
    before += "a" + std::to_string(i) + "\n";
    after += "b" + std::to_string(i) + "\n";
  }
  const std::string diff = unified_diff(before, after, "a", "b");
  EXPECT_NE(diff.find("@@ -1,5000 +1,5000 @@"), std::string::npos);
}

constexpr const char* kScript =
    "#!/bin/bash\n#SBATCH --job-name=llama\n#SBATCH --gpus-per-node=h100:8\n"
    "#SBATCH --time=01:00:00\npython train.py\n";

TEST(CheckTranslation, UpToDateAndOneCharacterDrift) {
  const Translation t = translate("job.sh", kScript);
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(check_translation(t, t.yaml, "train.yaml").up_to_date);
  std::string edited = t.yaml;
  edited[edited.find("timeout_minutes: 60") + 17] = '9';  // 60 -> 90
  const CheckResult result = check_translation(t, edited, "train.yaml");
  EXPECT_FALSE(result.up_to_date);
  EXPECT_NE(result.diff.find("-timeout_minutes: 90"), std::string::npos) << result.diff;
  EXPECT_NE(result.diff.find("+timeout_minutes: 60"), std::string::npos) << result.diff;
  EXPECT_EQ(result.diff.rfind("--- train.yaml (committed)\n", 0), 0U) << result.diff;
}

TEST(CheckTranslation, ScriptThatNoLongerConverts) {
  const Translation t = translate("job.sh", std::string("#!/bin/bash\n\0python x.py\n", 25));
  const CheckResult result = check_translation(t, "experiment_name: x\n", "train.yaml");
  EXPECT_FALSE(result.up_to_date);
  EXPECT_EQ(result.problem, "job.sh no longer converts; run slurm2air on it to see why");
}

}  // namespace
}  // namespace s2a::batch
