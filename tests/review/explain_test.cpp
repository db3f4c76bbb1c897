// `explain` on the seed script, golden at 80 and 140 columns
// (SLURM2AIR_UPDATE_GOLDENS=1 rewrites tests/review/golden/*).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "emit/explain.hpp"
#include "translate.hpp"

namespace s2a::emit {
namespace {

namespace fs = std::filesystem;
const fs::path kSeed = fs::path(SLURM2AIR_SOURCE_DIR) / "tests/golden/seed/migration-guide";
const fs::path kGoldens = fs::path(SLURM2AIR_SOURCE_DIR) / "tests/review/golden";

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

Translation seed_translation() {
  TranslateOptions options;  // the seed golden's args
  options.env_version = "4";
  options.dependencies = {"transformers>=4.45", "datasets>=3.0"};
  return translate("job.sbatch", slurp(kSeed / "job.sbatch"), options);
}

class ExplainGolden : public ::testing::TestWithParam<unsigned> {};

TEST_P(ExplainGolden, SeedScript) {
  const Translation t = seed_translation();
  const std::string actual = render_explain(t, {GetParam(), false});
  const fs::path golden = kGoldens / ("explain-seed-" + std::to_string(GetParam()) + ".txt");
  const char* update = std::getenv("SLURM2AIR_UPDATE_GOLDENS");
  if (update != nullptr && std::string(update) == "1") {
    fs::create_directories(kGoldens);
    std::ofstream(golden, std::ios::binary) << actual;
    return;
  }
  EXPECT_EQ(slurp(golden), actual);
}

INSTANTIATE_TEST_SUITE_P(Widths, ExplainGolden, ::testing::Values(80U, 140U));

TEST(Explain, FitsTheWidthAndHasNoEscapes) {
  const Translation t = seed_translation();
  for (unsigned width : {60U, 80U, 100U, 200U}) {
    std::istringstream lines(render_explain(t, {width, false}));
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("The translation", 0) == 0) break;  // the YAML is shown verbatim
      EXPECT_LE(line.size(), std::max(width, 60U)) << line;
      EXPECT_EQ(line.find('\x1b'), std::string::npos);
    }
  }
  EXPECT_NE(render_explain(t, {80, true}).find("\x1b[32m"), std::string::npos);
}

TEST(Explain, EveryLineHasAFate) {
  const Translation t =
      translate("job.sh",
                "#!/bin/bash\n# setup\n#SBATCH --gpus-per-node=h100:8\n#SBATCH --qos=high\n"
                "#SBATCH --time=10\nexport TOKEN=abc\nsrun python train.py\n");
  const std::vector<LineFate> fates = explain_lines(t);
  ASSERT_EQ(fates.size(), 7U);
  for (size_t i = 0; i < fates.size(); ++i) EXPECT_FALSE(fates[i].phrases.empty()) << i + 1;
  EXPECT_EQ(fates[1].phrases[0], "comment before the body: not carried over");
  EXPECT_EQ(fates[2].phrases[0], "--gpus-per-node: mapped to compute (8 x GPU_8xH100)");
  EXPECT_EQ(fates[3].phrases[0], "--qos: not carried over (reported)");
  EXPECT_EQ(fates[4].phrases[0], "--time: mapped to timeout_minutes: 10");
}

}  // namespace
}  // namespace s2a::emit
