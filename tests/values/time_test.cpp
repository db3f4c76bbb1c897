// Tests for parse_time(): every form of spec §2.7, its invalid neighbours,
// rounding, overflow and checklist item 17.
#include <gtest/gtest.h>

#include "grammar/values.hpp"

namespace s2a::values {
namespace {

struct TimeCase {
  const char* text;
  uint64_t minutes;
};

TEST(ParseTime, AcceptsEveryFormAndRoundsSecondsUp) {
  const TimeCase cases[] = {
      {"30", 30},           {"90", 90},         {"1", 1},        {"90:30", 91},
      {"1:00", 1},          {"0:30", 1},        {"0:01", 1},     {"0:60", 1},
      {"0:61", 2},          {"1:30:00", 90},    {"1:00:01", 61}, {"0:90:00", 90},
      {"00:00:59", 1},      {"24:00:00", 1440}, {"2-12", 3600},  {"2-12:30", 3630},
      {"1-00:00:00", 1440}, {"1-0:0:1", 1441},  {"1-", 1440},    {"0-1", 60},
      {"007", 7},           {"1-00:30", 1470},  {"3-0", 4320},   {"24855-0", 35791200},
  };
  for (const TimeCase& c : cases) {
    SCOPED_TRACE(c.text);
    const Parsed<TimeLimit> parsed = parse_time(c.text);
    ASSERT_TRUE(parsed) << parsed.error;
    EXPECT_FALSE(parsed->unlimited);
    EXPECT_EQ(parsed->minutes, c.minutes);
  }
}

TEST(ParseTime, UnlimitedSpellingsAndZero) {
  for (const char* text : {"UNLIMITED", "unlimited", "Unlimited", "INFINITE", "infinite", "-1", "0",
                           "0:0", "0:00:00", "0-0", "0-", "00"}) {
    SCOPED_TRACE(text);
    const Parsed<TimeLimit> parsed = parse_time(text);
    ASSERT_TRUE(parsed) << parsed.error;
    EXPECT_TRUE(parsed->unlimited);
    EXPECT_EQ(parsed->minutes, 0u);
  }
}

// Checklist §7.17: 1:00 is one minute, not one hour.
TEST(ParseTime, OneColonIsMinutesAndSeconds) {
  EXPECT_EQ(parse_time("1:00")->minutes, 1u);
  EXPECT_EQ(parse_time("1:00:00")->minutes, 60u);
  EXPECT_EQ(parse_time("12:00")->minutes, 12u);
}

struct BadTime {
  const char* text;
  const char* why;
};

TEST(ParseTime, RejectsInvalidNeighboursWithReasons) {
  const BadTime cases[] = {
      {"2h", "only digits, '-' and ':' are allowed"},
      {"1 day", "only digits, '-' and ':' are allowed"},
      {" 30", "only digits, '-' and ':' are allowed"},
      {"30 ", "only digits, '-' and ':' are allowed"},
      {"1.5", "only digits, '-' and ':' are allowed"},
      {"+30", "only digits, '-' and ':' are allowed"},
      {"unlimitedx", "only digits, '-' and ':' are allowed"},
      {"", "the value is empty"},
      {"-", "at least one number is needed"},
      {":", "at least one number is needed"},
      {"1-2-3", "at most one '-' is allowed"},
      {"1:2:3:4", "at most two ':' are allowed"},
      {"1-2:3:4:5", "at most two ':' are allowed"},
      {"1:2-3", "'-' may not follow ':'"},
      {"-5", "negative time limits are not allowed"},
      {"-1:00", "negative time limits are not allowed"},
      {"5:", "a number is missing"},
      {":30", "a number is missing"},
      {"1::2", "a number is missing"},
      {"1-:30", "a number is missing"},
      {"1-2:", "a number is missing"},
  };
  for (const BadTime& c : cases) {
    SCOPED_TRACE(c.text);
    const Parsed<TimeLimit> parsed = parse_time(c.text);
    EXPECT_FALSE(parsed);
    EXPECT_NE(parsed.error.find(c.why), std::string::npos) << parsed.error;
  }
}

TEST(ParseTime, ExactMessageNamesTheTextAndTheFormats) {
  EXPECT_EQ(parse_time("2h").error,
            "invalid time limit \"2h\": only digits, '-' and ':' are allowed (formats: m, m:s, "
            "h:m:s, d-h, d-h:m, d-h:m:s, UNLIMITED)");
}

TEST(ParseTime, OverflowIsAnErrorNotWraparound) {
  for (const char* text : {"99999999999999999999", "2147483648", "1:99999999999", "24856-0",
                           "35791395", "9999999-0"}) {
    SCOPED_TRACE(text);
    const Parsed<TimeLimit> parsed = parse_time(text);
    EXPECT_FALSE(parsed);
    EXPECT_TRUE(parsed.error.find("too large") != std::string::npos ||
                parsed.error.find("maximum") != std::string::npos)
        << parsed.error;
  }
  // The largest total Slurm's int seconds can hold still parses.
  ASSERT_TRUE(parse_time("35791394"));
  EXPECT_EQ(parse_time("35791394")->minutes, 35791394u);
}

TEST(ParseTime, BinaryAndHugeInputAreRejectedCleanly) {
  const std::string binary("\x00\xff\x80:1", 5);
  EXPECT_FALSE(parse_time(binary));
  EXPECT_NE(parse_time(binary).error.find("\\x00\\xFF\\x80"), std::string::npos);
  const std::string huge(1 << 20, '1');
  EXPECT_FALSE(parse_time(huge));
  EXPECT_LT(parse_time(huge).error.size(), 300u);  // the echoed text is truncated
}

}  // namespace
}  // namespace s2a::values
