// The bundle builder, the schema check and the directory writer.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "bundle/build.hpp"
#include "bundle/emit.hpp"
#include "bundle/write.hpp"
#include "io/files.hpp"

namespace s2a::bundle {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = fs::path(SLURM2AIR_SOURCE_DIR);

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

BundleBuild build_from_files(const std::vector<std::string>& paths, bool workflow = false) {
  std::vector<BundleInput> inputs;
  for (const std::string& path : paths) inputs.push_back({path, io::read_script(path)});
  BundleOptions options;
  options.workflow = workflow;
  options.bundle_dir = "/tmp/bundle-out";
  return build_bundle(inputs, options, [](const std::string& p) { return io::read_script(p); });
}

bool reports(const BundleBuild& build, Code code) {
  for (const FileReport& report : build.reports) {
    for (const Diagnostic& d : report.diagnostics) {
      if (d.code == code) return true;
    }
  }
  return false;
}

// --- every databricks.yml slurm2air writes passes the check -----------------------

TEST(BundleSchema, EveryGoldenBundlePassesTheCheck) {
  size_t checked = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kSource / "tests" / "golden")) {
    if (entry.path().filename() != "databricks.yml") continue;
    EXPECT_EQ(check_bundle_yaml(slurp(entry.path())), std::vector<std::string>{}) << entry.path();
    ++checked;
  }
  EXPECT_GE(checked, 10U);
}

TEST(BundleSchema, EveryCorpusScriptBuildsAValidBundle) {
  size_t built = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kSource / "corpus")) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".sbatch" && ext != ".sh")) continue;
    const BundleBuild build = build_from_files({entry.path().string()});
    EXPECT_FALSE(reports(build, Code::internal_error)) << entry.path();
    if (!build.ok) continue;
    ASSERT_TRUE(build.files.count("databricks.yml")) << entry.path();
    EXPECT_EQ(check_bundle_yaml(build.files.at("databricks.yml")), std::vector<std::string>{})
        << entry.path();
    ++built;
  }
  EXPECT_GE(built, 60U);
}

// --- the check refuses what the schema refuses ---------------------------------------

const char* const kValid = R"(bundle:
  name: b
artifacts:
  code:
    type: tgz
    path: ..
    files:
      - source: ./dist/code.tgz
resources:
  jobs:
    j:
      name: j
      tasks:
        - task_key: a
          environment_key: default
          ai_runtime_task:
            experiment: a
            code_source_path: ./dist/code.tgz
            deployments:
              - command_path: ./command.sh
                compute:
                  accelerator_type: GPU_8xH100
                  accelerator_count: 16
      environments:
        - environment_key: default
          spec:
            environment_version: '6'
targets:
  dev:
    mode: development
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(BundleSchema, AcceptsTheCanonicalShape) {
  EXPECT_EQ(check_bundle_yaml(kValid), std::vector<std::string>{});
}

struct Broken {
  const char* from;
  const char* to;
  const char* problem;
};

class BundleSchemaRejects : public ::testing::TestWithParam<Broken> {};

TEST_P(BundleSchemaRejects, SaysWhere) {
  const auto problems = check_bundle_yaml(replaced(kValid, GetParam().from, GetParam().to));
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems.front(), GetParam().problem);
}

INSTANTIATE_TEST_SUITE_P(
    Table, BundleSchemaRejects,
    ::testing::Values(
        Broken{"GPU_8xH100", "GPU_8xB300",
               "resources.jobs.j.tasks[0].ai_runtime_task.deployments[0].compute.accelerator_type: "
               "\"GPU_8xB300\" is not GPU_1xA10, GPU_1xH100 or GPU_8xH100"},
        Broken{
            "accelerator_count: 16", "accelerator_count: 12",
            "resources.jobs.j.tasks[0].ai_runtime_task.deployments[0].compute.accelerator_count: "
            "must be a positive multiple of the GPUs per node"},
        Broken{"            experiment: a\n", "",
               "resources.jobs.j.tasks[0].ai_runtime_task.experiment: is required"},
        Broken{"          environment_key: default\n",
               "          environment_key: default\n          run_if: SOMETIMES\n",
               "resources.jobs.j.tasks[0].run_if: must be one of the schema's values"},
        Broken{"          environment_key: default\n",
               "          depends_on:\n            - task_key: zz\n          environment_key: "
               "default\n",
               "resources.jobs.j.tasks[0].depends_on: unknown task zz"},
        Broken{"code_source_path: ./dist/code.tgz", "code_source_path: ./elsewhere.tgz",
               "resources.jobs.j.tasks[0].ai_runtime_task.code_source_path: names no artifact "
               "output"},
        Broken{"          environment_key: default\n", "          environment_key: other\n",
               "resources.jobs.j.tasks[0].environment_key: names no environment of the job"},
        Broken{"      name: j\n",
               "      name: j\n      schedule:\n        quartz_cron_expression: '0 0 * * * ?'\n"
               "        timezone_id: UTC\n        pause_status: STOPPED\n",
               "resources.jobs.j.schedule.pause_status: must be one of the schema's values"},
        Broken{"          environment_key: default\n",
               "          environment_key: default\n          email_notifications:\n"
               "            on_duration_warning_threshold_exceeded: [a@b.c]\n",
               "resources.jobs.j.tasks[0].health: on_duration_warning_threshold_exceeded needs a "
               "health rule"},
        Broken{"    mode: development", "    mode: testing",
               "targets.dev.mode: must be one of the schema's values"},
        Broken{"  name: b\n", "  name: b\nsync: {}\n", "sync: unknown field"}));

TEST(BundleSchema, RejectsALocalCodePathInsideForEach) {
  const std::string yaml = replaced(
      replaced(kValid, "        - task_key: a\n          environment_key: default\n",
               "        - task_key: a\n          for_each_task:\n            inputs: '[1,2]'\n"
               "            task:\n              task_key: a_it\n"),
      "          ai_runtime_task:", "              ai_runtime_task:");
  // Re-indent the ai_runtime_task block under for_each_task.task.
  std::string nested;
  std::istringstream lines(yaml);
  bool inside = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("              ai_runtime_task:") == 0)
      inside = true;
    else if (inside && line.find("      environments:") == 0)
      inside = false;
    else if (inside)
      line = "    " + line;
    nested += line + "\n";
  }
  const auto problems = check_bundle_yaml(nested);
  ASSERT_FALSE(problems.empty()) << nested;
  EXPECT_EQ(
      problems.front(),
      "resources.jobs.j.tasks[0].for_each_task.task.ai_runtime_task.code_source_path: a local "
      "code_source_path is not supported inside a for_each_task");
}

TEST(BundleSchema, UnreadableYamlIsAProblem) {
  EXPECT_FALSE(check_bundle_yaml("bundle: [").empty());
  EXPECT_FALSE(check_bundle_yaml("- a\n").empty());
}

// --- building ---------------------------------------------------------------------

BundleBuild build_text(const std::string& text, const std::string& name = "job.sbatch") {
  BundleOptions options;
  return build_bundle({{name, text}}, options, [](const std::string& path) -> std::string {
    throw io::FileError(path + ": no such file");
  });
}

TEST(BundleBuild, ASingleScriptIsOneJobWithOneTask) {
  const BundleBuild b = build_text(
      "#!/bin/bash\n#SBATCH --job-name=sft\n#SBATCH -N 2\n#SBATCH --gpus-per-node=h100:8\n"
      "#SBATCH -t 90\nexport WANDB_PROJECT=sft\npython train.py\n");
  ASSERT_TRUE(b.ok);
  EXPECT_EQ(b.model.jobs.size(), 1U);
  const TaskModel& t = b.model.jobs[0].tasks.at(0);
  EXPECT_EQ(t.key, "sft");
  EXPECT_EQ(t.accelerator_type, "GPU_8xH100");
  EXPECT_EQ(t.accelerator_count, 16U);
  EXPECT_EQ(t.timeout_seconds, 5400U);
  EXPECT_EQ(t.command_path, "./command.sh");
  EXPECT_EQ(t.code_source_path, "./dist/code.tgz");
  EXPECT_EQ(b.files.at("command.sh").rfind("#!/bin/bash\ncd \"$CODE_SOURCE_PATH\"\n", 0), 0U);
  EXPECT_EQ(b.files.at("env_vars.json"), "{\n  \"WANDB_PROJECT\": \"sft\"\n}\n");
}

TEST(BundleBuild, AnArrayIsAForEachTaskWithTheCodeInTheWorkspace) {
  const BundleBuild b = build_text(
      "#!/bin/bash\n#SBATCH --array=1,3,5-7%2\n#SBATCH --gpus-per-node=h100:1\n"
      "python train.py --seed $SLURM_ARRAY_TASK_ID\n");
  ASSERT_TRUE(b.ok);
  const TaskModel& t = b.model.jobs[0].tasks.at(0);
  ASSERT_TRUE(t.for_each);
  EXPECT_EQ(t.for_each->inputs, "[1,3,5,6,7]");
  EXPECT_EQ(t.for_each->concurrency, 2U);
  EXPECT_EQ(t.code_source_path, "${var.code_source_path}");
  EXPECT_EQ(t.mlflow_run, "{{job.run_id}}_{{input}}");
  EXPECT_TRUE(b.model.code_variable);
  EXPECT_NE(b.files.at("command.sh")
                .find("export SLURM_ARRAY_TASK_COUNT=5 SLURM_ARRAY_TASK_MIN=1 "
                      "SLURM_ARRAY_TASK_MAX=7 SLURM_ARRAY_TASK_STEP=1\n"),
            std::string::npos);
  EXPECT_TRUE(reports(b, Code::job_array));
}

// slurmctld sets SLURM_ARRAY_TASK_STEP to the number after the spec's first `:`.
TEST(BundleBuild, AnArrayStepIsTheNumberAfterTheColon) {
  const BundleBuild b = build_text(
      "#!/bin/bash\n#SBATCH --array=0-15:4%2\n#SBATCH --gpus-per-node=h100:1\n"
      "python train.py --shard $(( (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN) / "
      "SLURM_ARRAY_TASK_STEP ))\n");
  ASSERT_TRUE(b.ok);
  EXPECT_NE(b.files.at("command.sh")
                .find("SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=12 SLURM_ARRAY_TASK_STEP=4\n"),
            std::string::npos)
      << b.files.at("command.sh");
  EXPECT_FALSE(reports(b, Code::slurm_variable_unmapped));
}

TEST(BundleBuild, AnArrayWithoutALimitRunsAllAtOnceUpTo100) {
  const BundleBuild b = build_text(
      "#!/bin/bash\n#SBATCH --array=0-299\n#SBATCH --gpus-per-node=h100:1\npython x.py\n");
  ASSERT_TRUE(b.ok);
  EXPECT_EQ(b.model.jobs[0].tasks.at(0).for_each->concurrency, 100U);
}

TEST(BundleBuild, A_B300_TaskUsesH100AndSaysSo) {
  const BundleBuild b =
      build_text("#!/bin/bash\n#SBATCH --gpus-per-node=b300:8\npython train.py\n");
  ASSERT_TRUE(b.ok);
  EXPECT_EQ(b.model.jobs[0].tasks.at(0).accelerator_type, "GPU_8xH100");
  EXPECT_TRUE(reports(b, Code::gpu_model_substituted));
}

TEST(BundleBuild, AMissingSubmittedScriptWritesNothing) {
  const BundleBuild b = build_text("#!/bin/bash\nsbatch missing.sbatch\n", "driver.sh");
  EXPECT_FALSE(b.ok);
  EXPECT_TRUE(b.files.empty());
  EXPECT_TRUE(reports(b, Code::submission_not_static));
}

TEST(BundleBuild, CommandLineOptionsOverrideTheScript) {
  BundleOptions options;
  const auto read = [](const std::string& path) -> std::string {
    EXPECT_EQ(path, "dir/train.sbatch");
    return "#!/bin/bash\n#SBATCH --job-name=train\n#SBATCH -N 1\n#SBATCH --gpus-per-node=h100:8\n"
           "srun python train.py\n";
  };
  const BundleBuild b = build_bundle(
      {{"dir/driver.sh", "#!/bin/bash\nsbatch -N 3 --job-name=big train.sbatch\n"}}, options, read);
  ASSERT_TRUE(b.ok);
  const TaskModel& t = b.model.jobs.at(0).tasks.at(0);
  EXPECT_EQ(t.key, "big");
  EXPECT_EQ(t.accelerator_count, 24U);
  EXPECT_EQ(b.model.jobs.at(0).key, "driver");
}

// The image a workload would run in goes to the task's docker_image_url, and
// the report names that field, whatever the workload target schema.
TEST(BundleBuild, TheContainerImageIsTheTasksDockerImageUrl) {
  for (const char* schema : {"cli-1.19", "cli-1.20"}) {
    BundleOptions options;
    options.translate.target_schema = schema;
    const BundleBuild b = build_bundle(
        {{"job.sbatch",
          "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n"
          "#SBATCH --container-image=nvcr.io\\#nvidia/nemo:24.07\nsrun python train.py\n"}},
        options, [](const std::string& path) -> std::string { throw io::FileError(path); });
    ASSERT_TRUE(b.ok) << schema;
    EXPECT_EQ(b.model.jobs.at(0).tasks.at(0).docker_image_url, "nvcr.io/nvidia/nemo:24.07");
    EXPECT_NE(b.files.at("databricks.yml").find("docker_image_url: nvcr.io/nvidia/nemo:24.07\n"),
              std::string::npos);
    bool named = false;
    for (const FileReport& r : b.reports) {
      for (const Diagnostic& d : r.diagnostics) {
        named = named || (d.code == Code::container_image_registration &&
                          d.message.find("the task's docker_image_url") != std::string::npos);
      }
    }
    EXPECT_TRUE(named) << schema;
  }
  const BundleBuild plain =
      build_text("#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\npython t.py\n");
  ASSERT_TRUE(plain.ok);
  EXPECT_EQ(plain.files.at("databricks.yml").find("docker_image_url"), std::string::npos);
}

// A driver's task keeps its own pip installs in an environment of its own.
TEST(BundleBuild, ASubmittedScriptsDependenciesAreItsOwnEnvironment) {
  BundleOptions options;
  const auto read = [](const std::string& path) -> std::string {
    if (path == "dir/prep.sbatch") {
      return "#!/bin/bash\n#SBATCH --job-name=prep\n#SBATCH --gpus-per-node=h100:1\n"
             "pip install tiktoken==0.7.0\npython prep.py\n";
    }
    return "#!/bin/bash\n#SBATCH --job-name=train\n#SBATCH --gpus-per-node=h100:8\n"
           "python train.py\n";
  };
  const BundleBuild b = build_bundle(
      {{"dir/driver.sh", "#!/bin/bash\nsbatch prep.sbatch\nsbatch train.sbatch\n"}}, options, read);
  ASSERT_TRUE(b.ok);
  const JobModel& job = b.model.jobs.at(0);
  EXPECT_EQ(job.tasks.at(0).environment_key, "prep");
  EXPECT_EQ(job.tasks.at(1).environment_key, "default");
  ASSERT_EQ(job.task_environments.size(), 1U);
  EXPECT_EQ(job.task_environments[0].second.dependencies,
            std::vector<std::string>{"tiktoken==0.7.0"});
  EXPECT_TRUE(job.environment.dependencies.empty());
}

TEST(BundleBuild, UniqueKeys) {
  std::vector<std::string> taken;
  EXPECT_EQ(unique_key("train", taken), "train");
  EXPECT_EQ(unique_key("train", taken), "train-2");
  EXPECT_EQ(unique_key("train", taken), "train-3");
  EXPECT_EQ(unique_key("a.b c", taken), "a-b-c");
  EXPECT_EQ(unique_key("...", taken), "task");
}

// --- arrays --------------------------------------------------------------------------

TEST(ArrayExpansion, ListsEveryIndexOnce) {
  const auto spec = values::parse_array("0-10:5,3,4-5%3");
  ASSERT_TRUE(spec);
  EXPECT_EQ(expand_array(*spec, 100), (std::vector<uint64_t>{0, 3, 4, 5, 10}));
  // Already in order, and in order but for a repeat.
  EXPECT_EQ(expand_array(*values::parse_array("1-3,5,7-9:2"), 100),
            (std::vector<uint64_t>{1, 2, 3, 5, 7, 9}));
  EXPECT_EQ(expand_array(*values::parse_array("1-3,3-4"), 100),
            (std::vector<uint64_t>{1, 2, 3, 4}));
  EXPECT_EQ(json_index_list({0, 3, 4}), "[0,3,4]");
  const auto huge = values::parse_array("0-4000000000");
  ASSERT_TRUE(huge);
  EXPECT_TRUE(expand_array(*huge, kMaxArrayIndexes).empty());
}

TEST(ArrayExpansion, OverlappingRangesFillTheLimitOnce) {
  // Three copies of the same 10,000 indexes: the limit counts distinct ones.
  const auto spec = values::parse_array("1-10000,1-10000,2-10000:2");
  ASSERT_TRUE(spec);
  const std::vector<uint64_t> indexes = expand_array(*spec, kMaxArrayIndexes);
  ASSERT_EQ(indexes.size(), 10000U);
  EXPECT_EQ(indexes.front(), 1U);
  EXPECT_EQ(indexes.back(), 10000U);
  EXPECT_TRUE(std::is_sorted(indexes.begin(), indexes.end()));
  const auto one_too_many = values::parse_array("0-10000,1-10000");
  ASSERT_TRUE(one_too_many);
  EXPECT_TRUE(expand_array(*one_too_many, kMaxArrayIndexes).empty());
}

// --- writing ---------------------------------------------------------------------------

class WriteBundle : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ =
        fs::temp_directory_path() /
        ("s2a-bundle-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  size_t entries() const {
    return static_cast<size_t>(
        std::distance(fs::directory_iterator(root_), fs::directory_iterator()));
  }

  fs::path root_;
  const std::map<std::string, std::string> files_{{"databricks.yml", "bundle: {name: b}\n"},
                                                  {"tasks/a/command.sh", "#!/bin/bash\n"}};
};

TEST_F(WriteBundle, WritesEveryFile) {
  write_bundle((root_ / "out").string(), files_, false);
  EXPECT_EQ(slurp(root_ / "out" / "databricks.yml"), "bundle: {name: b}\n");
  EXPECT_EQ(slurp(root_ / "out" / "tasks" / "a" / "command.sh"), "#!/bin/bash\n");
  const auto perms = fs::status(root_ / "out" / "tasks" / "a" / "command.sh").permissions();
  EXPECT_NE(perms & fs::perms::owner_exec, fs::perms::none);
  EXPECT_EQ(entries(), 1U);  // no temporary directory left behind
}

TEST_F(WriteBundle, RefusesANonEmptyDirectoryWithoutForce) {
  fs::create_directories(root_ / "out");
  { std::ofstream(root_ / "out" / "keep.txt") << "mine"; }
  EXPECT_THROW(write_bundle((root_ / "out").string(), files_, false), io::FileError);
  EXPECT_EQ(slurp(root_ / "out" / "keep.txt"), "mine");
  EXPECT_FALSE(fs::exists(root_ / "out" / "databricks.yml"));
  EXPECT_EQ(entries(), 1U);
}

TEST_F(WriteBundle, ReplacesWithForce) {
  fs::create_directories(root_ / "out");
  { std::ofstream(root_ / "out" / "keep.txt") << "mine"; }
  write_bundle((root_ / "out").string(), files_, true);
  EXPECT_FALSE(fs::exists(root_ / "out" / "keep.txt"));
  EXPECT_TRUE(fs::exists(root_ / "out" / "databricks.yml"));
  EXPECT_EQ(entries(), 1U);
}

TEST_F(WriteBundle, UsesAnEmptyDirectory) {
  fs::create_directories(root_ / "out");
  write_bundle((root_ / "out").string(), files_, false);
  EXPECT_TRUE(fs::exists(root_ / "out" / "databricks.yml"));
}

TEST_F(WriteBundle, RefusesAFile) {
  { std::ofstream(root_ / "out") << "x"; }
  EXPECT_THROW(write_bundle((root_ / "out").string(), files_, true), io::FileError);
  EXPECT_EQ(slurp(root_ / "out"), "x");
}

}  // namespace
}  // namespace s2a::bundle

namespace s2a::bundle {
namespace {

// Truncated and byte-flipped corpus scripts: the builder reports, never throws
// or crashes, and whatever it builds passes the check.
TEST(BundleRobustness, MutatedCorpusScripts) {
  size_t runs = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kSource / "corpus")) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".sbatch" && ext != ".sh")) continue;
    const std::string text = slurp(entry.path());
    for (size_t cut = 1; cut < 8; ++cut) {
      std::string mutated = text.substr(0, text.size() * cut / 8);
      if (!mutated.empty()) mutated[mutated.size() / 2] ^= 0x20;
      BundleBuild b;
      EXPECT_NO_THROW(b = build_text(mutated, entry.path().filename().string()))
          << entry.path() << " cut " << cut;
      if (b.ok) {
        EXPECT_EQ(check_bundle_yaml(b.files.at("databricks.yml")), std::vector<std::string>{});
      }
      ++runs;
    }
  }
  EXPECT_GT(runs, 400U);
}

}  // namespace
}  // namespace s2a::bundle
