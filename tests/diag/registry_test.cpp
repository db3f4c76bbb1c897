#include <gtest/gtest.h>

#include <set>

#include "diag/diagnostic.hpp"

namespace s2a {
namespace {

TEST(Registry, NumbersAreUniqueAndSorted) {
  uint16_t previous = 0;
  for (const CodeInfo& info : all_codes()) {
    EXPECT_GT(info.number, previous) << info.name << " is out of order";
    previous = info.number;
  }
}

TEST(Registry, EveryCodeHasATitle) {
  for (const CodeInfo& info : all_codes()) {
    EXPECT_FALSE(info.title.empty()) << info.name;
    EXPECT_NE(info.title.back(), '.') << info.name << ": titles have no trailing period";
  }
}

TEST(Registry, CodeIdIsPrefixedNumber) { EXPECT_EQ(code_id(Code::internal_error), "S2A1000"); }

}  // namespace
}  // namespace s2a
