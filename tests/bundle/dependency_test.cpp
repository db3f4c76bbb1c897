// Dependency types -> depends_on / run_if, and the driver walker.
#include <gtest/gtest.h>

#include "bundle/driver.hpp"
#include "directives/directives.hpp"
#include "translate.hpp"

namespace s2a::bundle {
namespace {

struct RunIfCase {
  std::vector<std::string> types;
  bool any;
  RunIf expected;
  const char* why;
};

class RunIfMapping : public ::testing::TestWithParam<RunIfCase> {};

TEST_P(RunIfMapping, MapsTypes) {
  std::string why;
  EXPECT_EQ(map_run_if(GetParam().types, GetParam().any, why), GetParam().expected);
  EXPECT_EQ(why, GetParam().why);
}

constexpr const char* kMixed =
    "the dependency mixes types, but a task has one run_if; it waits with ALL_DONE";

INSTANTIATE_TEST_SUITE_P(
    Table, RunIfMapping,
    ::testing::Values(RunIfCase{{"afterok"}, false, RunIf::all_success, ""},
                      RunIfCase{{"afterok", "afterok"}, false, RunIf::all_success, ""},
                      RunIfCase{{"afterok", "afterok"}, true, RunIf::at_least_one_success, ""},
                      RunIfCase{{"afterany"}, false, RunIf::all_done, ""},
                      RunIfCase{{"afterany", "afterany"}, true, RunIf::all_done, ""},
                      RunIfCase{{"afternotok"}, false, RunIf::at_least_one_failed, ""},
                      RunIfCase{{"afternotok", "afternotok"}, false, RunIf::all_failed, ""},
                      RunIfCase{{"afternotok", "afternotok"}, true, RunIf::at_least_one_failed, ""},
                      RunIfCase{{"afterok", "afterany"}, false, RunIf::all_done, kMixed},
                      RunIfCase{{}, false, RunIf::all_success, ""}));

TEST(RunIfMapping, NamesAreTheSchemaEnum) {
  EXPECT_EQ(run_if_name(RunIf::all_success), "ALL_SUCCESS");
  EXPECT_EQ(run_if_name(RunIf::all_done), "ALL_DONE");
  EXPECT_EQ(run_if_name(RunIf::at_least_one_success), "AT_LEAST_ONE_SUCCESS");
  EXPECT_EQ(run_if_name(RunIf::at_least_one_failed), "AT_LEAST_ONE_FAILED");
  EXPECT_EQ(run_if_name(RunIf::all_failed), "ALL_FAILED");
}

std::string why_unsupported(const char* text) {
  const auto parsed = values::parse_dependency(text);
  EXPECT_TRUE(parsed) << parsed.error;
  return parsed ? unsupported_dependency(parsed->items.at(0)) : "";
}

TEST(UnsupportedDependency, ExplainsEachType) {
  EXPECT_EQ(why_unsupported("afterok:$jid"), "");
  EXPECT_EQ(why_unsupported("afterany:1:2"), "");
  EXPECT_EQ(why_unsupported("afternotok:$a"), "");
  EXPECT_EQ(why_unsupported("aftercorr:$a"),
            "aftercorr pairs array tasks one to one, which depends_on cannot express; the task "
            "waits for the whole job to succeed (afterok)");
  EXPECT_EQ(why_unsupported("after:$a"),
            "after waits only for the other job to start; a task can wait only for tasks to "
            "finish (run_if: ALL_DONE)");
  EXPECT_EQ(why_unsupported("expand:$a"), "expand has no equivalent between tasks and is dropped");
  EXPECT_EQ(why_unsupported("afterok:$a+10"),
            "+10 (a delay after the other job) has no equivalent and is dropped");
  EXPECT_EQ(why_unsupported("afterok:123_3"),
            "a dependency on array task _3 waits for the whole for_each_task instead");
}

struct Driver {
  std::unique_ptr<SourceFile> file;
  slurm::Body body;
  DriverPlan plan;
  Diagnostics diagnostics;
};

Driver analyze(const std::string& text) {
  Driver d;
  d.file = std::make_unique<SourceFile>("driver.sh", text);
  const auto scan = directives::scan_directives(*d.file);
  d.body = slurm::analyze_body(*d.file, scan.body_offset, d.diagnostics);
  d.plan = analyze_driver(*d.file, d.body, d.diagnostics);
  return d;
}

std::vector<Code> codes(const Diagnostics& diagnostics) {
  std::vector<Code> out;
  for (const Diagnostic& d : diagnostics) out.push_back(d.code);
  return out;
}

TEST(DriverWalker, FollowsJobIdVariables) {
  const Driver d = analyze(
      "#!/bin/bash\n"
      "a=$(sbatch --parsable prep.sbatch)\n"
      "b=$(sbatch --parsable --dependency=afterok:$a train.sbatch | cut -d';' -f1)\n"
      "c=\"$b\"\n"
      "sbatch --dependency=afterany:${c%%;*} --nodes=2 -J ev eval.sbatch\n");
  ASSERT_EQ(d.plan.submissions.size(), 3U);
  EXPECT_EQ(d.plan.submissions[0].script, "prep.sbatch");
  EXPECT_TRUE(d.plan.submissions[0].after.empty());
  EXPECT_EQ(d.plan.submissions[1].after, std::vector<size_t>{0});
  EXPECT_EQ(d.plan.submissions[1].run_if, RunIf::all_success);
  EXPECT_EQ(d.plan.submissions[2].after, std::vector<size_t>{1});
  EXPECT_EQ(d.plan.submissions[2].run_if, RunIf::all_done);
  EXPECT_EQ(d.plan.submissions[2].option_lines,
            (std::vector<std::string>{"--nodes=2", "--job-name=ev"}));
  EXPECT_TRUE(d.diagnostics.empty());
}

TEST(DriverWalker, UnrollsLoopsOverLiteralWords) {
  const Driver d = analyze(
      "#!/bin/bash\n"
      "jid=\n"
      "for lr in 0.1 0.01; do\n"
      "  jid=$(sbatch --parsable ${jid:+--dependency=afterok:$jid} --job-name=lr-$lr t.sbatch)\n"
      "done\n");
  ASSERT_EQ(d.plan.submissions.size(), 2U);
  EXPECT_EQ(d.plan.submissions[0].option_lines, std::vector<std::string>{"--job-name=lr-0.1"});
  EXPECT_EQ(d.plan.submissions[0].label, "lr=0.1");
  EXPECT_TRUE(d.plan.submissions[0].after.empty());
  EXPECT_EQ(d.plan.submissions[1].option_lines, std::vector<std::string>{"--job-name=lr-0.01"});
  EXPECT_EQ(d.plan.submissions[1].after, std::vector<size_t>{0});
  EXPECT_TRUE(d.diagnostics.empty());
}

TEST(DriverWalker, ReadsHereDocumentsWithLoopValues) {
  const Driver d = analyze(
      "#!/bin/bash\n"
      "for s in 1b 7b; do\n"
      "sbatch <<EOF\n"
      "#!/bin/bash\n"
      "#SBATCH --job-name=ft-$s\n"
      "python ft.py --size ${s} --host \\$(hostname)\n"
      "EOF\n"
      "done\n");
  ASSERT_EQ(d.plan.submissions.size(), 2U);
  EXPECT_EQ(d.plan.submissions[1].inline_script,
            "#!/bin/bash\n#SBATCH --job-name=ft-7b\npython ft.py --size 7b --host $(hostname)\n");
  EXPECT_TRUE(d.diagnostics.empty());
}

TEST(DriverWalker, ReportsWhatIsKnownOnlyAtRunTime) {
  const Driver d = analyze(
      "#!/bin/bash\n"
      "while true; do sbatch a.sbatch; done\n"
      "sbatch \"$1\"\n"
      "sbatch b.sbatch --lr 3\n"
      "sbatch --dependency=afterok:4242 c.sbatch\n"
      "sbatch --wrap 'python x.py'\n");
  EXPECT_EQ(codes(d.diagnostics),
            (std::vector<Code>{Code::control_flow_not_static, Code::submission_not_static,
                               Code::submission_arguments, Code::dependency_dropped}));
  ASSERT_EQ(d.plan.submissions.size(), 4U);
  EXPECT_EQ(d.plan.submissions[3].inline_script, "#!/bin/bash\npython x.py\n");
}

TEST(DriverWalker, SingletonWaitsForThePreviousJobOfTheSameName) {
  const Driver d = analyze(
      "#!/bin/bash\n"
      "sbatch -J run1 a.sbatch\n"
      "sbatch -J run2 a.sbatch\n"
      "sbatch -J run1 --dependency=singleton a.sbatch\n");
  ASSERT_EQ(d.plan.submissions.size(), 3U);
  EXPECT_EQ(d.plan.submissions[2].after, std::vector<size_t>{0});
  EXPECT_EQ(d.plan.submissions[2].run_if, RunIf::all_done);
  EXPECT_EQ(codes(d.diagnostics), std::vector<Code>{Code::dependency_singleton});
}

TEST(DriverWalker, StopsAtTheTaskLimit) {
  std::string text = "#!/bin/bash\n";
  for (size_t i = 0; i <= kMaxSubmissions; ++i) text += "sbatch a.sbatch\n";
  const Driver d = analyze(text);
  EXPECT_EQ(d.plan.submissions.size(), kMaxSubmissions);
  EXPECT_EQ(codes(d.diagnostics), std::vector<Code>{Code::submission_not_static});
}

}  // namespace
}  // namespace s2a::bundle

namespace s2a::bundle {
namespace {

TEST(DriverWalker, NestedLoopsStayWithinBudget) {
  std::string words;
  for (int i = 0; i < 100; ++i) words += " w" + std::to_string(i);
  std::string text = "#!/bin/bash\n";
  for (int depth = 0; depth < 6; ++depth)
    text += "for v" + std::to_string(depth) + " in" + words + "; do\n";
  text += "sbatch a.sbatch\n";
  for (int depth = 0; depth < 6; ++depth) text += "done\n";
  const Driver d = analyze(text);
  EXPECT_LE(d.plan.submissions.size(), kMaxSubmissions);
  EXPECT_FALSE(d.diagnostics.empty());
}

}  // namespace
}  // namespace s2a::bundle

namespace s2a {
namespace {

// sbatch ORs every --mail-type into one set (arg_set_mail_type: `|=`); the
// Slurm 22.05 oracle agrees (docs/conformance.md, finding 3).
TEST(MailTypes, RepeatedLinesAddUpAndAreNotOverridden) {
  TranslateOptions options;
  options.target = OutputTarget::bundle;
  const Translation t =
      translate("job.sbatch",
                "#!/bin/bash\n#SBATCH --gres=gpu:h100:1\n#SBATCH --mail-type=END\n"
                "#SBATCH --mail-type=NONE\n#SBATCH --mail-type=BEGIN,FAIL\n"
                "python train.py\n",
                options);
  ASSERT_TRUE(t.job.mail_type);
  EXPECT_EQ(t.job.mail_type->value, (std::vector<std::string>{"END", "BEGIN", "FAIL"}));
  EXPECT_TRUE(std::none_of(t.diagnostics.begin(), t.diagnostics.end(),
                           [](const Diagnostic& d) { return d.code == Code::option_overridden; }));
  EXPECT_FALSE(t.workflow.notifications.on_start.empty());
  EXPECT_FALSE(t.workflow.notifications.on_success.empty());
  EXPECT_FALSE(t.workflow.notifications.on_failure.empty());
}

}  // namespace
}  // namespace s2a
