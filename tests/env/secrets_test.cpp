// Secret detection edge cases found by other tests and the fuzzers.
#include <gtest/gtest.h>

#include "translate.hpp"

namespace s2a {
namespace {

// Found by the bundle robustness test: a bare `--` argument threw out_of_range.
TEST(SecretFlags, BareDoubleDashArgumentIsNotAFlag) {
  const Translation t =
      translate("job.sh", "#!/bin/bash\n#SBATCH --gpus-per-node=h100:1\npython train.py -- --\n");
  EXPECT_TRUE(t.workload.has_value());
}

// `mpirun -x KEY=VALUE` exports to every rank; the value now comes from the
// secret, by the same name; names that only look alike keep their values.
TEST(SecretFlags, NameValueArgumentsOfOtherProgramsReadTheSecret) {
  const Translation t =
      translate("job.sh",
                "#!/bin/bash\n#SBATCH --gpus-per-node=h100:1\n"
                "mpirun -np 1 -x WANDB_API_KEY=0123456789abcdef -x NCCL_DEBUG=INFO python t.py "
                "PAD_TOKEN=pad MAX_TOKEN=512 HF_TOKEN=$HF_TOKEN\n");
  ASSERT_TRUE(t.workload.has_value());
  EXPECT_NE(t.workload->command.find("-x \"WANDB_API_KEY=${WANDB_API_KEY}\" -x NCCL_DEBUG=INFO "
                                     "python t.py PAD_TOKEN=pad MAX_TOKEN=512 HF_TOKEN=$HF_TOKEN"),
            std::string::npos)
      << t.workload->command;
  ASSERT_EQ(t.workload->secrets.size(), 1u);
  EXPECT_EQ(t.workload->secrets[0].name, "WANDB_API_KEY");
}

// Comments hold examples and tokenizer settings too: only a token-shaped
// word or a long key after a secret name is taken for a credential.
TEST(SecretFlags, CommentsAreReadForTokensOnly) {
  const Translation t = translate("job.sh",
                                  "#!/bin/bash\n#SBATCH --gpus-per-node=h100:1\nmodule load cuda\n"
                                  "# MAX_TOKEN=512 PAD_TOKEN=pad_token_x API_KEY=<your key>\n"
                                  "echo $# ${#names[@]} \"#hf_notacommentbutmasked00000\"\n"
                                  "python t.py # ghp_abcdefghijklmnopqrstuvwxyz0123\n");
  ASSERT_TRUE(t.workload.has_value());
  const std::string& command = t.workload->command;
  EXPECT_NE(command.find("# MAX_TOKEN=512 PAD_TOKEN=pad_token_x API_KEY=<your key>"),
            std::string::npos);
  EXPECT_NE(command.find("python t.py # REDACTED"), std::string::npos) << command;
  EXPECT_EQ(std::count_if(t.diagnostics.begin(), t.diagnostics.end(),
                          [](const Diagnostic& d) { return d.code == Code::secret_in_comment; }),
            1);
}

}  // namespace
}  // namespace s2a
