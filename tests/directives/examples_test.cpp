// Every input and directive code fires on its positive example and stays
// quiet on its negative one, as far as the directive scanner is concerned.
#include <gtest/gtest.h>

#include <random>

#include "directives/directives.hpp"
#include "test_helpers.hpp"

namespace s2a::directives {
namespace {

using testing::count_code;

bool scanner_owns(const CodeInfo& info) {
  return info.number > 1000 && info.number < 1100 ? true
                                                  : info.number >= 2000 && info.number < 2100;
}

TEST(CodeExamples, PositiveFiresAndNegativeDoesNot) {
  for (const CodeInfo& info : all_codes()) {
    if (!scanner_owns(info)) continue;
    EXPECT_FALSE(info.negative.empty()) << info.name;
    const ScanResult negative =
        scan_directives(SourceFile("negative.sh", std::string(info.negative)));
    EXPECT_EQ(count_code(negative.diagnostics, info.code), 0u) << info.name;
    EXPECT_FALSE(negative.fatal) << info.name;
    const ScanResult positive =
        scan_directives(SourceFile("positive.sh", std::string(info.positive)));
    EXPECT_GE(count_code(positive.diagnostics, info.code), 1u)
        << info.name << ": " << ::testing::PrintToString(testing::code_names(positive.diagnostics));
    EXPECT_EQ(positive.fatal, info.severity == Severity::error) << info.name;
  }
}

TEST(Robustness, RandomBytesNeverCrash) {
  std::mt19937 random(12345);
  const std::string alphabet = "#SBATCHhetjob -=\"'\\\n\r\t:N2x";
  for (int round = 0; round < 2000; ++round) {
    std::string text = round % 2 == 0 ? "#!/bin/bash\n" : "";
    const size_t length = random() % 200;
    for (size_t i = 0; i < length; ++i) {
      text +=
          round % 3 == 0 ? static_cast<char>(random() % 256) : alphabet[random() % alphabet.size()];
    }
    const ScanResult result = scan_directives(SourceFile("fuzz.sh", text));
    for (const Diagnostic& d : result.diagnostics) {
      EXPECT_LE(d.span.begin, d.span.end);
      EXPECT_LE(d.span.end, text.size());
    }
    for (const Option& option : result.options) {
      EXPECT_LE(option.span.end, text.size());
      EXPECT_LE(option.value_span.begin, option.value_span.end);
    }
  }
}

TEST(Robustness, LongLinesAndWords) {
  const std::string huge(1 << 20, 'x');
  const ScanResult result =
      scan_directives(SourceFile("x.sh", "#!/bin/bash\n#SBATCH --comment=" + huge + "\n#SBATCH --" +
                                             huge + "\n#SBTACH" + huge + "\n"));
  EXPECT_EQ(count_code(result.diagnostics, Code::unknown_option), 1u);
  EXPECT_LT(result.diagnostics[0].message.size(), 200u);
}

}  // namespace
}  // namespace s2a::directives
