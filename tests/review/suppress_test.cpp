// Suppression comments: where they apply, what they may name, what they count.
#include <gtest/gtest.h>

#include <algorithm>

#include "diag/suppress.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

bool reports(const Translation& t, Code code) {
  return std::any_of(t.diagnostics.begin(), t.diagnostics.end(),
                     [&](const Diagnostic& d) { return d.code == code; });
}

constexpr const char* kQosScript =
    "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n#SBATCH --qos=high%s\npython train.py\n";

std::string with_qos_suffix(const std::string& suffix) {
  std::string text = kQosScript;
  text.replace(text.find("%s"), 2, suffix);
  return text;
}

TEST(FindCode, ByIdOrNameOnly) {
  EXPECT_EQ(find_code("S2A3101"), Code::directive_not_mapped);
  EXPECT_EQ(find_code("s2a3101"), Code::directive_not_mapped);
  EXPECT_EQ(find_code("directive_not_mapped"), Code::directive_not_mapped);
  EXPECT_EQ(find_code("S2A9999"), std::nullopt);
  EXPECT_EQ(find_code("3101"), std::nullopt);
  EXPECT_EQ(find_code(""), std::nullopt);
}

struct TrailingCase {
  std::string suffix;
  bool suppressed;
};

class TrailingSuppression : public ::testing::TestWithParam<TrailingCase> {};

TEST_P(TrailingSuppression, SilencesOnlyNamedCodesOnItsLine) {
  const Translation t = translate("job.sh", with_qos_suffix(GetParam().suffix));
  EXPECT_EQ(!reports(t, Code::directive_not_mapped), GetParam().suppressed) << GetParam().suffix;
  EXPECT_EQ(t.suppressed.size(), GetParam().suppressed ? 1U : 0U);
}

INSTANTIATE_TEST_SUITE_P(
    Spellings, TrailingSuppression,
    ::testing::Values(TrailingCase{"  # slurm2air: disable=S2A3101", true},
                      TrailingCase{" # slurm2air: disable=directive_not_mapped", true},
                      TrailingCase{" #slurm2air:disable=s2a3101", true},
                      TrailingCase{" # slurm2air: disable=S2A3006, S2A3101", true},
                      TrailingCase{" # slurm2air: disable=S2A3006", false},
                      TrailingCase{"#slurm2air: disable=S2A3101", false},  // not a comment start
                      TrailingCase{" # slurm2air: enable=S2A3101", false},
                      TrailingCase{"", false}));

TEST(Suppression, CommentAloneCoversTheNextLine) {
  const Translation t =
      translate("job.sh",
                "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n# slurm2air: disable=S2A3101\n"
                "#SBATCH --qos=high\npython train.py\n");
  EXPECT_FALSE(reports(t, Code::directive_not_mapped));
  ASSERT_EQ(t.suppressed.size(), 1U);
  EXPECT_EQ(t.suppressed[0].code, Code::directive_not_mapped);
}

TEST(Suppression, FileWideAnywhere) {
  const Translation t = translate(
      "job.sh",
      "#!/bin/bash\n#SBATCH --gpus-per-node=8\n#SBATCH --qos=high\n#SBATCH --account=ml\n"
      "python train.py  # slurm2air: disable-file=directive_not_mapped,gpu_model_assumed\n");
  EXPECT_FALSE(reports(t, Code::directive_not_mapped));
  EXPECT_FALSE(reports(t, Code::gpu_model_assumed));
  EXPECT_GE(t.suppressed.size(), 3U);
}

TEST(Suppression, UnknownCodeIsReportedAtTheCode) {
  const std::string text = with_qos_suffix("  # slurm2air: disable=S2A9999");
  const Translation t = translate("job.sh", text);
  const auto it = std::find_if(t.diagnostics.begin(), t.diagnostics.end(), [](const Diagnostic& d) {
    return d.code == Code::suppression_unknown_code;
  });
  ASSERT_NE(it, t.diagnostics.end());
  EXPECT_EQ(t.file->slice(it->span), "S2A9999");
  EXPECT_EQ(it->message, "the suppression names no known diagnostic code");
  EXPECT_TRUE(reports(t, Code::directive_not_mapped));
}

TEST(Suppression, ErrorsAreNeverSuppressed) {
  const Translation t =
      translate("job.sh",
                "#!/bin/bash\n#SBATCH --nodes=abc  # slurm2air: disable=invalid_option_value\n"
                "python train.py\n");
  EXPECT_TRUE(reports(t, Code::invalid_option_value));
  EXPECT_TRUE(reports(t, Code::suppression_of_error));
  EXPECT_TRUE(t.suppressed.empty());
}

TEST(Suppression, SiteWideListFromOptions) {
  TranslateOptions options;
  options.suppressed_codes = {Code::directive_not_mapped};
  const Translation t = translate("job.sh", with_qos_suffix(""), options);
  EXPECT_FALSE(reports(t, Code::directive_not_mapped));
  EXPECT_EQ(t.suppressed.size(), 1U);
}

TEST(Suppression, InsideAStringIsNotAComment) {
  const Translation t =
      translate("job.sh",
                "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n#SBATCH --qos=high\n"
                "echo \"x#slurm2air: disable-file=S2A3101\"\npython train.py\n");
  EXPECT_TRUE(reports(t, Code::directive_not_mapped));
}

}  // namespace
}  // namespace s2a
