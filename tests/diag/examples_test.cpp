// Every registry code proves itself: its positive example triggers it, its
// negative example does not, through the whole pipeline.
#include <gtest/gtest.h>

#include "translate.hpp"

namespace s2a {
namespace {

bool reports(const Translation& t, Code code) {
  return std::any_of(t.diagnostics.begin(), t.diagnostics.end(),
                     [&](const Diagnostic& d) { return d.code == code; });
}

TEST(RegistryExamples, PositiveExamplesTriggerTheirCode) {
  for (const CodeInfo& info : all_codes()) {
    if (info.code == Code::internal_error) continue;  // no script may trigger it
    EXPECT_FALSE(info.positive.empty()) << info.name << " has no positive example";
    if (info.positive.empty()) continue;
    const Translation t = translate("example.sbatch", std::string(info.positive));
    EXPECT_TRUE(reports(t, info.code)) << code_id(info.code) << " " << info.name
                                       << " not reported for:\n" << info.positive;
  }
}

TEST(RegistryExamples, NegativeExamplesDoNotTriggerTheirCode) {
  for (const CodeInfo& info : all_codes()) {
    EXPECT_FALSE(info.negative.empty()) << info.name << " has no negative example";
    if (info.negative.empty()) continue;
    const Translation t = translate("example.sbatch", std::string(info.negative));
    EXPECT_FALSE(reports(t, info.code)) << code_id(info.code) << " " << info.name
                                        << " reported for:\n" << info.negative;
  }
}

TEST(RegistryExamples, NoExampleHitsAnInternalError) {
  for (const CodeInfo& info : all_codes()) {
    for (std::string_view example : {info.positive, info.negative}) {
      if (example.empty()) continue;
      const Translation t = translate("example.sbatch", std::string(example));
      EXPECT_FALSE(reports(t, Code::internal_error)) << example;
    }
  }
}

}  // namespace
}  // namespace s2a
