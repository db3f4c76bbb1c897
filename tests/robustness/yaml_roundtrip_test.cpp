// Every YAML slurm2air emits for the test inputs (goldens, corpus, the
// conformance variants) must read back the same with yaml-cpp and with
// Python's PyYAML (YAML 1.1: `on`, `yes`, `0x1`, `1e3` are not strings
// there) and pass the workload schema (tests/robustness/yaml_check.py, run
// once over all files).
#include <gtest/gtest.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>

#include "emit/json_writer.hpp"
#include "support/run_process.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

namespace fs = std::filesystem;
const fs::path kRoot = SLURM2AIR_SOURCE_DIR;

void flatten(const YAML::Node& node, const std::string& path,
             std::map<std::string, std::string>& out) {
  if (node.IsMap()) {
    for (const auto& item : node) {
      const std::string key = item.first.as<std::string>();
      flatten(item.second, path.empty() ? key : path + "." + key, out);
    }
  } else if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i)
      flatten(node[i], path + "[" + std::to_string(i) + "]", out);
  } else {
    out[path] = node.IsNull() ? "None" : node.as<std::string>();
  }
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::vector<fs::path> inputs(const fs::path& variants) {
  std::vector<fs::path> files;
  for (const fs::path& dir : {kRoot / "corpus", kRoot / "tests/golden", variants}) {
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      if (entry.is_regular_file() && (name.ends_with(".sbatch") || name.ends_with(".sh"))) {
        files.push_back(entry.path());
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(YamlRoundTrip, PyYamlAndYamlCppReadTheSameValidWorkload) {
  const fs::path dir = fs::temp_directory_path() / ("s2a-yaml-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "out");
  const auto gen =
      testing::run_process("python3", {(kRoot / "tests/conformance/generate_variants.py").string(),
                                       (dir / "variants").string(), "--dep-job", "123"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;

  size_t emitted = 0;
  size_t index = 0;
  for (const fs::path& input : inputs(dir / "variants")) {
    for (const bool comments : {true, false}) {
      TranslateOptions options;
      options.provenance_comments = comments;
      const Translation t = translate(input.string(), testing::read_file(input.string()), options);
      if (!t.workload) continue;
      const std::string stem = (dir / "out" / std::to_string(index++)).string();
      testing::write_file(stem + ".yaml", t.yaml);
      std::map<std::string, std::string> flat;
      flatten(YAML::Load(t.yaml), "", flat);
      std::string json = "{";
      for (const auto& [key, value] : flat) {
        json += (json.size() > 1 ? "," : "") + json_string(key) + ":" + json_string(value);
      }
      testing::write_file(stem + ".cpp.json", json + "}");
      ++emitted;
    }
  }
  EXPECT_GT(emitted, 500u);
  const auto check = testing::run_process(
      "python3", {(kRoot / "tests/robustness/yaml_check.py").string(), (dir / "out").string()});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  std::printf("%s", check.out.substr(check.out.rfind("yaml_check.py")).c_str());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace s2a
