// get_argument() behaviour: quotes, backslashes, comments, quirks.
#include <gtest/gtest.h>

#include "directives/directives.hpp"
#include "test_helpers.hpp"

namespace s2a::directives {
namespace {

using testing::count_code;

std::vector<std::string> texts(std::string_view body) {
  Diagnostics diagnostics;
  std::vector<std::string> out;
  for (const Word& word : tokenize_directive(body, 0, diagnostics)) out.push_back(word.text);
  return out;
}

struct TokenCase {
  const char* body;
  std::vector<std::string> words;
};

class TokenizeTest : public ::testing::TestWithParam<TokenCase> {};

TEST_P(TokenizeTest, SplitsLikeGetArgument) {
  EXPECT_EQ(texts(GetParam().body), GetParam().words) << GetParam().body;
}

INSTANTIATE_TEST_SUITE_P(
    Spec, TokenizeTest,
    ::testing::Values(TokenCase{" -N 2 --ntasks-per-node=8 -t 1:00:00",
                                {"-N", "2", "--ntasks-per-node=8", "-t", "1:00:00"}},
                      TokenCase{" --time=10 # ten minutes", {"--time=10"}},
                      TokenCase{" --comment=foo#bar", {"--comment=foo"}},
                      TokenCase{" --comment=foo#bar -N 2", {"--comment=foo"}},
                      TokenCase{" # -N 4", {}},
                      TokenCase{" --container-image nvcr.io\\#nvidia/pytorch:24.01-py3",
                                {"--container-image", "nvcr.io#nvidia/pytorch:24.01-py3"}},
                      TokenCase{" --job-name=foo\"bar baz\"qux", {"--job-name=foobar bazqux"}},
                      TokenCase{" --comment='a # b'", {"--comment=a # b"}},
                      TokenCase{" --comment=\"it's\"", {"--comment=it's"}},
                      TokenCase{" -o a\\ b.out", {"-o", "a b.out"}},
                      TokenCase{" --wrap=\"echo \\\"hi\\\"\"", {"--wrap=echo \"hi\""}},
                      TokenCase{" --export=ALL,\"A=1,2\"", {"--export=ALL,A=1,2"}},
                      TokenCase{" --export='\"A=1,2\"'", {"--export=\"A=1,2\""}},
                      TokenCase{" --output=$HOME/x_%j.out", {"--output=$HOME/x_%j.out"}},
                      TokenCase{"--time=5", {"--time=5"}}, TokenCase{"\t-N\t2\t", {"-N", "2"}},
                      TokenCase{" a\\", {"a"}}, TokenCase{" a\\\tb", {"a", "b"}}, TokenCase{"", {}},
                      TokenCase{"   ", {}}));

TEST(Tokenize, SpansCoverTheWordAsWritten) {
  Diagnostics diagnostics;
  const std::string_view body = " -J foo\"bar baz\"qux  -N2";
  const auto words = tokenize_directive(body, 100, diagnostics);
  ASSERT_EQ(words.size(), 3u);
  EXPECT_EQ(words[0].span, (Span{101, 103}));
  EXPECT_EQ(words[1].span, (Span{104, 119}));
  EXPECT_EQ(words[1].text, "foobar bazqux");
  EXPECT_EQ(words[1].source_offset(0), 104u);
  EXPECT_EQ(words[1].source_offset(3), 108u);   // `b` after the opening quote
  EXPECT_EQ(words[1].source_offset(10), 116u);  // `q` after the closing quote
  EXPECT_EQ(words[1].source_offset(13), 119u);  // end
  EXPECT_EQ(words[2].span, (Span{121, 124}));
  EXPECT_TRUE(words[2].offsets.empty());  // written verbatim
  EXPECT_TRUE(diagnostics.empty());
}

TEST(Tokenize, UnmatchedQuoteIsReportedAndKeepsTheRest) {
  Diagnostics diagnostics;
  const auto words = tokenize_directive(" --job-name=\"my job", 0, diagnostics);
  ASSERT_EQ(words.size(), 1u);
  EXPECT_EQ(words[0].text, "--job-name=my job");
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].code, Code::unmatched_quote);
  EXPECT_EQ(diagnostics[0].message, "sbatch refuses this directive: unmatched `\"`");
}

TEST(Tokenize, SingleQuoteUnmatched) {
  Diagnostics diagnostics;
  (void)tokenize_directive(" --comment='abc", 0, diagnostics);
  ASSERT_EQ(count_code(diagnostics, Code::unmatched_quote), 1u);
  EXPECT_EQ(diagnostics[0].message, "sbatch refuses this directive: unmatched `'`");
}

TEST(Tokenize, WordStartingWithColonIsFatalAndSkipped) {
  Diagnostics diagnostics;
  EXPECT_EQ(texts(" -N 2 : -n 4"), (std::vector<std::string>{"-N", "2", "-n", "4"}));
  const auto words = tokenize_directive(" -N 2 :x -n 4", 0, diagnostics);
  ASSERT_EQ(count_code(diagnostics, Code::unexpected_colon), 1u);
  EXPECT_EQ(diagnostics[0].span, (Span{6, 8}));
}

TEST(Tokenize, ColonInsideAWordIsFine) {
  Diagnostics diagnostics;
  EXPECT_EQ(texts(" --gres=gpu:a100:4"), (std::vector<std::string>{"--gres=gpu:a100:4"}));
  EXPECT_EQ(texts(" \":x\""), (std::vector<std::string>{":x"}));
}

TEST(Tokenize, EmptyQuotedWordEndsTheLine) {
  Diagnostics diagnostics;
  const auto words = tokenize_directive(" -J train \"\" -N 2", 0, diagnostics);
  ASSERT_EQ(words.size(), 2u);
  ASSERT_EQ(count_code(diagnostics, Code::directive_words_dropped), 1u);
  EXPECT_EQ(diagnostics[0].message,
            "sbatch stops reading this line at the empty word `\"\"`: the words after it are "
            "ignored");
  EXPECT_EQ(diagnostics[0].span, (Span{10, 17}));
}

// pyxis' docs write `nvcr.io\#nvidia/...` in directives for this reason: an
// unescaped `#` glued to a word ends it, and the rest of the line is a comment.
TEST(Tokenize, AHashGluedToAWordCutsItAndIsReported) {
  Diagnostics diagnostics;
  const auto words =
      tokenize_directive(" --container-image=nvcr.io#nvidia/pytorch:24.01-py3 ", 0, diagnostics);
  ASSERT_EQ(words.size(), 1u);
  EXPECT_EQ(words[0].text, "--container-image=nvcr.io");
  ASSERT_EQ(count_code(diagnostics, Code::directive_words_dropped), 1u);
  EXPECT_EQ(diagnostics[0].message,
            "sbatch reads `#nvidia/pytorch:24.01-py3` as a comment, so this word ends as "
            "`--container-image=nvcr.io`");
  EXPECT_EQ(diagnostics[0].span, (Span{26, 51}));
  // A comment after a blank, an escaped or quoted `#`, or nothing after it: no report.
  for (const char* line : {" -N 2 # two nodes", " --comment=a\\#b", " --comment='a#b'", " -N 2#"}) {
    Diagnostics quiet;
    (void)tokenize_directive(line, 0, quiet);
    EXPECT_EQ(count_code(quiet, Code::directive_words_dropped), 0u) << line;
  }
}

TEST(Tokenize, HetjobInTheMiddleEndsTheLine) {
  Diagnostics diagnostics;
  const auto words = tokenize_directive(" -N 2 HetJob -n 4", 0, diagnostics);
  ASSERT_EQ(words.size(), 2u);
  ASSERT_EQ(count_code(diagnostics, Code::directive_words_dropped), 1u);
  EXPECT_EQ(texts(" -N 2 hetjobX"), (std::vector<std::string>{"-N", "2", "hetjobX"}));
}

}  // namespace
}  // namespace s2a::directives
