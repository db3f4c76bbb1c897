// NameMap, the open-addressed map behind option lookups: names whose length
// and sampled bytes collide must still be told apart, and insertion order
// kept.
#include "directives/name_map.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace s2a::directives {
namespace {

TEST(NameMap, FindsEveryNameAmongCollidingOnes) {
  // Same length, first, middle and last byte: the same hash for all.
  std::vector<std::string> names;
  for (char c = 'a'; c <= 'z'; ++c) names.push_back(std::string("x") + c + "ym" + c + "zx");
  NameMap<int> map;
  for (size_t i = 0; i < names.size(); ++i) EXPECT_TRUE(map.try_emplace(names[i], int(i)));
  ASSERT_EQ(map.size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    auto it = map.find(names[i]);
    ASSERT_NE(it, map.end()) << names[i];
    EXPECT_EQ(it->second, int(i));
  }
  EXPECT_EQ(map.find("xaymbzx"), map.end());
  EXPECT_EQ(map.find(""), map.end());
}

TEST(NameMap, KeepsFirstOnTryEmplaceAndLastOnAssign) {
  NameMap<std::string> map;
  EXPECT_TRUE(map.try_emplace("time", "1"));
  EXPECT_FALSE(map.try_emplace("time", "2"));
  EXPECT_EQ(map.find("time")->second, "1");
  map.insert_or_assign("time", "3");
  map.insert_or_assign("nodes", "4");
  EXPECT_EQ(map.find("time")->second, "3");
  ASSERT_EQ(map.size(), 2u);
  EXPECT_EQ(map.begin()->first, "time");  // insertion order
  EXPECT_EQ((map.begin() + 1)->first, "nodes");
}

TEST(NameMap, EmptyMapFindsNothing) {
  const NameMap<int> map;
  EXPECT_EQ(map.find("x"), map.end());
  EXPECT_EQ(map.size(), 0u);
}

TEST(NameMap, GrowsPastItsReservation) {
  NameMap<size_t> map;
  map.reserve(2);
  std::vector<std::string> names;
  for (size_t i = 0; i < 1000; ++i) names.push_back("opt" + std::to_string(i));
  for (size_t i = 0; i < names.size(); ++i) map.insert_or_assign(names[i], i);
  for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(map.find(names[i])->second, i);
}

}  // namespace
}  // namespace s2a::directives
