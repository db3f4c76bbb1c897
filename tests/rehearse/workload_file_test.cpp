// Reading train.yaml for `slurm2air rehearse`: both code_source shapes, the
// fields a rehearsal uses, and the messages for files it cannot use.
#include <gtest/gtest.h>

#include "rehearse/workload_file.hpp"

namespace s2a::rehearse {
namespace {

const char* const kSeedYaml =
    "experiment_name: llama-sft  # line 2: --job-name=llama-sft\n"
    "compute:\n"
    "  num_accelerators: 16\n"
    "  accelerator_type: GPU_8xH100\n"
    "code_source:\n"
    "  type: snapshot\n"
    "  snapshot:\n"
    "    root_path: .\n"
    "command: |\n"
    "  cd \"$CODE_SOURCE_PATH\"\n"
    "  torchrun --nnodes=\"$NUM_NODES\" train.py\n"
    "timeout_minutes: 120\n"
    "max_retries: 1\n";

TEST(RehearseWorkloadFile, ReadsTheSeedTranslation) {
  const WorkloadFile file = parse_workload("train.yaml", kSeedYaml);
  EXPECT_EQ(file.experiment_name, "llama-sft");
  EXPECT_EQ(file.command, "cd \"$CODE_SOURCE_PATH\"\ntorchrun --nnodes=\"$NUM_NODES\" train.py\n");
  EXPECT_EQ(file.accelerator_type, "GPU_8xH100");
  EXPECT_EQ(file.num_accelerators, 16U);
  EXPECT_EQ(file.timeout_minutes, std::optional<uint64_t>(120));
  ASSERT_TRUE(file.code_source);
  EXPECT_EQ(file.code_source->root_path, ".");
  EXPECT_TRUE(file.code_source->include_paths.empty());
  EXPECT_FALSE(file.parameters);
}

TEST(RehearseWorkloadFile, ReadsFlatCodeSourceEnvSecretsAndParameters) {
  const WorkloadFile file =
      parse_workload("w.yaml",
                     "experiment_name: x\n"
                     "compute: {accelerator_type: GPU_1xA10, num_accelerators: 2}\n"
                     "code_source:\n  root_path: src\n  include_paths: [train, configs/base.yaml]\n"
                     "env_variables:\n  BATCH_SIZE: '32'\n  NCCL_DEBUG: INFO\n"
                     "secrets:\n  HF_TOKEN: ml/hf_token\n"
                     "parameters:\n  lr: 0.001\n  model: {layers: 4}\n"
                     "command: python train.py\n");
  ASSERT_TRUE(file.code_source);
  EXPECT_EQ(file.code_source->root_path, "src");
  EXPECT_EQ(file.code_source->include_paths,
            (std::vector<std::string>{"train", "configs/base.yaml"}));
  EXPECT_EQ(file.env_variables,
            (std::map<std::string, std::string>{{"BATCH_SIZE", "32"}, {"NCCL_DEBUG", "INFO"}}));
  EXPECT_EQ(file.secrets, (std::map<std::string, std::string>{{"HF_TOKEN", "ml/hf_token"}}));
  ASSERT_TRUE(file.parameters);
  EXPECT_EQ((*file.parameters)["model"]["layers"].as<int>(), 4);
}

struct BadWorkload {
  const char* yaml;
  const char* message;
};

class RehearseWorkloadErrors : public ::testing::TestWithParam<BadWorkload> {};

TEST_P(RehearseWorkloadErrors, SaysWhatIsWrong) {
  try {
    (void)parse_workload("train.yaml", GetParam().yaml);
    FAIL() << "accepted:\n" << GetParam().yaml;
  } catch (const RehearseError& error) {
    EXPECT_EQ(std::string(error.what()), GetParam().message);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, RehearseWorkloadErrors,
    ::testing::Values(
        BadWorkload{"", "train.yaml: is empty"},
        BadWorkload{"- a\n- b\n",
                    "train.yaml: must be a YAML map with experiment_name, compute and command"},
        BadWorkload{"command: [unclosed\n",
                    "train.yaml: not valid YAML (line 2: end of sequence flow not found)"},
        BadWorkload{"experiment_name: x\n", "train.yaml: command is required"},
        BadWorkload{"command: '  \n'\n", "train.yaml: command cannot be empty"},
        BadWorkload{"command: [a, b]\n", "train.yaml: command must be a string"},
        BadWorkload{"command: x\ncompute: {num_accelerators: -8}\n",
                    "train.yaml: compute.num_accelerators must be a positive integer, got '-8'"},
        BadWorkload{"command: x\ncompute: {num_accelerators: 99999999999999999999999}\n",
                    "train.yaml: compute.num_accelerators must be a positive integer, got "
                    "'99999999999999999999999'"},
        BadWorkload{"command: x\ntimeout_minutes: 0\n",
                    "train.yaml: timeout_minutes must be a positive integer, got '0'"},
        BadWorkload{"command: x\nenv_variables: [A]\n",
                    "train.yaml: env_variables must be a map of NAME: value"},
        BadWorkload{"command: x\nenv_variables: {'A=B': c}\n",
                    "train.yaml: env_variables has an invalid variable name 'A=B'"},
        BadWorkload{"command: x\nenv_variables: {T: a}\nsecrets: {T: s/k}\n",
                    "train.yaml: \"T\" is set in both env_variables and secrets"},
        BadWorkload{"command: x\ncode_source: {type: git}\n",
                    "train.yaml: code_source.type must be 'snapshot'"},
        BadWorkload{"command: x\ncode_source: {type: snapshot}\n",
                    "train.yaml: code_source.type='snapshot' requires a snapshot configuration"},
        BadWorkload{"command: x\ncode_source: {include_paths: [a]}\n",
                    "train.yaml: code_source needs root_path"},
        BadWorkload{"command: x\ncode_source: {root_path: ., include_paths: [../up]}\n",
                    "train.yaml: code_source.include_paths entry '../up' must be a relative path "
                    "without '..'"},
        BadWorkload{"command: x\ncode_source: {root_path: ., include_paths: [/abs]}\n",
                    "train.yaml: code_source.include_paths entry '/abs' must be a relative path "
                    "without '..'"}));

TEST(RehearseWorkloadFile, ReadWorkloadRefusesMissingFilesAndDirectories) {
  EXPECT_THROW((void)read_workload("/nonexistent/train.yaml"), RehearseError);
  try {
    (void)read_workload("/tmp");
    FAIL();
  } catch (const RehearseError& error) {
    EXPECT_EQ(std::string(error.what()), "/tmp: not a regular file");
  }
}

TEST(RehearseWorkloadFile, DeeplyNestedParametersDoNotCrash) {
  const std::string yaml = "command: x\nparameters: " + std::string(5000, '[') + "\n";
  EXPECT_THROW((void)parse_workload("deep.yaml", yaml), RehearseError);
}

TEST(RehearseWorkloadFile, GpusPerNodeOfKnownTypes) {
  EXPECT_EQ(gpus_per_node_of("GPU_8xH100"), std::optional<uint32_t>(8));
  EXPECT_EQ(gpus_per_node_of("GPU_1xA10"), std::optional<uint32_t>(1));
  EXPECT_EQ(gpus_per_node_of("gpu_8xh100"), std::nullopt);
  EXPECT_EQ(gpus_per_node_of(""), std::nullopt);
}

}  // namespace
}  // namespace s2a::rehearse
