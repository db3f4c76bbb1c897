// cron -> Quartz conversion and scrontab reading.
#include <gtest/gtest.h>

#include "bundle/cron.hpp"

namespace s2a::bundle {
namespace {

struct CronCase {
  const char* cron;
  const char* quartz;
};

class CronToQuartz : public ::testing::TestWithParam<CronCase> {};

TEST_P(CronToQuartz, Converts) {
  const CronConversion c = cron_to_quartz(GetParam().cron);
  EXPECT_EQ(c.error, "");
  EXPECT_EQ(c.quartz, GetParam().quartz);
}

INSTANTIATE_TEST_SUITE_P(
    Table, CronToQuartz,
    ::testing::Values(
        CronCase{"30 2 * * *", "0 30 2 * * ?"}, CronCase{"30 2 * * 1-5", "0 30 2 ? * 2-6"},
        CronCase{"0 0 * * 0", "0 0 0 ? * 1"}, CronCase{"0 0 * * 7", "0 0 0 ? * 1"},
        CronCase{"0 0 * * 5-7", "0 0 0 ? * 6-7,1"},
        CronCase{"0 0 * * mon,fri", "0 0 0 ? * MON,FRI"},
        CronCase{"*/15 * * * *", "0 0/15 * * * ?"}, CronCase{"0 */6 1 * *", "0 0 0/6 1 * ?"},
        CronCase{"0 3 1,15 jan-jun *", "0 0 3 1,15 JAN-JUN ?"},
        CronCase{"5 4 * */2 *", "0 5 4 * 1/2 ?"}, CronCase{"0 12 * * 1-5/2", "0 0 12 ? * 2-6/2"},
        CronCase{"@daily", "0 0 0 * * ?"}, CronCase{"@midnight", "0 0 0 * * ?"},
        CronCase{"@hourly", "0 0 * * * ?"}, CronCase{"@weekly", "0 0 0 ? * 1"},
        CronCase{"@monthly", "0 0 0 1 * ?"}, CronCase{"@yearly", "0 0 0 1 1 ?"},
        CronCase{"@annually", "0 0 0 1 1 ?"}));

struct BadCron {
  const char* cron;
  const char* error;
};

class CronRejects : public ::testing::TestWithParam<BadCron> {};

TEST_P(CronRejects, SaysWhy) {
  const CronConversion c = cron_to_quartz(GetParam().cron);
  EXPECT_EQ(c.quartz, "");
  EXPECT_EQ(c.error, GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    Table, CronRejects,
    ::testing::Values(
        BadCron{"0 0 15 * 1",
                "cron runs when day-of-month OR day-of-week matches; Quartz cannot restrict both"},
        BadCron{"60 * * * *", "60 is not a valid minute"},
        BadCron{"0 24 * * *", "24 is not a valid hour"},
        BadCron{"0 0 0 * *", "0 is not a valid day of month"},
        BadCron{"0 0 * 13 *", "13 is not a valid month"},
        BadCron{"*/0 * * * *", "the step in */0 is not a positive number"},
        BadCron{"0 0 * * 3-7/2", "a stepped day-of-week range ending in 7 has no Quartz spelling"},
        BadCron{"0 0 * *",
                "a cron schedule has five fields (minute hour day-of-month month "
                "day-of-week)"},
        BadCron{"@reboot", "@reboot has no schedule equivalent"},
        BadCron{"99999999999 * * * *", "99999999999 is not a valid minute"}));

TEST(Scrontab, OptionLinesApplyToTheNextEntryOnly) {
  const SourceFile file("crontab",
                        "# comment\n"
                        "#SCRON --job-name=a -t 1:00:00\n"
                        "#SCRON --gpus-per-node=h100:1\n"
                        "30 2 * * 1-5 python a.py --flag\n"
                        "@daily python b.py\n"
                        "FOO=bar\n");
  const Scrontab s = parse_scrontab(file);
  ASSERT_EQ(s.entries.size(), 2U);
  EXPECT_EQ(s.entries[0].cron, "30 2 * * 1-5");
  EXPECT_EQ(s.entries[0].command, "python a.py --flag");
  EXPECT_EQ(s.entries[0].options,
            (std::vector<std::string>{"--job-name=a", "-t", "1:00:00", "--gpus-per-node=h100:1"}));
  EXPECT_EQ(s.entries[1].cron, "@daily");
  EXPECT_EQ(s.entries[1].command, "python b.py");
  EXPECT_TRUE(s.entries[1].options.empty());
  ASSERT_EQ(s.unreadable.size(), 1U);
  EXPECT_EQ(file.slice(s.unreadable[0]), "FOO=bar");
}

TEST(Scrontab, IsRecognisedWithoutAShebang) {
  EXPECT_TRUE(looks_like_scrontab("#SCRON -t 10\n0 * * * * true\n"));
  EXPECT_TRUE(looks_like_scrontab("# nightly\n0 2 * * * python x.py\n"));
  EXPECT_FALSE(looks_like_scrontab("#!/bin/bash\n#SCRON -t 10\n0 * * * * true\n"));
  EXPECT_FALSE(looks_like_scrontab("#SBATCH -N 1\npython train.py\n"));
  EXPECT_FALSE(looks_like_scrontab(""));
}

}  // namespace
}  // namespace s2a::bundle
