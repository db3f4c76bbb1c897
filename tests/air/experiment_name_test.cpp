// sanitize_experiment_name(): what AI Runtime's experiment_name allows.
#include <gtest/gtest.h>

#include <string>

#include "air/map_workload.hpp"

namespace s2a::air {
namespace {

TEST(ExperimentName, KeepsLettersDigitsDashesAndUnderscores) {
  EXPECT_EQ(sanitize_experiment_name("Llama-3_sft09"), "Llama-3_sft09");
  EXPECT_EQ(sanitize_experiment_name("azAZ09-_"), "azAZ09-_");
}

TEST(ExperimentName, ReplacesEachRunOfOtherBytesWithOneDash) {
  EXPECT_EQ(sanitize_experiment_name("bert.base v1..2"), "bert-base-v1-2");
  EXPECT_EQ(sanitize_experiment_name("caf\xc3\xa9@job"), "caf-job");  // UTF-8 is not a letter
  EXPECT_EQ(sanitize_experiment_name("a\t[b]{c}`~"), "a-b-c");
  // Not at the start nor the end.
  EXPECT_EQ(sanitize_experiment_name("..job.."), "job");
  EXPECT_EQ(sanitize_experiment_name("job-"), "job");
  EXPECT_EQ(sanitize_experiment_name("%%"), "");
  EXPECT_EQ(sanitize_experiment_name(""), "");
}

TEST(ExperimentName, IsCutAtOneHundredCharacters) {
  EXPECT_EQ(sanitize_experiment_name(std::string(150, 'x')), std::string(100, 'x'));
}

}  // namespace
}  // namespace s2a::air
