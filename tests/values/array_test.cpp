// Tests for parse_array() and ArraySpec::count() (spec §2.9).
#include <gtest/gtest.h>

#include "grammar/values.hpp"

namespace s2a::values {
namespace {

struct ArrayCase {
  const char* text;
  std::vector<ArrayRange> ranges;
  std::optional<uint64_t> max_running;
  uint64_t count;
};

TEST(ParseArray, Forms) {
  const ArrayCase cases[] = {
      {"0-15", {{0, 15, 1}}, std::nullopt, 16},
      {"0,6,16-32", {{0, 0, 1}, {6, 6, 1}, {16, 32, 1}}, std::nullopt, 19},
      {"0-15:4", {{0, 15, 4}}, std::nullopt, 4},
      {"1-1000%10", {{1, 1000, 1}}, 10, 1000},
      {"0-15%4", {{0, 15, 1}}, 4, 16},
      {"1,3,5-9%2", {{1, 1, 1}, {3, 3, 1}, {5, 9, 1}}, 2, 7},
      {"[0-9]", {{0, 9, 1}}, std::nullopt, 10},
      {"[1,3]%1", {{1, 1, 1}, {3, 3, 1}}, 1, 2},
      {"0-9%1", {{0, 9, 1}}, 1, 10},
      {"7", {{7, 7, 1}}, std::nullopt, 1},
      {"0", {{0, 0, 1}}, std::nullopt, 1},
      {"5-5", {{5, 5, 1}}, std::nullopt, 1},
      {"0-10:3", {{0, 10, 3}}, std::nullopt, 4},
      {"1-5,3", {{1, 5, 1}, {3, 3, 1}}, std::nullopt, 5},  // the bitmap counts 3 once
      {"1-5,4-8", {{1, 5, 1}, {4, 8, 1}}, std::nullopt, 8},
      {"0-10:2,1-9:2", {{0, 10, 2}, {1, 9, 2}}, std::nullopt, 11},
      {"0-12:2,0-12:3", {{0, 12, 2}, {0, 12, 3}}, std::nullopt, 9},
      {"0-4294967294", {{0, 4294967294ULL, 1}}, std::nullopt, 4294967295ULL},
      {"0-4294967294:2", {{0, 4294967294ULL, 2}}, std::nullopt, 2147483648ULL},
      {"0-4294967294,5", {{0, 4294967294ULL, 1}, {5, 5, 1}}, std::nullopt, 4294967295ULL},
      {"0-0%0", {{0, 0, 1}}, 0, 1},
      // Slurm 22.05 (tests/conformance oracle): strtok() skips empty tokens
      // and atoi() reads the limit up to the second '%'.
      {"0-3,", {{0, 3, 1}}, std::nullopt, 4},
      {"1,,2", {{1, 1, 1}, {2, 2, 1}}, std::nullopt, 2},
      {",1", {{1, 1, 1}}, std::nullopt, 1},
      {"0-9%2%3", {{0, 9, 1}}, 2, 10},
  };
  for (const ArrayCase& c : cases) {
    SCOPED_TRACE(c.text);
    const Parsed<ArraySpec> parsed = parse_array(c.text);
    ASSERT_TRUE(parsed) << parsed.error;
    EXPECT_EQ(parsed->ranges, c.ranges);
    EXPECT_EQ(parsed->max_running, c.max_running);
    EXPECT_EQ(parsed->count(), c.count);
  }
}

TEST(ParseArray, Rejects) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "the value is empty"},
      {"-1", "indexes must not be negative"},
      {"5-1", "range 5-1 ends before it starts"},
      {"0-15:0", "the step must be positive"},
      {"4:2", "needs a range N-M"},
      {"0-4294967295", "index 4294967295 is too large"},
      {"99999999999999999999", "is too large"},
      {"0-9%99999999999", "limit %99999999999 is too large"},
      {"0-9%", "a number is missing after '%'"},
      {"0-9%x", "the limit after '%' must be a number"},
      {",", "unexpected \",\""},
      {"[0-9", "unexpected \"[\""},
      {"0-9]", "unexpected \"]\""},
      {"a-b", "unexpected \"a\""},
      {"1 - 3", "unexpected \" \""},
      {"1-", "a number is missing after '-'"},
      {"1-5:", "a number is missing after ':'"},
  };
  for (const auto& [text, why] : cases) {
    SCOPED_TRACE(text);
    const Parsed<ArraySpec> parsed = parse_array(text);
    EXPECT_FALSE(parsed);
    EXPECT_NE(parsed.error.find(why), std::string::npos) << parsed.error;
  }
  EXPECT_EQ(parse_array("5-1").error,
            "invalid array spec \"5-1\": range 5-1 ends before it starts (form: N, N-M or N-M:S "
            "separated by ',', optional %limit, e.g. 0-15%4)");
}

TEST(ArraySpecCount, HandBuiltSpecs) {
  ArraySpec empty;
  EXPECT_EQ(empty.count(), 0u);
  ArraySpec reversed;
  reversed.ranges = {{9, 1, 1}};  // not produced by the parser; counts nothing
  EXPECT_EQ(reversed.count(), 0u);
  ArraySpec zero_step;
  zero_step.ranges = {{1, 3, 0}};  // treated as step 1
  EXPECT_EQ(zero_step.count(), 3u);
  ArraySpec stepped_overlap;
  stepped_overlap.ranges = {{0, 4000000000ULL, 2}, {1, 4000000001ULL, 2}};
  // Adversarial overlap beyond the bitmap limit: the sum is the documented bound.
  EXPECT_EQ(stepped_overlap.count(), 4000000002ULL);
}

}  // namespace
}  // namespace s2a::values
