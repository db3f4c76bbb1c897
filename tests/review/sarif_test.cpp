// SARIF 2.1.0 structure: the properties the specification requires, with the
// right JSON types, read back with a YAML parser (JSON is YAML 1.2).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <set>

#include "emit/sarif.hpp"
#include "translate.hpp"

namespace s2a::emit {
namespace {

bool is_string(const YAML::Node& node) {
  return node.IsScalar() && node.Tag() == "!";  // quoted scalars carry the "!" tag
}

bool is_integer(const YAML::Node& node) {
  if (!node.IsScalar() || node.Tag() == "!") return false;
  const std::string text = node.Scalar();
  return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

constexpr const char* kScript =
    "#!/bin/bash\n#SBATCH --gpus-per-node=8\n#SBATCH --qos=high\n"
    "#SBATCH --account=ml  # slurm2air: disable=S2A3101\npython train.py\n";

std::string sarif_for(const std::string& name, const std::string& text) {
  const Translation t = translate(name, text);
  const SarifFile file{{*t.file, t.diagnostics, t.redactions, &t.suppressed}, name};
  return render_sarif({&file, 1});
}

TEST(Sarif, RequiredStructureAndTypes) {
  const YAML::Node log = YAML::Load(sarif_for("jobs/train job.sh", kScript));
  ASSERT_TRUE(log.IsMap());
  EXPECT_EQ(log["version"].as<std::string>(), "2.1.0");
  EXPECT_TRUE(is_string(log["$schema"]));
  ASSERT_TRUE(log["runs"].IsSequence());
  ASSERT_EQ(log["runs"].size(), 1U);
  const YAML::Node run = log["runs"][0];
  const YAML::Node driver = run["tool"]["driver"];
  EXPECT_EQ(driver["name"].as<std::string>(), "slurm2air");
  ASSERT_TRUE(driver["rules"].IsSequence());
  EXPECT_EQ(driver["rules"].size(), all_codes().size());
  std::set<std::string> ids;
  for (const YAML::Node& rule : driver["rules"]) {
    ASSERT_TRUE(is_string(rule["id"]));
    ids.insert(rule["id"].as<std::string>());
    EXPECT_TRUE(is_string(rule["name"]));
    EXPECT_TRUE(is_string(rule["shortDescription"]["text"]));
    EXPECT_TRUE(is_string(rule["fullDescription"]["text"]));
    EXPECT_TRUE(is_string(rule["helpUri"]));
    const std::string level = rule["defaultConfiguration"]["level"].as<std::string>();
    EXPECT_TRUE(level == "error" || level == "warning" || level == "note") << level;
  }
  EXPECT_EQ(ids.size(), all_codes().size()) << "rule ids must be unique";
  ASSERT_TRUE(run["results"].IsSequence());
  ASSERT_GE(run["results"].size(), 3U);
  size_t suppressed = 0;
  for (const YAML::Node& result : run["results"]) {
    const std::string rule_id = result["ruleId"].as<std::string>();
    EXPECT_EQ(ids.count(rule_id), 1U) << rule_id;
    ASSERT_TRUE(is_integer(result["ruleIndex"]));
    EXPECT_EQ(driver["rules"][result["ruleIndex"].as<size_t>()]["id"].as<std::string>(), rule_id);
    EXPECT_TRUE(is_string(result["level"]));
    EXPECT_TRUE(is_string(result["message"]["text"]));
    const YAML::Node location = result["locations"][0]["physicalLocation"];
    EXPECT_EQ(location["artifactLocation"]["uri"].as<std::string>(), "jobs/train%20job.sh");
    if (location["region"]) {
      for (const char* key : {"startLine", "startColumn", "endLine", "endColumn"}) {
        EXPECT_TRUE(is_integer(location["region"][key])) << key;
        EXPECT_GE(location["region"][key].as<int>(), 1) << key;
      }
    }
    EXPECT_TRUE(is_string(result["partialFingerprints"]["primaryLocationLineHash"]));
    if (result["suppressions"]) {
      ++suppressed;
      EXPECT_EQ(result["suppressions"][0]["kind"].as<std::string>(), "inSource");
    }
  }
  EXPECT_EQ(suppressed, 1U);
}

TEST(Sarif, RegionOfADirectiveValue) {
  const YAML::Node log = YAML::Load(sarif_for("job.sh", kScript));
  for (const YAML::Node& result : log["runs"][0]["results"]) {
    if (result["ruleId"].as<std::string>() != "S2A3006") continue;
    const YAML::Node region = result["locations"][0]["physicalLocation"]["region"];
    EXPECT_EQ(region["startLine"].as<int>(), 2);
    EXPECT_EQ(region["startColumn"].as<int>(), 9);
    EXPECT_EQ(region["endLine"].as<int>(), 2);
    EXPECT_EQ(region["endColumn"].as<int>(), 26);
    EXPECT_EQ(result["level"].as<std::string>(), "note");
    return;
  }
  FAIL() << "no S2A3006 result";
}

TEST(Sarif, FingerprintsAreStableWhenOtherLinesMove) {
  const auto fingerprints = [](const std::string& text) {
    std::multiset<std::string> out;
    const YAML::Node log = YAML::Load(sarif_for("job.sh", text));
    for (const YAML::Node& result : log["runs"][0]["results"]) {
      out.insert(result["ruleId"].as<std::string>() + " " +
                 result["partialFingerprints"]["primaryLocationLineHash"].as<std::string>());
    }
    return out;
  };
  std::string moved = kScript;
  moved.insert(moved.find("#SBATCH"), "# a new comment line\n");
  EXPECT_EQ(fingerprints(kScript), fingerprints(kScript));
  EXPECT_EQ(fingerprints(kScript), fingerprints(moved));
}

TEST(Sarif, AnchorsAndUris) {
  EXPECT_EQ(diagnostics_anchor(Code::gpu_model_assumed), "s2a3006-gpu_model_assumed-note");
  EXPECT_EQ(path_to_uri("a b/c#d.sh"), "a%20b/c%23d.sh");
  EXPECT_EQ(path_to_uri("/abs/x.sh"), "file:///abs/x.sh");
  EXPECT_EQ(path_to_uri("new\nline"), "new%0Aline");
}

}  // namespace
}  // namespace s2a::emit
