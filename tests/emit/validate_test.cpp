// validate_workload_yaml: the root map's fields, known and unknown.
#include "emit/validate.hpp"

#include <gtest/gtest.h>

#include "air/workload.hpp"

namespace s2a::emit {
namespace {

air::Workload workload_with_command(std::string command) {
  air::Workload workload;
  workload.command = std::move(command);
  return workload;
}

constexpr const char* kValid =
    "experiment_name: job\n"
    "compute:\n  accelerator_type: GPU_1xH100\n  num_accelerators: 1\n"
    "command: |\n  python train.py\n";

TEST(ValidateWorkloadYaml, AcceptsAValidDocument) {
  EXPECT_EQ(validate_workload_yaml(kValid, workload_with_command("python train.py\n")),
            std::vector<std::string>{});
}

TEST(ValidateWorkloadYaml, ReportsUnknownRootFieldsInOrderAndKeepsKnownOnes) {
  const std::string yaml = std::string("zeta: 1\n") + kValid +
                           "parameters: {}\nalpha: 2\nmax_retries: -1\ntimeout_minutes: 0\n";
  EXPECT_EQ(validate_workload_yaml(yaml, workload_with_command("python train.py\n")),
            (std::vector<std::string>{"zeta: unknown field", "alpha: unknown field",
                                      "max_retries must be >= 0", "timeout_minutes must be >= 1"}));
}

TEST(ValidateWorkloadYaml, AllowsOnlyAsciiAlphanumericsDashAndUnderscoreInTheName) {
  const std::string rest =
      "compute:\n  accelerator_type: GPU_1xH100\n  num_accelerators: 1\n"
      "command: |\n  python train.py\n";
  const air::Workload workload = workload_with_command("python train.py\n");
  EXPECT_EQ(validate_workload_yaml("experiment_name: Job-09_az_AZ\n" + rest, workload),
            std::vector<std::string>{});
  const std::string too_long(101, 'a');
  for (const std::string& name :
       std::vector<std::string>{"a.b", "a/b", "\"a b\"", "caf\xC3\xA9", too_long}) {
    EXPECT_EQ(validate_workload_yaml("experiment_name: " + name + "\n" + rest, workload),
              std::vector<std::string>{
                  "experiment_name: only alphanumeric characters, '-' and '_' are allowed"})
        << name;
  }
}

TEST(ValidateWorkloadYaml, ReportsMissingRequiredFields) {
  EXPECT_EQ(validate_workload_yaml("usage_policy_id: x\n", workload_with_command("")),
            (std::vector<std::string>{
                "experiment_name: only alphanumeric characters, '-' and '_' are allowed",
                "compute: section is required", "command is required"}));
}

TEST(ValidateWorkloadYaml, ReportsANameInBothEnvVariablesAndSecrets) {
  const std::string yaml =
      std::string(kValid) + "env_variables:\n  T: a\nsecrets:\n  T: scope/key\n";
  EXPECT_EQ(validate_workload_yaml(yaml, workload_with_command("python train.py\n")),
            std::vector<std::string>{"T is set in both env_variables and secrets"});
}

}  // namespace
}  // namespace s2a::emit
