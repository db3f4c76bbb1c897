// The first golden: the migration guide's sbatch script must translate into
// the guide's train.yaml (same values; the command equal up to comments and
// whitespace).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <sstream>

#include "support/run_process.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

const std::string kSeedDir = std::string(SLURM2AIR_SOURCE_DIR) + "/tests/golden/seed/migration-guide";

/// The command's lines without comments, blank lines or surrounding blanks.
std::vector<std::string> command_lines(const std::string& command) {
  std::vector<std::string> lines;
  std::istringstream in(command);
  for (std::string line; std::getline(in, line);) {
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    const size_t last = line.find_last_not_of(" \t");
    lines.push_back(line.substr(first, last - first + 1));
  }
  return lines;
}

TEST(Seed, MigrationGuideExampleTranslatesToTheGuidesTrainYaml) {
  TranslateOptions options;
  options.env_version = "4";
  options.dependencies = {"transformers>=4.45", "datasets>=3.0"};
  const Translation t = translate("job.sbatch", testing::read_file(kSeedDir + "/job.sbatch"), options);
  ASSERT_TRUE(t.workload.has_value());
  const YAML::Node actual = YAML::Load(t.yaml);
  const YAML::Node seed = YAML::LoadFile(kSeedDir + "/seed.yaml");

  for (const char* key : {"experiment_name", "timeout_minutes", "max_retries"}) {
    EXPECT_EQ(seed[key].as<std::string>(), actual[key].as<std::string>()) << key;
  }
  EXPECT_EQ(seed["environment"]["version"].as<std::string>(),
            actual["environment"]["version"].as<std::string>());
  EXPECT_EQ(seed["environment"]["dependencies"].as<std::vector<std::string>>(),
            actual["environment"]["dependencies"].as<std::vector<std::string>>());
  EXPECT_EQ(seed["compute"]["num_accelerators"].as<int>(), actual["compute"]["num_accelerators"].as<int>());
  EXPECT_EQ(seed["compute"]["accelerator_type"].as<std::string>(),
            actual["compute"]["accelerator_type"].as<std::string>());
  EXPECT_EQ(seed["code_source"]["type"].as<std::string>(), actual["code_source"]["type"].as<std::string>());
  EXPECT_EQ(seed["code_source"]["snapshot"]["root_path"].as<std::string>(),
            actual["code_source"]["snapshot"]["root_path"].as<std::string>());
  EXPECT_EQ(command_lines(seed["command"].as<std::string>()),
            command_lines(actual["command"].as<std::string>()))
      << actual["command"].as<std::string>();
  // Same keys, nothing extra.
  std::vector<std::string> seed_keys, actual_keys;
  for (const auto& entry : seed) seed_keys.push_back(entry.first.as<std::string>());
  for (const auto& entry : actual) actual_keys.push_back(entry.first.as<std::string>());
  std::sort(seed_keys.begin(), seed_keys.end());
  std::sort(actual_keys.begin(), actual_keys.end());
  EXPECT_EQ(seed_keys, actual_keys);
}

}  // namespace
}  // namespace s2a
