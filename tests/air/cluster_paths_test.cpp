// Paths on the cluster's own storage (S2A5010): found in every place a script
// names one, grouped so a script with many uses gets one report per storage
// root, and never raised for the node's own directories, AI Runtime's mounts,
// messages, patterns or container-internal paths. Relative paths that climb
// out of the uploaded code root (S2A5013) are found the same way.
#include "air/cluster_paths.hpp"

#include <gtest/gtest.h>

#include "translate.hpp"

namespace s2a {
namespace {

const std::string kHeader = "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n";

struct Found {
  std::string where;  // line:col
  std::string message;
};

std::vector<Found> cluster_paths(const std::string& body, Code code = Code::cluster_path) {
  const Translation t = translate("job.sh", kHeader + body);
  std::vector<Found> out;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code != code) continue;
    const LineCol at = t.file->line_col(d.span.begin);
    out.push_back({std::to_string(at.line) + ":" + std::to_string(at.col), d.message});
  }
  return out;
}

TEST(ClusterStorageRoot, TopDirectoryOfClusterPathsOnly) {
  EXPECT_EQ(air::cluster_storage_root("/scratch/alice/run"), "/scratch");
  EXPECT_EQ(air::cluster_storage_root("//gpfs/projects"), "/gpfs");
  EXPECT_EQ(air::cluster_storage_root("/data"), "/data");
  EXPECT_EQ(air::cluster_storage_root("~"), "~");
  EXPECT_EQ(air::cluster_storage_root("~/code"), "~");
  EXPECT_EQ(air::cluster_storage_root("~alice/code"), "~alice");
  EXPECT_EQ(air::cluster_storage_root("~openmp"), std::nullopt);  // a spack variant
  for (const char* node_path :
       {"/tmp/x", "/dev/null", "/usr/bin/env", "/etc/hosts", "/opt/conda", "/Volumes/main/ml/data",
        "/Workspace/Users/a", "/dbfs/tmp", "/local_disk0/tmp", "/", "relative/path",
        "$CODE_SOURCE_PATH", "/^pattern$/", "/../usr/lib/libnccl.so", "/./x"}) {
    EXPECT_EQ(air::cluster_storage_root(node_path), std::nullopt) << node_path;
  }
}

TEST(UnderJobDirectory, TheSpellingsOfTheJobsDirectoryAndPlainDirectoriesUnderIt) {
  for (const char* root : {".", "./", "$PWD", "\"${PWD}\"", "$(pwd)", "`pwd`", "$SLURM_SUBMIT_DIR/",
                           "${SLURM_SUBMIT_DIR}", "\"$CODE_SOURCE_PATH\""}) {
    EXPECT_EQ(air::under_job_directory(root), "") << root;
  }
  EXPECT_EQ(air::under_job_directory("./data/"), "data");
  EXPECT_EQ(air::under_job_directory("$PWD/runs/a"), "runs/a");
  for (const char* other : {"..", "./../x", "$PWD/$RUN", "data", "/scratch/u", "$PWDX", "$HOME"}) {
    EXPECT_EQ(air::under_job_directory(other), std::nullopt) << other;
  }
}

TEST(ClusterPaths, ChangeDirectoryAndSourceAreReportedEachTime) {
  const std::vector<Found> found = cluster_paths(
      "source ~/.bashrc\n"
      "cd /projects/nlp/llm\n"
      "pushd -- \"$HOME/code\"\n"
      "python train.py\n");
  ASSERT_EQ(found.size(), 3U);
  EXPECT_EQ(found[0].where, "3:8");
  EXPECT_NE(found[0].message.find("`source ~/.bashrc`: the file is in the cluster home"),
            std::string::npos);
  EXPECT_EQ(found[1].where, "4:4");
  EXPECT_NE(found[1].message.find("`cd /projects/nlp/llm`"), std::string::npos);
  EXPECT_NE(found[1].message.find("$CODE_SOURCE_PATH"), std::string::npos);
  EXPECT_EQ(found[2].where, "5:10");
  EXPECT_NE(found[2].message.find("`pushd \"$HOME/code\"`"), std::string::npos);
}

std::string command_of(const std::string& body) {
  const Translation t = translate("job.sh", kHeader + body);
  return t.yaml.substr(t.yaml.find("command: |"));
}

// A failing cd stops a `set -e` script, skips what follows `&&` and takes
// `|| exit`: taken out, the job runs on in $CODE_SOURCE_PATH.
TEST(ClusterPaths, ACdIntoClusterStorageIsRemovedSoWhatFollowsStillRuns) {
  const std::string body =
      "set -e\n"
      "cd /scratch/u/proj\n"
      "python prepare.py\n"
      "cd \"/lustre/$USER/llm/\" && python train.py\n"
      "cd ~/code || exit 1\n";
  const std::vector<Found> found = cluster_paths(body);
  ASSERT_EQ(found.size(), 3U);
  for (const Found& f : found) {
    EXPECT_NE(f.message.find("the cd would fail there, so it is removed and what follows runs in "
                             "$CODE_SOURCE_PATH"),
              std::string::npos)
        << f.message;
  }
  const std::string command = command_of(body);
  EXPECT_NE(command.find("  # [slurm2air] cd /scratch/u/proj\n  python prepare.py\n"),
            std::string::npos)
      << command;
  EXPECT_NE(command.find(": '[slurm2air] cd \"/lustre/$USER/llm/\"' && python train.py"),
            std::string::npos)
      << command;
  EXPECT_NE(command.find(": '[slurm2air] cd ~/code' || exit 1"), std::string::npos) << command;
}

// The script may make the directory itself (then the cd works on the node
// too); a substitution's or a step's cd, pushd (popd follows it) and a cd
// above the code root (which exists there) stay as written.
TEST(ClusterPaths, ACdStaysWhereItMayWorkOrIsPartOfSomethingElse) {
  const std::string body =
      "mkdir -p \"/scratch/$USER/run/logs\"\n"
      "cd /scratch/${USER}/run/\n"
      "git clone https://github.com/org/repo ~/repo && cd ~/repo\n"
      "D=$(cd /gpfs/u/x && pwd)\n"
      "pushd /gpfs/u/y\n"
      "popd\n"
      "srun bash -c 'cd /lustre/alice && python train.py'\n"
      "cd ../data\n";
  for (const Found& f : cluster_paths(body)) {
    EXPECT_EQ(f.message.find("removed"), std::string::npos) << f.message;
  }
  const std::string command = command_of(body);
  for (const char* kept :
       {"\n  cd /scratch/${USER}/run/\n", "&& cd ~/repo\n", "$(cd /gpfs/u/x && pwd)",
        "\n  pushd /gpfs/u/y\n", "cd /lustre/alice && python train.py", "\n  cd ../data\n"}) {
    EXPECT_NE(command.find(kept), std::string::npos) << kept << "\n" << command;
  }
}

// TensorFlow names devices like paths; a bind mount is still a path.
TEST(ClusterPaths, DeviceNamesAreNoPaths) {
  EXPECT_TRUE(cluster_paths("python t.py --device=/gpu:0 --ps \"/device:CPU:0\" "
                            "--worker /job:worker/task:1\n")
                  .empty());
  EXPECT_FALSE(cluster_paths("python t.py --dirs=/gpu:/data\n").empty());
}

// An image file is reported with the container call as the workload's image.
TEST(ClusterPaths, ImageFilesAreTheContainersNotStorage) {
  EXPECT_TRUE(cluster_paths("SIF=/apps/containers/train.sif\n"
                            "export IMG=/scratch/u/old.simg\n"
                            "python t.py --image=/opt/x.sqsh\n")
                  .empty());
  EXPECT_FALSE(cluster_paths("SIF=/apps/containers/train.sif.d/data\n").empty());
}

TEST(ClusterPaths, OtherUsesAreGroupedByStorageRoot) {
  const std::vector<Found> found = cluster_paths(
      "export HF_HOME=/scratch/$USER/hf\n"
      "DATA=/datasets/imagenet\n"
      "mkdir -p /scratch/$USER/out\n"
      "python train.py --data=/datasets/imagenet/train --out /scratch/$USER/out "
      "data.val=/datasets/imagenet/val > /scratch/$USER/out/log.txt\n");
  ASSERT_EQ(found.size(), 2U);
  EXPECT_EQ(found[0].where, "3:8");
  EXPECT_NE(found[0].message.find("`HF_HOME=/scratch/$USER/hf` names a path on the cluster's "
                                  "storage (/scratch)"),
            std::string::npos);
  EXPECT_NE(found[0].message.find("(/scratch is used 3 more time(s) in the script)"),
            std::string::npos);
  EXPECT_EQ(found[1].where, "4:6");
  EXPECT_NE(found[1].message.find("(/datasets is used 2 more time(s) in the script)"),
            std::string::npos);
}

TEST(ClusterPaths, PathListsAndLaunchersAreRead) {
  const std::vector<Found> found = cluster_paths(
      "export PYTHONPATH=/home/alice/lib:$PYTHONPATH\n"
      "srun --output=/dev/null torchrun --nproc_per_node=8 /gpfs/alice/train.py\n");
  ASSERT_EQ(found.size(), 2U);
  EXPECT_NE(found[0].message.find("(/home)"), std::string::npos);
  EXPECT_NE(found[1].message.find("`/gpfs/alice/train.py`"), std::string::npos);
}

TEST(ClusterPaths, NotReportedForNodePathsMessagesPatternsAndContainers) {
  EXPECT_TRUE(
      cluster_paths("cd \"$SLURM_SUBMIT_DIR\"\n"
                    "cd $CODE_SOURCE_PATH/src\n"
                    "cd ../data\n"
                    "python train.py --data /Volumes/main/ml/imagenet > /tmp/log 2>/dev/null\n"
                    "echo \"checkpoints go to /scratch/alice\"\n"
                    "echo /scratch/alice\n"
                    "sed -i 's/a/b/' config.yaml\n"
                    "awk '/^step/ {print}' log.txt\n"
                    "grep -r /scratch logs/\n"
                    "/usr/bin/env python eval.py\n"
                    "singularity exec --nv -B /scratch:/scratch img.sif python /scratch/run.py\n"
                    "srun apptainer run --bind /data:/data img.sif\n"
                    // paths inside the image, for the container
                    "export SINGULARITYENV_FS_LICENSE=/home/fmriprep/license.txt\n"
                    "APPTAINERENV_HOME=/home/u apptainer exec img.sif python t.py\n"
                    "cat <<EOF > config.txt\n/scratch/alice\nEOF\n"
                    // appended to a value, not a path of its own
                    "TEMP=$TMPDIR\nTEMP+=\"/AtLoc-master\"\n"
                    "./build.sh relion +mpi ~openmp\n")
          .empty());
}

std::vector<Found> paths_above_code_root(const std::string& body) {
  return cluster_paths(body, Code::path_above_code_root);
}

TEST(PathsAboveCodeRoot, CdSourceAndOtherUsesAreReportedLikeClusterStorage) {
  const std::vector<Found> found = paths_above_code_root(
      "python ../train.py --data=../data\n"
      "source ../env.sh\n"
      "cp ../configs/a.yaml out/ > ../log.txt\n"
      "cd ..\n");
  ASSERT_EQ(found.size(), 3U);
  EXPECT_EQ(found[0].where, "3:8");
  EXPECT_NE(found[0].message.find("`../train.py` names a path above the code root"),
            std::string::npos)
      << found[0].message;
  EXPECT_NE(found[0].message.find("paths above it are used 3 more time(s)"), std::string::npos)
      << found[0].message;
  EXPECT_EQ(found[1].where, "4:8");
  EXPECT_NE(found[1].message.find("`source ../env.sh`: the file is above the code root"),
            std::string::npos)
      << found[1].message;
  EXPECT_EQ(found[2].where, "6:4");
  EXPECT_NE(found[2].message.find("`cd ..`: the directory is above the code root"),
            std::string::npos)
      << found[2].message;
}

TEST(PathsAboveCodeRoot, NotJudgedOnceTheScriptChangesDirectory) {
  // After `cd sub`, `..` is the code root again; a cd to the submit
  // directory ($CODE_SOURCE_PATH on AI Runtime) changes nothing.
  EXPECT_EQ(paths_above_code_root("cd \"${SLURM_SUBMIT_DIR}\"\npython ../a.py\n").size(), 1U);
  EXPECT_TRUE(paths_above_code_root("cd src\npython ../train.py --data ../data\n").empty());
  EXPECT_TRUE(paths_above_code_root("pushd build\n../configure\n").empty());
  EXPECT_TRUE(paths_above_code_root("cd\npython ../a.py\n").empty());  // home: reported as such
}

TEST(PathsAboveCodeRoot, NotForMessagesPatternsRangesOrPathsInsideTheRoot) {
  EXPECT_TRUE(paths_above_code_root("echo ../x\n"
                                    "sed -i 's/../x/' f.txt\n"
                                    "for i in {1..10}; do python t.py $i; done\n"
                                    "python ./a/../b.py --data data/../x\n"
                                    "ls ...\n")
                  .empty());
}

// The command of a singularity call runs on the node once the call is
// unwrapped: what singularity bound in by itself ($HOME, the site's
// /scratch) or the image held is not there.
TEST(ClusterPaths, TheCommandOfAnUnwrappedContainerIsRead) {
  const std::vector<Found> found = cluster_paths(
      "singularity exec --nv img.sif python /scratch/u/train.py --data /scratch/u/data\n"
      "srun apptainer exec --bind /data:/data img.sif python /app/run.py --in /data/x\n");
  ASSERT_EQ(found.size(), 2U);
  EXPECT_EQ(found[0].where, "3:38");
  EXPECT_EQ(found[0].message,
            "`/scratch/u/train.py` names a path that the container's command read from the "
            "cluster's storage (/scratch), which singularity bound in, or from its image, neither "
            "of which an AI Runtime node has once the container is removed: reads find nothing "
            "there and what is written there is lost when the run ends (/scratch is used 1 more "
            "time(s) in the script)");
  EXPECT_EQ(found[1].where, "4:55");  // /data is the call's own mount (S2A5008)
  EXPECT_NE(found[1].message.find("(/app)"), std::string::npos) << found[1].message;
}

TEST(ClusterPaths, PathsUnderARenamingMountAreTheMountsNotTheClusters) {
  // /workspace is the container's name for /scratch/alice/proj (reported with
  // the mount, S2A5008); /datasets is mounted at the same path, so it is the
  // cluster's storage under either name; /workspacex is not under /workspace.
  const std::vector<Found> found = cluster_paths(
      "OUT=/workspace/out\n"
      "DATA=/datasets/imagenet\n"
      "LOGS=/workspacex/logs\n"
      "cd /workspace\n"
      "srun singularity exec --nv --bind /scratch/alice/proj/:/workspace/,/datasets img.sif \\\n"
      "  python train.py --out $OUT --data $DATA --logs $LOGS\n");
  ASSERT_EQ(found.size(), 2U);
  EXPECT_EQ(found[0].where, "4:6");
  EXPECT_NE(found[0].message.find("(/datasets)"), std::string::npos) << found[0].message;
  EXPECT_EQ(found[1].where, "5:6");
  EXPECT_NE(found[1].message.find("(/workspacex)"), std::string::npos) << found[1].message;
}

TEST(ClusterPaths, NotRepeatedWhereAnotherRuleReportsThePath) {
  // pip (S2A5003), module (S2A4007), a virtualenv activation (S2A4007) and a
  // container image (S2A5006) carry their own reports.
  const std::vector<Found> found = cluster_paths(
      "pip install -r /home/alice/requirements.txt\n"
      "module use /apps/modulefiles\n"
      "source /projects/alice/venv/bin/activate\n"
      "python -m pip install /home/alice/pkg\n"
      "python train.py\n");
  EXPECT_TRUE(found.empty()) << found.front().message;
}

TEST(ClusterPaths, NestedScriptsPointAtTheirWords) {
  const std::vector<Found> found =
      cluster_paths("srun bash -c 'cd /lustre/alice && python train.py'\n");
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0].where, "3:18");
}

}  // namespace
}  // namespace s2a
