// read_simple_yaml() must read what YAML::Load reads (values and scalar tags)
// or decline: checked on train.yaml-shaped documents with random values.
#include "emit/yaml_reader.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <random>
#include <string>
#include <vector>

#include "emit/yaml_writer.hpp"

namespace s2a::emit {
namespace {

// The same shape as train.yaml, written by yaml-cpp.
std::string document(const std::vector<std::string>& values, const std::string& command) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "experiment_name" << YAML::Value << values[0] << YAML::Comment("line 2: x");
  out << YAML::Key << "environment" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "version" << YAML::Value << YAML::SingleQuoted << values[1];
  out << YAML::Key << "dependencies" << YAML::Value << YAML::BeginSeq;
  for (size_t i = 2; i < values.size(); ++i) out << values[i];
  out << YAML::EndSeq << YAML::EndMap;
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
  return std::string(out.c_str()) + "\n";
}

// Returns whether the fast reader took the document.
bool expect_same_or_declined(const std::string& text) {
  std::optional<YamlDoc> fast = read_simple_yaml(text);
  if (!fast) return false;
  YamlDoc reference;
  try {
    reference = to_yaml_doc(YAML::Load(text));
  } catch (const YAML::Exception& error) {
    ADD_FAILURE() << "the fast reader read a document yaml-cpp refuses: " << text;
    return true;
  }
  EXPECT_TRUE(*fast == reference) << text;
  return true;
}

TEST(YamlReader, ReadsWhatYamlCppReads) {
  std::mt19937 rng(2024);
  const std::string alphabet = "ab: #-?'\"\\,[]{}&*!|>%@`~$=/.01\t\n";
  auto random_string = [&](size_t max) {
    std::string s;
    const size_t n = rng() % (max + 1);
    for (size_t i = 0; i < n; ++i) s += alphabet[rng() % alphabet.size()];
    return s;
  };
  int taken = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::string> values;
    for (int i = 0; i < 4; ++i) values.push_back(random_string(8));
    std::string command = "x" + random_string(40);
    SCOPED_TRACE(document(values, command));
    taken += expect_same_or_declined(document(values, command)) ? 1 : 0;
  }
  EXPECT_GT(taken, 100);  // the fast path is actually exercised
}

TEST(YamlReader, ReadsUtf8LiteralBlocksLikeYamlCpp) {
  const std::string text =
      document({"a", "3.11", "torch"},
               "echo caf\xc3\xa9 \xe2\x9c\x93\n\n  # \xf0\x9f\x9a\x80 \xe6\x97\xa5\n");
  EXPECT_TRUE(expect_same_or_declined(text));
  // NEL is a line break to other readers: declined, yaml-cpp decides.
  EXPECT_FALSE(read_simple_yaml(document({"a", "3.11", "torch"},
                                         "a\xc2\x85"
                                         "b\n"))
                   .has_value());
}

TEST(YamlReader, ReadsUtf8PlainScalarsAndTabsInCommentsLikeYamlCpp) {
  const std::string text =
      "experiment_name: job  # line 27: srun \\\t--container-mounts=/x\n"
      "env_variables:\n  PATH: /work/anaconda3/bin:\xc2\xa3PATH  # line 14: \xc2\xa3\n"
      "  NOTE: 'caf\xc3\xa9 \xe6\x97\xa5'\n"
      "command: |\n  python t.py\n";
  ASSERT_TRUE(expect_same_or_declined(text));
  const std::optional<YamlDoc> doc = read_simple_yaml(text);
  EXPECT_EQ(YamlDoc::text_or(doc->find("env_variables")->find("PATH")),
            "/work/anaconda3/bin:\xc2\xa3PATH");
  // A NEL in a comment would end the line for other readers: declined.
  EXPECT_FALSE(read_simple_yaml("a: b  # x\xc2\x85y\n").has_value());
}

TEST(YamlReader, ReadsTrainYaml) {
  const std::string text =
      "experiment_name: llama-sft  # line 2: --job-name=llama-sft\n"
      "environment:\n  version: '4'\n  dependencies:\n    - transformers>=4.45\n"
      "compute:\n  num_accelerators: 16  # 16 GPUs\n  accelerator_type: GPU_8xH100\n"
      "command: |\n  cd \"$CODE_SOURCE_PATH\"\n\n  torchrun \\\n    train.py\n"
      "max_retries: 1\n";
  std::optional<YamlDoc> doc = read_simple_yaml(text);
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(YamlDoc::text_or(doc->find("command")),
            "cd \"$CODE_SOURCE_PATH\"\n\ntorchrun \\\n  train.py\n");
  EXPECT_EQ(YamlDoc::integer(doc->find("compute")->find("num_accelerators")), 16);
  EXPECT_FALSE(doc->find("environment")->find("version")->plain);
  EXPECT_TRUE(doc->find("experiment_name")->plain);
  expect_same_or_declined(text);
}

// Job arrays put a block of submission commands at the top of train.yaml.
TEST(YamlReader, ReadsCommentLinesLikeYamlCpp) {
  const std::string text =
      "# Slurm job array --array=1-3: one run per index. Submit them with:\n"
      "#   databricks air run --file train.yaml --override parameters.array_task_id=1\n"
      "experiment_name: sweep  # line 2\n"
      "compute:\n  num_accelerators: 8\n# between keys\n  accelerator_type: GPU_8xH100\n"
      "command: |\n  cd \"$CODE_SOURCE_PATH\"\n  # a comment of the script itself\n  python t.py\n"
      "# trailing\n";
  ASSERT_TRUE(expect_same_or_declined(text));
  const std::optional<YamlDoc> doc = read_simple_yaml(text);
  EXPECT_EQ(YamlDoc::text_or(doc->find("command")),
            "cd \"$CODE_SOURCE_PATH\"\n# a comment of the script itself\npython t.py\n");
}

// The literal block's own line reading: where it ends, empty lines inside
// and after it, deeper indentation, and the lines it must decline.
TEST(YamlReader, ReadsLiteralBlockLinesLikeYamlCpp) {
  const std::string text = "command: |\n  a\n\n\n    b \\\n      c\n  d\n\n\nmax_retries: 1\n";
  ASSERT_TRUE(expect_same_or_declined(text));
  const std::optional<YamlDoc> doc = read_simple_yaml(text);
  EXPECT_EQ(YamlDoc::text_or(doc->find("command")), "a\n\n\n  b \\\n    c\nd\n");
  EXPECT_EQ(YamlDoc::integer(doc->find("max_retries")), 1);
  // At the end of the document, with and without empty lines after it.
  EXPECT_EQ(YamlDoc::text_or(read_simple_yaml("command: |\n  x\n  y\n")->find("command")),
            "x\ny\n");
  EXPECT_EQ(YamlDoc::text_or(read_simple_yaml("command: |\n  x\n\n\n")->find("command")), "x\n");
  // Nested: the block ends at a line indented less than its own.
  const std::string nested = "a:\n  command: |\n    x\n  y: 1\nb: 2\n";
  ASSERT_TRUE(expect_same_or_declined(nested));
  EXPECT_EQ(YamlDoc::text_or(read_simple_yaml(nested)->find("a")->find("command")), "x\n");
  for (const char* declined : {"command: |\n  x\n    \n  y\n",  // a whitespace-only line
                               "command: |\n  x\n  \n",         // ... at the end
                               "command: |\n   x\n",            // deeper than the map's step
                               "command: |\n\n  x\n", "command: |\n", "command: |\nb: 1\n"}) {
    EXPECT_FALSE(read_simple_yaml(declined).has_value()) << declined;
  }
}

TEST(YamlReader, DeclinesWhatItDoesNotKnow) {
  for (const char* text : {"a: [1, 2]\n", "a: {b: c}\n", "a: &x 1\n", "a: >\n  folded\n",
                           "a: |-\n  x\n", "a: caf\xc3\xa9\xc2\x9f\n", "- a\n", "a: b\na: c\n",
                           "\"a\": b\n", "a:\n  b: \"\\n\"\n", "a: |\n\n    x\n", ""}) {
    EXPECT_FALSE(read_simple_yaml(text).has_value()) << text;
  }
}

// yaml-cpp reads a raw DEL or C0/C1 control; PyYAML and the CLI's reader
// refuse the document, so the check does too.
TEST(YamlReader, RefusesCharactersYamlForbids) {
  for (const char* text : {"a: \"x\x7Fy\"\n", "a: \"x\x01y\"\n", "a: b  # x\x7F\n",
                           "a: \"x\xC2\x9By\"\n", "a: x\ry\n"}) {
    EXPECT_THROW((void)load_yaml(text), YAML::Exception) << text;
  }
  EXPECT_EQ(load_yaml("a: \"x\\x7Fy\\x9b\"\n").entries.at(0).second.scalar,
            "x\x7F"
            "y\xC2\x9B");
}

}  // namespace
}  // namespace s2a::emit
