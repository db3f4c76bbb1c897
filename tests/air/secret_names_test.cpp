// The secret-name predicates: is_secret_name() first rules names out with
// may_name_secret_option()'s one-pass word test, so every name it accepts
// must hold one of that test's words.
#include <gtest/gtest.h>

#include "air/variables.hpp"

namespace s2a::air {
namespace {

TEST(SecretNames, EverySecretNameHoldsASecretWord) {
  for (const char* name :
       {"HF_TOKEN", "TOKEN", "hf_token", "WANDB_API_KEY", "X_APIKEY", "DB_SECRET", "MY_SECRET_KEY",
        "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "X_ACCESS_KEY",
        "SSH_PRIVATE_KEY", "GCP_CREDENTIALS", "DB_PASSWORD", "MYSQL_PASSWD", "Password",
        "HUGGING_FACE_HUB_TOKEN", "GITHUB_TOKEN", "OPENAI_API_KEY"}) {
    EXPECT_TRUE(is_secret_name(name)) << name;
    EXPECT_TRUE(may_name_secret_option(name)) << name;
  }
}

TEST(SecretNames, OrdinaryNamesAreNotSecrets) {
  for (const char* name : {"PATH", "LEARNING_RATE", "OMP_NUM_THREADS", "MASTER_ADDR", "BATCH_SIZE",
                           "", "K", "TOKE", "PASS", "CREDENTIA", "SECRE"}) {
    EXPECT_FALSE(is_secret_name(name)) << name;
    EXPECT_FALSE(may_name_secret_option(name)) << name;
  }
}

TEST(SecretNames, WordsAreFoundAnywhereInAnyCase) {
  EXPECT_TRUE(may_name_secret_option("max-token-length"));  // a candidate, not a secret
  EXPECT_FALSE(is_secret_name("MAX_TOKEN_LENGTH"));
  EXPECT_TRUE(may_name_secret_option("apiKey"));
  EXPECT_TRUE(may_name_secret_option("xCREDENTIALs"));
  EXPECT_TRUE(may_name_secret_option("the_passwd"));
}

}  // namespace
}  // namespace s2a::air
