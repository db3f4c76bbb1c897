// Site profile: parsing, clear errors for bad profiles, and the precedence
// command-line flags > profile > what the script implies.
#include <gtest/gtest.h>

#include <algorithm>

#include "profile/profile.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

using profile::parse_profile;
using profile::ProfileError;

std::string error_of(const std::string& text) {
  try {
    (void)parse_profile(text, "site.yaml");
  } catch (const ProfileError& error) {
    return error.what();
  }
  return "";
}

TEST(Profile, StarterProfileParses) {
  const profile::Profile p = parse_profile(profile::starter_profile(), "starter");
  EXPECT_EQ(p.secret_scope, "slurm2air");
  ASSERT_NE(profile::find_module(p, "cuda/12.1"), nullptr);
  EXPECT_TRUE(profile::find_module(p, "cuda/12.1")->provided);
  EXPECT_TRUE(p.suppress.empty());
}

TEST(Profile, ReadsEveryKey) {
  const profile::Profile p = parse_profile(
      "partitions: {gpu: GPU_8xH100, a10: GPU_1xA10}\n"
      "gpu_types: {A100: GPU_8xH100}\n"
      "modules:\n  cuda: provided\n  mylib/1.2: [mylib==1.2, extra]\n"
      "conda_envs: {esm: envs/esm.txt}\n"
      "images: {'nvcr.io#nvidia/pytorch:24.01-py3': main.ml.pytorch:24.01}\n"
      "environment_version: '6'\nsecret_scope: team\nmax_retries: 2\ncode_root: src\n"
      "code_source: flat\ntarget_schema: cli-1.20\nsuppress: [S2A3102, directive_logs]\n",
      "site.yaml");
  EXPECT_EQ(p.partitions.at("a10"), "GPU_1xA10");
  EXPECT_EQ(p.gpu_types.at("a100"), "GPU_8xH100");  // keys are lower-cased
  EXPECT_EQ(profile::find_module(p, "mylib/1.2")->dependencies,
            (std::vector<std::string>{"mylib==1.2", "extra"}));
  EXPECT_EQ(profile::find_module(p, "mylib/1.3"), nullptr);
  EXPECT_EQ(p.conda_envs.at("esm"), "envs/esm.txt");
  EXPECT_EQ(p.images.at("nvcr.io#nvidia/pytorch:24.01-py3"), "main.ml.pytorch:24.01");
  EXPECT_EQ(p.env_version, "6");
  EXPECT_EQ(p.max_retries, 2u);
  EXPECT_EQ(p.code_source, "flat");
  EXPECT_EQ(p.suppress, (std::vector<std::string>{"S2A3102", "directive_logs"}));
}

TEST(Profile, EmptyProfileChangesNothing) {
  const profile::Profile p = parse_profile("# nothing yet\n", "site.yaml");
  EXPECT_TRUE(p.partitions.empty());
  EXPECT_FALSE(p.secret_scope);
}

struct BadProfile {
  const char* text;
  const char* error;
};

class BadProfiles : public ::testing::TestWithParam<BadProfile> {};

TEST_P(BadProfiles, GiveLineColumnAndReason) {
  EXPECT_EQ(error_of(GetParam().text), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    Errors, BadProfiles,
    ::testing::Values(
        BadProfile{"partitions:\n  gpu: GPU_8xH100\nmodles:\n  cuda: provided\n",
                   "site.yaml:3:1: unknown key \"modles\" (known: partitions, gpu_types, modules, "
                   "conda_envs, images, environment_version, secret_scope, max_retries, code_root, "
                   "code_source, target_schema, suppress)"},
        BadProfile{"max_retries: [1]\n",
                   "site.yaml:1:14: max_retries must be a whole number from 0 to 9999"},
        BadProfile{"max_retries: -1\n",
                   "site.yaml:1:14: max_retries must be a whole number from 0 to 9999"},
        BadProfile{
            "partitions:\n  gpu: GPU_4xH100\n",
            "site.yaml:2:8: partitions.gpu: \"GPU_4xH100\" is not an accelerator type (valid: "
            "GPU_1xA10, GPU_1xH100, GPU_8xH100, GPU_8xB300)"},
        BadProfile{"partitions: [gpu]\n", "site.yaml:1:13: partitions must be a map"},
        BadProfile{
            "modules:\n  cuda: yes-please\n",
            "site.yaml:2:9: modules.cuda must be \"provided\" or a list of pip requirements"},
        BadProfile{"code_source: tree\n",
                   "site.yaml:1:14: code_source must be one of nested, flat, not \"tree\""},
        BadProfile{"secret_scope: a/b\n", "site.yaml:1:15: secret_scope must not contain '/'"},
        BadProfile{"suppress: S2A3102\n", "site.yaml:1:11: suppress must be a list of strings"},
        BadProfile{"- just\n- a list\n", "site.yaml:1:1: a profile is a map of settings"},
        BadProfile{"partitions: {gpu: [\n", "site.yaml:2:1: end of sequence flow not found"}));

// --- precedence ---------------------------------------------------------------

constexpr const char* kScript =
    "#!/bin/bash\n#SBATCH --partition=a10q\n#SBATCH --gres=gpu:a100:8\n"
    "export HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123\npython train.py\n";

TranslateOptions with_profile(const std::string& text) {
  TranslateOptions options;
  options.profile = parse_profile(text, "site.yaml");
  return options;
}

TEST(ProfilePrecedence, ScriptImpliesWithoutProfile) {
  const Translation t = translate("job.sbatch", kScript);
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->compute.accelerator_type, "GPU_8xH100");
  EXPECT_EQ(t.workload->secrets.at(0).value, "slurm2air/hf_token");
  EXPECT_FALSE(t.workload->environment.version);
  EXPECT_FALSE(t.workload->code_source_flat);
  EXPECT_EQ(t.workload->max_retries, 1u);
}

TEST(ProfilePrecedence, ProfileBeatsTheScript) {
  const Translation t = translate(
      "job.sbatch", kScript,
      with_profile("partitions: {a10q: GPU_1xA10}\nsecret_scope: team\nenvironment_version: '5'\n"
                   "max_retries: 3\ncode_source: flat\ncode_root: src\n"));
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->compute.accelerator_type, "GPU_1xA10");
  EXPECT_EQ(t.workload->secrets.at(0).value, "team/hf_token");
  EXPECT_EQ(t.workload->environment.version, "5");
  EXPECT_EQ(t.workload->max_retries, 3u);
  EXPECT_TRUE(t.workload->code_source_flat);
  EXPECT_EQ(t.workload->code_source_root, "src");
}

TEST(ProfilePrecedence, GpuTypeMappingAppliesWhenNoPartitionMatches) {
  const Translation t =
      translate("job.sbatch", kScript, with_profile("gpu_types: {a100: GPU_1xH100}\n"));
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->compute.accelerator_type, "GPU_1xH100");
}

TEST(ProfilePrecedence, FlagsBeatTheProfile) {
  TranslateOptions options = with_profile(
      "partitions: {a10q: GPU_1xA10}\nsecret_scope: team\nenvironment_version: '5'\n"
      "target_schema: cli-1.20\n");
  options.accelerator_type = "GPU_8xH100";
  options.secret_scope = "mine";
  options.env_version = "6";
  options.target_schema = "cli-1.19";
  const Translation t = translate("job.sbatch", kScript, options);
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->compute.accelerator_type, "GPU_8xH100");
  EXPECT_EQ(t.workload->secrets.at(0).value, "mine/hf_token");
  EXPECT_EQ(t.workload->environment.version, "6");
  EXPECT_FALSE(t.workload->code_source_flat);
}

TEST(ProfilePrecedence, ExplicitRequeueBeatsTheProfilesDefault) {
  const Translation t =
      translate("job.sbatch",
                "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n#SBATCH --no-requeue\npython t.py\n",
                with_profile("max_retries: 3\n"));
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->max_retries, 0u);
}

TEST(ProfilePrecedence, ProfileModuleAndCondaMappings) {
  const Translation t = translate(
      "job.sbatch",
      "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\nmodule load mylib/1.2 gcc\nconda activate esm\n"
      "python t.py\n",
      with_profile("modules: {mylib: [mylib==1.2]}\nconda_envs: {esm: envs/esm.txt}\n"));
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.dependencies,
            (std::vector<std::string>{"mylib==1.2", "-r envs/esm.txt"}));
}

// `source activate ENV` is conda's legacy activation: the same mapping.
TEST(ProfilePrecedence, LegacySourceActivateUsesTheCondaMapping) {
  const Translation t =
      translate("job.sbatch",
                "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\nsource activate esm\npython t.py\n",
                with_profile("conda_envs: {esm: envs/esm.txt}\n"));
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.dependencies, (std::vector<std::string>{"-r envs/esm.txt"}));
  const auto it = std::ranges::find_if(
      t.diagnostics, [](const Diagnostic& d) { return d.code == Code::setup_command_removed; });
  ASSERT_NE(it, t.diagnostics.end());
  EXPECT_EQ(it->message,
            "conda environment esm is replaced by environment.dependencies `-r envs/esm.txt` "
            "(from the site profile)");
}

// `conda run -n ENV CMD`: CMD stays and runs in the workload's environment,
// which the profile's mapping of ENV fills.
TEST(ProfilePrecedence, CondaRunKeepsItsCommandAndMapsItsEnvironment) {
  const Translation t = translate("job.sbatch",
                                  "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n"
                                  "conda run --live-stream -n esm python -u t.py --epochs 10\n"
                                  "srun micromamba run -p /home/me/envs/other/ python eval.py\n",
                                  with_profile("conda_envs: {esm: envs/esm.txt}\n"));
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.dependencies, (std::vector<std::string>{"-r envs/esm.txt"}));
  EXPECT_NE(t.workload->command.find("\npython -u t.py --epochs 10\npython eval.py\n"),
            std::string::npos)
      << t.workload->command;
  std::string messages;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::setup_command_removed) messages += d.message + "\n";
  }
  EXPECT_NE(messages.find("`conda run --live-stream -n esm` is removed"), std::string::npos)
      << messages;
  EXPECT_NE(messages.find("the packages of conda environment other are not known"),
            std::string::npos)
      << messages;
}

TEST(ProfilePrecedence, ProfileImageMappingForUnityCatalog) {
  TranslateOptions options =
      with_profile("images: {'nvcr.io#nvidia/pytorch:24.01-py3': main.ml.pytorch:24.01-py3}\n");
  options.target_schema = "cli-1.20";
  const Translation t = translate(
      "job.sbatch",
      "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n#SBATCH --container-image=nvcr.io\\#nvidia/"
      "pytorch:24.01-py3\npython t.py\n",
      options);
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.unity_catalog_image, "main.ml.pytorch:24.01-py3");
  EXPECT_NE(t.yaml.find("unity_catalog_image: main.ml.pytorch:24.01-py3"), std::string::npos);
}

TEST(ProfilePrecedence, ProfileImageOfTheWrongKindIsReportedNotUsed) {
  const std::string script =
      "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n#SBATCH --container-image=nvcr.io\\#nvidia/"
      "pytorch:24.01-py3\npython t.py\n";
  const auto image_message = [](const Translation& t) {
    for (const Diagnostic& d : t.diagnostics) {
      if (d.code == Code::container_image_registration || d.code == Code::container_image_unknown) {
        return d.message;
      }
    }
    return std::string();
  };
  // A bundle task has no Unity Catalog image field: the registry URL is used.
  TranslateOptions bundle =
      with_profile("images: {'nvcr.io#nvidia/pytorch:24.01-py3': main.ml.pytorch:24.01-py3}\n");
  bundle.target = OutputTarget::bundle;
  const Translation in_bundle = translate("job.sbatch", script, bundle);
  ASSERT_TRUE(in_bundle.workload);
  EXPECT_EQ(in_bundle.workload->environment.docker_image, "nvcr.io/nvidia/pytorch:24.01-py3");
  EXPECT_NE(image_message(in_bundle).find("the site profile's image main.ml.pytorch:24.01-py3 is "
                                          "not used: a bundle task's docker_image_url takes a "
                                          "registry URL"),
            std::string::npos)
      << image_message(in_bundle);
  // cli-1.20 takes a Unity Catalog name: a registry URL in the profile is not one.
  TranslateOptions uc =
      with_profile("images: {'nvcr.io#nvidia/pytorch:24.01-py3': ghcr.io/org/pt:1}\n");
  uc.target_schema = "cli-1.20";
  const Translation in_uc = translate("job.sbatch", script, uc);
  ASSERT_TRUE(in_uc.workload);
  EXPECT_EQ(in_uc.workload->environment.unity_catalog_image, "CATALOG.SCHEMA.pytorch:24.01-py3");
  EXPECT_NE(image_message(in_uc).find("the site profile's image ghcr.io/org/pt:1 is not "
                                      "used: environment.unity_catalog_image takes a Unity "
                                      "Catalog name"),
            std::string::npos)
      << image_message(in_uc);
}

}  // namespace
}  // namespace s2a
