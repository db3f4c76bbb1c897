// Tests for parse_mail_type(), parse_signal(), parse_export() and parse_gpu_bind()
// (spec §2.13–2.15, §2.5).
#include <gtest/gtest.h>

#include <tuple>

#include "grammar/values.hpp"

namespace s2a::values {
namespace {

using Words = std::vector<std::string>;

// --- mail types ---------------------------------------------------------------------

TEST(ParseMailType, KnownWordsInFixedOrder) {
  const std::pair<const char*, Words> cases[] = {
      {"BEGIN", {"BEGIN"}},
      {"end", {"END"}},
      {"Fail", {"FAIL"}},
      {"END,BEGIN", {"BEGIN", "END"}},
      {"ALL", {"BEGIN", "END", "FAIL", "REQUEUE", "INVALID_DEPEND", "STAGE_OUT"}},
      {"all,time_limit_90",
       {"BEGIN", "END", "FAIL", "REQUEUE", "INVALID_DEPEND", "STAGE_OUT", "TIME_LIMIT_90"}},
      {"TIME_LIMIT,TIME_LIMIT_80,TIME_LIMIT_50", {"TIME_LIMIT", "TIME_LIMIT_80", "TIME_LIMIT_50"}},
      {"ARRAY_TASKS,END", {"END", "ARRAY_TASKS"}},
      {"BEGIN,,END", {"BEGIN", "END"}},
      {"BEGIN,BEGIN", {"BEGIN"}},
      {"NONE", {}},
      {"BEGIN,NONE", {}},
      {"none,END", {}},
  };
  for (const auto& [text, types] : cases) {
    SCOPED_TRACE(text);
    const Parsed<MailTypes> parsed = parse_mail_type(text);
    ASSERT_TRUE(parsed) << parsed.error;
    EXPECT_EQ(parsed->types, types);
    EXPECT_TRUE(parsed->unknown.empty());
  }
}

TEST(ParseMailType, UnknownWordsAreCollectedWhileOneIsValid) {
  const Parsed<MailTypes> parsed = parse_mail_type("BEGIN,start,END,finish");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->types, (Words{"BEGIN", "END"}));
  EXPECT_EQ(parsed->unknown, (Words{"start", "finish"}));
  for (const char* text : {"start", "", ",", "begin end", "BEGINS"}) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(parse_mail_type(text));
    EXPECT_NE(parse_mail_type(text).error.find("no known type"), std::string::npos);
  }
}

// --- signals --------------------------------------------------------------------------

struct SignalCase {
  const char* text;
  bool batch, reservation;
  const char* name;
  uint32_t seconds;
};

TEST(ParseSignal, Forms) {
  const SignalCase cases[] = {
      {"USR1", false, false, "USR1", 60},
      {"SIGUSR1", false, false, "USR1", 60},
      {"sigusr1", false, false, "USR1", 60},
      {"usr2@90", false, false, "USR2", 90},
      {"B:USR1@300", true, false, "USR1", 300},
      {"b:USR1@300", true, false, "USR1", 300},
      {"R:TERM", false, true, "TERM", 60},
      {"BR:USR1@10", true, true, "USR1", 10},
      {"RB:USR1", true, true, "USR1", 60},
      {"BUSR1", true, false, "USR1", 60},  // the ':' may be left out
      {"10", false, false, "10", 60},
      {"B:10@0", true, false, "10", 0},
      {"SIGTERM@65535", false, false, "TERM", 65535},
      {"XCPU", false, false, "XCPU", 60},
      {"KILL@1", false, false, "KILL", 1},
      {"7", false, false, "7", 60},
  };
  for (const SignalCase& c : cases) {
    SCOPED_TRACE(c.text);
    const Parsed<Signal> parsed = parse_signal(c.text);
    ASSERT_TRUE(parsed) << parsed.error;
    EXPECT_EQ(parsed->batch_only, c.batch);
    EXPECT_EQ(parsed->reservation, c.reservation);
    EXPECT_EQ(parsed->name, c.name);
    EXPECT_EQ(parsed->seconds, c.seconds);
  }
}

TEST(ParseSignal, Rejects) {
  const std::pair<const char*, const char*> cases[] = {
      {"BUS", "unknown signal name 'US'"},
      {"SEGV", "unknown signal name 'SEGV'"},
      {"SIG", "unknown signal name 'SIG'"},
      {"0", "signal number 0 is out of range"},
      {"65536", "signal number 65536 is out of range"},
      {"99999999999999999999", "is out of range"},
      {"USR1@65536", "@65536 is out of range (0-65535)"},
      {"USR1@99999999999999999999", "is out of range"},
      {"USR1@", "the signal or the seconds are missing"},
      {"USR1@-5", "unexpected \"@\""},
      {"B:", "the signal or the seconds are missing"},
      {"", "the signal or the seconds are missing"},
      {"BB:USR1", "the prefix repeats 'B'"},
      {"X:USR1", "unexpected \":\""},
      {"USR1 ", "unexpected \" \""},
  };
  for (const auto& [text, why] : cases) {
    SCOPED_TRACE(text);
    const Parsed<Signal> parsed = parse_signal(text);
    EXPECT_FALSE(parsed);
    EXPECT_NE(parsed.error.find(why), std::string::npos) << parsed.error;
  }
  EXPECT_EQ(parse_signal("SEGV").error,
            "invalid signal \"SEGV\": unknown signal name 'SEGV' (known: HUP INT QUIT ABRT KILL "
            "ALRM TERM CHLD USR1 USR2 PIPE URG CONT STOP TSTP TTIN TTOU XCPU; use the number for "
            "others) (form: [B:|R:]signal[@seconds], e.g. B:USR1@300)");
}

// --- export -----------------------------------------------------------------------------

TEST(ParseExport, Modes) {
  EXPECT_EQ(parse_export("ALL")->mode, ExportSpec::Mode::all);
  EXPECT_EQ(parse_export("all")->mode, ExportSpec::Mode::all);
  EXPECT_EQ(parse_export("NONE")->mode, ExportSpec::Mode::none);
  EXPECT_EQ(parse_export("None")->mode, ExportSpec::Mode::none);
  EXPECT_EQ(parse_export("NIL")->mode, ExportSpec::Mode::nil);
  EXPECT_EQ(parse_export("nil")->mode, ExportSpec::Mode::nil);
  EXPECT_TRUE(parse_export("ALL")->items.empty());
}

TEST(ParseExport, Lists) {
  Parsed<ExportSpec> parsed = parse_export("ALL,NCCL_DEBUG=INFO,PATH");
  ASSERT_TRUE(parsed) << parsed.error;
  EXPECT_EQ(parsed->mode, ExportSpec::Mode::list);
  EXPECT_TRUE(parsed->with_all);
  ASSERT_EQ(parsed->items.size(), 2u);
  EXPECT_EQ(parsed->items[0].name, "NCCL_DEBUG");
  EXPECT_EQ(parsed->items[0].value, "INFO");
  EXPECT_EQ(parsed->items[1].name, "PATH");
  EXPECT_FALSE(parsed->items[1].value.has_value());

  parsed = parse_export("HOME,A=1=2,EMPTY=");
  ASSERT_TRUE(parsed) << parsed.error;
  EXPECT_FALSE(parsed->with_all);
  ASSERT_EQ(parsed->items.size(), 3u);
  EXPECT_EQ(parsed->items[1].value, "1=2");
  EXPECT_EQ(parsed->items[2].value, "");

  // Commas inside quotes do not split (find_quote_token()); quotes stay.
  parsed = parse_export("LIST=\"a,b\",X='c,d',Y=2");
  ASSERT_TRUE(parsed) << parsed.error;
  ASSERT_EQ(parsed->items.size(), 3u);
  EXPECT_EQ(parsed->items[0].value, "\"a,b\"");
  EXPECT_EQ(parsed->items[1].value, "'c,d'");
  EXPECT_EQ(parsed->items[2].value, "2");

  parsed = parse_export("A=\"unterminated,B=2");
  ASSERT_TRUE(parsed) << parsed.error;
  ASSERT_EQ(parsed->items.size(), 1u);
  EXPECT_EQ(parsed->items[0].value, "\"unterminated,B=2");

  parsed = parse_export("A,,B,");
  ASSERT_TRUE(parsed) << parsed.error;
  EXPECT_EQ(parsed->items.size(), 2u);

  parsed = parse_export("all,A");
  ASSERT_TRUE(parsed);
  EXPECT_TRUE(parsed->with_all);
}

TEST(ParseExport, Rejects) {
  EXPECT_FALSE(parse_export(""));
  EXPECT_FALSE(parse_export(","));
  EXPECT_NE(parse_export(",").error.find("the list is empty"), std::string::npos);
  EXPECT_EQ(parse_export("=1").error,
            "invalid --export value \"=1\": item \"=1\" has no variable name before '='");
}

// --- GPU binding ---------------------------------------------------------------------

TEST(ParseGpuBind, Bindings) {
  using Kind = GpuBind::Kind;
  const std::tuple<const char*, Kind, uint64_t, bool> cases[] = {
      {"none", Kind::none, 0, false},
      {"closest", Kind::closest, 0, false},
      {"verbose,closest", Kind::closest, 0, true},
      {"verbose", Kind::none, 0, true},
      {"per_task:1", Kind::per_task, 1, false},
      {"verbose,per_task:2", Kind::per_task, 2, true},
      {"single:4", Kind::single, 4, false},
      {"map_gpu:0,1,2,3", Kind::map, 0, false},
      {"map:0,1", Kind::map, 0, false},
      {"mask_gpu:0x1,0x2", Kind::mask, 0, false},
  };
  for (const auto& [text, kind, count, verbose] : cases) {
    const auto parsed = parse_gpu_bind(text);
    ASSERT_TRUE(parsed) << text << ": " << parsed.error;
    EXPECT_EQ(parsed->kind, kind) << text;
    EXPECT_EQ(parsed->count, count) << text;
    EXPECT_EQ(parsed->verbose, verbose) << text;
  }
}

TEST(ParseGpuBind, Rejects) {
  EXPECT_EQ(parse_gpu_bind("per_task:0").error,
            "invalid --gpu-bind value \"per_task:0\": per_task: needs a positive count");
  EXPECT_FALSE(parse_gpu_bind("single:"));
  EXPECT_FALSE(parse_gpu_bind("map_gpu:"));
  EXPECT_FALSE(parse_gpu_bind("nearest"));
  EXPECT_FALSE(parse_gpu_bind(""));
  EXPECT_FALSE(parse_gpu_bind("verbosely"));
}

}  // namespace
}  // namespace s2a::values
