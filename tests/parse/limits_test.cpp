// Depth-limit and size tests for the shell parser: deep nesting yields a
// diagnostic instead of a stack overflow, and long sequences parse in linear
// time without recursion.
#include <gtest/gtest.h>

#include <chrono>
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

// A typical sbatch body, repeated: the parser must be linear and fast
// (bash -n reads about 1,100 lines/ms on such text).
TEST(ShellLimits, ThroughputOnTypicalScripts) {
  const std::string body =
      "export MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n"
      "export MASTER_PORT=$((10000 + SLURM_JOB_ID % 50000))\n"
      "module load cuda/12.1 # the toolkit\n"
      "if [ \"$SLURM_PROCID\" -eq 0 ]; then\n  echo \"head on $(hostname)\"\nfi\n"
      "for i in $(seq 1 4); do\n  srun --nodes=1 -w \"${nodes[$i]}\" python task.py --id=$i "
      "&\ndone\n"
      "wait\n"
      "srun bash -c 'torchrun --nnodes=$SLURM_NNODES --node_rank=$SLURM_NODEID train.py'\n";
  const size_t lines_per_copy = 12;
  auto measure = [&](size_t copies) {
    std::string text = repeat(body, copies);
    auto start = std::chrono::steady_clock::now();
    ParseResult result = parse_script(text);
    auto elapsed = std::chrono::steady_clock::now() - start;
    EXPECT_TRUE(result.complete);
    return std::chrono::duration<double, std::milli>(elapsed).count();
  };
  double small = measure(5000);
  double large = measure(20000);
  double lines_per_ms = static_cast<double>(20000 * lines_per_copy) / large;
  std::printf("shell parser: %.0f lines/ms (%.1f ms for %zu lines)\n", lines_per_ms, large,
              20000 * lines_per_copy);
  // Linear: 4x the input may not take more than ~8x the time (noise allowance).
  EXPECT_LT(large, small * 8 + 50);
#if !defined(__SANITIZE_ADDRESS__)  // sanitizer builds are several times slower by design
  EXPECT_GT(lines_per_ms, 200.0);
#endif
}

}  // namespace
}  // namespace s2a
