// The getopt_long engine over sbatch's and srun's tables.
#include <gtest/gtest.h>

#include "directives/directives.hpp"
#include "test_helpers.hpp"

namespace s2a::directives {
namespace {

using testing::count_code;
using testing::words_of;

struct Parsed {
  std::string name;
  std::string value;
};

std::vector<Parsed> parsed(const OptionParse& parse) {
  std::vector<Parsed> out;
  for (const Option& option : parse.options) {
    out.push_back({std::string(option.name()), option.value.value_or("<none>")});
  }
  return out;
}

bool operator==(const Parsed& a, const Parsed& b) { return a.name == b.name && a.value == b.value; }
void PrintTo(const Parsed& p, std::ostream* os) { *os << p.name << "=" << p.value; }

struct SpellingCase {
  std::vector<std::string> words;
  std::string name;
  std::string value;
};

class SbatchSpelling : public ::testing::TestWithParam<SpellingCase> {};

TEST_P(SbatchSpelling, ParsesToOneOption) {
  std::vector<Word> words;
  uint32_t offset = 0;
  for (const std::string& text : GetParam().words) {
    words.push_back({text, {offset, offset + static_cast<uint32_t>(text.size())}});
    offset += static_cast<uint32_t>(text.size()) + 1;
  }
  const OptionParse parse = parse_options(words, sbatch_options());
  EXPECT_FALSE(has_errors(parse.diagnostics)) << GetParam().words[0];
  EXPECT_EQ(parse.first_operand, words.size());
  ASSERT_EQ(parse.options.size(), 1u) << GetParam().words[0];
  EXPECT_EQ(parse.options[0].name(), GetParam().name);
  EXPECT_EQ(parse.options[0].value.value_or("<none>"), GetParam().value);
}

INSTANTIATE_TEST_SUITE_P(
    Checklist7, SbatchSpelling,
    ::testing::Values(
        SpellingCase{{"-N2"}, "nodes", "2"}, SpellingCase{{"-N", "2"}, "nodes", "2"},
        SpellingCase{{"--nodes", "2"}, "nodes", "2"}, SpellingCase{{"--nodes=2"}, "nodes", "2"},
        SpellingCase{{"-N=2"}, "nodes", "=2"}, SpellingCase{{"-N2n16"}, "nodes", "2n16"},
        SpellingCase{{"--part=gpu"}, "partition", "gpu"},
        SpellingCase{{"--job=x"}, "job-name", "x"},
        SpellingCase{{"--ntasks-per-n=8"}, "ntasks-per-node", "8"},
        SpellingCase{{"--tasks-per-node=8"}, "ntasks-per-node", "8"},
        SpellingCase{{"--cluster=a"}, "clusters", "a"},
        SpellingCase{{"--time", "10"}, "time", "10"},
        SpellingCase{{"--time-min=5"}, "time-min", "5"},
        SpellingCase{{"--time-m=5"}, "time-min", "5"},
        SpellingCase{{"--exclusive"}, "exclusive", "<none>"},
        SpellingCase{{"--exclusive=user"}, "exclusive", "user"},
        SpellingCase{{"--requeue=expedite"}, "requeue", "expedite"},
        // An optional argument (sbatch accepts `=L`, `=60S`; checked with sbatch --hold).
        SpellingCase{{"--get-user-env=L"}, "get-user-env", "L"},
        SpellingCase{{"--get-user-env"}, "get-user-env", "<none>"},
        SpellingCase{{"--nice"}, "nice", "<none>"}, SpellingCase{{"-k"}, "no-kill", "<none>"},
        SpellingCase{{"-koff"}, "no-kill", "off"}, SpellingCase{{"--nodes="}, "nodes", ""},
        SpellingCase{{"-N", "-5"}, "nodes", "-5"},
        SpellingCase{{"--comment", "--x"}, "comment", "--x"},
        SpellingCase{{"--wait"}, "wait", "<none>"}, SpellingCase{{"-W"}, "wait", "<none>"},
        SpellingCase{{"--gpus-per-node=a100:8"}, "gpus-per-node", "a100:8"},
        SpellingCase{{"-G", "4"}, "gpus", "4"},
        SpellingCase{{"--container-image=nvcr.io#nvidia/pytorch:24.01-py3"},
                     "container-image",
                     "nvcr.io#nvidia/pytorch:24.01-py3"},
        SpellingCase{{"--container-im", "x"}, "container-image", "x"}));

TEST(ParseOptions, ShortClusters) {
  const auto words = words_of({"-Hv", "-OsN4"});
  const OptionParse parse = parse_options(words, sbatch_options());
  EXPECT_TRUE(parse.diagnostics.empty());
  EXPECT_EQ(parsed(parse), (std::vector<Parsed>{{"hold", "<none>"},
                                                {"verbose", "<none>"},
                                                {"overcommit", "<none>"},
                                                {"oversubscribe", "<none>"},
                                                {"nodes", "4"}}));
}

TEST(ParseOptions, MessagesShowOptionsAsWritten) {
  const auto words = words_of({"-N", "2", "-c32", "--nodes=4", "--exclusive", "--gpus", "8"});
  const OptionParse parse = parse_options(words, sbatch_options());
  ASSERT_EQ(parse.options.size(), 5U);
  EXPECT_EQ(parse.options[0].text(), "-N 2");
  EXPECT_EQ(parse.options[1].text(), "-c 32");
  EXPECT_EQ(parse.options[2].text(), "--nodes=4");
  EXPECT_EQ(parse.options[3].text(), "--exclusive");
  EXPECT_EQ(parse.options[4].text(), "--gpus=8");
}

struct AmbiguousCase {
  std::string word;
  std::string message;
};

class Ambiguous : public ::testing::TestWithParam<AmbiguousCase> {};

TEST_P(Ambiguous, ListsCandidates) {
  const auto words = words_of({GetParam().word});
  const OptionParse parse = parse_options(words, sbatch_options());
  EXPECT_TRUE(parse.options.empty());
  ASSERT_EQ(parse.diagnostics.size(), 1u);
  EXPECT_EQ(parse.diagnostics[0].code, Code::ambiguous_option);
  EXPECT_EQ(parse.diagnostics[0].message, GetParam().message);
  EXPECT_EQ(parse.error_words, std::vector<size_t>{0});
}

INSTANTIATE_TEST_SUITE_P(
    Prefixes, Ambiguous,
    ::testing::Values(
        AmbiguousCase{"--node=2",
                      "`--node` is ambiguous: it abbreviates --nodefile, --nodelist or --nodes"},
        AmbiguousCase{"--nod=2",
                      "`--nod` is ambiguous: it abbreviates --nodefile, --nodelist or --nodes"},
        AmbiguousCase{"--gpu=1",
                      "`--gpu` is ambiguous: it abbreviates --gpu-bind, --gpu-freq, --gpus, "
                      "--gpus-per-node, --gpus-per-socket or --gpus-per-task"},
        AmbiguousCase{"--mem-per=4G",
                      "`--mem-per` is ambiguous: it abbreviates --mem-per-cpu or --mem-per-gpu"},
        AmbiguousCase{"--ti=5", "`--ti` is ambiguous: it abbreviates --time or --time-min"},
        AmbiguousCase{"--clust=a",
                      "`--clust` is ambiguous: it abbreviates --cluster, --cluster-constraint or "
                      "--clusters"},
        AmbiguousCase{"--container-i=x",
                      "`--container-i` is ambiguous: it abbreviates --container-id or "
                      "--container-image"}));

TEST(ParseOptions, RemovedOptionsDoNotMakeLivePrefixesAmbiguous) {
  // `--ch` is --chdir in sbatch; the removed --checkpoint must not compete.
  const auto words = words_of({"--ch=/tmp", "--work=/x"});
  const OptionParse parse = parse_options(words, sbatch_options());
  ASSERT_EQ(parse.options.size(), 2u);
  EXPECT_EQ(parse.options[0].name(), "chdir");
  EXPECT_EQ(parse.options[1].name(), "workdir");
  ASSERT_EQ(parse.diagnostics.size(), 1u);
  EXPECT_EQ(parse.diagnostics[0].code, Code::removed_option);
  EXPECT_EQ(parse.diagnostics[0].message,
            "`--work` was removed in Slurm 19.05; current Slurm rejects it as an unknown option");
  EXPECT_EQ(parse.diagnostics[0].hint, "use `--chdir` instead");
}

TEST(ParseOptions, UnknownLongOptionSuggests) {
  const auto words = words_of({"--gpu-per-node=8"});
  const OptionParse parse = parse_options(words, sbatch_options());
  ASSERT_EQ(parse.diagnostics.size(), 1u);
  EXPECT_EQ(parse.diagnostics[0].code, Code::unknown_option);
  EXPECT_EQ(parse.diagnostics[0].message,
            "unknown option `--gpu-per-node` (\"unrecognized option\")");
  EXPECT_EQ(parse.diagnostics[0].hint, "did you mean `--gpus-per-node`?");
  EXPECT_EQ(parse.diagnostics[0].span, (Span{0, 14}));
  EXPECT_EQ(parse.first_operand, 1u);
}

TEST(ParseOptions, UnknownShortOption) {
  const auto words = words_of({"-Hy"});
  const OptionParse parse = parse_options(words, sbatch_options());
  ASSERT_EQ(parse.options.size(), 1u);  // -H still parsed, as getopt goes on
  ASSERT_EQ(parse.diagnostics.size(), 1u);
  EXPECT_EQ(parse.diagnostics[0].message, "unknown option `-y` (\"invalid option\")");
  EXPECT_EQ(parse.diagnostics[0].span, (Span{2, 3}));
}

TEST(ParseOptions, MissingArgument) {
  for (const char* spelling : {"--time", "-t"}) {
    const auto words = words_of({spelling});
    const OptionParse parse = parse_options(words, sbatch_options());
    ASSERT_EQ(parse.diagnostics.size(), 1u) << spelling;
    EXPECT_EQ(parse.diagnostics[0].code, Code::missing_argument);
    EXPECT_EQ(parse.diagnostics[0].message,
              "`" + std::string(spelling) + "` needs an argument and none follows");
    EXPECT_EQ(parse.diagnostics[0].hint, "write `--time=VALUE`");
  }
}

TEST(ParseOptions, FlagWithValueIsAnError) {
  const auto words = words_of({"--hold=yes"});
  const OptionParse parse = parse_options(words, sbatch_options());
  EXPECT_TRUE(parse.options.empty());
  ASSERT_EQ(parse.diagnostics.size(), 1u);
  EXPECT_EQ(parse.diagnostics[0].code, Code::unexpected_argument);
  EXPECT_EQ(parse.diagnostics[0].message,
            "`--hold` does not take an argument (\"option '--hold' doesn't allow an argument\")");
}

TEST(ParseOptions, OptionalArgumentDoesNotTakeTheNextWord) {
  const auto words = words_of({"--exclusive", "user"});
  const OptionParse parse = parse_options(words, sbatch_options());
  ASSERT_EQ(parse.options.size(), 1u);
  EXPECT_FALSE(parse.options[0].value.has_value());
  EXPECT_EQ(parse.first_operand, 1u);
}

TEST(ParseOptions, StopsAtFirstOperand) {
  const auto words = words_of({"-N", "2", "python", "train.py", "--nodes", "4"});
  const OptionParse parse = parse_options(words, srun_options());
  EXPECT_EQ(parse.first_operand, 2u);
  EXPECT_EQ(parsed(parse), (std::vector<Parsed>{{"nodes", "2"}}));
}

TEST(ParseOptions, DoubleDashEndsOptions) {
  const auto words = words_of({"-l", "--", "-N", "2"});
  const OptionParse parse = parse_options(words, srun_options());
  EXPECT_EQ(parse.first_operand, 2u);
  EXPECT_EQ(parsed(parse), (std::vector<Parsed>{{"label", "<none>"}}));
}

TEST(ParseOptions, LoneDashIsAnOperand) {
  const auto words = words_of({"-", "-N2"});
  EXPECT_EQ(parse_options(words, sbatch_options()).first_operand, 0u);
}

TEST(ParseOptions, LastOneWinsPerCanonicalName) {
  const auto words =
      words_of({"--ntasks-per-node=2", "-N1", "--tasks-per-node=4", "--nodes=3", "-v", "-v"});
  const OptionParse parse = parse_options(words, sbatch_options());
  ASSERT_EQ(parse.options.size(), 6u);
  EXPECT_TRUE(parse.options[0].overridden);
  EXPECT_TRUE(parse.options[1].overridden);
  EXPECT_FALSE(parse.options[2].overridden);
  EXPECT_FALSE(parse.options[3].overridden);
  EXPECT_FALSE(parse.options[4].overridden);  // -v accumulates
  EXPECT_FALSE(parse.options[5].overridden);
}

TEST(ParseOptions, ContainerMountsAccumulate) {
  const auto words = words_of({"--container-mounts=/a:/a", "--container-mounts=/b:/b"});
  const OptionParse parse = parse_options(words, srun_options());
  ASSERT_EQ(parse.options.size(), 2u);
  EXPECT_FALSE(parse.options[0].overridden);
  EXPECT_EQ(count_code(parse.diagnostics, Code::plugin_option), 2u);
}

TEST(ParseOptions, SpansOfOptionAndValue) {
  const auto words = words_of({"--nodes=2", "-t", "10", "-N4", "-Hp", "gpu"});
  const OptionParse parse = parse_options(words, sbatch_options());
  ASSERT_EQ(parse.options.size(), 5u);
  EXPECT_EQ(parse.options[0].span, (Span{0, 9}));
  EXPECT_EQ(parse.options[0].value_span, (Span{8, 9}));
  EXPECT_EQ(parse.options[1].span, (Span{10, 15}));
  EXPECT_EQ(parse.options[1].value_span, (Span{13, 15}));
  EXPECT_EQ(parse.options[2].span, (Span{16, 19}));
  EXPECT_EQ(parse.options[2].value_span, (Span{18, 19}));
  EXPECT_EQ(parse.options[3].span, (Span{20, 22}));  // -H inside -Hp
  EXPECT_EQ(parse.options[4].spelling, "-p");
  EXPECT_EQ(parse.options[4].span, (Span{22, 27}));
  EXPECT_EQ(parse.options[4].value_span, (Span{24, 27}));
}

// --- srun ---------------------------------------------------------------------

TEST(SrunOptions, SrunOnlyOptions) {
  const auto words = words_of({"--exact",
                               "--overlap",
                               "-K1",
                               "-l",
                               "--mpi=pmix",
                               "-r",
                               "1",
                               "-E",
                               "--cpu-bind=cores",
                               "-u",
                               "--het-group=0",
                               "-W",
                               "30",
                               "-X",
                               "--jobid=5",
                               "--multi-prog",
                               "--kill-on-bad-exit=1",
                               "--pty",
                               "-m",
                               "block",
                               "--ntasks-per-node=8",
                               "--export=ALL",
                               "-I5",
                               "python"});
  const OptionParse parse = parse_options(words, srun_options());
  EXPECT_TRUE(parse.diagnostics.empty());
  EXPECT_EQ(parse.first_operand, words.size() - 1);
  EXPECT_EQ(parse.options[2].name(), "kill-on-bad-exit");
  EXPECT_EQ(parse.options[2].value, "1");
  EXPECT_EQ(parse.options[10].name(), "wait");
  EXPECT_EQ(parse.options[10].value, "30");
}

TEST(SrunOptions, WaitTakesAnArgumentOnlyInSrun) {
  const auto words = words_of({"-W", "python"});
  EXPECT_EQ(parse_options(words, sbatch_options()).first_operand, 1u);
  EXPECT_EQ(parse_options(words, srun_options()).first_operand, 2u);
}

TEST(SrunOptions, OptionalArgumentNeedsAttachment) {
  const auto words = words_of({"-K", "1", "python"});
  const OptionParse parse = parse_options(words, srun_options());
  EXPECT_EQ(parse.first_operand, 1u);
  EXPECT_FALSE(parse.options[0].value.has_value());
}

TEST(SrunOptions, SbatchOnlyOptionsAreUnknownToSrun) {
  for (const char* spelling : {"--array=1-3", "--requeue", "--wrap=x", "--ignore-pbs"}) {
    const auto words = words_of({spelling});
    const OptionParse parse = parse_options(words, srun_options());
    EXPECT_EQ(count_code(parse.diagnostics, Code::unknown_option) +
                  count_code(parse.diagnostics, Code::ambiguous_option),
              1u)
        << spelling;
  }
}

TEST(SrunOptions, CpuPrefixIsAmbiguousInSrun) {
  const auto words = words_of({"--cpu=4"});
  const OptionParse parse = parse_options(words, srun_options());
  ASSERT_EQ(parse.diagnostics.size(), 1u);
  EXPECT_EQ(parse.diagnostics[0].message,
            "`--cpu` is ambiguous: it abbreviates --cpu-bind, --cpu-freq, --cpu_bind, "
            "--cpus-per-gpu or --cpus-per-task");
}

TEST(SrunOptions, CpuUnderscoreAliasResolves) {
  const auto words = words_of({"--cpu_b=cores"});
  const OptionParse parse = parse_options(words, srun_options());
  ASSERT_EQ(parse.options.size(), 1u);
  EXPECT_EQ(parse.options[0].name(), "cpu-bind");
}

}  // namespace
}  // namespace s2a::directives
