// Tests for parse_dependency() (spec §2.10 and the driver-script chains of §5.5).
#include <gtest/gtest.h>

#include "grammar/values.hpp"

namespace s2a::values {
namespace {

TEST(ParseDependency, EmptyAndZeroClear) {
  for (const char* text : {"", "0"}) {
    SCOPED_TRACE(text);
    const Parsed<Dependency> parsed = parse_dependency(text);
    ASSERT_TRUE(parsed) << parsed.error;
    EXPECT_TRUE(parsed->items.empty());
    EXPECT_FALSE(parsed->any);
  }
}

TEST(ParseDependency, EveryTypeCaseInsensitive) {
  const std::pair<const char*, const char*> cases[] = {
      {"after:123", "after"},         {"afterany:123", "afterany"},
      {"afterok:123", "afterok"},     {"afternotok:123", "afternotok"},
      {"aftercorr:123", "aftercorr"}, {"afterburstbuffer:123", "afterburstbuffer"},
      {"expand:123", "expand"},       {"AfterOK:123", "afterok"},
      {"AFTERANY:123", "afterany"},   {"123", "afterany"},  // old form
  };
  for (const auto& [text, type] : cases) {
    SCOPED_TRACE(text);
    const Parsed<Dependency> parsed = parse_dependency(text);
    ASSERT_TRUE(parsed) << parsed.error;
    ASSERT_EQ(parsed->items.size(), 1u);
    EXPECT_EQ(parsed->items[0].type, type);
    ASSERT_EQ(parsed->items[0].targets.size(), 1u);
    EXPECT_EQ(parsed->items[0].targets[0].job, "123");
  }
  for (const char* text : {"singleton", "SINGLETON", "Singleton"}) {
    const Parsed<Dependency> parsed = parse_dependency(text);
    ASSERT_TRUE(parsed) << parsed.error;
    EXPECT_EQ(parsed->items[0].type, "singleton");
    EXPECT_TRUE(parsed->items[0].targets.empty());
  }
}

TEST(ParseDependency, SpecsWithTasksDelaysAndStates) {
  const Parsed<Dependency> parsed =
      parse_dependency("afterok:100_3:101_*:102_[1-3,5]:103+10:104_2+5(failed)");
  ASSERT_TRUE(parsed) << parsed.error;
  const auto& targets = parsed->items.at(0).targets;
  ASSERT_EQ(targets.size(), 5u);
  EXPECT_EQ(targets[0].job, "100");
  EXPECT_EQ(targets[0].task, "3");
  EXPECT_EQ(targets[1].task, "*");
  EXPECT_EQ(targets[2].task, "[1-3,5]");
  EXPECT_EQ(targets[3].task, "");
  EXPECT_EQ(targets[3].plus_minutes, 10u);
  EXPECT_EQ(targets[4].task, "2");
  EXPECT_EQ(targets[4].plus_minutes, 5u);
  EXPECT_EQ(targets[4].state, "failed");
  EXPECT_FALSE(targets[0].plus_minutes.has_value());
}

TEST(ParseDependency, AndOrLists) {
  Parsed<Dependency> parsed = parse_dependency("afterok:1:2,afterany:3,singleton");
  ASSERT_TRUE(parsed) << parsed.error;
  EXPECT_FALSE(parsed->any);
  ASSERT_EQ(parsed->items.size(), 3u);
  EXPECT_EQ(parsed->items[0].targets.size(), 2u);
  EXPECT_EQ(parsed->items[2].type, "singleton");

  parsed = parse_dependency("afterok:1?afternotok:2");
  ASSERT_TRUE(parsed) << parsed.error;
  EXPECT_TRUE(parsed->any);
  EXPECT_EQ(parsed->items.size(), 2u);
  EXPECT_EQ(parsed->items[1].type, "afternotok");
}

// Driver scripts (§5.5) hand unexpanded parameters to --dependency.
TEST(ParseDependency, ShellExpansionsAreKeptVerbatim) {
  const std::pair<const char*, const char*> cases[] = {
      {"afterok:$jid", "$jid"},
      {"afterok:${JOB1}", "${JOB1}"},
      {"afterany:${jid:-1}", "${jid:-1}"},
      {"afterok:${a:-${b}}", "${a:-${b}}"},
      {"afterok:$(cat jobid.txt)", "$(cat jobid.txt)"},
      {"afterok:$1", "$1"},
      {"$jid", "$jid"},
      {"afterok:${PREFIX}42", "${PREFIX}42"},
      {"afterok:$jid_1", "$jid_1"},  // bash reads the name jid_1
  };
  for (const auto& [text, job] : cases) {
    SCOPED_TRACE(text);
    const Parsed<Dependency> parsed = parse_dependency(text);
    ASSERT_TRUE(parsed) << parsed.error;
    EXPECT_EQ(parsed->items.at(0).targets.at(0).job, job);
    EXPECT_EQ(parsed->items.at(0).targets.at(0).task, "");
  }
  const Parsed<Dependency> parsed =
      parse_dependency("aftercorr:${jid}_${SLURM_ARRAY_TASK_ID},afterok:$A:$B+5");
  ASSERT_TRUE(parsed) << parsed.error;
  EXPECT_EQ(parsed->items[0].targets[0].job, "${jid}");
  EXPECT_EQ(parsed->items[0].targets[0].task, "${SLURM_ARRAY_TASK_ID}");
  EXPECT_EQ(parsed->items[1].targets[1].job, "$B");
  EXPECT_EQ(parsed->items[1].targets[1].plus_minutes, 5u);
}

TEST(ParseDependency, Rejects) {
  const std::pair<const char*, const char*> cases[] = {
      {"afterok:1,afterany:2?afternotok:3", "',' (all) and '?' (any) cannot be mixed"},
      {"afterok:1?afterany:2,singleton", "cannot be mixed"},
      {"afterok", "'afterok' needs at least one job id after ':'"},
      {"afterok:", "a job id or dependency is missing"},
      {"afterok:1:", "a job id or dependency is missing"},
      {"afterok::1", "a job id or dependency is missing"},
      {"afterok:1,", "a job id or dependency is missing at offset 10"},
      {",afterok:1", "a job id or dependency is missing"},
      {"before:1", "unknown dependency type 'before'"},
      {"after_ok:1", "unexpected \"_\""},
      {"singleton:1", "singleton takes no job ids"},
      {"afterok:0", "job id 0 is not valid"},
      {"afterok:4294967296", "job id 4294967296 is too large"},
      {"afterok:99999999999999999999", "is too large"},
      {"afterok:1+99999999999999999999", "delay +99999999999999999999 is too large"},
      {"afterok:1+", "unexpected \"+\""},
      {"afterok:1_", "unexpected \"_\""},
      {"afterok:1(", "unexpected \"(\""},
      {"afterok:${jid", "unexpected \"$\""},
      {"afterok:$", "unexpected \"$\""},
      {"afterok: 1", "unexpected \" \""},
      {"afterok:1;cluster", "unexpected \";\""},
      {"00", "job id 00 is not valid"},
  };
  for (const auto& [text, why] : cases) {
    SCOPED_TRACE(text);
    const Parsed<Dependency> parsed = parse_dependency(text);
    EXPECT_FALSE(parsed);
    EXPECT_NE(parsed.error.find(why), std::string::npos) << parsed.error;
  }
  EXPECT_EQ(parse_dependency("before:1").error,
            "invalid dependency \"before:1\": unknown dependency type 'before' (form: "
            "type:jobid[:jobid...][,type:jobid...] with type after, afterany, afterok, "
            "afternotok, aftercorr, afterburstbuffer or expand; or singleton)");
}

}  // namespace
}  // namespace s2a::values
