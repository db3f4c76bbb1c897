// Secrets are masked wherever their text was copied, but only as whole
// occurrences: the same letters inside a longer name are other text.
#include "emit/mask_secrets.hpp"

#include <gtest/gtest.h>

namespace s2a::emit {
namespace {

Span span_of(const SourceFile& file, std::string_view needle) {
  const auto at = static_cast<uint32_t>(file.text().find(needle));
  return {at, static_cast<uint32_t>(at + needle.size())};
}

TEST(MaskSecrets, LongestFirstAndShortOnesOnlyInPlace) {
  const SourceFile file("job.sh", "export TOKEN=hf_abcdef\nexport PW=abc\nexport K=hf_abcdef99\n");
  const std::vector<std::string> secrets =
      secret_strings(file, {span_of(file, "hf_abcdef"), span_of(file, "abc"),
                            span_of(file, "hf_abcdef99"), Span{500, 510}});
  EXPECT_EQ(secrets, (std::vector<std::string>{"hf_abcdef99", "hf_abcdef"}));
}

TEST(MaskSecrets, ReplacesWholeOccurrencesOnly) {
  const std::vector<std::string> secrets = {"API_KEY", "s3cr3t-value"};
  EXPECT_EQ(mask_secrets("echo ${WANDB_API_KEY} API_KEY", secrets, "X"), "echo ${WANDB_API_KEY} X");
  EXPECT_EQ(mask_secrets("a=s3cr3t-value;b=\"s3cr3t-value\"", secrets, "REDACTED"),
            "a=REDACTED;b=\"REDACTED\"");
  // Punctuation at the secret's own edge does not need a word boundary.
  EXPECT_EQ(mask_secrets("xs3cr3t-value-y", {"-value-"}, "_"), "xs3cr3t_y");
  EXPECT_EQ(mask_secrets("nothing here", secrets, "X"), "nothing here");
}

}  // namespace
}  // namespace s2a::emit
