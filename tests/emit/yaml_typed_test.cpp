// yaml_plain_is_typed(): which plain scalars a YAML 1.1 or 1.2 reader would
// not read as a string (the writer single-quotes those).
#include <gtest/gtest.h>

#include "emit/yaml.hpp"

namespace s2a::emit {
namespace {

TEST(YamlPlainIsTyped, BooleansNullsAndSpecialFloatsInAnyCase) {
  for (const char* typed :
       {"",     "true", "True", "TRUE", "tRuE", "false", "yes",   "YES",  "no",
        "No",   "on",   "ON",   "off",  "Off",  "y",     "Y",     "n",    "N",
        "null", "NULL", "~",    ".inf", ".Inf", "-.inf", "+.INF", ".nan", ".NaN"}) {
    EXPECT_TRUE(yaml_plain_is_typed(typed)) << typed;
  }
  for (const char* text : {"truth", "nope", "yesterday", "o", "t", "f", "offline", "nil", "~x",
                           "inf", ".info", "-inf", "nan"}) {
    EXPECT_FALSE(yaml_plain_is_typed(text)) << text;
  }
}

TEST(YamlPlainIsTyped, NumbersInAnySpelling) {
  for (const char* typed : {"0", "12", "-1", "+7", "-1.5", ".5", "1e3", "1E-3", "0x1F", "0o17",
                            "1:30", "1_000", "1.2.3", "0xdeadBEEF"}) {
    EXPECT_TRUE(yaml_plain_is_typed(typed)) << typed;
  }
  for (const char* text :
       {"-", "+", ".", "-.", "12abcz", "1 2", "a1", "x1", "-x1", "1/2", "/1", "v1.0", "1,000"}) {
    EXPECT_FALSE(yaml_plain_is_typed(text)) << text;
  }
}

}  // namespace
}  // namespace s2a::emit
