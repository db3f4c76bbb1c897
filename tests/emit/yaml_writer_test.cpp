// YamlWriter must write exactly what yaml-cpp writes, or report that it
// cannot (good() false): checked on tricky scalars and on random documents.
#include "emit/yaml_writer.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "emit/text_scan.hpp"

namespace s2a::emit {
namespace {

// The shape of train.yaml: nested maps, a sequence, comments, a literal block.
template <class Out>
std::pair<std::string, bool> write_document(const std::vector<std::string>& values,
                                            const std::string& command) {
  Out out;
  out << YAML::BeginMap;
  out << YAML::Key << "experiment_name" << YAML::Value << values[0] << YAML::Comment("line 2: x");
  out << YAML::Key << "environment" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "version" << YAML::Value << YAML::SingleQuoted << values[1];
  out << YAML::Key << "dependencies" << YAML::Value << YAML::BeginSeq;
  for (size_t i = 2; i < values.size(); ++i) out << values[i];
  out << YAML::EndSeq << YAML::EndMap;
  out << YAML::Key << "compute" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "num_accelerators" << YAML::Value << uint64_t{16};
  out << YAML::Comment("16 GPUs across 2 nodes; line 3: --nodes=2");
  out << YAML::Key << "accelerator_type" << YAML::Value << "GPU_8xH100";
  out << YAML::EndMap;
  out << YAML::Key << "env_variables" << YAML::Value << YAML::BeginMap;
  for (size_t i = 0; i < values.size(); ++i) {
    out << YAML::Key << ("K" + std::to_string(i)) << YAML::Value << values[i];
    out << YAML::Comment("line " + std::to_string(i));
  }
  out << YAML::EndMap;
  out << YAML::Key << "command" << YAML::Value << YAML::Literal << command;
  out << YAML::Key << "quoted" << YAML::Value << YAML::DoubleQuoted << values[0];
  out << YAML::Key << "max_retries" << YAML::Value << uint64_t{1};
  out << YAML::EndMap;
  return {out.c_str(), out.good()};
}

bool writer_should_accept(const std::vector<std::string>& values, const std::string& command) {
  for (const std::string& value : values) {
    for (char c : value) {
      if (c < 0x20 || c > 0x7E) return false;
    }
  }
  // Literal blocks also take UTF-8 (LiteralBlockTakesSafeUtf8 pins which).
  return is_literal_block_text(command);
}

// Where YamlWriter writes a document, it is yaml-cpp's byte for byte.
void expect_same_or_refused(const std::vector<std::string>& values, const std::string& command) {
  const auto [expected, expected_good] = write_document<YAML::Emitter>(values, command);
  const auto [actual, actual_good] = write_document<YamlWriter>(values, command);
  ASSERT_TRUE(expected_good);
  EXPECT_EQ(actual_good, writer_should_accept(values, command));
  if (actual_good) {
    EXPECT_EQ(actual, expected);
  }
}

TEST(YamlWriter, TrickyScalarsMatchYamlCpp) {
  const std::vector<std::string> tricky = {"plain",
                                           "",
                                           "~",
                                           "null",
                                           "Null",
                                           "NULL",
                                           "nul",
                                           "-",
                                           "- a",
                                           "-a",
                                           "?",
                                           "? x",
                                           ":",
                                           ":x",
                                           "a: b",
                                           "a:b",
                                           "a:",
                                           "a #b",
                                           "a#b",
                                           "#a",
                                           " lead",
                                           "trail ",
                                           "it's",
                                           "say \"hi\"",
                                           "back\\slash",
                                           "$SCRATCH/hf",
                                           "${SLURM_CPUS_PER_TASK:-8}",
                                           "@at",
                                           "`tick`",
                                           "%p",
                                           "&a",
                                           "*a",
                                           "!tag",
                                           "|pipe",
                                           ">gt",
                                           "[x]",
                                           "{y}",
                                           ",c",
                                           "a,b",
                                           "x[0]",
                                           "'q'",
                                           "a'b",
                                           "1:30",
                                           "true",
                                           "0x1F",
                                           "a  b",
                                           "transformers>=4.45",
                                           "-r requirements.txt",
                                           "a\tb",
                                           "a\nb",
                                           "caf\xc3\xa9",
                                           "\x01"};
  for (const std::string& value : tricky) {
    SCOPED_TRACE(value);
    expect_same_or_refused({value, value, value}, "echo " + value + "\n  indented\n\nlast");
  }
}

TEST(YamlWriter, RandomDocumentsMatchYamlCpp) {
  std::mt19937 rng(12345);
  const std::string alphabet = "ab: #-?'\"\\,[]{}&*!|>%@`~$=/.01\t\n";
  auto random_string = [&](size_t max) {
    std::string s;
    const size_t n = rng() % (max + 1);
    for (size_t i = 0; i < n; ++i) s += alphabet[rng() % alphabet.size()];
    return s;
  };
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::string> values;
    for (int i = 0; i < 4; ++i) values.push_back(random_string(8));
    std::string command = random_string(40);
    if (command.empty() || command.front() == ' ' || command.front() == '\t')
      command = "x" + command;
    expect_same_or_refused(values, command);
  }
}

// Characters every YAML reader reads back as themselves go into the literal
// block as they are, byte for byte what yaml-cpp writes; the rest are left to
// yaml-cpp (the caller double-quotes such commands).
TEST(YamlWriter, LiteralBlockTakesSafeUtf8) {
  const std::vector<std::pair<std::string, bool>> commands = {
      {"echo caf\xc3\xa9 \xe2\x9c\x93", true},                        // é, check mark
      {"echo \xe6\x97\xa5\xe6\x9c\xac\n  # \xf0\x9f\x9a\x80", true},  // CJK, emoji (4 bytes)
      {"a\xc2\xa0"
       "b",
       true},  // no-break space
      {"a\xc2\x85"
       "b",
       false},  // NEL: a line break to YAML 1.1
      {"a\xc2\x9f"
       "b",
       false},  // C1 control
      {"a\xe2\x80\xa8"
       "b",
       false},  // line separator
      {"a\xe2\x80\xa9"
       "b",
       false},  // paragraph separator
      {"a\xef\xbb\xbf"
       "b",
       false},                          // byte order mark
      {"bad\xff", false},               // not UTF-8
      {"cut\xe2\x9c", false},           // truncated sequence
      {"over\xc0\xaf", false},          // overlong '/'
      {"sur\xed\xa0\x80", false},       // UTF-16 surrogate
      {"big\xf4\x90\x80\x80", false}};  // above U+10FFFF
  for (const auto& [command, safe] : commands) {
    SCOPED_TRACE(command);
    EXPECT_EQ(is_literal_block_text(command), safe);
    expect_same_or_refused({"v", "v", "v"}, command);
  }
}

// One value written plain, in a sequence, single-quoted and in comments (one
// with a tab, as provenance comments quoting `srun \<TAB>--flag` have).
template <class Out>
std::pair<std::string, bool> write_utf8_document(const std::string& value) {
  Out out;
  out << YAML::BeginMap;
  out << YAML::Key << "plain" << YAML::Value << value << YAML::Comment("line 3: " + value);
  out << YAML::Key << "list" << YAML::Value << YAML::BeginSeq << value << YAML::EndSeq;
  out << YAML::Key << "single" << YAML::Value << YAML::SingleQuoted << value;
  out << YAML::Key << "tab" << YAML::Value << "x" << YAML::Comment("srun \\\t--mounts=" + value);
  out << YAML::EndMap;
  return {out.c_str(), out.good()};
}

TEST(YamlWriter, PlainSingleQuotedAndCommentsTakeSafeUtf8) {
  const std::vector<std::pair<std::string, bool>> values = {
      {"/work/anaconda3/bin:\xc2\xa3PATH", true},  // a pound sign, as in a real script
      {"caf\xc3\xa9", true},
      {"\xe6\x97\xa5\xe6\x9c\xac", true},  // CJK
      {"\xf0\x9f\x9a\x80 launch", true},   // emoji (4 bytes)
      {"a\xc2\xa0"
       "b",
       true},                  // no-break space
      {"\xc2\xa3: x", false},  // not plain: double quotes escape, yaml-cpp
      {"#\xc2\xa3", false},    // likewise
      {"a\xc2\x85"
       "b",
       false},                   // NEL
      {"a\xe2\x80\xa8", false},  // line separator
      {"bad\xff", false}};       // not UTF-8
  for (const auto& [value, accepted] : values) {
    SCOPED_TRACE(value);
    const auto [expected, expected_good] = write_utf8_document<YAML::Emitter>(value);
    const auto [actual, actual_good] = write_utf8_document<YamlWriter>(value);
    ASSERT_TRUE(expected_good);
    EXPECT_EQ(actual_good, accepted);
    if (actual_good) {
      EXPECT_EQ(actual, expected);
    }
  }
}

TEST(YamlWriter, RefusesWhatItCannotWrite) {
  YamlWriter utf8;  // double quotes escape some of UTF-8 (U+00A0): left to yaml-cpp
  utf8 << YAML::BeginMap << YAML::Key << "k" << YAML::Value << YAML::DoubleQuoted << "caf\xc3\xa9"
       << YAML::EndMap;
  EXPECT_FALSE(utf8.good());
  YamlWriter flow;
  flow << YAML::Flow << YAML::BeginMap << YAML::EndMap;
  EXPECT_FALSE(flow.good());
  YamlWriter long_key;
  long_key << YAML::BeginMap << YAML::Key << std::string(2000, 'k') << YAML::Value << "v";
  EXPECT_FALSE(long_key.good());
  YamlWriter fine;
  fine << YAML::BeginMap << YAML::Key << "k" << YAML::Value << "v" << YAML::EndMap;
  EXPECT_TRUE(fine.good());
  EXPECT_STREQ(fine.c_str(), "k: v");
}

TEST(YamlWriter, PlainScalarRule) {
  EXPECT_TRUE(plain_scalar_allowed("$SCRATCH/hf"));
  EXPECT_TRUE(plain_scalar_allowed("a:b"));
  EXPECT_FALSE(plain_scalar_allowed("a: b"));
  EXPECT_FALSE(plain_scalar_allowed("a #b"));
  EXPECT_FALSE(plain_scalar_allowed("- a"));
  EXPECT_FALSE(plain_scalar_allowed(""));
  EXPECT_FALSE(plain_scalar_allowed("null"));
}

}  // namespace
}  // namespace s2a::emit
