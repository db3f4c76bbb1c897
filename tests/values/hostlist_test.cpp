// Tests for expand_hostlist() (spec §6).
#include <gtest/gtest.h>

#include "grammar/values.hpp"

namespace s2a::values {
namespace {

using Hosts = std::vector<std::string>;

TEST(ExpandHostlist, SpecExamples) {
  const std::pair<const char*, Hosts> cases[] = {
      {"node[01-04,07],gpu-a[1-2]",
       {"node01", "node02", "node03", "node04", "node07", "gpu-a1", "gpu-a2"}},
      {"node[01-04]", {"node01", "node02", "node03", "node04"}},
      {"node[1-10]",
       {"node1", "node2", "node3", "node4", "node5", "node6", "node7", "node8", "node9", "node10"}},
      {"node[008-010]", {"node008", "node009", "node010"}},
      {"rack[1-2]-gpu[01-02]", {"rack1-gpu01", "rack1-gpu02", "rack2-gpu01", "rack2-gpu02"}},
      {"n[1-2].ib", {"n1.ib", "n2.ib"}},
      {"node1", {"node1"}},
      {"a,b c\td\ne", {"a", "b", "c", "d", "e"}},
      {"node1,node1", {"node1", "node1"}},  // duplicates kept, order as written
      {"n[3,1]", {"n3", "n1"}},
      {"n[0-1]x[0-1]y", {"n0x0y", "n0x1y", "n1x0y", "n1x1y"}},
      {"n[09-11]", {"n09", "n10", "n11"}},
      {"[1-2]", {"1", "2"}},
      {",node1,,node2, ", {"node1", "node2"}},
      {"", {}},
      {"gpu-[0-1],cpu-01.cluster.local", {"gpu-0", "gpu-1", "cpu-01.cluster.local"}},
  };
  for (const auto& [text, hosts] : cases) {
    SCOPED_TRACE(text);
    const auto parsed = expand_hostlist(text);
    ASSERT_TRUE(parsed) << parsed.error;
    EXPECT_EQ(*parsed, hosts);
  }
}

TEST(ExpandHostlist, Rejects) {
  const std::pair<const char*, const char*> cases[] = {
      {"node[1-", "bad bracket group"},
      {"node[]", "bad bracket group"},
      {"node[a-b]", "bad bracket group"},
      {"node[1-2", "bad bracket group"},
      {"node[[1]]", "bad bracket group"},
      {"node[-3]", "bad bracket group"},
      {"node[1-2:2]", "bad bracket group"},
      {"node1]", "unexpected \"]\""},
      {"node[5-1]", "range 5-1 ends before it starts"},
      {"node[0-99999999999999999999]", "number too large"},
      {"node[0-18446744073709551615]", "expands to more than 100000 hosts"},
      {"node[1-100001]", "expands to more than 100000 hosts"},
      {"a[1-1000]b[1-1000]", "expands to more than 100000 hosts"},
  };
  for (const auto& [text, why] : cases) {
    SCOPED_TRACE(text);
    const auto parsed = expand_hostlist(text);
    EXPECT_FALSE(parsed);
    EXPECT_NE(parsed.error.find(why), std::string::npos) << parsed.error;
  }
}

TEST(ExpandHostlist, MaxHostsIsTheCallersBound) {
  EXPECT_TRUE(expand_hostlist("n[1-3]", 3));
  EXPECT_EQ(expand_hostlist("n[1-3],m", 3).error,
            "invalid hostlist \"n[1-3],m\": expands to more than 3 hosts (form: name, "
            "prefix[1-4,7]suffix, separated by ',')");
  EXPECT_FALSE(expand_hostlist("n[1-2][1-2]", 3));
  ASSERT_TRUE(expand_hostlist("n[1-100000]"));
  EXPECT_EQ(expand_hostlist("n[1-100000]")->back(), "n100000");
}

TEST(ExpandHostlist, ManyGroupsDoNotRecurse) {
  std::string many;
  for (int i = 0; i < 5000; ++i) many += "[1]";
  const auto parsed = expand_hostlist("n" + many);
  ASSERT_TRUE(parsed) << parsed.error;
  EXPECT_EQ(parsed->front().size(), 5001u);
}

}  // namespace
}  // namespace s2a::values
