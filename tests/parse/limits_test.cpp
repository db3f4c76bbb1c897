// Depth-limit and size tests for the shell parser: deep nesting yields a
// diagnostic instead of a stack overflow, and long sequences parse in linear
// time without recursion.
#include <gtest/gtest.h>

#include <string>

#include "parse/parse_script.hpp"

namespace s2a {
namespace {

std::string repeat(std::string_view piece, size_t count) {
  std::string out;
  out.reserve(piece.size() * count);
  for (size_t i = 0; i < count; ++i) out += piece;
  return out;
}

struct DeepCase {
  const char* name;
  const char* open;
  const char* middle;
  const char* close;
};

class ShellDepth : public testing::TestWithParam<DeepCase> {};

TEST_P(ShellDepth, TenThousandLevelsGiveNestingTooDeep) {
  const DeepCase& deep = GetParam();
  std::string text =
      "echo start\n" + repeat(deep.open, 10000) + deep.middle + repeat(deep.close, 10000) + "\n";
  ParseResult result = parse_script(text);
  EXPECT_FALSE(result.complete);
  ASSERT_FALSE(result.diagnostics.empty());
  EXPECT_EQ(result.diagnostics.back().code, Code::nesting_too_deep);
  EXPECT_EQ(result.diagnostics.back().message,
            "commands nest deeper than 200 levels; the rest of the script is not analysed");
  EXPECT_EQ(result.script.body.items.size(), 1u) << "the line before the deep one is kept";
}

TEST_P(ShellDepth, WithinTheLimitParses) {
  const DeepCase& deep = GetParam();
  std::string text = repeat(deep.open, 40) + deep.middle + repeat(deep.close, 40) + "\n";
  ParseResult result = parse_script(text);
  EXPECT_TRUE(result.complete) << (result.diagnostics.empty() ? "" : result.diagnostics[0].message);
}

INSTANTIATE_TEST_SUITE_P(Constructs, ShellDepth,
                         testing::Values(DeepCase{"command_subst", "echo $(", "true", ")"},
                                         DeepCase{"quoted_subst", "echo \"$(", "true", ")\""},
                                         DeepCase{"if", "if true; then ", "echo", "; fi"},
                                         DeepCase{"subshell", "( ", "echo", " )"},
                                         DeepCase{"brace", "{ ", "echo", "; }"},
                                         DeepCase{"while", "while a; do ", "b", "; done"},
                                         DeepCase{"param_default", "echo ${X:-", "d", "}"},
                                         DeepCase{"process_subst", "cat <(", "true", ")"}),
                         [](const testing::TestParamInfo<DeepCase>& param_info) {
                           return std::string(param_info.param.name);
                         });

TEST(ShellLimits, CustomDepthLimit) {
  ParseLimits limits;
  limits.max_depth = 3;
  EXPECT_TRUE(parse_script("echo $(echo $(echo $(true)))\n", 0, limits).complete);
  EXPECT_FALSE(parse_script("echo $(echo $(echo $(echo $(true))))\n", 0, limits).complete);
}

TEST(ShellLimits, LongAndOrChainIsIterative) {
  std::string text = "true" + repeat(" && true || false", 200000) + "\n";
  ParseResult result = parse_script(text);
  ASSERT_TRUE(result.complete);
  EXPECT_EQ(result.script.body.items.at(0).command.children.size(), 400001u);
}

TEST(ShellLimits, LongPipelineIsIterative) {
  std::string text = "cat f" + repeat(" | tr a b", 200000) + "\n";
  ParseResult result = parse_script(text);
  ASSERT_TRUE(result.complete);
  EXPECT_EQ(result.script.body.items.at(0).command.children.size(), 200001u);
}

TEST(ShellLimits, OneMegabyteLineAndWord) {
  std::string text = "echo " + repeat("a", 1 << 20) + " \"" + repeat("b $X ", 100000) + "\"\n";
  ParseResult result = parse_script(text);
  ASSERT_TRUE(result.complete);
  EXPECT_EQ(result.script.body.items.at(0).command.words.at(1).parts.at(0).text.size(),
            size_t{1} << 20);
}

TEST(ShellLimits, ManySequentialCommandsAndSemicolons) {
  std::string text = repeat("a;", 300000) + "\n" + repeat("x\n", 300000);
  ParseResult result = parse_script(text);
  ASSERT_TRUE(result.complete);
  EXPECT_EQ(result.script.body.items.size(), 600000u);
}

}  // namespace
}  // namespace s2a
