// Secrets are masked wherever their text was copied, but only as whole
// occurrences: the same letters inside a longer name are other text.
#include "emit/mask_secrets.hpp"

#include <gtest/gtest.h>

#include <algorithm>

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

TEST(MaskSecrets, OverlappingSecretsLeaveNoByteOfEither) {
  // Masked one after the other, the second would no longer be found whole
  // and its tail would leak; both are found in the text as written.
  EXPECT_EQ(mask_secrets("k=tok1-tok2-tok3 done", {"tok1-tok2", "tok2-tok3"}, "X"), "k=X done");
  EXPECT_EQ(mask_secrets("tok1-tok2/tok2-tok3", {"tok1-tok2", "tok2-tok3"}, "X"), "X/X");
  EXPECT_EQ(mask_secrets("abc abcd", {"abc", "abcd"}, "X"), "abc X");  // short: in place only
}

TEST(MaskSecrets, OneMaskerServesManyTexts) {
  const SourceFile file("job.sh", "export A=hf_first_token\nexport B=wandb-second-key\n");
  const SecretMasker secrets(file,
                             {span_of(file, "hf_first_token"), span_of(file, "wandb-second-key")});
  EXPECT_FALSE(secrets.empty());
  EXPECT_EQ(secrets.mask("a hf_first_token b", "<redacted>"), "a <redacted> b");
  EXPECT_EQ(secrets.mask("wandb-second-key", "R"), "R");
  EXPECT_EQ(secrets.mask("hf_first_tokens stay", "R"), "hf_first_tokens stay");
  EXPECT_TRUE(SecretMasker({}).empty());
  EXPECT_EQ(SecretMasker({}).mask("hf_first_token", "R"), "hf_first_token");
}

TEST(MaskSecrets, ThousandsOfSecretsInOnePass) {
  // A script made of many jobs, each with its own token: every one is masked.
  std::vector<std::string> secrets;
  std::string text;
  uint64_t state = 42;
  for (int i = 0; i < 5000; ++i) {
    std::string token = "hf_";
    for (int c = 0; c < 34; ++c) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      token += "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[(state >> 33) % 52];
    }
    secrets.push_back(token);
    text += "export HF_TOKEN=" + token + "  # job " + std::to_string(i) + "\n";
  }
  const std::string masked = mask_secrets(text, secrets, "R");
  EXPECT_EQ(masked.find("hf_"), std::string::npos);
  EXPECT_EQ(std::count(masked.begin(), masked.end(), '\n'), 5000);
  EXPECT_NE(masked.find("export HF_TOKEN=R  # job 4999\n"), std::string::npos);
}

}  // namespace
}  // namespace s2a::emit
