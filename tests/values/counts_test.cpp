// Tests for the count grammars: --nodes (§2.2), positive integers (§2.3),
// GPU counts (§2.4), --gres (§2.5), --tres-per-task and memory (§2.6,
// checklist item 18).
#include <gtest/gtest.h>

#include "grammar/values.hpp"

namespace s2a::values {
namespace {

// --- nodes -------------------------------------------------------------------

struct NodeCase {
  const char* text;
  uint64_t min, max;
  std::vector<uint64_t> sizes;
};

TEST(ParseNodes, SingleRangeAndListForms) {
  const NodeCase cases[] = {
      {"2", 2, 2, {}},
      {"0", 0, 0, {}},
      {"16", 16, 16, {}},
      {"1k", 1024, 1024, {}},
      {"2K", 2048, 2048, {}},
      {"1m", 1048576, 1048576, {}},
      {"1M", 1048576, 1048576, {}},
      {"2-4", 2, 4, {}},
      {"4-4", 4, 4, {}},
      {"-4", 1, 4, {}},
      {"1-2k", 1, 2048, {}},
      {"1k-1M", 1024, 1048576, {}},
      {"2 ", 2, 2, {}},
      {"2-4\t\n", 2, 4, {}},
      {"2,4,8", 2, 8, {2, 4, 8}},
      {"1-15:4", 1, 13, {1, 5, 9, 13}},
      {"1-3,8", 1, 8, {1, 2, 3, 8}},
      {"8,2,4,2", 2, 8, {2, 4, 8}},
      {"4-4:2", 4, 4, {4}},
      {"0-10:5", 0, 10, {0, 5, 10}},
      {"2,4 ", 2, 4, {2, 4}},
  };
  for (const NodeCase& c : cases) {
    SCOPED_TRACE(c.text);
    const Parsed<NodeCount> parsed = parse_nodes(c.text);
    ASSERT_TRUE(parsed) << parsed.error;
    EXPECT_EQ(parsed->min, c.min);
    EXPECT_EQ(parsed->max, c.max);
    EXPECT_EQ(parsed->sizes, c.sizes);
  }
}

struct BadCase {
  const char* text;
  const char* why;
};

TEST(ParseNodes, RejectsWithReasons) {
  const BadCase cases[] = {
      {"", "the value is empty"},
      {"   ", "the value is empty"},
      {"2-", "the maximum after '-' is missing"},
      {"4-2", "the maximum is smaller than the minimum"},
      {"2k-1", "the maximum is smaller than the minimum"},
      {"two", "unexpected \"t\""},
      {"2g", "unexpected \"g\""},
      {"2kk", "unexpected \"k\""},
      {" 2", "unexpected \" \""},
      {"2.5", "unexpected \".\""},
      {"--4", "unexpected \"-\""},
      {"2-4-6", "unexpected \"-\""},
      {"2k,4", "list items are plain numbers"},
      {"2,,4", "list items are plain numbers"},
      {"1-15:0", "the step must be positive"},
      {"2:4", "needs a range N-M"},
      {"8-2,9", "ends before it starts"},
      {"99999999999999999999", "is too large"},
      {"2147483648", "is too large"},
      {"2097152k", "is too large"},
      {"2048m", "is too large"},
      {"1-99999999999999999999", "is too large"},
      {"1,99999999999999999999", "is too large"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.text);
    const Parsed<NodeCount> parsed = parse_nodes(c.text);
    EXPECT_FALSE(parsed);
    EXPECT_NE(parsed.error.find(c.why), std::string::npos) << parsed.error;
  }
  EXPECT_EQ(parse_nodes("99999999999999999999").error,
            "invalid node count \"99999999999999999999\": 99999999999999999999 is too large (at "
            "most 2147483647) (forms: N, min-max, or a list such as 2,4,8 or 1-15:4)");
}

TEST(ParseNodes, LargestValuesAndHugeListsAreBounded) {
  ASSERT_TRUE(parse_nodes("2147483647"));
  EXPECT_EQ(parse_nodes("2147483647")->max, 2147483647u);
  ASSERT_TRUE(parse_nodes("2097151k"));
  EXPECT_EQ(parse_nodes("2097151k")->min, 2097151u * 1024);
  // A range is never materialised; a size list is, so it is capped.
  EXPECT_TRUE(parse_nodes("1-2147483647"));
  EXPECT_NE(parse_nodes("1-2147483647:1").error.find("more than 100000"), std::string::npos);
  ASSERT_TRUE(parse_nodes("1-2147483647:1000000"));
  EXPECT_EQ(parse_nodes("1-2147483647:1000000")->sizes.size(), 2148u);
  EXPECT_EQ(parse_nodes("2147483640-2147483647:5")->sizes,
            (std::vector<uint64_t>{2147483640, 2147483645}));
}

// --- positive integers ----------------------------------------------------------

TEST(ParsePositiveInt, AcceptsWhatStrtolAccepts) {
  const std::pair<const char*, uint64_t> cases[] = {
      {"1", 1}, {"8", 8}, {"0008", 8}, {"+4", 4}, {" 4", 4}, {"2147483647", 2147483647}};
  for (const auto& [text, value] : cases) {
    SCOPED_TRACE(text);
    ASSERT_TRUE(parse_positive_int(text)) << parse_positive_int(text).error;
    EXPECT_EQ(*parse_positive_int(text), value);
  }
}

TEST(ParsePositiveInt, Rejects) {
  const BadCase cases[] = {
      {"0", "must be positive"},
      {"-1", "must be positive"},
      {"-0", "must be positive"},
      {"", "expected a positive integer"},
      {"4 ", "expected a positive integer"},
      {"4k", "expected a positive integer"},
      {"1.0", "expected a positive integer"},
      {"0x10", "expected a positive integer"},
      {"eight", "expected a positive integer"},
      {"2147483648", "too large"},
      {"99999999999999999999999", "too large"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_FALSE(parse_positive_int(c.text));
    EXPECT_NE(parse_positive_int(c.text).error.find(c.why), std::string::npos)
        << parse_positive_int(c.text).error;
  }
  EXPECT_EQ(parse_positive_int("0").error, "invalid number \"0\": must be positive");
}

// --- GPU counts -----------------------------------------------------------------

TEST(ParseGpuCounts, TypedAndUntyped) {
  auto parsed = parse_gpu_counts("8");
  ASSERT_TRUE(parsed);
  ASSERT_EQ(parsed->size(), 1u);
  EXPECT_EQ((*parsed)[0].type, "");
  EXPECT_EQ((*parsed)[0].count, 8u);

  parsed = parse_gpu_counts("a100:8");
  ASSERT_TRUE(parsed);
  EXPECT_EQ((*parsed)[0].type, "a100");
  EXPECT_EQ((*parsed)[0].count, 8u);

  parsed = parse_gpu_counts("volta:3,kepler:1");
  ASSERT_TRUE(parsed);
  ASSERT_EQ(parsed->size(), 2u);
  EXPECT_EQ((*parsed)[0].type, "volta");
  EXPECT_EQ((*parsed)[1].type, "kepler");
  EXPECT_EQ((*parsed)[1].count, 1u);

  parsed = parse_gpu_counts("tesla_v100-sxm2.16gb:2");
  ASSERT_TRUE(parsed);
  EXPECT_EQ((*parsed)[0].type, "tesla_v100-sxm2.16gb");

  parsed = parse_gpu_counts("h100:0");
  ASSERT_TRUE(parsed);
  EXPECT_EQ((*parsed)[0].count, 0u);
}

TEST(ParseGpuCounts, Rejects) {
  for (const char* text : {"", "a100", "a100:", ":8", "8,", "gpu:a100:8", "8 ", "a 100:8",
                           "a100:8x", "-1", "a100=8"}) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(parse_gpu_counts(text));
    EXPECT_NE(parse_gpu_counts(text).error.find("expected [type:]count"), std::string::npos);
  }
  EXPECT_NE(parse_gpu_counts("a100:99999999999999999999").error.find("too large"),
            std::string::npos);
  EXPECT_NE(parse_gpu_counts("2147483648").error.find("too large"), std::string::npos);
}

// --- GRES -------------------------------------------------------------------------

struct GresCase {
  const char* text;
  std::vector<GresEntry> entries;
};

TEST(ParseGres, Forms) {
  const GresCase cases[] = {
      {"gpu", {{"gpu", "", 1}}},
      {"gpu:4", {{"gpu", "", 4}}},
      {"gpu:a100:4", {{"gpu", "a100", 4}}},
      {"gpu:a100", {{"gpu", "a100", 1}}},
      {"gpu:a100:4,nvme:1", {{"gpu", "a100", 4}, {"nvme", "", 1}}},
      {"gres/gpu:4", {{"gpu", "", 4}}},
      {"gres/gpu:h100:8", {{"gpu", "h100", 8}}},
      {"gpu=2", {{"gpu", "", 2}}},
      {"gpu:2k", {{"gpu", "", 2048}}},
      {"shard:1K", {{"shard", "", 1024}}},
      {"mps:1m", {{"mps", "", 1048576}}},
      {"bandwidth:1G", {{"bandwidth", "", 1073741824}}},
      {"bandwidth:1t", {{"bandwidth", "", 1099511627776}}},
      {"bandwidth:1P", {{"bandwidth", "", 1125899906842624}}},
      {"gpu:0", {}},
      {"gpu:0,nvme:2", {{"nvme", "", 2}}},
      {"gpu:4x", {{"gpu", "4x", 1}}},  // not a number, so a type
      {"none", {}},
      {"NONE", {}},
  };
  for (const GresCase& c : cases) {
    SCOPED_TRACE(c.text);
    const auto parsed = parse_gres(c.text);
    ASSERT_TRUE(parsed) << parsed.error;
    EXPECT_EQ(*parsed, c.entries);
  }
}

TEST(ParseGres, Rejects) {
  const BadCase cases[] = {
      {"gpu:", "the count after 'gpu:' is missing"},
      {"gpu:a100:", "is missing"},
      {":4", "a GRES name is missing"},
      {"", "a GRES name is missing"},
      {"gpu,,nvme", "a GRES name is missing"},
      {"gpu:a100:fast", "'fast' is not a count"},
      {"gpu:a:b:4", "too many ':'"},
      {"gpu::4", "the type between ':' is empty"},
      {"gpu:99999999999999999999", "is too large"},
      {"gpu:16777216P", "is too large"},
      {"gpu 4", "unexpected \" \""},
      {"gpu/a100:4", "unexpected \"/\""},
      {"help", "only lists the available GRES"},
      {"list", "only lists the available GRES"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.text);
    const auto parsed = parse_gres(c.text);
    EXPECT_FALSE(parsed);
    EXPECT_NE(parsed.error.find(c.why), std::string::npos) << parsed.error;
  }
  EXPECT_EQ(parse_gres("gpu:").error,
            "invalid GRES \"gpu:\": the count after 'gpu:' is missing (form: "
            "name[[:type]:count][,...], e.g. gpu:a100:4)");
}

// --- TRES per task --------------------------------------------------------------------

TEST(ParseTres, Forms) {
  auto parsed = parse_tres("cpu=4");
  ASSERT_TRUE(parsed) << parsed.error;
  EXPECT_EQ((*parsed)[0].type, "cpu");
  EXPECT_EQ((*parsed)[0].count, 4u);

  parsed = parse_tres("gres/gpu=2");
  ASSERT_TRUE(parsed) << parsed.error;
  EXPECT_EQ((*parsed)[0].type, "gres");
  EXPECT_EQ((*parsed)[0].name, "gpu");
  EXPECT_EQ((*parsed)[0].subtype, "");
  EXPECT_EQ((*parsed)[0].count, 2u);

  parsed = parse_tres("gres/gpu:a100=2,cpu=4");
  ASSERT_TRUE(parsed) << parsed.error;
  ASSERT_EQ(parsed->size(), 2u);
  EXPECT_EQ((*parsed)[0].subtype, "a100");
  EXPECT_EQ((*parsed)[0].count, 2u);
  EXPECT_EQ((*parsed)[1].type, "cpu");

  parsed = parse_tres("gres/gpu:1");  // the spelling of SLURM_TRES_PER_TASK
  ASSERT_TRUE(parsed) << parsed.error;
  EXPECT_EQ((*parsed)[0].count, 1u);
  EXPECT_EQ((*parsed)[0].subtype, "");

  parsed = parse_tres("mem=16G");
  ASSERT_TRUE(parsed) << parsed.error;
  EXPECT_EQ((*parsed)[0].type, "mem");
  EXPECT_EQ((*parsed)[0].count, 16384u);

  parsed = parse_tres("license/matlab=1");
  ASSERT_TRUE(parsed) << parsed.error;
  EXPECT_EQ((*parsed)[0].type, "license");
  EXPECT_EQ((*parsed)[0].name, "matlab");
  EXPECT_EQ((*parsed)[0].count, 1u);
}

TEST(ParseTres, Rejects) {
  const BadCase cases[] = {
      {"cpu", "the count for 'cpu' is missing"},
      {"cpu=", "is not a count"},
      {"cpu=four", "'four' is not a count"},
      {"=4", "the TRES type is missing"},
      {"gres/=2", "the name after '/' is missing"},
      {"gres/gpu:", "is missing"},
      {"mem=1.5G", "only whole numbers"},
      {"cpu=99999999999999999999", "is too large"},
      {"cpu=4 ", "unexpected \" \""},
      {"a/b/c=1", "only one '/' is allowed"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.text);
    const auto parsed = parse_tres(c.text);
    EXPECT_FALSE(parsed);
    EXPECT_NE(parsed.error.find(c.why), std::string::npos) << parsed.error;
  }
}

// --- memory -----------------------------------------------------------------------

TEST(ParseMemory, UnitsAndRounding) {
  const std::pair<const char*, uint64_t> cases[] = {
      {"4000", 4000},  {"0", 0},  // --mem=0: all memory of the node
      {"16G", 16384},  {"16g", 16384},
      {"16GB", 16384}, {"16gb", 16384},
      {"16Gb", 16384}, {"512m", 512},
      {"512M", 512},   {"512MB", 512},
      {"100k", 1},  // KiB round up to whole MiB
      {"1024K", 1},    {"1025K", 2},
      {"0K", 0},       {"2048KB", 2},
      {"1T", 1048576}, {"2tb", 2097152},
      {"+8G", 8192},   {"17592186044415T", 18446744073708503040ULL},
  };
  for (const auto& [text, mib] : cases) {
    SCOPED_TRACE(text);
    const Parsed<uint64_t> parsed = parse_memory_mib(text);
    ASSERT_TRUE(parsed) << parsed.error;
    EXPECT_EQ(*parsed, mib);
  }
}

// Checklist §7.18.
TEST(ParseMemory, Rejects) {
  const BadCase cases[] = {
      {"1.5G", "only whole numbers are allowed (use a smaller unit, e.g. 1536M for 1.5G)"},
      {"-1", "must not be negative"},
      {"-16G", "must not be negative"},
      {"1P", "there is no P unit"},
      {"16GiB", "unexpected \"i\""},
      {"16 G", "unexpected \" \""},
      {"16B", "unexpected \"B\""},
      {"G", "unexpected \"G\""},
      {"", "a number is needed"},
      {"16GBB", "unexpected \"B\""},
      {"99999999999999999999", "the number is too large"},
      {"17592186044416T", "the size is too large"},
      {"18014398509481984G", "the size is too large"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.text);
    const Parsed<uint64_t> parsed = parse_memory_mib(c.text);
    EXPECT_FALSE(parsed);
    EXPECT_NE(parsed.error.find(c.why), std::string::npos) << parsed.error;
  }
  EXPECT_EQ(parse_memory_mib("1.5G").error,
            "invalid memory size \"1.5G\": only whole numbers are allowed (use a smaller unit, "
            "e.g. 1536M for 1.5G) (form: integer with optional K, M, G or T, default M, e.g. "
            "4000, 16G, 512M)");
}

}  // namespace
}  // namespace s2a::values
