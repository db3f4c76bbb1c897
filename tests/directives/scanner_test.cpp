// scan_directives(): the line scanner, het components, comment-line
// diagnostics, whole-file checks and the fatal combinations (spec §1, §7).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "directives/directives.hpp"
#include "test_helpers.hpp"

namespace s2a::directives {
namespace {

using testing::code_names;
using testing::count_code;
using testing::final_value;
using testing::find_code;
using testing::script;

ScanResult scan(const std::string& text) { return scan_directives(SourceFile("job.sh", text)); }

// --- what counts as a directive (§1.2) -------------------------------------

struct ValueCase {
  const char* directives;
  const char* option;
  const char* value;
};

class FinalValue : public ::testing::TestWithParam<ValueCase> {};

TEST_P(FinalValue, IsWhatSbatchApplies) {
  const ScanResult result = scan(script(GetParam().directives));
  EXPECT_EQ(final_value(result, GetParam().option), GetParam().value) << GetParam().directives;
}

INSTANTIATE_TEST_SUITE_P(
    Spec, FinalValue,
    ::testing::Values(
        ValueCase{"#SBATCH -N2\n", "nodes", "2"}, ValueCase{"#SBATCH -N 2\n", "nodes", "2"},
        ValueCase{"#SBATCH --nodes 2\n", "nodes", "2"},
        ValueCase{"#SBATCH --nodes=2\n", "nodes", "2"}, ValueCase{"#SBATCH--time=5\n", "time", "5"},
        ValueCase{"#SBATCH --part=gpu\n", "partition", "gpu"},
        ValueCase{"#SBATCH --job=x\n", "job-name", "x"},
        ValueCase{"#SBATCH --time=10 # ten minutes\n", "time", "10"},
        ValueCase{"#SBATCH --comment=foo#bar\n", "comment", "foo"},
        ValueCase{"#SBATCH --job-name=foo\"bar baz\"qux\n", "job-name", "foobar bazqux"},
        ValueCase{"#SBATCH --container-image nvcr.io\\#nvidia/pytorch:24.01-py3\n",
                  "container-image", "nvcr.io#nvidia/pytorch:24.01-py3"},
        ValueCase{"#SBATCH --container-image nvcr.io#nvidia/pytorch:24.01-py3\n", "container-image",
                  "nvcr.io"},
        ValueCase{"#SBATCH --output=$HOME/logs/%j.out\n", "output", "$HOME/logs/%j.out"},
        ValueCase{"#SBATCH # -N 4\n", "nodes", "<unset>"},
        ValueCase{"#SBATCH -N 2\n\n# a comment\n   \n#SBATCH -N 4\n", "nodes", "4"},
        ValueCase{"#SBATCH --gres=gpu:4\n#SBATCH --gres=nvme:1\n", "gres", "nvme:1"},
        ValueCase{"#SBATCH --export=ALL\n#SBATCH --export=NONE\n", "export", "NONE"},
        ValueCase{"#SBATCH --tasks-per-node=4\n#SBATCH --ntasks-per-node=8\n", "ntasks-per-node",
                  "8"},
        ValueCase{"#SBATCH -N 2 -N 3\n", "nodes", "3"}, ValueCase{"#SLURM -N 5\n", "nodes", "5"},
        ValueCase{"  #SBATCH -N 2\n", "nodes", "<unset>"},
        ValueCase{"# SBATCH -N 2\n", "nodes", "<unset>"},
        ValueCase{"##SBATCH -N 2\n", "nodes", "<unset>"},
        ValueCase{"#sbatch -N 2\n", "nodes", "<unset>"},
        ValueCase{"#SBATCH --exclusive\n", "exclusive", "<flag>"},
        ValueCase{"#SBATCH --comment ''\n#SBATCH -N 2\n", "comment", "-N"}));

TEST(Scan, StopsAtTheFirstCommand) {
  const std::string text = script("#SBATCH -N 2\nmodule load cuda\n#SBATCH -N 4\n", "python x\n");
  const ScanResult result = scan(text);
  EXPECT_EQ(final_value(result, "nodes"), "2");
  EXPECT_EQ(result.body_offset, text.find("module"));
  ASSERT_EQ(result.directive_lines.size(), 1u);
  EXPECT_EQ(result.directive_lines[0], (Span{12, 24}));
  ASSERT_EQ(result.ignored_directive_lines.size(), 1u);
  const Diagnostic* d = find_code(result.diagnostics, Code::directive_after_command);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->message,
            "sbatch ignores this `#SBATCH` line: the directive scan stopped at line 3 (`module "
            "load cuda`), the first command");
  EXPECT_EQ(d->hint, "move it above line 3, before the first command");
  EXPECT_EQ(d->span, (Span{static_cast<uint32_t>(text.find("#SBATCH -N 4")),
                           static_cast<uint32_t>(text.find("#SBATCH -N 4") + 12)}));
  EXPECT_FALSE(result.fatal);
}

TEST(Scan, EveryKindOfCommandEndsTheHeader) {
  for (const char* command : {"set -e", "export X=1", "source env.sh", "X=1", "f() { :; }",
                              "  echo indented", "if true; then"}) {
    const ScanResult result = scan(script(std::string(command) + "\n#SBATCH -N 4\n", ""));
    EXPECT_EQ(final_value(result, "nodes"), "<unset>") << command;
    EXPECT_EQ(count_code(result.diagnostics, Code::directive_after_command), 1u) << command;
  }
}

TEST(Scan, IndentedDirectiveAfterCommandIsReportedOnce) {
  const ScanResult result = scan(script("set -e\nif true; then\n  #SBATCH -N 4\nfi\n", ""));
  EXPECT_EQ(count_code(result.diagnostics, Code::directive_after_command), 1u);
  EXPECT_EQ(count_code(result.diagnostics, Code::directive_indented), 0u);
}

TEST(Scan, DirectivesInsideAHeredocAreNotReported) {
  const ScanResult result = scan(script(
      "#SBATCH -N 1\n",
      "cat > next.sh <<'EOF'\n#!/bin/bash\n#SBATCH -N 8\nEOF\nsbatch next.sh\n#SBATCH -N 2\n"));
  EXPECT_EQ(count_code(result.diagnostics, Code::directive_after_command), 1u);
  EXPECT_EQ(final_value(result, "nodes"), "1");
}

TEST(Scan, TabStrippedHeredoc) {
  const ScanResult result = scan(script("", "cat <<-END\n\t#SBATCH -N 8\n\tEND\n#SBATCH -N 2\n"));
  EXPECT_EQ(count_code(result.diagnostics, Code::directive_after_command), 1u);
}

TEST(Scan, HereStringIsNotAHeredoc) {
  const ScanResult result = scan(script("", "grep x <<< \"$y\"\n#SBATCH -N 2\n"));
  EXPECT_EQ(count_code(result.diagnostics, Code::directive_after_command), 1u);
}

// --- comment lines that were meant as directives ---------------------------

struct CommentCase {
  const char* line;
  Code code;
  const char* message;
};

class MeantAsDirective : public ::testing::TestWithParam<CommentCase> {};

TEST_P(MeantAsDirective, GetsOneWarning) {
  const std::string line = GetParam().line;
  const ScanResult result = scan(script(line + "\n"));
  ASSERT_EQ(result.diagnostics.size(), 1u)
      << line << ": " << ::testing::PrintToString(code_names(result.diagnostics));
  const Diagnostic& d = result.diagnostics[0];
  EXPECT_EQ(d.code, GetParam().code) << line;
  EXPECT_EQ(d.message, GetParam().message);
  EXPECT_EQ(d.span, (Span{12, static_cast<uint32_t>(12 + line.size())}));
  EXPECT_EQ(d.severity(), Severity::warning);
  EXPECT_TRUE(result.options.empty());
  EXPECT_FALSE(result.fatal);
}

INSTANTIATE_TEST_SUITE_P(
    Checklist2, MeantAsDirective,
    ::testing::Values(
        CommentCase{"  #SBATCH -N 2", Code::directive_indented,
                    "sbatch reads `#SBATCH` only at the start of a line; this indented one is a "
                    "comment and its options are not applied"},
        CommentCase{"\t#SBATCH --time=5", Code::directive_indented,
                    "sbatch reads `#SBATCH` only at the start of a line; this indented one is a "
                    "comment and its options are not applied"},
        CommentCase{"# SBATCH -N 2", Code::directive_commented_out,
                    "`# SBATCH` is a comment to sbatch, so the options on this line are not "
                    "applied"},
        CommentCase{"##SBATCH --gres=gpu:4", Code::directive_commented_out,
                    "`##SBATCH` is a comment to sbatch, so the options on this line are not "
                    "applied"},
        CommentCase{"#sbatch -N 2", Code::directive_wrong_case,
                    "`#sbatch` is not `#SBATCH` (the prefix is case-sensitive), so sbatch reads "
                    "this line as a comment"},
        CommentCase{"#Sbatch --time=5", Code::directive_wrong_case,
                    "`#Sbatch` is not `#SBATCH` (the prefix is case-sensitive), so sbatch reads "
                    "this line as a comment"},
        CommentCase{"#SBTACH -N 2", Code::directive_misspelled,
                    "`#SBTACH` looks like a misspelled `#SBATCH`; sbatch reads this line as a "
                    "comment"},
        CommentCase{"#SBACTH -N 2", Code::directive_misspelled,
                    "`#SBACTH` looks like a misspelled `#SBATCH`; sbatch reads this line as a "
                    "comment"},
        CommentCase{"#SABTCH -N 2", Code::directive_misspelled,
                    "`#SABTCH` looks like a misspelled `#SBATCH`; sbatch reads this line as a "
                    "comment"},
        CommentCase{"#SBACH --mem=4G", Code::directive_misspelled,
                    "`#SBACH` looks like a misspelled `#SBATCH`; sbatch reads this line as a "
                    "comment"}));

TEST(Scan, OrdinaryCommentsAreQuiet) {
  for (const char* line : {"# Batch settings", "# SBATCH options below", "#BATCH of jobs",
                           "## run on 2 nodes", "#--------", "#!/not/a/shebang", "#", "# SBATCH",
                           "#SPATCH is a word", "#sbatch job.sh", "#Sbatch"}) {
    const ScanResult result = scan(script(std::string(line) + "\n"));
    EXPECT_TRUE(result.diagnostics.empty())
        << line << ": " << ::testing::PrintToString(code_names(result.diagnostics));
  }
}

// A real DataWarp header (NERSC's burst-buffer training): allocation, stage
// in, stage out; each is reported, with what it did, until the first command.
TEST(Scan, BurstBufferDirectivesAreReportedInTheHeader) {
  const ScanResult result = scan(
      "#!/bin/bash\n#SBATCH -N 1\n"
      "#DW jobdw capacity=200GB access_mode=striped type=scratch pool=wlm_pool\n"
      "#DW stage_in source=/global/cscratch1/in destination=$DW_JOB_STRIPED/in type=directory\n"
      "#BB stage_out source=$DW_JOB_STRIPED/out destination=/global/cscratch1/out type=file\n"
      "#BB_LUA pool=nvme capacity=1G\n"
      "#DWARF is a word\n"
      "srun ./ior -o $DW_JOB_STRIPED/f\n"
      "#DW stage_out source=x destination=y type=file\n");
  ASSERT_EQ(count_code(result.diagnostics, Code::burst_buffer_directive), 4u)
      << ::testing::PrintToString(code_names(result.diagnostics));
  const auto& d = result.diagnostics;
  EXPECT_THAT(d[0].message, ::testing::HasSubstr("asked Slurm's burst-buffer plugin for storage"));
  EXPECT_EQ(d[0].span.begin, 25u);
  EXPECT_THAT(d[1].message, ::testing::HasSubstr("copy files in before the job started"));
  EXPECT_THAT(d[2].message,
              ::testing::HasSubstr("`#BB` line had Slurm's burst-buffer plugin copy results out"));
  EXPECT_THAT(d[3].message, ::testing::HasSubstr("`#BB_LUA` line asked"));
  EXPECT_EQ(d[3].severity(), Severity::warning);
}

TEST(Scan, DeprecatedSlurmPrefixIsANote) {
  const ScanResult result = scan(script("#SLURM -N 2\n"));
  ASSERT_EQ(result.diagnostics.size(), 1u);
  EXPECT_EQ(result.diagnostics[0].code, Code::directive_deprecated_prefix);
  EXPECT_EQ(result.diagnostics[0].span, (Span{12, 18}));
  EXPECT_EQ(result.diagnostics[0].severity(), Severity::note);
}

// --- invalid directives (§1.2, §1.4, checklist 3) ----------------------------

struct InvalidCase {
  const char* directives;
  const char* message;
  const char* hint;
};

class InvalidDirective : public ::testing::TestWithParam<InvalidCase> {};

TEST_P(InvalidDirective, IsFatal) {
  const ScanResult result = scan(script(GetParam().directives));
  ASSERT_EQ(count_code(result.diagnostics, Code::invalid_directive), 1u)
      << ::testing::PrintToString(code_names(result.diagnostics));
  const Diagnostic* d = find_code(result.diagnostics, Code::invalid_directive);
  EXPECT_EQ(d->message, GetParam().message);
  EXPECT_EQ(d->hint, GetParam().hint);
  EXPECT_TRUE(result.fatal);
}

INSTANTIATE_TEST_SUITE_P(
    Checklist3, InvalidDirective,
    ::testing::Values(
        InvalidCase{"#SBATCH --exclusive user\n",
                    "sbatch refuses the script: `user` is not an option (\"Invalid directive "
                    "found in batch script\")",
                    "`--exclusive` takes its argument only when attached: write "
                    "`--exclusive=user`"},
        InvalidCase{"#SBATCHX\n",
                    "sbatch refuses the script: `X` is not an option (\"Invalid directive found "
                    "in batch script\")",
                    "sbatch reads every line that starts with `#SBATCH` or `#SLURM` as a "
                    "directive; reword this comment (e.g. `# SBATCH...`) or put a blank after "
                    "`#SBATCH`"},
        InvalidCase{"#SBATCH_FOO=1\n",
                    "sbatch refuses the script: `_FOO=1` is not an option (\"Invalid directive "
                    "found in batch script\")",
                    "sbatch reads every line that starts with `#SBATCH` or `#SLURM` as a "
                    "directive; reword this comment (e.g. `# SBATCH...`) or put a blank after "
                    "`#SBATCH`"},
        InvalidCase{"#SLURM_JOB_ID is set by Slurm\n",
                    "sbatch refuses the script: `_JOB_ID` is not an option (\"Invalid directive "
                    "found in batch script\")",
                    "sbatch reads every line that starts with `#SBATCH` or `#SLURM` as a "
                    "directive; reword this comment (e.g. `# SBATCH...`) or put a blank after "
                    "`#SBATCH`"},
        InvalidCase{"#SBATCH --hold yes\n",
                    "sbatch refuses the script: `yes` is not an option (\"Invalid directive "
                    "found in batch script\")",
                    "`--hold` takes no argument; remove `yes`"},
        InvalidCase{"#SBATCH -N 2 4\n",
                    "sbatch refuses the script: `4` is not an option (\"Invalid directive found "
                    "in batch script\")",
                    "remove it, or quote it together with the value it belongs to"},
        InvalidCase{"#SBATCH -- -N 2\n",
                    "sbatch refuses the script: `-N` is not an option (\"Invalid directive "
                    "found in batch script\")",
                    "`--` ends option parsing, so every word after it is rejected; remove the "
                    "`--`"}));

TEST(Scan, ParsingResumesAfterAStrayWord) {
  const ScanResult result = scan(script("#SBATCH --exclusive user\n#SBATCH -N 4 --time=10\n"));
  EXPECT_EQ(final_value(result, "nodes"), "4");
  EXPECT_EQ(final_value(result, "time"), "10");
  EXPECT_EQ(count_code(result.diagnostics, Code::invalid_directive), 1u);
}

TEST(Scan, OneInvalidDirectivePerLine) {
  const ScanResult result = scan(script("#SBATCH a b c\n#SBATCH d e\n"));
  ASSERT_EQ(count_code(result.diagnostics, Code::invalid_directive), 2u);
  EXPECT_EQ(result.diagnostics[0].span, (Span{20, 25}));
}

TEST(Scan, NoCascadeAfterUnknownOption) {
  const ScanResult result = scan(script("#SBATCH --gpu-per-node 8\n"));
  EXPECT_EQ(code_names(result.diagnostics), (std::vector<std::string>{"unknown_option"}));
  EXPECT_TRUE(result.fatal);
}

TEST(Scan, WordsOfAllLinesFormOneArgv) {
  // A required argument may come from the next directive line, as in sbatch.
  const ScanResult result = scan(script("#SBATCH --job-name\n#SBATCH train\n"));
  EXPECT_EQ(final_value(result, "job-name"), "train");
  EXPECT_TRUE(result.diagnostics.empty());
}

TEST(Scan, MissingArgumentAtTheEnd) {
  const ScanResult result = scan(script("#SBATCH -N 2\n#SBATCH --time\n"));
  EXPECT_EQ(code_names(result.diagnostics), (std::vector<std::string>{"missing_argument"}));
  EXPECT_TRUE(result.fatal);
}

TEST(Scan, AmbiguousNodePrefix) {
  const ScanResult result = scan(script("#SBATCH --node=2\n"));
  ASSERT_EQ(code_names(result.diagnostics), (std::vector<std::string>{"ambiguous_option"}));
  EXPECT_EQ(result.diagnostics[0].span, (Span{20, 26}));
  EXPECT_TRUE(result.fatal);
}

// --- spans ----------------------------------------------------------------------

TEST(Scan, OptionAndValueSpansPointIntoTheFile) {
  const std::string text = script("#SBATCH --job-name=\"my run\" -N 2\n");
  const SourceFile file("job.sh", text);
  const ScanResult result = scan_directives(file);
  ASSERT_EQ(result.options.size(), 2u);
  EXPECT_EQ(file.slice(result.options[0].span), "--job-name=\"my run\"");
  EXPECT_EQ(file.slice(result.options[0].value_span), "\"my run\"");
  EXPECT_EQ(file.slice(result.options[1].span), "-N 2");
  EXPECT_EQ(file.slice(result.options[1].value_span), "2");
  const LineCol value = file.line_col(result.options[1].value_span.begin);
  EXPECT_EQ(value.line, 2u);
  EXPECT_EQ(value.col, 32u);
  EXPECT_EQ(result.options[0].spelling, "--job-name");
}

TEST(Scan, EscapedValueSpan) {
  const std::string text = script("#SBATCH --container-image=nvcr.io\\#nvidia/pytorch:24.01-py3\n");
  const SourceFile file("job.sh", text);
  const ScanResult result = scan_directives(file);
  ASSERT_EQ(result.options.size(), 1u);
  EXPECT_EQ(file.slice(result.options[0].value_span), "nvcr.io\\#nvidia/pytorch:24.01-py3");
}

// --- last one wins (§1.4, checklist 5) -----------------------------------------

TEST(Scan, OverriddenMarksAllButTheLast) {
  const ScanResult result =
      scan(script("#SBATCH --gres=gpu:8\n#SBATCH -N 1\n#SBATCH --gres=gpu:4 -N2\n"));
  ASSERT_EQ(result.options.size(), 4u);
  EXPECT_TRUE(result.options[0].overridden);
  EXPECT_TRUE(result.options[1].overridden);
  EXPECT_FALSE(result.options[2].overridden);
  EXPECT_FALSE(result.options[3].overridden);
}

TEST(Scan, OverriddenAcrossAStrayWord) {
  const ScanResult result = scan(script("#SBATCH -N 1 stray\n#SBATCH -N 2\n"));
  ASSERT_EQ(result.options.size(), 2u);
  EXPECT_TRUE(result.options[0].overridden);
  EXPECT_FALSE(result.options[1].overridden);
}

// --- het jobs (§1.5, checklist 20) ------------------------------------------------

TEST(Scan, HetjobSeparatesComponents) {
  const ScanResult result =
      scan(script("#SBATCH -N 1 -J a\n#SBATCH hetjob\n#SBATCH -N 4\n#SBATCH HETJOB\n#SBATCH "
                  "-N 8\n"));
  EXPECT_EQ(result.components, 3);
  EXPECT_EQ(final_value(result, "nodes", 0), "1");
  EXPECT_EQ(final_value(result, "nodes", 1), "4");
  EXPECT_EQ(final_value(result, "nodes", 2), "8");
  EXPECT_EQ(final_value(result, "job-name", 1), "<unset>");
  EXPECT_FALSE(result.options[0].overridden);  // -N 1 only in component 0
  EXPECT_TRUE(result.diagnostics.empty());
}

TEST(Scan, WordsAfterHetjobAreDropped) {
  const std::string text = script("#SBATCH -N 1\n#SBATCH hetjob -N 2 # gpu part\n");
  const ScanResult result = scan(text);
  EXPECT_EQ(result.components, 2);
  EXPECT_EQ(final_value(result, "nodes", 1), "<unset>");
  const Diagnostic* d = find_code(result.diagnostics, Code::hetjob_trailing_words);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->message,
            "sbatch ignores everything after `hetjob` on the same line, so these options apply "
            "to no component");
  EXPECT_EQ(SourceFile("x", text).slice(d->span), "-N 2 # gpu part");
}

TEST(Scan, PackjobIsADeprecatedSeparator) {
  const ScanResult result = scan(script("#SBATCH -N 1\n#SBATCH packjob\n#SBATCH -N 2\n"));
  EXPECT_EQ(result.components, 2);
  EXPECT_EQ(code_names(result.diagnostics), (std::vector<std::string>{"packjob_separator"}));
}

TEST(Scan, HetjobMustBeAWholeWord) {
  const ScanResult result = scan(script("#SBATCH hetjobX\n"));
  EXPECT_EQ(result.components, 1);
  EXPECT_EQ(count_code(result.diagnostics, Code::invalid_directive), 1u);
}

// --- early pass, plugins, removed options ------------------------------------------

TEST(Scan, EarlyPassOptionsHaveNoEffect) {
  const ScanResult result =
      scan(script("#SBATCH --verbose -Q\n#SBATCH --wrap=\"echo hi\" --usage -V -h\n"));
  EXPECT_EQ(count_code(result.diagnostics, Code::option_ignored_in_script), 6u);
  EXPECT_EQ(result.diagnostics[0].message,
            "sbatch ignores `--verbose` in #SBATCH lines: it only works on the sbatch command "
            "line");
  EXPECT_FALSE(result.fatal);
}

TEST(Scan, PyxisOptionsWarn) {
  const ScanResult result =
      scan(script("#SBATCH --container-image=nvcr.io\\#nvidia/pytorch:24.01-py3\n#SBATCH "
                  "--container-mounts=/data:/data --no-container-mount-home\n"));
  EXPECT_EQ(count_code(result.diagnostics, Code::plugin_option), 3u);
  EXPECT_EQ(result.diagnostics[0].message,
            "`--container-image` comes from the pyxis SPANK plugin; Slurm without that plugin "
            "rejects it as an unknown option");
  EXPECT_EQ(final_value(result, "container-image"), "nvcr.io#nvidia/pytorch:24.01-py3");
  EXPECT_FALSE(result.fatal);
}

TEST(Scan, ShifterAndCscsOptions) {
  const ScanResult result =
      scan(script("#SBATCH --image=docker:nersc/pytorch:24\n#SBATCH --module=gpu\n#SBATCH "
                  "--environment=pytorch\n"));
  EXPECT_EQ(count_code(result.diagnostics, Code::plugin_option), 3u);
  EXPECT_EQ(final_value(result, "image"), "docker:nersc/pytorch:24");
  EXPECT_EQ(final_value(result, "environment"), "pytorch");
}

// BSC's EAR plugin (MareNostrum): `--ear=off` is common in its users' scripts.
TEST(Scan, EarOptionsAreAPluginsOptions) {
  const ScanResult result =
      scan(script("#SBATCH --ear=off\n#SBATCH --ear-policy=min_time --ear-verbose=1\n"));
  EXPECT_EQ(count_code(result.diagnostics, Code::plugin_option), 3u);
  EXPECT_EQ(count_code(result.diagnostics, Code::unknown_option), 0u);
  EXPECT_EQ(final_value(result, "ear-policy"), "min_time");
  EXPECT_FALSE(result.fatal);
}

TEST(Scan, RemovedOptionsAreErrorsWithTheReplacement) {
  const ScanResult result = scan(script("#SBATCH --workdir=/scratch\n#SBATCH --share\n"));
  ASSERT_EQ(count_code(result.diagnostics, Code::removed_option), 2u);
  EXPECT_EQ(result.diagnostics[0].message,
            "`--workdir` was removed in Slurm 19.05; current Slurm rejects it as an unknown "
            "option");
  EXPECT_EQ(result.diagnostics[0].hint, "use `--chdir` instead");
  EXPECT_EQ(result.diagnostics[1].hint, "use `--oversubscribe` instead");
  EXPECT_EQ(final_value(result, "workdir"), "/scratch");
  EXPECT_TRUE(result.fatal);
}

// --- fatal combinations (§1.7, checklist 6) -----------------------------------------

struct ExclusiveCase {
  const char* directives;
  size_t count;
  const char* message;  // of the first conflict, or "" when count == 0
};

class Exclusive : public ::testing::TestWithParam<ExclusiveCase> {};

TEST_P(Exclusive, IsReported) {
  const ScanResult result = scan(script(GetParam().directives));
  EXPECT_EQ(count_code(result.diagnostics, Code::exclusive_options), GetParam().count)
      << GetParam().directives;
  if (GetParam().count > 0) {
    EXPECT_EQ(find_code(result.diagnostics, Code::exclusive_options)->message, GetParam().message);
    EXPECT_TRUE(result.fatal);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Checklist6, Exclusive,
    ::testing::Values(
        ExclusiveCase{"#SBATCH --mem=64G\n#SBATCH --mem-per-cpu=4G\n", 1,
                      "`--mem-per-cpu=4G` conflicts with `--mem=64G`: sbatch and srun refuse "
                      "them together (\"--mem, --mem-per-cpu, and --mem-per-gpu are mutually "
                      "exclusive.\")"},
        ExclusiveCase{"#SBATCH --mem=64G --mem-per-cpu=4G --mem-per-gpu=8G\n", 2,
                      "`--mem-per-cpu=4G` conflicts with `--mem=64G`: sbatch and srun refuse "
                      "them together (\"--mem, --mem-per-cpu, and --mem-per-gpu are mutually "
                      "exclusive.\")"},
        ExclusiveCase{"#SBATCH --gpus-per-node=8\n#SBATCH --gres=gpu:a100:8\n", 1,
                      "`--gres=gpu:a100:8` conflicts with `--gpus-per-node=8`: sbatch and srun "
                      "refuse them together (\"--gpus-per-node and --gres=gpu are mutually "
                      "exclusive.\")"},
        ExclusiveCase{"#SBATCH --gres=nvme:1 --gpus-per-node=8\n", 0, ""},
        ExclusiveCase{"#SBATCH --gres=none --gpus-per-node=8\n", 0, ""},
        ExclusiveCase{"#SBATCH --gres=gres/gpu:2 --gpus-per-node=8\n", 1,
                      "`--gpus-per-node=8` conflicts with `--gres=gres/gpu:2`: sbatch and srun "
                      "refuse them together (\"--gpus-per-node and --gres=gpu are mutually "
                      "exclusive.\")"},
        ExclusiveCase{"#SBATCH --gres=gpu:2\n#SBATCH --gres=nvme:1\n#SBATCH --gpus-per-node=8\n", 0,
                      ""},
        ExclusiveCase{"#SBATCH --exclusive -s\n", 1,
                      "`-s` conflicts with `--exclusive`: sbatch and srun refuse them together "
                      "(\"--exclusive and --oversubscribe options are mutually exclusive\")"},
        ExclusiveCase{"#SBATCH -c 8 --cpus-per-gpu=4\n", 1,
                      "`--cpus-per-gpu=4` conflicts with `-c 8`: sbatch and srun refuse them "
                      "together (\"--cpus-per-task, --tres-per-task=cpu:#, and --cpus-per-gpu "
                      "are mutually exclusive\")"},
        ExclusiveCase{"#SBATCH --tres-per-task=cpu=4 --cpus-per-gpu=4\n", 1,
                      "`--cpus-per-gpu=4` conflicts with `--tres-per-task=cpu=4`: sbatch and "
                      "srun refuse them together (\"--cpus-per-task, --tres-per-task=cpu:#, and "
                      "--cpus-per-gpu are mutually exclusive\")"},
        ExclusiveCase{"#SBATCH --ntasks-per-gpu=1 --gpus-per-task=1\n", 1,
                      "`--gpus-per-task=1` conflicts with `--ntasks-per-gpu=1`: sbatch and srun "
                      "refuse them together (\"--gpus-per-task is mutually exclusive with "
                      "--ntasks-per-gpu\")"},
        ExclusiveCase{"#SBATCH --ntasks-per-gpu=1 --tasks-per-node=4 --gpus-per-socket=2\n", 2,
                      "`--gpus-per-socket=2` conflicts with `--ntasks-per-gpu=1`: sbatch and "
                      "srun refuse them together (\"--gpus-per-socket is mutually exclusive with "
                      "--ntasks-per-gpu\")"},
        ExclusiveCase{"#SBATCH --core-spec=2 --thread-spec=2\n", 1,
                      "`--thread-spec=2` conflicts with `--core-spec=2`: sbatch and srun refuse "
                      "them together (\"-S/--core-spec and --thread-spec options are mutually "
                      "exclusive\")"},
        ExclusiveCase{"#SBATCH --mem=8G\n#SBATCH hetjob\n#SBATCH --mem-per-cpu=1G\n", 0, ""},
        // A long value is quoted by its first 40 characters.
        ExclusiveCase{"#SBATCH --gres=gpu:a100:8,nvme:1,license_server_pool_with_long_name:1\n"
                      "#SBATCH --gpus-per-node=8\n",
                      1,
                      "`--gpus-per-node=8` conflicts with "
                      "`--gres=gpu:a100:8,nvme:1,license_server_pool_wi...`: sbatch and srun "
                      "refuse them together (\"--gpus-per-node and --gres=gpu are mutually "
                      "exclusive.\")"}));

// --- whole-file checks (§1.1, checklist 4) -------------------------------------------

TEST(FileChecks, EmptyAndWhitespaceOnly) {
  for (const char* text : {"", "  \n\t\n"}) {
    const ScanResult result = scan(text);
    EXPECT_EQ(code_names(result.diagnostics), (std::vector<std::string>{"empty_script"}));
    EXPECT_TRUE(result.fatal);
  }
}

TEST(FileChecks, MissingShebang) {
  const ScanResult result = scan("#SBATCH -N 2\npython train.py\n");
  ASSERT_EQ(code_names(result.diagnostics), (std::vector<std::string>{"missing_shebang"}));
  EXPECT_EQ(result.diagnostics[0].hint,
            "add an interpreter line such as `#!/bin/bash` as the very first line");
  EXPECT_EQ(final_value(result, "nodes"), "2");  // still scanned
  EXPECT_TRUE(result.fatal);
}

TEST(FileChecks, LeadingBlankLineBeforeShebang) {
  const ScanResult result = scan("\n#!/bin/bash\n#SBATCH -N 2\npython train.py\n");
  ASSERT_EQ(code_names(result.diagnostics), (std::vector<std::string>{"missing_shebang"}));
  EXPECT_EQ(result.diagnostics[0].message,
            "the `#!` line must be the first line, but the script starts with a blank line, so "
            "sbatch refuses it");
  EXPECT_EQ(final_value(result, "nodes"), "2");
}

TEST(FileChecks, LeadingSpaceBeforeShebang) {
  const ScanResult result = scan(" #!/bin/bash\npython train.py\n");
  ASSERT_EQ(code_names(result.diagnostics), (std::vector<std::string>{"missing_shebang"}));
  EXPECT_EQ(result.diagnostics[0].message,
            "the `#!` must be the first two bytes, but the script starts with whitespace, so "
            "sbatch refuses it");
}

TEST(FileChecks, ByteOrderMark) {
  const ScanResult result = scan("\xEF\xBB\xBF#!/bin/bash\n#SBATCH -N 2\npython train.py\n");
  ASSERT_EQ(code_names(result.diagnostics), (std::vector<std::string>{"byte_order_mark"}));
  EXPECT_EQ(result.diagnostics[0].span, (Span{0, 3}));
  EXPECT_EQ(final_value(result, "nodes"), "2");  // the scan reads past the BOM
  EXPECT_TRUE(result.fatal);
}

TEST(FileChecks, NulByte) {
  const std::string text = std::string("#!/bin/bash\necho a") + '\0' + "b\n";
  const ScanResult result = scan(text);
  ASSERT_EQ(code_names(result.diagnostics), (std::vector<std::string>{"nul_byte"}));
  EXPECT_EQ(result.diagnostics[0].span, (Span{18, 19}));
  EXPECT_TRUE(result.fatal);
}

TEST(FileChecks, CrlfIsFatalButScanningGoesOn) {
  const std::string text = "#!/bin/bash\r\n#SBATCH -N 2\r\n#SBATCH -J \"a b\"\r\npython x\r\n";
  const ScanResult result = scan(text);
  ASSERT_EQ(code_names(result.diagnostics), (std::vector<std::string>{"crlf_line_endings"}));
  EXPECT_EQ(result.diagnostics[0].message,
            "4 lines end with CRLF (DOS line breaks), which sbatch refuses");
  EXPECT_EQ(result.diagnostics[0].span, (Span{0, 11}));  // the line without its CR
  EXPECT_EQ(final_value(result, "nodes"), "2");
  EXPECT_EQ(final_value(result, "job-name"), "a b");
  EXPECT_EQ(result.directive_lines[0], (Span{13, 25}));
  EXPECT_TRUE(result.fatal);
}

TEST(FileChecks, CrlfReportsTheFirstCrlfLine) {
  const ScanResult result = scan("#!/bin/bash\n#SBATCH -N 2\r\npython x\n");
  ASSERT_EQ(count_code(result.diagnostics, Code::crlf_line_endings), 1u);
  EXPECT_EQ(result.diagnostics[0].span, (Span{12, 24}));
}

TEST(FileChecks, InvalidUtf8IsAWarning) {
  const ScanResult result = scan("#!/bin/bash\n# caf\xE9\npython x\n");
  ASSERT_EQ(code_names(result.diagnostics), (std::vector<std::string>{"invalid_utf8"}));
  EXPECT_EQ(result.diagnostics[0].span, (Span{17, 18}));
  EXPECT_FALSE(result.fatal);
  for (const char* ok :
       {"#!/bin/bash\n# caf\xC3\xA9 \xE2\x9C\x93 \xF0\x9F\x9A\x80\n", "#!/bin/bash\n"}) {
    EXPECT_TRUE(scan(ok).diagnostics.empty());
  }
  for (const char* bad : {"#!/bin/bash\n\xC0\xAF\n", "#!/bin/bash\n\xED\xA0\x80\n",
                          "#!/bin/bash\n\xF4\x90\x80\x80\n", "#!/bin/bash\n\xE2\x9C"}) {
    EXPECT_EQ(count_code(scan(bad).diagnostics, Code::invalid_utf8), 1u);
  }
}

// --- #PBS / #BSUB ----------------------------------------------------------------------

TEST(Pbs, EachLineIsNoted) {
  const ScanResult result = scan(script("#PBS -l nodes=2\n#PBS -N x\n", "python x\n#PBS -q gpu\n"));
  EXPECT_EQ(count_code(result.diagnostics, Code::pbs_directive), 3u);
  EXPECT_FALSE(result.fatal);
}

TEST(Pbs, BsubWinsOverPbs) {
  const ScanResult result = scan(script("#PBS -N x\n#BSUB -J y\n"));
  ASSERT_EQ(count_code(result.diagnostics, Code::pbs_directive), 1u);
  EXPECT_NE(result.diagnostics[0].message.find("#BSUB"), std::string::npos);
}

// LSF's `-W H:M` is hours:minutes; sbatch passes it on as --time, which
// Slurm reads as minutes:seconds (the live oracle's bsub-BSUB_W_1_30 case:
// TimeLimit 00:02:00). The value stays Slurm's; both readings are said.
TEST(Pbs, BsubWallTimeInHoursIsReported) {
  const ScanResult result = scan(script("#BSUB -W 1:30\n"));
  ASSERT_EQ(count_code(result.diagnostics, Code::lsf_wall_time_in_hours), 1u);
  EXPECT_EQ(final_value(result, "time"), "1:30");
  for (const Diagnostic& d : result.diagnostics) {
    if (d.code != Code::lsf_wall_time_in_hours) continue;
    EXPECT_NE(d.message.find("(90 minutes)"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("timeout_minutes, is 2 minute(s)"), std::string::npos) << d.message;
    EXPECT_NE(d.hint.find("--time=1:30:00"), std::string::npos) << d.hint;
  }
  for (const char* same : {"#BSUB -W 90\n", "#BSUB -W $T\n", "#BSUB -W 1:\n"}) {
    EXPECT_EQ(count_code(scan(script(same)).diagnostics, Code::lsf_wall_time_in_hours), 0u) << same;
  }
}

TEST(Pbs, IgnorePbsSilencesThem) {
  const ScanResult result = scan(script("#SBATCH --ignore-pbs\n#PBS -N x\n"));
  EXPECT_EQ(count_code(result.diagnostics, Code::pbs_directive), 0u);
}

TEST(Pbs, ScanGivesUpAfter100NonCommentLines) {
  std::string body;
  for (int i = 0; i < 101; ++i) body += "echo " + std::to_string(i) + "\n";
  const ScanResult result = scan(script("", body + "#PBS -N x\n"));
  EXPECT_EQ(count_code(result.diagnostics, Code::pbs_directive), 0u);
}

// --- scale -----------------------------------------------------------------------------

TEST(Scan, LargeFileIsScannedCompletely) {
  std::string text = "#!/bin/bash\n";
  for (int i = 0; i < 20000; ++i) text += "#SBATCH --comment=c" + std::to_string(i) + " -N 1\n";
  for (int i = 0; i < 20000; ++i) text += "echo " + std::to_string(i) + "\n";
  const ScanResult result = scan(text);
  EXPECT_EQ(result.options.size(), 40000u);
  EXPECT_EQ(final_value(result, "comment"), "c19999");
  EXPECT_TRUE(result.diagnostics.empty());
}

}  // namespace
}  // namespace s2a::directives

namespace s2a::directives {
namespace {

TEST(Scan, DoubleDashThenOptionsStillReadForRecovery) {
  const ScanResult result =
      scan_directives(SourceFile("job.sh", testing::script("#SBATCH -- -N 2\n")));
  EXPECT_EQ(testing::final_value(result, "nodes"), "2");
  EXPECT_TRUE(result.fatal);
}

}  // namespace
}  // namespace s2a::directives

namespace s2a::directives {
namespace {

// Found by the conformance variants: `--` followed by a word looped forever.
TEST(Scan, WordAfterDoubleDashIsRejectedOnceAndScanningEnds) {
  const ScanResult result =
      scan_directives(SourceFile("job.sh", "#!/bin/bash\n#SBATCH -N 2 -- foo bar\nsrun hostname\n"));
  EXPECT_EQ(testing::count_code(result.diagnostics, Code::invalid_directive), 1u);
  EXPECT_TRUE(result.fatal);
  ASSERT_EQ(result.options.size(), 1u);
  EXPECT_EQ(result.options[0].value, "2");
}

}  // namespace
}  // namespace s2a::directives
