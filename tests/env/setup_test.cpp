// Setup lines, --export, containers and secrets through translate(): what
// reaches environment, env_variables, secrets and the command.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "air/map_workload.hpp"
#include "air/setup.hpp"
#include "directives/directives.hpp"
#include "profile/profile.hpp"
#include "support/diagnostics.hpp"
#include "support/run_process.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

const std::string kHead = "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n";

Translation run(const std::string& body, const TranslateOptions& options = {}) {
  return translate("job.sbatch", kHead + body, options);
}

bool has_code(const Translation& t, Code code) {
  return std::any_of(t.diagnostics.begin(), t.diagnostics.end(),
                     [&](const Diagnostic& d) { return d.code == code; });
}

bool command_has(const Translation& t, const std::string& text) {
  return t.workload && t.workload->command.find(text) != std::string::npos;
}

std::string messages_of(const Translation& t, Code code) {
  std::string out;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == code) out += d.message + "\n";
  }
  return out;
}

std::string hints_of(const Translation& t, Code code) {
  std::string out;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == code) out += d.hint + "\n";
  }
  return out;
}

/// The lines (of the whole file) where `code` is reported.
std::vector<uint32_t> lines_of(const Translation& t, Code code) {
  std::vector<uint32_t> lines;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == code) lines.push_back(t.file->line_col(d.span.begin).line);
  }
  return lines;
}

/// is_setup_command() of each line of `body`, in order (not the commands
/// of substitutions).
std::vector<bool> setup_commands_of(const std::string& body) {
  const SourceFile file("job.sbatch", kHead + body);
  Diagnostics diagnostics;
  const slurm::Body analyzed =
      slurm::analyze_body(file, directives::scan_directives(file).body_offset, diagnostics);
  std::vector<bool> out;
  for (const slurm::Site& site : analyzed.sites) {
    if (site.context.in_substitution) continue;
    out.push_back(air::is_setup_command(*site.command, site.program, analyzed.views[0].text));
  }
  return out;
}

// Every setup program gets past the first look at the program name (its
// last letter), and programs that differ from one in that letter alone do not.
TEST(SetupCommand, KnowsEverySetupProgram) {
  EXPECT_EQ(setup_commands_of("module load cuda\nml cuda\nspack load nccl\nconda activate ml\n"
                              "mamba activate ml\nmicromamba activate ml\nvpkg_require cuda\n"
                              "vpkg_devrequire cuda\ndeactivate\nsource env/bin/activate\n"
                              ". env/bin/activate\neval \"$(conda shell.bash hook)\"\n"),
            std::vector<bool>(12, true));
  EXPECT_EQ(setup_commands_of("modules load cuda\nmls\nspacks\ncondas\nsources env/bin/activate\n"
                              "evals x\npython t.py\nsource env.sh\neval x\n"),
            std::vector<bool>(9, false));
}

struct DependencyCase {
  const char* body;
  std::vector<std::string> dependencies;
  bool removed;  // the line leaves the command
};

class PipInstall : public ::testing::TestWithParam<DependencyCase> {};

TEST_P(PipInstall, MovesLiteralTopLevelInstalls) {
  const Translation t = run(std::string(GetParam().body) + "python train.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.dependencies, GetParam().dependencies);
  EXPECT_EQ(has_code(t, Code::pip_install_moved), GetParam().removed);
  EXPECT_EQ(has_code(t, Code::pip_install_kept), !GetParam().removed);
}

INSTANTIATE_TEST_SUITE_P(
    Spellings, PipInstall,
    ::testing::Values(
        DependencyCase{"pip install tiktoken wandb\n", {"tiktoken", "wandb"}, true},
        DependencyCase{
            "pip3 install -q --no-cache-dir 'transformers>=4.45'\n", {"transformers>=4.45"}, true},
        DependencyCase{"python -m pip install -U datasets\n", {"datasets"}, true},
        DependencyCase{"pip install -r requirements.txt\n", {"-r requirements.txt"}, true},
        DependencyCase{"pip install --requirement=envs/req.txt\n", {"-r envs/req.txt"}, true},
        DependencyCase{"pip install --upgrade pip\n", {}, true},
        DependencyCase{"pip install -r /home/me/req.txt\n", {}, false},
        DependencyCase{"pip install -r ../req.txt\n", {}, false},
        DependencyCase{"pip install -e .\n", {}, false},
        DependencyCase{"pip install $EXTRA\n", {}, false},
        DependencyCase{"pip install --index-url https://pypi.example/simple torch\n", {}, false},
        DependencyCase{"if true; then pip install wandb; fi\n", {}, false},
        // Alliance clusters: --no-index read the site's wheelhouse (pip.conf).
        DependencyCase{
            "pip install --no-index torch transformers\n", {"torch", "transformers"}, true},
        DependencyCase{"pip install --no-index --find-links=/wheels torch\n", {}, false},
        // The requirements file is read from the directory the cds before
        // it enter: named from the code root, or kept where that is unknown.
        DependencyCase{
            "cd src/\npip install -r requirements.txt\n", {"-r src/requirements.txt"}, true},
        DependencyCase{"cd a\ncd ../b\npip install -r ./req.txt\n", {"-r b/req.txt"}, true},
        DependencyCase{
            "cd $SLURM_SUBMIT_DIR/env\npip install -r req.txt\n", {"-r env/req.txt"}, true},
        DependencyCase{
            "cd sub\ncd \"$SLURM_SUBMIT_DIR\"\npip install -r req.txt\n", {"-r req.txt"}, true},
        DependencyCase{"X=$(cd tools && pwd)\npip install -r req.txt\n", {"-r req.txt"}, true},
        DependencyCase{"cd /home/me/project\npip install -r req.txt\n", {}, false},
        DependencyCase{"cd \"$WORKDIR\"\npip install -r req.txt\n", {}, false},
        DependencyCase{"cd ..\npip install -r req.txt\n", {}, false},
        DependencyCase{"pushd src\npip install -r req.txt\n", {}, false},
        DependencyCase{"for d in a; do cd $d; done\npip install -r req.txt\n", {}, false}));

struct SetupCase {
  const char* body;
  const char* message_part;  // in the S2A4007 message
};

class SetupLines : public ::testing::TestWithParam<SetupCase> {};

TEST_P(SetupLines, AreRemovedAndReported) {
  const Translation t = run(std::string(GetParam().body) + "python train.py\n");
  ASSERT_TRUE(t.workload);
  const auto it = std::find_if(t.diagnostics.begin(), t.diagnostics.end(), [](const Diagnostic& d) {
    return d.code == Code::setup_command_removed;
  });
  ASSERT_NE(it, t.diagnostics.end());
  EXPECT_NE(it->message.find(GetParam().message_part), std::string::npos) << it->message;
  EXPECT_TRUE(command_has(t, "# [slurm2air] ")) << t.workload->command;
}

INSTANTIATE_TEST_SUITE_P(
    Styles, SetupLines,
    ::testing::Values(
        SetupCase{"module load cuda/12.1 nccl\n",
                  "cuda/12.1, nccl come with the AI Runtime environment"},
        SetupCase{"module load gcc/12.2.0\n", "gcc/12.2.0 is not a Python dependency"},
        SetupCase{"ml openfold/2.0\n", "openfold/2.0 has no known mapping"},
        SetupCase{"module load openfold/2.0 alphafold/3\n",
                  "openfold/2.0, alphafold/3 have no known mapping"},
        SetupCase{"module load gcc/12.2.0 openmpi/4.1.5\n",
                  "gcc/12.2.0, openmpi/4.1.5 are not Python dependencies and have no counterpart"},
        SetupCase{"module load $MODS\n", "$MODS is computed and not mapped"},
        SetupCase{"module purge\n", "`module purge` does not exist on AI Runtime nodes"},
        SetupCase{"module swap PrgEnv-cray PrgEnv-gnu\n", "module swap"},
        SetupCase{"spack load cudnn@9 nccl\n", "cudnn@9, nccl come with"},
        SetupCase{"conda activate esm\n", "conda environment esm does not exist"},
        SetupCase{"source activate esm\n", "conda environment esm does not exist"},
        SetupCase{"source activate\n", "conda environment base does not exist"},
        SetupCase{"source ~/miniconda3/bin/activate chess\n",
                  "conda environment chess does not exist"},
        SetupCase{"source \"$HOME/venv/bin/activate\"\n",
                  "the virtual environment activated by `source \"$HOME/venv/bin/activate\"`"},
        SetupCase{"mamba activate jax\n", "conda environment jax"},
        SetupCase{"source \"$VENV/bin/activate\"\n", "virtual environment"},
        SetupCase{"deactivate\n", "`deactivate` ends a virtual environment"},
        SetupCase{"source deactivate\n", "`source deactivate` leaves an environment"},
        SetupCase{"source /opt/spack/share/spack/setup-env.sh\n", "sets up spack"},
        SetupCase{"source /etc/profile.d/modules.sh\n", "sets up environment modules"},
        SetupCase{". /usr/share/Modules/init/bash\n", "sets up environment modules"},
        SetupCase{"source \"${MODULESHOME}/init/sh\"\n", "sets up environment modules"},
        SetupCase{"source /etc/profile.d/lmod.sh\n", "sets up Lmod"},
        SetupCase{"vpkg_require cuda/11.2 openfold\n", "openfold has no known mapping"},
        // Hierarchical and suffixed names, flags before the subcommand.
        SetupCase{"module load devel/cuda/11.6 lib/nccl/2.11 cuda-11.8\n",
                  "devel/cuda/11.6, lib/nccl/2.11, cuda-11.8 come with the AI Runtime"},
        SetupCase{"module -q load gcc_12\n", "`module load` does not exist"},
        SetupCase{"module --ignore-cache load CUDA/10.2\n", "CUDA/10.2 comes with the AI Runtime"},
        SetupCase{"module load Anaconda3/2023.03\n", "and conda, which it has not"},
        SetupCase{"spack install hdf5\n", "`spack install` does not exist"},
        SetupCase{"eval \"$(conda shell.bash hook)\"\n", "conda shell hook"},
        SetupCase{"module load python/2.7.15\n", "python/2.7.15 is Python 2, which the AI Runtime"},
        SetupCase{"module load Anaconda2/5.3\n", "Anaconda2/5.3 is Python 2"},
        // An application built for CUDA is the application, not CUDA.
        SetupCase{"module load lammps/2018/cuda\n", "lammps/2018/cuda has no known mapping"},
        SetupCase{"module load openmpi/cuda-8.0/3.0.0\n",
                  "openmpi/cuda-8.0/3.0.0 is not a Python dependency"}));

// The environment is built before the command: an install after one that
// stays must stay too, or it would run first and lose to it.
TEST(PipInstallOrder, AnInstallAfterAKeptOneStays) {
  const Translation t =
      run("pip install wandb\npip install numpy==1.24.4 --extra-index-url https://x.org/whl\n"
          "pip install numpy==1.26.4\npython t.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.dependencies, std::vector<std::string>{"wandb"});
  EXPECT_TRUE(command_has(t, "\npip install numpy==1.26.4\n")) << t.workload->command;
  EXPECT_NE(messages_of(t, Code::pip_install_kept)
                .find("an earlier `pip install` (`pip install numpy==1.24.4 --extra-index-url "
                      "https://x.org/wh...`) stays in the command, and this one must still run "
                      "after it"),
            std::string::npos)
      << messages_of(t, Code::pip_install_kept);
  const Translation uninstall = run("pip uninstall -y torch\npip install torch==2.1.0\n");
  ASSERT_TRUE(uninstall.workload);
  EXPECT_TRUE(uninstall.workload->environment.dependencies.empty());
  EXPECT_TRUE(command_has(uninstall, "pip uninstall -y torch\npip install torch==2.1.0\n"));
}

// `--no-index` in a kept install leaves pip nothing to install from.
TEST(PipInstall, NoIndexIsRemovedFromAKeptInstall) {
  const Translation t =
      run("for p in a b; do pip install --no-index $p; done\npip install --no-index -f /w c\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "pip install $p; done\npip install --no-index -f /w c\n"))
      << t.workload->command;
  EXPECT_NE(messages_of(t, Code::pip_install_kept).find("its `--no-index` is removed"),
            std::string::npos);
}

// A virtual environment the script creates and activates: the workload's
// environment takes its place, so the creation goes with the activation.
TEST(CreatedEnvironment, IsRemovedWithItsActivation) {
  const Translation t =
      run("virtualenv --no-download -p python3 $SLURM_TMPDIR/env\n"
          "source $SLURM_TMPDIR/env/bin/activate\npip install --no-index torch\n"
          "python3 -m venv ./venv/exp/ && source venv/exp/bin/activate\n"
          "python -m venv unused\nuv venv other\npython train.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "# [slurm2air] virtualenv --no-download")) << t.workload->command;
  EXPECT_TRUE(command_has(t, "\n: '[slurm2air] python3 -m venv ./venv/exp/' && : "))
      << t.workload->command;
  EXPECT_TRUE(command_has(t, "\npython -m venv unused\nuv venv other\n")) << t.workload->command;
  EXPECT_EQ(t.workload->environment.dependencies, std::vector<std::string>{"torch"});
  const std::string messages = messages_of(t, Code::setup_command_removed);
  EXPECT_NE(messages.find("`virtualenv --no-download -p python3 $SLURM_TMPDIR/env` creates the "
                          "virtual environment the script activates"),
            std::string::npos)
      << messages;
  EXPECT_NE(messages.find("`source $SLURM_TMPDIR/env/bin/activate`, which the script creates, "
                          "is replaced by the workload's environment"),
            std::string::npos)
      << messages;
}

// An environment's interpreter run without activating it: the environment
// is the cluster's, so the workload's interpreter runs in its place.
TEST(EnvironmentInterpreter, IsTheWorkloadsInterpreter) {
  const Translation t =
      run("venv/bin/python train.py\n~/miniconda3/envs/ml/bin/python prep.py\n"
          "\"$HOME/.venv/bin/python3.10\" -u eval.py\nsrun $VENV/bin/torchrun t.py\n"
          "/usr/bin/python3 x.py\n./bin/python y.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t,
                          "\npython train.py\npython prep.py\npython3 -u eval.py\n"
                          "torchrun t.py\n/usr/bin/python3 x.py\n./bin/python y.py\n"))
      << t.workload->command;
  const std::string messages = messages_of(t, Code::setup_command_removed);
  EXPECT_NE(messages.find("`venv/bin/python` runs from the virtual environment venv, which AI "
                          "Runtime nodes do not have; `python` of the workload's environment "
                          "runs instead"),
            std::string::npos)
      << messages;
  EXPECT_NE(messages.find("from the conda environment ~/miniconda3/envs/ml"), std::string::npos);
  EXPECT_EQ(t.diagnostics.end(),
            std::find_if(t.diagnostics.begin(), t.diagnostics.end(), [](const Diagnostic& d) {
              return d.code == Code::cluster_path &&
                     d.message.find("miniconda3") != std::string::npos;
            }));
}

// Another Python 3 minor version's name is not found on the node; Python 2
// is not there at all and is only reported.
TEST(EnvironmentInterpreter, OtherPythonVersionsAreReported) {
  const Translation t = run("python3.6 train.py\npython2 old.py\npython3.12 t.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "\npython3 train.py\npython2 old.py\npython3.12 t.py\n"))
      << t.workload->command;
  const std::string messages = messages_of(t, Code::python_version_missing);
  EXPECT_NE(messages.find("`python3.6` does not exist in AI Runtime's environment"),
            std::string::npos);
  EXPECT_NE(messages.find("`python2` is Python 2"), std::string::npos) << messages;
}

// Setup tools asked for a path inside a command (Exawind's amr-wind jobs,
// conda's base for its hook): the tool is gone, so the value is empty.
TEST(SetupToolOutput, AnAssignmentGoesWithTheSetupAnythingElseIsReported) {
  const Translation t =
      run("set -e\nCONDA_BASE=$(conda info --base)\nsource $CONDA_BASE/etc/profile.d/conda.sh\n"
          "source \"$(conda info --base)/etc/profile.d/conda.sh\"\n"
          "eval \"$(conda shell.bash hook)\"\nspack load amr-wind\n"
          "amr_exec=\"$(spack location -i amr-wind)/bin/amr_wind\"\n"
          "echo \"modules: $(module -t list 2>&1)\"\n"
          "GIT=$(git rev-parse HEAD)\neval $( spack load --sh py-numpy )\n$amr_exec inputs.txt\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "# [slurm2air] eval $( spack load --sh py-numpy )\n"));
  EXPECT_NE(messages_of(t, Code::setup_command_removed)
                .find("`spack load` does not exist on AI Runtime nodes and is removed: py-numpy"),
            std::string::npos);
  EXPECT_TRUE(command_has(t, "# [slurm2air] CONDA_BASE=$(conda info --base)\n"));
  EXPECT_TRUE(command_has(t, "\namr_exec=\"$(spack location -i amr-wind)/bin/amr_wind\"\n"));
  EXPECT_TRUE(command_has(t, "\nGIT=$(git rev-parse HEAD)\n"));
  EXPECT_EQ(messages_of(t, Code::setup_tool_output_used),
            "`spack location -i amr-wind` asks spack, which AI Runtime nodes do not have: the "
            "substitution is empty, so the command around it gets the wrong value; the "
            "assignment also fails, which ends a `set -e` script\n"
            "`module -t list 2>&1` asks module, which AI Runtime nodes do not have: the "
            "substitution is empty, so the command around it gets the wrong value\n");
  EXPECT_NE(messages_of(t, Code::setup_command_removed)
                .find("`conda info --base` asks conda, which AI Runtime nodes do not have; the "
                      "assignment is removed with the setup, so $CONDA_BASE is empty"),
            std::string::npos);
}

TEST(Export, ListsBecomeEnvVariablesAndNamesAreReported) {
  const Translation t =
      translate("job.sbatch",
                "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n"
                "#SBATCH --export=ALL,NCCL_DEBUG=INFO,MSG=hello,WANDB_MODE\npython t.py\n");
  ASSERT_TRUE(t.workload);
  ASSERT_EQ(t.workload->env_variables.size(), 2u);
  EXPECT_EQ(t.workload->env_variables[0].name, "NCCL_DEBUG");
  EXPECT_EQ(t.workload->env_variables[1].value, "hello");
  EXPECT_TRUE(has_code(t, Code::export_from_submit_shell));
  EXPECT_FALSE(has_code(t, Code::directive_not_mapped));  // replaced by the specific reports
}

TEST(Export, BodyExportWinsOverTheDirective) {
  const Translation t =
      translate("job.sbatch",
                "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n#SBATCH --export=A=1\n"
                "export A=2\npython t.py\n");
  ASSERT_TRUE(t.workload);
  ASSERT_EQ(t.workload->env_variables.size(), 1u);
  EXPECT_EQ(t.workload->env_variables[0].value, "2");
}

TEST(Export, NoneAloneKeepsTheGenericReport) {
  const Translation t = translate(
      "job.sbatch",
      "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n#SBATCH --export=NONE\npython t.py\n");
  EXPECT_TRUE(has_code(t, Code::directive_not_mapped));
}

// A file the command sources may set the same variable: an export after
// it stays after it. Before it, or after a removed activation, it moves.
TEST(Exports, AnExportAfterAKeptSourceStaysInPlace) {
  const Translation t =
      run("export EARLY=1\nsource venv/bin/activate\nexport MIDDLE=2\nsource ./env.sh\n"
          "export OMP_NUM_THREADS=1\npython t.py\n");
  ASSERT_TRUE(t.workload);
  std::vector<std::string> moved;
  for (const auto& v : t.workload->env_variables) moved.push_back(v.name);
  EXPECT_EQ(moved, (std::vector<std::string>{"EARLY", "MIDDLE"}));
  EXPECT_TRUE(command_has(t, "source ./env.sh\nexport OMP_NUM_THREADS=1\n")) << t.workload->command;
}

TEST(Exports, LiteralValuesStayStringsAndComputedOnesStay) {
  const Translation t = run("export BATCH=32 FLAG=true\nexport OUT=/scratch/$USER\npython t.py\n");
  ASSERT_TRUE(t.workload);
  ASSERT_EQ(t.workload->env_variables.size(), 2u);
  EXPECT_NE(t.yaml.find("BATCH: '32'"), std::string::npos) << t.yaml;
  EXPECT_NE(t.yaml.find("FLAG: 'true'"), std::string::npos);
  EXPECT_TRUE(command_has(t, "export OUT=/scratch/$USER"));
}

// bash expands `~` at the start of a value and after an unquoted `:`: the
// value is the node's home directory, which env_variables cannot say.
TEST(Exports, AValueWithAnExpandedTildeStaysInTheCommand) {
  const Translation t =
      run("export HOME=~\nexport HF_HOME=~/scratch/.cache\nexport P=/a:~/b\nC=~/c\nexport C\n"
          "export QUOTED=\"~/x\" INNER=a~b ESCAPED=\\~/x\npython t.py\n");
  ASSERT_TRUE(t.workload);
  for (const char* kept :
       {"export HOME=~\n", "export HF_HOME=~/scratch/.cache\n", "export P=/a:~/b\n", "C=~/c\n"}) {
    EXPECT_TRUE(command_has(t, kept)) << kept << "\n" << t.yaml;
  }
  ASSERT_EQ(t.workload->env_variables.size(), 3u) << t.yaml;
  EXPECT_EQ(t.workload->env_variables[0].value, "~/x");
  EXPECT_EQ(t.workload->env_variables[1].value, "a~b");
  EXPECT_EQ(t.workload->env_variables[2].value, "~/x");
}

// Moved up front, a value would reach the commands before its line, and a
// later assignment or `unset` would apply from the start.
TEST(Exports, AVariableSetTwiceOrUnsetStaysWhereItIs) {
  const Translation t = run(
      "export OMP_NUM_THREADS=8\n./bench 1\nexport OMP_NUM_THREADS=16\n./bench 2\n"
      "export CUDA_VISIBLE_DEVICES=0,1\n./bench 3\nunset CUDA_VISIBLE_DEVICES\n"
      "export NCCL_DEBUG=INFO\nfor DS in a b; do export DS=x; done\nexport DS=y\npython t.py\n");
  ASSERT_TRUE(t.workload);
  ASSERT_EQ(t.workload->env_variables.size(), 1u) << t.yaml;
  EXPECT_EQ(t.workload->env_variables[0].name, "NCCL_DEBUG");
  EXPECT_TRUE(command_has(t, "\nexport OMP_NUM_THREADS=8\n./bench 1\nexport OMP_NUM_THREADS=16\n"))
      << t.workload->command;
  EXPECT_TRUE(command_has(t, "\nexport CUDA_VISIBLE_DEVICES=0,1\n"));
  EXPECT_TRUE(command_has(t, "\nexport DS=y\n"));
}

// bash resets an inherited IFS, and reads BASH_ENV before the first line.
// A fixed PATH (a dump of the cluster's) replaced the variable from its
// line on; in env_variables it would replace the node's for the whole run.
TEST(Exports, AFixedSearchPathStaysWhereItIsAndIsReported) {
  const Translation t =
      run("export PATH=/apps/gcc/9.3.0/bin:/usr/bin:/bin\nexport "
          "LD_LIBRARY_PATH=/opt/x/lib:$LD_LIBRARY_PATH\n"
          "python train.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(t.workload->env_variables.empty());
  EXPECT_TRUE(command_has(t, "export PATH=/apps/gcc/9.3.0/bin:/usr/bin:/bin\n"));
  EXPECT_EQ(messages_of(t, Code::search_path_replaced).find("PATH is set to a fixed list"), 0u);
  EXPECT_EQ(messages_of(t, Code::search_path_replaced).find("LD_LIBRARY_PATH"), std::string::npos);
}

TEST(Exports, AnUnsetSearchPathIsReported) {
  const Translation t = run("unset LD_LIBRARY_PATH PYTHONPATH\npython train.py\n");
  EXPECT_EQ(messages_of(t, Code::search_path_replaced).find("`unset LD_LIBRARY_PATH` clears"), 0u)
      << messages_of(t, Code::search_path_replaced);
  EXPECT_FALSE(has_code(run("unset PYTHONPATH\npython train.py\n"), Code::search_path_replaced));
}

// InstaGen's AWS template: the cluster's own NCCL build preloaded, EFA and
// aws-ofi-nccl put on the search paths. Only the preload is reported: a
// directory the node lacks is skipped, one it has is its image's.
TEST(Exports, ALibraryOfTheClusterNodesPreloadedIsReported) {
  const Translation t =
      run("export LD_LIBRARY_PATH=/opt/aws-ofi-nccl/lib:/opt/amazon/efa/lib64:/opt/nccl/build/lib:"
          "$LD_LIBRARY_PATH\n"
          "export PATH=/opt/amazon/efa/bin:$PATH\n"
          "export LD_PRELOAD=\"/opt/nccl/build/lib/libnccl.so\"\n"
          "srun python main.py --base configs/v1.yaml\n");
  ASSERT_EQ(testing::diagnostics_with(t, Code::node_library_preloaded).size(), 1u);
  EXPECT_EQ(messages_of(t, Code::node_library_preloaded)
                .find("LD_PRELOAD loads `/opt/nccl/build/lib/libnccl.so`, a library the cluster"),
            0u)
      << messages_of(t, Code::node_library_preloaded);
  EXPECT_TRUE(command_has(t, "export LD_PRELOAD=\"/opt/nccl/build/lib/libnccl.so\"\n"));
  // ld.so's lists take spaces or colons; a plain assignment counts too.
  const Translation listed =
      run("LD_PRELOAD=\"/usr/lib64/libcrypto.so /usr/lib64/libssh.so.4:libm.so\"\npython t.py\n");
  EXPECT_NE(messages_of(listed, Code::node_library_preloaded)
                .find("`/usr/lib64/libcrypto.so`, `/usr/lib64/libssh.so.4`, libraries the"),
            std::string::npos)
      << messages_of(listed, Code::node_library_preloaded);
  // Not a library shipped with the code, one read from a variable, nor
  // clearing it; the cluster's storage is S2A5010's.
  for (const char* body :
       {"export LD_PRELOAD=$CODE_SOURCE_PATH/lib/libjemalloc.so\n",
        "export LD_PRELOAD=$MKLROOT/lib/intel64/libmkl_rt.so\n",
        "export LD_PRELOAD=\"\"\nunset LD_PRELOAD\n", "export LD_PRELOAD=/scratch/u/hack.so\n"}) {
    EXPECT_FALSE(has_code(run(std::string(body) + "python t.py\n"), Code::node_library_preloaded))
        << body;
  }
}

TEST(Exports, ShellSettingsStayInTheCommand) {
  const Translation t = run("export IFS=';'\nexport BASH_ENV=env.sh\npython t.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(t.workload->env_variables.empty()) << t.yaml;
  EXPECT_TRUE(command_has(t, "\nexport IFS=';'\nexport BASH_ENV=env.sh\n"));
}

struct SecretCase {
  const char* body;
  const char* secret;        // must not appear anywhere
  const char* name;          // the secrets: key
  const char* command_part;  // what the command reads instead
};

class Secrets : public ::testing::TestWithParam<SecretCase> {};

TEST_P(Secrets, BecomeSecretReferences) {
  const Translation t = run(GetParam().body);
  ASSERT_TRUE(t.workload) << t.yaml;
  EXPECT_EQ(t.yaml.find(GetParam().secret), std::string::npos) << t.yaml;
  ASSERT_FALSE(t.workload->secrets.empty());
  EXPECT_EQ(t.workload->secrets[0].name, GetParam().name);
  EXPECT_TRUE(command_has(t, GetParam().command_part)) << t.workload->command;
  EXPECT_TRUE(has_code(t, Code::secret_in_script));
  for (const Diagnostic& d : t.diagnostics) {
    EXPECT_EQ(d.message.find(GetParam().secret), std::string::npos) << d.message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Patterns, Secrets,
    ::testing::Values(
        SecretCase{"export HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123\npython t.py\n",
                   "hf_abcdefghijklmnopqrstuvwxyz0123", "HF_TOKEN", "<secrets.HF_TOKEN>"},
        SecretCase{"export WANDB_API_KEY=${WANDB_API_KEY:-0123456789abcdef0123}\npython t.py\n",
                   "0123456789abcdef0123", "WANDB_API_KEY", "<secrets.WANDB_API_KEY>"},
        SecretCase{"DB_PASSWORD='s3cr3t-pass' python t.py\n", "s3cr3t-pass", "DB_PASSWORD",
                   "DB_PASSWORD=\"$DB_PASSWORD\" python t.py"},
        SecretCase{"export AWS_SECRET_ACCESS_KEY=abcdEFGHijklMNOPqrst\nsrun python t.py\n",
                   "abcdEFGHijklMNOPqrst", "AWS_SECRET_ACCESS_KEY",
                   "<secrets.AWS_SECRET_ACCESS_KEY>"},
        SecretCase{"huggingface-cli login --token hf_zyxwvutsrqponmlkjihgfedcba99\npython t.py\n",
                   "hf_zyxwvutsrqponmlkjihgfedcba99", "HF_TOKEN",
                   "huggingface-cli login --token \"${HF_TOKEN}\""},
        SecretCase{"wandb login --relogin 0123456789abcdef0123456789abcdef\npython t.py\n",
                   "0123456789abcdef0123456789abcdef", "WANDB_API_KEY",
                   "wandb login --relogin \"${WANDB_API_KEY}\""},
        SecretCase{"python t.py --hf_token hf_qwertyuiopasdfghjklzxcvbnm12\n",
                   "hf_qwertyuiopasdfghjklzxcvbnm12", "HF_TOKEN", "--hf_token \"${HF_TOKEN}\""},
        SecretCase{"python t.py --api-key=sk-abcdefghijklmnopqrstuvwx\n",
                   "sk-abcdefghijklmnopqrstuvwx", "PYTHON_API_KEY",
                   "\"--api-key=${PYTHON_API_KEY}\""},
        SecretCase{
            "git clone https://jdoe:ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/a/b.git\npython "
            "t.py\n",
            "ghp_abcdefghijklmnopqrstuvwxyz0123", "URL_PASSWORD",
            "\"https://jdoe:${URL_PASSWORD}@github.com/a/b.git\""},
        SecretCase{"curl -o d.tgz "
                   "'https://data.example.com/d.tgz?token=Zm9vYmFyYmF6cXV4&v=2'\npython t.py\n",
                   "Zm9vYmFyYmF6cXV4", "URL_TOKEN",
                   "\"https://data.example.com/d.tgz?token=${URL_TOKEN}&v=2\""},
        SecretCase{// A login that stays (docker's is removed with its pipeline).
                   "echo 'dckr_pat_abcdefghijklmnop' | helm registry login -u me --password-stdin "
                   "ghcr.io\npython t.py\n",
                   "dckr_pat_abcdefghijklmnop", "REGISTRY_PASSWORD",
                   "echo \"${REGISTRY_PASSWORD}\" |"},
        SecretCase{"export MY_CONFIG=hf_abcdefghijklmnopqrstuvwxyz0123\npython t.py\n",
                   "hf_abcdefghijklmnopqrstuvwxyz0123", "MY_CONFIG", "<secrets.MY_CONFIG>"}));

TEST(Secrets, ACopyOfAnotherVariableIsNotASecret) {
  const Translation t = run("export HUGGING_FACE_HUB_TOKEN=$HF_TOKEN\npython t.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(t.workload->secrets.empty());
  EXPECT_TRUE(command_has(t, "export HUGGING_FACE_HUB_TOKEN=$HF_TOKEN"));
}

TEST(Secrets, ValuesReadFromArgumentsOrCommandsAreNotWrittenCredentials) {
  // Seen in real scripts: `placeholder_token=$3 # _ironman_`. The value is an
  // argument of the script, not a credential written in it; it stays.
  const std::string body =
      "placeholder_token=$3 # _ironman_\n"
      "init_token=\"$4\"\n"
      "HF_TOKEN=${1}\n"
      "export DB_PASSWORD=$(cat ~/.db_password)\n"
      "export API_KEY=\"${KEY}\"\n"
      "python t.py --tok $placeholder_token $init_token\n";
  const Translation t = run(body);
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(t.workload->secrets.empty()) << t.yaml;
  EXPECT_FALSE(has_code(t, Code::secret_in_script));
  EXPECT_TRUE(
      command_has(t, "placeholder_token=$3 # _ironman_\ninit_token=\"$4\"\nHF_TOKEN=${1}\n"))
      << t.workload->command;
  // Text written around or as the default of an expansion is still a credential.
  const Translation with_default =
      run("export HF_TOKEN=\"${HF_TOKEN:-hf_abcdefghijklmnopqrstuvwxyz0123}\"\npython t.py\n");
  ASSERT_TRUE(with_default.workload);
  ASSERT_EQ(with_default.workload->secrets.size(), 1U) << with_default.yaml;
  EXPECT_EQ(with_default.yaml.find("hf_abcdefghijklmnopqrstuvwxyz0123"), std::string::npos);
  const Translation with_prefix = run("export WANDB_API_KEY=\"0123abcd$SUFFIX\"\npython t.py\n");
  ASSERT_TRUE(with_prefix.workload);
  EXPECT_EQ(with_prefix.workload->secrets.size(), 1U) << with_prefix.yaml;
}

TEST(Secrets, PatternsAndInnerShellReferencesInUrlsAreNotCredentials) {
  // Jupyter launch scripts grep their log for the URL with its token.
  const std::string body =
      "ADDRESS=$(grep -e '^\\[.*\\]\\s*http://.*:.*/\\?token=.*' $LOGFILE | head -n 1)\n"
      "srun bash -c 'curl -o d.tgz \"https://data.example.com/d.tgz?token=$DATA_TOKEN\"'\n"
      "python t.py\n";
  const Translation t = run(body);
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(t.workload->secrets.empty()) << t.yaml;
  EXPECT_TRUE(command_has(t, "ADDRESS=$(grep -e '^\\[.*\\]\\s*http://.*:.*/\\?token=.*' $LOGFILE"))
      << t.workload->command;
}

TEST(Secrets, SettingsUnderCredentialNamesAreNotSecrets) {
  // ML scripts name vocabulary and switches "token"; only a value that could
  // be the credential is one, and nothing else in the command is touched.
  const std::string launch =
      "python train.py --mm_use_im_patch_token False --tf32 False --pad_token \"<pad>\" "
      "--bos_token=[BOS] --max_token 512 --eos_token eos --api-key none\n";
  const Translation t =
      run("export GOOGLE_APPLICATION_CREDENTIALS=/home/u/creds.json USE_AUTH_TOKEN=true\n"
          "export PAD_TOKEN='<|pad|>'\n" +
          launch);
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(t.workload->secrets.empty()) << t.yaml;
  EXPECT_FALSE(has_code(t, Code::secret_in_script));
  EXPECT_TRUE(command_has(t, launch)) << t.workload->command;
  EXPECT_EQ(t.yaml.find("REDACTED"), std::string::npos) << t.yaml;
  EXPECT_NE(t.yaml.find("USE_AUTH_TOKEN: 'true'"), std::string::npos) << t.yaml;
}

TEST(Secrets, KeysPasswordsAndKnownTokensTakeAnyValue) {
  // A placeholder under a key's name still belongs in secrets.
  const Translation t =
      run("export DB_PASSWORD=abc WANDB_API_KEY='your wandb api key'\n"
          "python train.py --api-key=abcd --token False --access_token 42\n");
  ASSERT_TRUE(t.workload);
  ASSERT_EQ(t.workload->secrets.size(), 4U) << t.yaml;
  std::vector<std::string> names;
  for (const air::NamedValue& s : t.workload->secrets) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"WANDB_API_KEY", "DB_PASSWORD", "PYTHON_API_KEY",
                                             "ACCESS_TOKEN"}));
  EXPECT_TRUE(command_has(
      t, "\"--api-key=${PYTHON_API_KEY}\" --token False --access_token \"${ACCESS_TOKEN}\""))
      << t.workload->command;
}

TEST(Secrets, ScopeComesFromTheOption) {
  TranslateOptions options;
  options.secret_scope = "ml-team";
  const Translation t =
      run("export HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123\npython t.py\n", options);
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->secrets.at(0).value, "ml-team/hf_token");
}

// --- containers -------------------------------------------------------------------

TEST(ImageReference, SplitsPyxisDockerAndShifterSpellings) {
  using air::parse_image_reference;
  EXPECT_EQ(parse_image_reference("nvcr.io#nvidia/pytorch:24.01-py3")->url(),
            "nvcr.io/nvidia/pytorch:24.01-py3");
  EXPECT_EQ(parse_image_reference("me@nvcr.io#nvidia/pytorch:24.01-py3")->registry, "nvcr.io");
  EXPECT_EQ(parse_image_reference("nersc/pytorch:24.06.01")->url(),
            "docker.io/nersc/pytorch:24.06.01");
  EXPECT_EQ(parse_image_reference("docker:ubuntu")->url(), "docker.io/ubuntu:latest");
  EXPECT_EQ(parse_image_reference("docker://ghcr.io/org/img:1.0")->url(), "ghcr.io/org/img:1.0");
  EXPECT_EQ(parse_image_reference("localhost:5000/img:2")->url(), "localhost:5000/img:2");
  EXPECT_FALSE(parse_image_reference("/apps/containers/alphafold.sif"));
  EXPECT_FALSE(parse_image_reference("img.sqsh"));
  EXPECT_FALSE(parse_image_reference("$IMAGE"));
  EXPECT_FALSE(parse_image_reference(""));
}

TEST(ImageReference, UnityCatalogFormat) {
  EXPECT_TRUE(air::is_unity_catalog_image("main.ml.pytorch:24.01-py3"));
  EXPECT_FALSE(air::is_unity_catalog_image("main.pytorch:24.01"));
  EXPECT_FALSE(air::is_unity_catalog_image("main.ml.py.torch:1"));
  EXPECT_FALSE(air::is_unity_catalog_image("main.ml.pytorch"));
}

TEST(Containers, PyxisImageBecomesDockerImageForCli119) {
  const Translation t = run("pip install wandb\npython t.py\n", [] {
    TranslateOptions o;
    o.dependencies = {"torch"};
    return o;
  }());
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.dependencies, (std::vector<std::string>{"torch", "wandb"}));
  const Translation c =
      translate("job.sbatch", kHead +
                                  "#SBATCH --container-image=nvcr.io\\#nvidia/pytorch:24.01-py3\n"
                                  "pip install wandb\npython t.py\n");
  ASSERT_TRUE(c.workload);
  EXPECT_EQ(c.workload->environment.docker_image, "nvcr.io/nvidia/pytorch:24.01-py3");
  EXPECT_TRUE(c.workload->environment.dependencies.empty());
  EXPECT_TRUE(command_has(c, "pip install wandb"));  // the image replaces dependencies
  EXPECT_TRUE(has_code(c, Code::container_image_registration));
}

TEST(Containers, SifBecomesAPlaceholderWithAnError) {
  TranslateOptions options;
  options.target_schema = "cli-1.20";
  const Translation t = run(
      "srun singularity exec --nv -B /datasets:/data /apps/af2_2.3.sif python run.py\n", options);
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.unity_catalog_image, "CATALOG.SCHEMA.af2_2-3:latest");
  EXPECT_TRUE(has_code(t, Code::container_image_unknown));
  EXPECT_TRUE(has_code(t, Code::container_mounts));
  EXPECT_TRUE(has_code(t, Code::container_wrapper_removed));
  EXPECT_TRUE(command_has(t, "\npython run.py")) << t.workload->command;
  EXPECT_TRUE(t.workload->code_source_flat);
  EXPECT_NE(t.yaml.find("code_source:\n  root_path: ."), std::string::npos) << t.yaml;
}

TEST(Containers, ComputedImagesAndMountsAreQuotedAsWritten) {
  const Translation t =
      run("srun --container-image=$IMAGE --container-mounts=\"$DATA:/data,/ds:/ds:ro\" "
          "python t.py\n");
  std::string messages;
  for (const Diagnostic& d : t.diagnostics) messages += d.message + "\n";
  EXPECT_NE(messages.find("the computed image $IMAGE has no registry URL"), std::string::npos)
      << messages;
  EXPECT_NE(messages.find("container mounts do not exist on AI Runtime: $DATA, /ds will not"),
            std::string::npos)
      << messages;
}

// NVIDIA's example repos: `readonly CONT="nvcr.io/..."` ... `--container-image="${CONT}"`.
TEST(Containers, AnImageInAVariableSetOnceToALiteralIsThatImage) {
  const Translation t =
      run("readonly CONT=\"nvcr.io/nvidia/pytorch:24.03-py3\"\nMOUNTS=/lustre/ml:/data\n"
          "srun --container-image=\"${CONT}\" --container-mounts=$MOUNTS python t.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.docker_image, "nvcr.io/nvidia/pytorch:24.03-py3");
  EXPECT_FALSE(has_code(t, Code::container_image_unknown));
  EXPECT_NE(messages_of(t, Code::container_mounts).find(": /lustre/ml will not be there"),
            std::string::npos)
      << messages_of(t, Code::container_mounts);
  const Translation sif = run("SIF=/apps/train.sif\nsingularity exec --nv $SIF python t.py\n");
  EXPECT_NE(messages_of(sif, Code::container_image_unknown).find("the image /apps/train.sif"),
            std::string::npos)
      << messages_of(sif, Code::container_image_unknown);
  // Set twice, or set after the use, it stays computed.
  for (const char* body : {"CONT=a/b:1\n[ -f x ] && CONT=a/b:2\nsrun --container-image=$CONT t\n",
                           "srun --container-image=$CONT t\nCONT=a/b:1\n"}) {
    EXPECT_NE(messages_of(run(body), Code::container_image_unknown).find("computed image $CONT"),
              std::string::npos)
        << body;
  }
}

// The wrapper keeps running the command; only the container call goes.
TEST(Containers, AContainerUnderAWrapperIsUnwrappedToo) {
  const Translation t =
      run("timeout -s INT 1h singularity exec --nv img.sif python x.py\n"
          "srun stdbuf -oL apptainer exec img.sif python y.py\n");
  EXPECT_TRUE(command_has(t, "\ntimeout -s INT 1h python x.py\nstdbuf -oL python y.py\n"))
      << t.workload->command;
  EXPECT_TRUE(has_code(t, Code::container_wrapper_removed));
}

// No container engine on the nodes: every call of one is reported, with
// the way to use its image when it starts the command.
TEST(Containers, ContainerEnginesTheNodesLackAreReported) {
  const Translation t =
      run("docker pull nvcr.io/nvidia/pytorch:24.01-py3\n"
          "docker run --gpus all --rm -v $PWD:/ws nvcr.io/nvidia/pytorch:24.01-py3 python t.py\n"
          "srun podman run --rm img python t.py\n"
          "timeout 1h enroot start --conf site.sh pytorch python t.py\n"
          "echo docker run is not here\n"
          "nvidia-docker exec trainer python t.py\n");
  std::vector<std::string> reported;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::container_engine_unavailable) {
      reported.push_back(d.message.substr(0, d.message.find(':')) +
                         (d.hint.find("custom image") != std::string::npos ? " +image" : ""));
    }
  }
  // docker and podman run are unwrapped now (Containers.DockerRun...), and
  // docker pull removed (ImageSteps.DockerUpkeepLinesAreRemoved); enroot
  // start is unwrapped too (Containers.EnrootStart...), but not with a
  // configuration script of the cluster's.
  EXPECT_EQ(reported,
            (std::vector<std::string>{"`enroot start` +image", "`nvidia-docker exec` +image"}));
  EXPECT_EQ(lines_of(t, Code::container_image_step), std::vector<uint32_t>{3});
}

// `docker run [OPTIONS] IMAGE CMD` runs CMD in IMAGE: like singularity's
// exec, the call comes off, the image is the workload's, -e variables are
// set on the command, -v mounts are reported and the launch is mapped.
TEST(Containers, DockerRunIsUnwrappedLikeSingularityExec) {
  const Translation t =
      run("docker run --gpus all -e CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES -e "
          "DATASET='husky' --rm --ipc host -v /scratch/u/data:/data -w /ws "
          "nvcr.io/nvidia/pytorch:24.01-py3 python train.py --data /data\n");
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.docker_image, "nvcr.io/nvidia/pytorch:24.01-py3");
  // CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES passed the script's own value:
  // in front of the command, unset on AI Runtime, it would hide every GPU.
  EXPECT_TRUE(command_has(t, "\nDATASET=husky python train.py --data /data"))
      << t.workload->command;
  EXPECT_FALSE(has_code(t, Code::container_engine_unavailable));
  EXPECT_NE(messages_of(t, Code::container_wrapper_removed).find("`docker run` is removed"),
            std::string::npos);
  EXPECT_NE(messages_of(t, Code::container_environment)
                .find("CUDA_VISIBLE_DEVICES (the script's own, from -e "
                      "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES), DATASET (from -e)"),
            std::string::npos)
      << messages_of(t, Code::container_environment);
  EXPECT_NE(messages_of(t, Code::container_mounts).find("/scratch/u/data will not be there"),
            std::string::npos);
  // -w /ws is neither the job's directory nor where a -v put it.
  EXPECT_NE(messages_of(t, Code::container_option_dropped).find("`-w /ws`"), std::string::npos)
      << messages_of(t, Code::container_option_dropped);
  EXPECT_FALSE(has_code(t, Code::cluster_path));  // /data is the mount's
}

TEST(Containers, DockerRunInEveryEngineAndOptionSpelling) {
  struct Case {
    const char* line;
    const char* command;  // what the line becomes
    const char* image;
  };
  const Case cases[] = {
      {"docker run --rm --runtime=nvidia -v $(dirname `pwd`):$(dirname `pwd`) -w `pwd` "
       "bmset/gromacs_openmm:latest python ../generate_gro_file.py",
       "python ../generate_gro_file.py", "docker.io/bmset/gromacs_openmm:latest"},
      {"srun podman run --rm -it --shm-size=8g pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime "
       "python t.py",
       "python t.py", "docker.io/pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime"},
      {"nvidia-docker run --rm --ipc=host -eOMP_NUM_THREADS=4 -v /data/datasets:/data/datasets "
       "mguamanc/sara python3 t.py",
       "OMP_NUM_THREADS=4 python3 t.py", "docker.io/mguamanc/sara:latest"},
      {"docker container run -itv $PWD:/ws -w /ws ghcr.io/org/img:2 python t.py", "python t.py",
       "ghcr.io/org/img:2"},
      {"srun sarus run --mount=type=bind,source=$SCRATCH,destination=$SCRATCH "
       "--workdir=\"$(pwd)\" nvcr.io/nvidia/pytorch:23.09-py3 python t.py",
       "python t.py", "nvcr.io/nvidia/pytorch:23.09-py3"},
  };
  for (const Case& c : cases) {
    const Translation t = run(std::string(c.line) + "\n");
    ASSERT_TRUE(t.workload) << c.line;
    EXPECT_TRUE(command_has(t, std::string("\n") + c.command + "\n")) << t.workload->command;
    EXPECT_EQ(t.workload->environment.docker_image, c.image) << c.line;
    EXPECT_FALSE(has_code(t, Code::container_engine_unavailable)) << c.line;
    // The job's own directory as the working directory is where AI Runtime starts too.
    EXPECT_FALSE(has_code(t, Code::container_option_dropped)) << c.line;
  }
}

// `-e NAME` passed the script's own NAME: the command now sees it by itself.
// A credential in -e becomes a secret, as singularity's --env.
TEST(Containers, DockerEnvOptionsAreCarriedOrSecret) {
  const Translation t =
      run("docker run --rm -e WANDB_MODE -e HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123 "
          "--env-file site.env img:1 python t.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "\nHF_TOKEN=\"$HF_TOKEN\" python t.py")) << t.workload->command;
  EXPECT_EQ(t.workload->command.find("hf_abcdefghij"), std::string::npos);
  EXPECT_NE(messages_of(t, Code::container_environment).find("WANDB_MODE (the script's own"),
            std::string::npos);
  EXPECT_NE(messages_of(t, Code::container_option_dropped).find("`--env-file site.env`"),
            std::string::npos);
  // img:1 names no registry or namespace: built on the cluster, most likely.
  EXPECT_EQ(t.workload->environment.docker_image, "REGISTRY.EXAMPLE.COM/REPLACE-ME/img:1");
  EXPECT_NE(messages_of(t, Code::container_image_unknown).find("names no registry or namespace"),
            std::string::npos);
}

// AI Runtime sets MASTER_ADDR, NODE_RANK, ...: a container's -e value for one
// would override it on every node.
TEST(Containers, DockerEnvOfAVariableAIRuntimeSetsIsNotCarried) {
  const Translation t =
      run("docker run --rm -e MASTER_ADDR=$head_node_ip -e NODE_RANK=$SLURM_PROCID -e NNODES=2 "
          "-v /dev/shm:/dev/shm nvcr.io/nvidia/pytorch:24.01-py3 bash pretrain.sh\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "\nNNODES=2 bash pretrain.sh")) << t.workload->command;
  EXPECT_NE(messages_of(t, Code::provided_variable_removed).find("AI Runtime sets NODE_RANK"),
            std::string::npos);
  EXPECT_FALSE(has_code(t, Code::container_mounts));  // /dev/shm is the node's own
}

// A wrapper in front of the engine (srun's operand, sudo, nice, timeout,
// env, exec) changes nothing of what the call gives: the image, the mounts,
// the launch mapping inside. The -e variables go in front of the command
// through `env` where a wrapper stays (`timeout 2h A=1 cmd` would run `A=1`);
// sudo goes with the call.
TEST(Containers, DockerRunBehindACommandWrapperIsReadAsWithout) {
  struct Case {
    const char* line;
    const char* command;  // what the line becomes
  };
  const Case cases[] = {
      {"srun --ntasks-per-node=1 sudo docker run --rm -e A=1 -v /data:/data "
       "nvcr.io/nvidia/pytorch:24.01-py3 python t.py",
       "env A=1 python t.py"},
      {"nice -n 5 docker run --rm -e A=1 -v /data:/data nvcr.io/nvidia/pytorch:24.01-py3 "
       "python t.py",
       "nice -n 5 env A=1 python t.py"},
      {"timeout 2h docker run --rm -e A=1 -v /data:/data nvcr.io/nvidia/pytorch:24.01-py3 "
       "python t.py",
       "timeout 2h env A=1 python t.py"},
      {"srun nvidia-docker run --rm -v /data:/data nvcr.io/nvidia/pytorch:24.01-py3 python t.py",
       "python t.py"},
      {"env B=2 docker run --rm -e A=1 -v /data:/data nvcr.io/nvidia/pytorch:24.01-py3 "
       "python t.py",
       "env B=2 A=1 python t.py"},
      {"time docker run --rm -e A=1 -v /data:/data nvcr.io/nvidia/pytorch:24.01-py3 python t.py",
       "time A=1 python t.py"},
  };
  for (const Case& c : cases) {
    const Translation t = run(std::string(c.line) + "\n");
    ASSERT_TRUE(t.workload) << c.line;
    EXPECT_TRUE(command_has(t, std::string("\n") + c.command + "\n")) << t.workload->command;
    EXPECT_EQ(t.workload->environment.docker_image, "nvcr.io/nvidia/pytorch:24.01-py3") << c.line;
    EXPECT_EQ(lines_of(t, Code::container_mounts), std::vector<uint32_t>{3}) << c.line;
    EXPECT_FALSE(has_code(t, Code::cluster_path)) << c.line;  // /data is the mount's
    EXPECT_FALSE(has_code(t, Code::container_engine_unavailable)) << c.line;
  }
  // The launch inside is mapped as without the wrapper.
  const Translation t =
      run("timeout 11h sudo -E docker run --rm nvcr.io/nvidia/pytorch:24.01-py3 "
          "torchrun --nproc_per_node=8 train.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "\ntimeout 11h torchrun --nproc_per_node=\"${LOCAL_WORLD_SIZE:-8}\""))
      << t.workload->command;
  EXPECT_NE(messages_of(t, Code::container_wrapper_removed).find("`sudo -E docker run`"),
            std::string::npos)
      << messages_of(t, Code::container_wrapper_removed);
}

// Slurm's GPU list is empty on AI Runtime: `-e CUDA_VISIBLE_DEVICES=$SLURM_JOB_GPUS`
// would hide every GPU, as the plain assignment would (S2A5018).
TEST(Containers, DockerEnvOfSlurmsGpuListIsNotCarried) {
  const Translation t =
      run("srun docker run --rm -e CUDA_VISIBLE_DEVICES=$SLURM_JOB_GPUS -e A=1 img:1 python t.py\n"
          "docker run --rm -e \"CUDA_VISIBLE_DEVICES=${SLURM_STEP_GPUS:-$SLURM_JOB_GPUS}\" "
          "img:1 python u.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "\nenv A=1 python t.py\npython u.py\n")) << t.workload->command;
  EXPECT_EQ(lines_of(t, Code::visible_devices_from_slurm), (std::vector<uint32_t>{3, 4}));
  EXPECT_NE(messages_of(t, Code::visible_devices_from_slurm)
                .find("`-e CUDA_VISIBLE_DEVICES=$SLURM_JOB_GPUS` sets CUDA_VISIBLE_DEVICES to "
                      "Slurm's list"),
            std::string::npos)
      << messages_of(t, Code::visible_devices_from_slurm);
}

// A computed `-e NAME=$X` stays where it is written, so the rewrites of
// Slurm's variables reach it as they reach the rest of the command: copied
// out as new text it kept $SLURM_NNODES, which AI Runtime does not set.
TEST(Containers, DockerEnvComputedFromSlurmsVariablesIsRewrittenLikeTheCommand) {
  const Translation t =
      run("timeout 2h docker run --gpus all -e A=1 -e NN=$SLURM_NNODES -v $SLURM_SUBMIT_DIR:/w "
          "-e B=\"x y\" img:1 python t.py --nodes $SLURM_NNODES\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t,
                          "\ntimeout 2h env A=1 NN=$NUM_NODES B='x y' python t.py "
                          "--nodes $NUM_NODES\n"))
      << t.workload->command;
}

// Singularity's computed `--env` stays where it is written, as docker's -e
// does: item by item (apptainer splits the expanded value at commas), so
// Slurm's variables in it are rewritten like the rest of the command.
// Dropped and reported before, the command lost the variables.
TEST(Containers, SingularityEnvComputedStaysWhereItIsWrittenItemByItem) {
  const Translation t =
      run("timeout 2h singularity exec --nv --env NN=$SLURM_NNODES,B=2 "
          "--env \"H=/w/$USER,R=$SLURM_NODEID\" img.sif python t.py --nodes $SLURM_NNODES\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t,
                          "\ntimeout 2h env NN=$NUM_NODES B=2 \"H=/w/$USER\" \"R=$NODE_RANK\" "
                          "python t.py --nodes $NUM_NODES\n"))
      << t.workload->command;
  EXPECT_FALSE(has_code(t, Code::container_option_dropped))
      << messages_of(t, Code::container_option_dropped);
  EXPECT_NE(messages_of(t, Code::container_environment).find("NN (from --env), B (from --env)"),
            std::string::npos)
      << messages_of(t, Code::container_environment);
  // The line's own assignments, where the shell reads them; `env` when the
  // name is quoted (`"A=$X" cmd` would run a program named A=...).
  const Translation direct = run("apptainer exec --env=P=$PWD/lib:$P img.sif python t.py\n");
  ASSERT_TRUE(direct.workload);
  EXPECT_TRUE(command_has(direct, "\nP=$PWD/lib:$P python t.py\n")) << direct.workload->command;
  const Translation quoted = run("docker run -e \"NN=$SLURM_NNODES\" img:1 python t.py\n");
  ASSERT_TRUE(quoted.workload);
  EXPECT_TRUE(command_has(quoted, "\nenv \"NN=$NUM_NODES\" python t.py\n"))
      << quoted.workload->command;
  // AI Runtime's own variable and Slurm's GPU list are taken off the list,
  // as docker's -e are; the script's own NAME is seen by itself.
  const Translation settled =
      run("singularity exec --env A=$X,MASTER_PORT=$P,CUDA_VISIBLE_DEVICES=$SLURM_JOB_GPUS,W=$W "
          "img.sif python t.py\n");
  ASSERT_TRUE(settled.workload);
  EXPECT_TRUE(command_has(settled, "\nA=$X python t.py\n")) << settled.workload->command;
  EXPECT_TRUE(has_code(settled, Code::provided_variable_removed));
  EXPECT_TRUE(has_code(settled, Code::visible_devices_from_slurm));
  EXPECT_NE(messages_of(settled, Code::container_environment).find("W (the script's own"),
            std::string::npos)
      << messages_of(settled, Code::container_environment);
}

// Kept in place only when the items are known: not a comma inside an
// expansion (its fields are not), nor a credential (it would be printed),
// nor an item taken off a list whose quotes it shares. Those stay reported.
TEST(Containers, SingularityEnvComputedThatCannotBeKeptIsReported) {
  for (const char* line : {
           "singularity exec --env A=${X:-a,b} img.sif python t.py\n",
           "singularity exec --env A=$X,B=hf_abcdefghijklmnopqrstuvwxyz0123 img.sif python t.py\n",
           "singularity exec --env \"A=$X,CUDA_VISIBLE_DEVICES=$SLURM_JOB_GPUS\" img.sif "
           "python t.py\n",
       }) {
    const Translation t = run(line);
    ASSERT_TRUE(t.workload) << line;
    EXPECT_TRUE(has_code(t, Code::container_option_dropped)) << line;
    EXPECT_TRUE(command_has(t, "\npython t.py\n")) << t.workload->command;
    EXPECT_FALSE(command_has(t, "hf_abc")) << t.workload->command;
  }
}

// What cannot be unwrapped stays and says why: a detached service, a
// replaced entrypoint, an option not known here, options from an array.
TEST(Containers, DockerRunThatCannotBeUnwrappedIsReportedWithTheReason) {
  struct Case {
    const char* line;
    const char* why;
  };
  const Case cases[] = {
      {"docker run -d --name db postgres:16", "`-d` runs the container detached"},
      {"docker run -itd --gpus all img:1 bash", "`-itd` runs the container detached"},
      {"docker run --rm --privileged --entrypoint bash $CONT -c \"sync\"",
       "`--entrypoint` replaces the image's entrypoint"},
      {"docker run --rm --frobnicate img:1 python t.py", "`--frobnicate` is an option not known"},
      {"docker run --rm \"${VARS[@]}\" img:1 python t.py", "expands to several words"},
  };
  for (const Case& c : cases) {
    const Translation t = run(std::string(c.line) + "\n");
    ASSERT_TRUE(t.workload) << c.line;
    EXPECT_NE(messages_of(t, Code::container_engine_unavailable).find(c.why), std::string::npos)
        << messages_of(t, Code::container_engine_unavailable);
    EXPECT_TRUE(command_has(t, c.line)) << t.workload->command;
    EXPECT_FALSE(has_code(t, Code::container_wrapper_removed)) << c.line;
  }
  // Nothing after the image: the image's own command ran; the line stays, an error.
  const Translation bare = run("docker run --rm -v $PWD:/ws img:1\n");
  EXPECT_NE(messages_of(bare, Code::container_without_command).find("image's own command"),
            std::string::npos)
      << messages_of(bare, Code::container_without_command);
  // The hint names the tool that prints that command, for each engine.
  const std::pair<const char*, const char*> printers[] = {
      {"docker run --rm -v $PWD:/ws img:1\n", "`docker inspect -f"},
      {"enroot start --rw pytorch\n", "`unsquashfs -cat IMAGE.sqsh etc/rc`"},
      {"udocker run img\n", "`udocker inspect IMAGE`"},
  };
  for (const auto& [line, printer] : printers) {
    const Translation t = run(line);
    EXPECT_NE(hints_of(t, Code::container_without_command).find(printer), std::string::npos)
        << line << hints_of(t, Code::container_without_command);
  }
}

// NERSC's podman-hpc is podman's `run` grammar plus the site's switches
// (--gpu, --mpi, --nccl-cu13, ...: flags without a value) and its own
// options before the subcommand; `shared-run` runs the same command. The
// call comes off as docker's: image carried, mounts and -w reported.
TEST(Containers, PodmanHpcRunIsUnwrappedLikePodmanRun) {
  const Translation t =
      run("PODMANHPC_IMAGE=\"nersc/pytorch:26.01.01\"\n"
          "srun --nodes=\"$SLURM_JOB_NUM_NODES\" --ntasks=\"$SLURM_JOB_NUM_NODES\" \\\n"
          "    podman-hpc \\\n"
          "        run \\\n"
          "        --rm --gpu --nccl-cu13 --net host --shm-size=40GB \\\n"
          "\t-v \"${PWD}:/workdir\" -w /workdir \\\n"
          "\t--env \"RAY_ADDRESS=${ip_head}\" \\\n"
          "\t\"${PODMANHPC_IMAGE}\" \\\n"
          "\tbash -lc \"ray symmetric-run --address $ip_head -- python t.py --cuda\"\n");
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.docker_image, "docker.io/nersc/pytorch:26.01.01");
  EXPECT_FALSE(command_has(t, "podman-hpc")) << t.workload->command;
  EXPECT_TRUE(command_has(t, "ray symmetric-run --address $ip_head -- python t.py --cuda"))
      << t.workload->command;
  EXPECT_FALSE(has_code(t, Code::container_engine_unavailable));
  // Named word by word, not with the line continuation between them.
  EXPECT_NE(messages_of(t, Code::container_wrapper_removed).find("`podman-hpc run` is removed"),
            std::string::npos)
      << messages_of(t, Code::container_wrapper_removed);
  EXPECT_NE(messages_of(t, Code::container_mounts).find("the job's directory (${PWD}) at /workdir"),
            std::string::npos)
      << messages_of(t, Code::container_mounts);
  EXPECT_NE(messages_of(t, Code::container_option_dropped).find("`-w /workdir`"),
            std::string::npos);

  struct Case {
    const char* line;
    const char* command;
  };
  const Case cases[] = {
      {"srun -n 4 podman-hpc run -w /work -v $PWD:/work --rm --mpi "
       "yzanhua/perlmutter_img:latest python3 hello.py",
       "python3 hello.py"},
      {"srun podman-hpc --squash-dir /tmp/sq shared-run --gpu --cuda-mpi --openmpi-pmix "
       "yzanhua/perlmutter_img:latest python3 hello.py",
       "python3 hello.py"},
  };
  for (const Case& c : cases) {
    const Translation one = run(std::string(c.line) + "\n");
    ASSERT_TRUE(one.workload) << c.line;
    // -n 4: the per-task shim runs it (slurm-task python3 hello.py).
    EXPECT_TRUE(command_has(one, std::string(c.command) + "\n")) << one.workload->command;
    EXPECT_FALSE(command_has(one, "podman-hpc")) << one.workload->command;
    EXPECT_EQ(one.workload->environment.docker_image, "docker.io/yzanhua/perlmutter_img:latest");
    EXPECT_FALSE(has_code(one, Code::container_engine_unavailable)) << c.line;
  }
}

// A switch of another site's modules.d may take a value or not: the image
// is not guessed; the line stays and says which word kept it. The site
// switches are podman-hpc's, not podman's.
TEST(Containers, PodmanHpcSwitchNotKnownKeepsTheLine) {
  const char* lines[] = {
      "srun podman-hpc run --rm --gpu --my-site-mount /x img:1 python t.py",
      "srun podman run --rm --gpu img:1 python t.py",
  };
  const char* why[] = {"`--my-site-mount` is an option not known here",
                       "`--gpu` is an option not known here"};
  for (size_t i = 0; i < 2; ++i) {
    const Translation t = run(std::string(lines[i]) + "\n");
    ASSERT_TRUE(t.workload) << lines[i];
    EXPECT_NE(messages_of(t, Code::container_engine_unavailable).find(why[i]), std::string::npos)
        << messages_of(t, Code::container_engine_unavailable);
    EXPECT_TRUE(command_has(t, std::string(lines[i]).substr(5))) << t.workload->command;
    EXPECT_FALSE(t.workload->environment.docker_image.has_value()) << lines[i];
  }
  // pull and podman-hpc's squashed copies (migrate, rmsqi) go as docker pull does.
  const Translation steps =
      run("podman-hpc pull nersc/pytorch:26.01.01\npodman-hpc migrate nersc/pytorch:26.01.01\n"
          "podman-hpc rmsqi nersc/pytorch:26.01.01\n");
  EXPECT_EQ(lines_of(steps, Code::container_image_step), (std::vector<uint32_t>{3, 4, 5}));
}

// `srun scripts/run_with_environment.sh singularity exec IMG python t.py`
// (OLMo on LUMI): the job's script starts the engine with the rest of the
// line. What else the script does is not known, so nothing is unwrapped;
// the engine is reported where it is written, and the image in the hint.
TEST(Containers, EngineStartedByAScriptOfTheJobsIsReported) {
  const Translation t =
      run("srun --cpus-per-task=8 \\\n"
          "  scripts/run_with_environment.sh \\\n"
          "    singularity exec \\\n"
          "    -B\"$PROJECT_DIR:$PROJECT_DIR\" \\\n"
          "    $PROJECT_DIR/containers/$OLMO_CONTAINER \\\n"
          "    python scripts/train.py configs/c.yaml\n"
          "srun bash ./env.sh docker run --rm img:1 python t.py\n"
          "$HOME/bin/wrap apptainer run x.sif\n"
          "which singularity\n"
          "echo singularity exec x.sif\n"
          "srun ./wrap.sh python t.py\n");
  ASSERT_TRUE(t.workload);
  // Lines 5, 9 and 10 of the script (run() puts two lines in front).
  EXPECT_EQ(lines_of(t, Code::container_engine_unavailable), (std::vector<uint32_t>{5, 9, 10}));
  const std::string messages = messages_of(t, Code::container_engine_unavailable);
  EXPECT_NE(messages.find("`singularity exec`: AI Runtime nodes have no singularity, so the line "
                          "fails with \"command not found\"; `scripts/run_with_environment.sh` "
                          "starts it"),
            std::string::npos)
      << messages;
  EXPECT_NE(messages.find("`./env.sh` starts it"), std::string::npos) << messages;
  EXPECT_NE(hints_of(t, Code::container_engine_unavailable)
                .find("change `scripts/run_with_environment.sh` to run its arguments without the "
                      "container, or replace the line with what it sets up followed by the "
                      "command after the image; the image (`$PROJECT_DIR/containers/"
                      "$OLMO_CONTAINER`) becomes"),
            std::string::npos)
      << hints_of(t, Code::container_engine_unavailable);
  EXPECT_TRUE(command_has(t, "scripts/run_with_environment.sh \\\n    singularity exec"))
      << t.workload->command;
  EXPECT_FALSE(has_code(t, Code::container_wrapper_removed));
  EXPECT_FALSE(t.workload->environment.docker_image.has_value());
}

// R, MATLAB, Julia: the cluster's module gave the job the program; AI
// Runtime's environment is Python. Once per runtime, at the first call.
TEST(ForeignPrograms, RAndMatlabAndJuliaAreReportedOnceEach) {
  const Translation t =
      run("module load R/4.1\nRscript fit.R\nsrun --ntasks=1 Rscript more.R\nR CMD BATCH x.R\n"
          "timeout 1h matlab -batch train\njulia run.jl\necho Rscript is gone\npython t.py\n");
  EXPECT_EQ(lines_of(t, Code::program_not_in_environment), (std::vector<uint32_t>{4, 7, 8}));
  EXPECT_NE(messages_of(t, Code::program_not_in_environment)
                .find("`Rscript` runs R, which AI Runtime nodes do not have"),
            std::string::npos);
}

// An image may have the program; a profile that maps the module says so.
TEST(ForeignPrograms, NotReportedWithAnImageOrAMappedModule) {
  EXPECT_FALSE(has_code(run("singularity exec r.sif Rscript fit.R\nRscript more.R\n"),
                        Code::program_not_in_environment));
  TranslateOptions options;
  options.profile = profile::parse_profile("modules:\n  R: provided\n", "site.yaml");
  EXPECT_FALSE(has_code(run("Rscript fit.R\n", options), Code::program_not_in_environment));
  EXPECT_TRUE(has_code(run("matlab -batch x\n", options), Code::program_not_in_environment));
}

// Simulation packages are named by their binaries, also with a build
// suffix (gmx_mpi, pmemd.cuda); a name that only starts like one is not.
TEST(ForeignPrograms, SimulationPackagesAreKnownByTheirBinaries) {
  const Translation t =
      run("srun gmx_mpi mdrun -deffnm md\npmemd.cuda -O -i md.in\n"
          "lmp -in in.lj\ngmxlike --help\npmemd\n");
  EXPECT_EQ(lines_of(t, Code::program_not_in_environment).size(), 3U);
  const std::string messages = messages_of(t, Code::program_not_in_environment);
  EXPECT_NE(messages.find("`gmx_mpi` runs GROMACS"), std::string::npos) << messages;
  EXPECT_NE(messages.find("`pmemd.cuda` runs Amber"), std::string::npos) << messages;
  EXPECT_NE(messages.find("`lmp` runs LAMMPS"), std::string::npos) << messages;
}

// A module the mapper does not know, whose package is the program called:
// the module is gone, so is the program. Tools a node has anyway are not
// counted as the module's.
TEST(ForeignPrograms, TheProgramOfAnUnmappedModuleIsReported) {
  const Translation t =
      run("module load samtools/1.9 git/2.30 Bowtie2\nsamtools view -b x.sam\ngit pull\n"
          "bowtie2 -x idx -U r.fq\nsamtools index x.bam\npython t.py\n");
  EXPECT_EQ(lines_of(t, Code::program_not_in_environment), (std::vector<uint32_t>{4, 6}));
  const std::string messages = messages_of(t, Code::program_not_in_environment);
  EXPECT_NE(messages.find("`samtools` is the program of the module samtools/1.9"),
            std::string::npos)
      << messages;
  const std::string hints = hints_of(t, Code::program_not_in_environment);
  EXPECT_NE(hints.find("modules: {samtools: provided}"), std::string::npos) << hints;
  EXPECT_NE(hints.find("modules: {Bowtie2: provided}"), std::string::npos) << hints;
}

TEST(Containers, OptionsKeptInAVariableAreOptionsNotTheImage) {
  const Translation t =
      run("BIND=\"-B /ibex/data:/data --nv\"\nSIF=./torch.sif\nsingularity exec ${BIND} $SIF "
          "python t.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "\npython t.py")) << t.workload->command;
  EXPECT_NE(messages_of(t, Code::container_option_dropped).find("`${BIND}` holds options"),
            std::string::npos)
      << messages_of(t, Code::container_option_dropped);
  EXPECT_NE(messages_of(t, Code::container_image_unknown).find("the image ./torch.sif"),
            std::string::npos)
      << messages_of(t, Code::container_image_unknown);
}

// `$nv` never set, `$NV` set to `--nv` or nothing: bash drops the empty
// word, so the image is the word after it (NYU Greene's overlay jobs).
TEST(Containers, AVariableOfOptionsOrNothingIsNotTheImage) {
  const Translation t =
      run("singularity exec $nv --overlay /scratch/u/o.ext3:ro /scratch/u/img.sif /bin/bash -c "
          "\"python train.py\"\n"
          "if [ -n \"$GPU\" ]; then NV=--nv; else NV=\"\"; fi\n"
          "singularity exec $NV /scratch/u/img.sif python eval.py\n"
          "singularity exec $SIF python other.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "\n/bin/bash -c \"python train.py\"\n")) << t.workload->command;
  EXPECT_TRUE(command_has(t, "\npython eval.py\n")) << t.workload->command;
  EXPECT_TRUE(command_has(t, "\npython other.py\n")) << t.workload->command;  // $SIF: the image
  const std::string dropped = messages_of(t, Code::container_option_dropped);
  EXPECT_NE(dropped.find("`$nv` holds options"), std::string::npos) << dropped;
  EXPECT_NE(dropped.find("`$NV` holds options"), std::string::npos) << dropped;
  EXPECT_NE(messages_of(t, Code::container_image_unknown).find("the image /scratch/u/img.sif"),
            std::string::npos);
}

// shifter's getopt spellings: values attached, after `=` or in the next
// word; `--` ends the options; the image on the line is the job's.
TEST(Containers, ShifterOptionsAreReadAsShifterReadsThem) {
  const Translation t =
      translate("job.sbatch",
                "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n"
                "shifter --image docker:nersc/pytorch:24.06 -V/global/cfs/a:/a "
                "--volume='/global/cfs/b:/b;/global/cfs/c:/c' -E -e X=1 -- python t.py\n"
                "shifter --module gpu --env-file=vars.env ./run.sh\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "\nX=1 python t.py\n./run.sh\n")) << t.workload->command;
  ASSERT_TRUE(t.workload->environment.docker_image);
  EXPECT_EQ(*t.workload->environment.docker_image, "docker.io/nersc/pytorch:24.06");
  EXPECT_NE(messages_of(t, Code::container_mounts)
                .find("/global/cfs/a, /global/cfs/b, /global/cfs/c will not be there"),
            std::string::npos)
      << messages_of(t, Code::container_mounts);
  EXPECT_NE(messages_of(t, Code::container_option_dropped).find("`--env-file=vars.env`"),
            std::string::npos);
}

// `srun shifter --env A=1 bash -c ...`: behind srun, and behind the shim's
// `exec "$@"` that starts each task, `A=1` would be run as the program;
// `env A=1` sets it, as singularity's --env is carried.
TEST(Containers, ShifterVariablesBehindAStepGoThroughEnv) {
  const Translation t =
      translate("job.sbatch",
                "#!/bin/bash\n#SBATCH -N2 --ntasks-per-node=4 --gpus-per-node=h100:4\n"
                "srun -l shifter --env PYTHONUSERBASE=$HOME/.local python train.py\n"
                "shifter -e X=1 python prep.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "slurm-task env PYTHONUSERBASE=$HOME/.local python train.py\n"))
      << t.workload->command;
  EXPECT_TRUE(command_has(t, "X=1 python prep.py")) << t.workload->command;
  EXPECT_FALSE(command_has(t, "env X=1")) << t.workload->command;
}

// The container's variables of an srun step whose command is `bash -c
// SCRIPT`: the script is inlined, so they are exported to it in a subshell
// (they were lost with the `env` prefix the inlined script replaced).
TEST(Containers, VariablesOfAStepsContainerReachItsInlinedScript) {
  const Translation t = translate(
      "job.sbatch",
      "#!/bin/bash\n#SBATCH --nodes=1 --gpus-per-node=h100:8\n"
      "srun docker run -e FOO=1 -e \"BAR=$X\" img:1 bash -c \"python t.py\"\n"
      "A=2 srun singularity exec --env FOO=1 img.sif \\\n  bash -c 'python t.py' > log &\n"
      "srun docker run img:1 bash -c \"python u.py\"\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "(\nexport FOO=1 \"BAR=$X\"\npython t.py\n)\n"))
      << t.workload->command;
  EXPECT_TRUE(command_has(t, "( export A=2\nexport FOO=1\npython t.py\n) > log &\n"))
      << t.workload->command;
  EXPECT_TRUE(command_has(t, "\npython u.py\n")) << t.workload->command;
  // An exported SINGULARITYENV_X is passed only when set: not exported, reported.
  const Translation conditional =
      translate("job.sbatch",
                "#!/bin/bash\n#SBATCH --nodes=1 --gpus-per-node=h100:8\n"
                "export SINGULARITYENV_FS_LICENSE=/lic\n"
                "srun singularity exec img.sif bash -c \"python t.py\"\n");
  EXPECT_TRUE(has_code(conditional, Code::container_option_dropped));
}

// Pawsey's and NERSC's tutorials keep the image in a variable the script
// sets once (`theImage=...; shifterimg pull $theImage; srun shifter
// --image="$theImage" ...`): that is the image, not a placeholder, and the
// gateway pull goes.
TEST(Containers, ShifterImageInAVariableTheScriptSets) {
  const Translation t =
      translate("job.sbatch",
                "#!/bin/bash -l\n#SBATCH --nodes=1 --gpus=4\n"
                "theImage=\"nvcr.io/nvidia/tensorflow:22.04-tf2-py3\"\n"
                "shifterimg pull $theImage\n"
                "srun shifter --image=\"$theImage\" python distributedMNIST.py\n");
  ASSERT_TRUE(t.workload);
  ASSERT_TRUE(t.workload->environment.docker_image);
  EXPECT_EQ(*t.workload->environment.docker_image, "nvcr.io/nvidia/tensorflow:22.04-tf2-py3");
  EXPECT_EQ(messages_of(t, Code::container_image_unknown), "");
  EXPECT_TRUE(command_has(t, "\npython distributedMNIST.py\n")) << t.workload->command;
  // The gateway pull has no counterpart: AI Runtime pulls the image itself.
  EXPECT_FALSE(command_has(t, "\nshifterimg")) << t.workload->command;
  EXPECT_NE(messages_of(t, Code::container_image_step)
                .find("`shifterimg pull $theImage` asks the cluster's shifter image gateway"),
            std::string::npos)
      << messages_of(t, Code::container_image_step);
  // Set twice, or computed: which image runs is not known.
  const Translation twice =
      translate("job.sbatch",
                "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\nIMG=a/b:1\nIMG=c/d:2\n"
                "srun shifter --image=$IMG python t.py\n");
  EXPECT_NE(messages_of(twice, Code::container_image_unknown), "");
}

TEST(Containers, AMountOfTheJobsDirectoryIsTheUploadedCodeUnderAnotherName) {
  // $PWD is the code root on AI Runtime ($CODE_SOURCE_PATH): the fix is a path
  // rewrite, not a volume; mounted at its own path it needs nothing at all.
  const Translation t =
      run("srun singularity exec --nv -B $PWD:/workspace/bert,./data/:/data,/scratch/u:/out "
          "img.sif python /workspace/bert/run.py --data /data\n"
          "apptainer exec --bind \"$PWD:$PWD\",. img.sif python eval.py\n");
  std::vector<std::string> messages;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::container_mounts) messages.push_back(d.message + " | " + d.hint);
  }
  ASSERT_EQ(messages.size(), 3U);
  EXPECT_NE(messages[0].find("showed the job's directory ($PWD) at /workspace/bert; on AI Runtime "
                             "that is the uploaded code, $CODE_SOURCE_PATH, not /workspace/bert"),
            std::string::npos)
      << messages[0];
  EXPECT_NE(messages[0].find("/workspace/bert/x -> \"$CODE_SOURCE_PATH\"/x"), std::string::npos)
      << messages[0];
  EXPECT_NE(messages[1].find("./data/ of the job's directory at /data; on AI Runtime that is the "
                             "uploaded code, $CODE_SOURCE_PATH/data, not /data"),
            std::string::npos)
      << messages[1];
  EXPECT_NE(messages[2].find("container mounts do not exist on AI Runtime: /scratch/u will not"),
            std::string::npos)
      << messages[2];
}

TEST(Containers, MountsOfEveryContainerCommandAreReported) {
  const Translation t =
      run("singularity exec -B /scratch/prep:/in img.sif python prep.py\n"
          "srun singularity exec --nv --bind=/scratch/ckpt:/ckpt,/scratch/prep:/in img.sif "
          "python train.py\n"
          "apptainer run -B \"/scratch/ckpt:/ckpt2,$LOGS\" img.sif python eval.py\n");
  const auto mounts =
      std::find_if(t.diagnostics.begin(), t.diagnostics.end(),
                   [](const Diagnostic& d) { return d.code == Code::container_mounts; });
  ASSERT_NE(mounts, t.diagnostics.end());
  EXPECT_NE(mounts->message.find(": /scratch/prep, /scratch/ckpt, $LOGS will not be there"),
            std::string::npos)
      << mounts->message;
}

// OpenRLHF's train_nonrl_slurm.sh: the command changes into the directory a
// mount showed the project at; the mount's report names that cd and its line.
TEST(Containers, ACdIntoAMountTargetIsNamedWithTheMount) {
  const Translation t =
      run("PROJECT_PATH=$(cd ../../; pwd)\n"
          "srun --container-image=nvcr.io/nvidia/pytorch:24.01-py3 \\\n"
          "    --container-mounts=\"$PROJECT_PATH:/openrlhf,$HOME/.cache:/root/.cache\" \\\n"
          "    bash -c \" cd /openrlhf; pip install . ; torchrun --nproc_per_node 8 -m t\"\n");
  const std::string message = messages_of(t, Code::container_mounts);
  EXPECT_NE(message.find("$PROJECT_PATH, $HOME/.cache will not be there; `cd /openrlhf` (line 6) "
                         "enters where the container showed $PROJECT_PATH, which is not there on "
                         "AI Runtime: the commands after it do not run in $PROJECT_PATH"),
            std::string::npos)
      << message;
  const auto mounts =
      std::find_if(t.diagnostics.begin(), t.diagnostics.end(),
                   [](const Diagnostic& d) { return d.code == Code::container_mounts; });
  ASSERT_NE(mounts, t.diagnostics.end());
  EXPECT_NE(mounts->hint.find("upload it as code_source.root_path and write \"$CODE_SOURCE_PATH\" "
                              "in place of /openrlhf"),
            std::string::npos)
      << mounts->hint;
  // No cd into a target: the report is the mount list alone.
  const Translation data =
      run("srun --container-image=nvcr.io/nvidia/pytorch:24.01-py3 "
          "--container-mounts=/scratch/d:/data bash -c \"cd /workspace; python t.py\"\n");
  EXPECT_NE(messages_of(data, Code::container_mounts).find("/scratch/d will not be there"),
            std::string::npos);
  EXPECT_EQ(messages_of(data, Code::container_mounts).find("cd "), std::string::npos);
}

/// Runs a translated command under bash the way AI Runtime would (its
/// env_variables exported, the code root at /tmp) and returns what it printed.
std::string run_command(const Translation& t) {
  std::string script = "CODE_SOURCE_PATH=/tmp\n";
  for (const air::NamedValue& v : t.workload->env_variables) {
    script += "export " + v.name + "='" + v.value + "'\n";
  }
  const std::string path = ::testing::TempDir() + "container-env.sh";
  testing::write_file(path, script + t.workload->command);
  const testing::ProcessResult result = testing::run_process("/bin/bash", {path});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return result.out;
}

TEST(Containers, VariablesTheContainerReceivedStillReachTheCommand) {
  // singularity gave the command X for each exported SINGULARITYENV_X (or
  // APPTAINERENV_X), PATH extended by *_PREPEND_PATH/_APPEND_PATH, and each
  // --env item; one set only in a branch not taken must stay unset.
  const Translation t =
      run("export SINGULARITYENV_FS_LICENSE=/opt/fs.txt\n"
          "export APPTAINERENV_PREPEND_PATH=/opt/tools/bin\n"
          "if false; then export SINGULARITYENV_CUDA_VISIBLE_DEVICES=0; fi\n"
          "SINGULARITYENV_MODE=fast singularity exec --nv --env 'A=1,B=x y' img.sif "
          "bash -c 'echo \"$FS_LICENSE|$MODE|$A|$B|${CUDA_VISIBLE_DEVICES-unset}|${PATH%%:*}\"'\n");
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(run_command(t), "/opt/fs.txt|fast|1|x y|unset|/opt/tools/bin\n") << t.workload->command;
  EXPECT_TRUE(command_has(t, "MODE=fast env ${SINGULARITYENV_FS_LICENSE+")) << t.workload->command;
  EXPECT_NE(
      messages_of(t, Code::container_environment)
          .find("MODE (from SINGULARITYENV_MODE), FS_LICENSE (from SINGULARITYENV_FS_LICENSE), "
                "PATH (prepended from APPTAINERENV_PREPEND_PATH)"),
      std::string::npos)
      << messages_of(t, Code::container_environment);
}

TEST(Containers, PrefixContainerVariablesAreRenamed) {
  const Translation t =
      run("SINGULARITYENV_jobDir=$jobDir SINGULARITYENV_APPEND_PATH=/x srun singularity exec "
          "img.sif python t.py\n");
  EXPECT_TRUE(command_has(t, "jobDir=$jobDir PATH=\"$PATH\":/x python t.py"))
      << t.workload->command;
  EXPECT_FALSE(command_has(t, "env "));
}

TEST(Containers, NoContainerVariablesNoEnv) {
  const Translation t = run("singularity exec --nv img.sif python t.py\n");
  EXPECT_TRUE(command_has(t, "\npython t.py")) << t.workload->command;
  EXPECT_FALSE(has_code(t, Code::container_environment));
}

TEST(Containers, CredentialsInEnvOptionBecomeSecrets) {
  const Translation t =
      run("singularity exec --env \"HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123,MODE=x\" img.sif "
          "python t.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "HF_TOKEN=\"$HF_TOKEN\" MODE=x python t.py")) << t.workload->command;
  ASSERT_EQ(t.workload->secrets.size(), 1u);
  EXPECT_EQ(t.workload->secrets[0].name, "HF_TOKEN");
  EXPECT_EQ(t.yaml.find("hf_abcdefghijklmnopqrstuvwxyz0123"), std::string::npos) << t.yaml;
  for (const Diagnostic& d : t.diagnostics) {
    EXPECT_EQ(d.message.find("hf_abcdefghijklmnopqrstuvwxyz0123"), std::string::npos) << d.message;
  }
}

struct DroppedOption {
  const char* options;
  const char* quoted;  // the option as the message quotes it
};

class ContainerOptions : public ::testing::TestWithParam<DroppedOption> {};

TEST_P(ContainerOptions, ThatChangedHowTheCommandRanAreReported) {
  const Translation t =
      run(std::string("srun apptainer exec --nv ") + GetParam().options + " img.sif python t.py\n");
  EXPECT_TRUE(command_has(t, "\npython t.py")) << t.workload->command;
  EXPECT_NE(messages_of(t, Code::container_option_dropped).find(GetParam().quoted),
            std::string::npos)
      << messages_of(t, Code::container_option_dropped);
}

INSTANTIATE_TEST_SUITE_P(
    Options, ContainerOptions,
    ::testing::Values(DroppedOption{"--pwd /workspace/llm",
                                    "`--pwd /workspace/llm`: the container ran"},
                      DroppedOption{"-H /home/u", "`-H /home/u`: the container's home"},
                      DroppedOption{"--home=/home/u", "`--home=/home/u`: the container's home"},
                      DroppedOption{"--overlay ov.img", "`--overlay ov.img`: this overlay"},
                      DroppedOption{"--app train", "`--app train`: the container ran this app"},
                      DroppedOption{"--env-file e.env", "`--env-file e.env`: the container set"},
                      DroppedOption{"--env=$VARS", "`--env=$VARS`: the container set these"},
                      DroppedOption{"--env \"A=1,B=\\\"x,y\\\"\"", "the container set these"}));

TEST(Containers, ComputedOptionIsNotTakenForTheImage) {
  // `--env=$X` is an option, not the image: the command after the image stays.
  const Translation t = run("singularity exec --env=$X img.sif python t.py\n");
  EXPECT_TRUE(command_has(t, "\npython t.py")) << t.workload->command;
}

TEST(Containers, RunscriptWithoutCommandStaysAndIsReported) {
  // `run IMAGE` alone started the image's runscript: nothing on AI Runtime
  // knows what that was, so the line stays (and would fail) and says so.
  const Translation t = run("srun singularity run --nv -B /scratch:/scratch /apps/train.sif\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "singularity run --nv -B /scratch:/scratch /apps/train.sif"))
      << t.workload->command;
  const std::string message = messages_of(t, Code::container_without_command);
  EXPECT_NE(message.find("started the image's runscript"), std::string::npos) << message;
  EXPECT_FALSE(has_code(t, Code::container_wrapper_removed));
}

// `singularity run IMG bash -c ...` (LUMI's AI guide) ran the image's
// runscript first, which set up the environment and then ran its arguments;
// `exec` ran the command alone. The runscript goes with the call, and the
// report says so, and what to do whether it set up an environment or was
// the program (`run IMG train.py`).
TEST(Containers, RunSaysTheRunscriptGoesToo) {
  const Translation command = run("srun singularity run $SIF bash -c 'python t.py'\n");
  const std::string message = messages_of(command, Code::container_wrapper_removed);
  EXPECT_NE(message.find("`singularity run` is removed, and with it the image's runscript"),
            std::string::npos)
      << message;
  EXPECT_NE(hints_of(command, Code::container_wrapper_removed)
                .find("if it set up an environment (activated one, exported variables) and "
                      "then ran its arguments, put that setup at the top of the command"),
            std::string::npos)
      << hints_of(command, Code::container_wrapper_removed);
  const Translation program = run("srun apptainer run /apps/mae.sif main_pretrain.py --lr 1\n");
  EXPECT_NE(hints_of(program, Code::container_wrapper_removed)
                .find("if it was the program that read them, put that program in front of them"),
            std::string::npos)
      << hints_of(program, Code::container_wrapper_removed);
  const Translation exec = run("srun singularity exec $SIF bash -c 'python t.py'\n");
  EXPECT_EQ(messages_of(exec, Code::container_wrapper_removed).find("runscript"),
            std::string::npos);
}

TEST(Containers, ExecWithoutCommandIsReportedAndARunWithACommandIsNot) {
  const Translation bare = run("apptainer exec img.sif\n");
  EXPECT_NE(messages_of(bare, Code::container_without_command).find("names no command"),
            std::string::npos);
  const Translation with_command = run("singularity run img.sif python t.py\n");
  EXPECT_FALSE(has_code(with_command, Code::container_without_command));
  EXPECT_TRUE(command_has(with_command, "\npython t.py")) << with_command.workload->command;
}

TEST(Containers, BareCallsSayWhatTheyRan) {
  const Translation heredoc = run("singularity run --nv $SIF <<EOF\npython t.py\nEOF\n");
  EXPECT_NE(messages_of(heredoc, Code::container_without_command).find("here-document"),
            std::string::npos);
  const Translation arguments = run("singularity run --bind ./x:/x \"$@\"\n");
  EXPECT_NE(messages_of(arguments, Code::container_without_command).find("script's arguments"),
            std::string::npos);
  // A comment ends the command: the lines after it ran on their own.
  const Translation cut =
      run("apptainer run --pwd /app docker://unlhcc/alphafold:2.3.2 \\\n"
          "    # the input\n    --fasta_paths=input.fasta\n");
  EXPECT_TRUE(has_code(cut, Code::container_without_command));
}

// `singularity pull` saves a file that a later exec runs: the pull line goes
// (singularity does not exist on the nodes) and the file is the image it was
// pulled from, under pull's default name, --name or an explicit file.
TEST(ImageSteps, APulledFileIsTheImageItWasPulledFrom) {
  const Translation t =
      run("cd $SCRATCH\n"
          "singularity pull docker://nvcr.io/nvidia/modulus/modulus:23.08\n"
          "singularity exec --nv $SCRATCH/modulus_23.08.sif python train.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.docker_image, "nvcr.io/nvidia/modulus/modulus:23.08");
  EXPECT_TRUE(command_has(
      t, "# [slurm2air] singularity pull docker://nvcr.io/nvidia/modulus/modulus:23.08\n"))
      << t.workload->command;
  EXPECT_TRUE(command_has(t, "\npython train.py")) << t.workload->command;
  EXPECT_EQ(lines_of(t, Code::container_image_step), std::vector<uint32_t>{4});
  EXPECT_NE(messages_of(t, Code::container_image_registration)
                .find("$SCRATCH/modulus_23.08.sif, pulled from "
                      "docker://nvcr.io/nvidia/modulus/modulus:23.08,"),
            std::string::npos);
  EXPECT_FALSE(has_code(t, Code::container_image_unknown));
}

TEST(ImageSteps, PullAndBuildNameTheirFileInEveryForm) {
  struct Case {
    const char* step;
    const char* image;
    const char* url;  // empty: not a registry image
  };
  const Case cases[] = {
      {"singularity pull -F --name tf.img docker://tensorflow/tensorflow:2.4.1-gpu", "tf.img",
       "docker.io/tensorflow/tensorflow:2.4.1-gpu"},
      {"apptainer pull --dir /scratch/u images/ocr.sif docker://ghcr.io/x/ocr:1", "ocr.sif",
       "ghcr.io/x/ocr:1"},
      {"singularity pull --tmpdir=/tmp docker://ubuntu", "/data/ubuntu_latest.sif",
       "docker.io/ubuntu:latest"},
      {"apptainer build --fakeroot $RELEASE/tgi.sif docker://ghcr.io/hf/tgi:2.0.1",
       "\"$RELEASE/tgi.sif\"", "ghcr.io/hf/tgi:2.0.1"},
      {"singularity build --fakeroot env.sif env.def", "env.sif", ""},
      {"singularity pull lolcow.sif library://lolcow", "lolcow.sif", ""},
  };
  for (const Case& c : cases) {
    const Translation t =
        run(std::string(c.step) + "\nsingularity exec " + c.image + " python t.py\n");
    ASSERT_TRUE(t.workload) << c.step;
    EXPECT_TRUE(has_code(t, Code::container_image_step)) << c.step;
    EXPECT_TRUE(command_has(t, std::string("# [slurm2air] ") + c.step)) << t.workload->command;
    if (*c.url != '\0') {
      EXPECT_EQ(t.workload->environment.docker_image, c.url) << c.step;
    } else {
      EXPECT_TRUE(has_code(t, Code::container_image_unknown)) << c.step;
      EXPECT_NE(hints_of(t, Code::container_image_step).find("environment.docker_image"),
                std::string::npos)
          << c.step;
    }
  }
}

// A step that only makes the image (`srun singularity pull`, `srun -N1
// apptainer build`) goes like the line without srun, and is remembered.
TEST(ImageSteps, AnSrunStepThatPullsIsRemovedAndRemembered) {
  const Translation t =
      run("srun -N1 --ntasks=1 singularity pull docker://nvcr.io/nvidia/pytorch:24.01-py3\n"
          "srun singularity exec --nv pytorch_24.01-py3.sif python train.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t,
                          "# [slurm2air] srun -N1 --ntasks=1 singularity pull "
                          "docker://nvcr.io/nvidia/pytorch:24.01-py3\n"))
      << t.workload->command;
  EXPECT_TRUE(command_has(t, "\npython train.py")) << t.workload->command;
  EXPECT_EQ(t.workload->environment.docker_image, "nvcr.io/nvidia/pytorch:24.01-py3");
  EXPECT_EQ(lines_of(t, Code::container_image_step), std::vector<uint32_t>{3});
  EXPECT_FALSE(has_code(t, Code::container_image_unknown));
  EXPECT_FALSE(has_code(t, Code::container_engine_unavailable));
}

TEST(ImageSteps, AFileOfAnotherNameIsNotThePulledImage) {
  const Translation t =
      run("singularity pull docker://ubuntu:22.04\n"
          "singularity exec /apps/train.sif python t.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(has_code(t, Code::container_image_step));
  EXPECT_TRUE(has_code(t, Code::container_image_unknown));
  EXPECT_EQ(messages_of(t, Code::container_image_unknown).find("pulled"), std::string::npos);
}

// A pull in the background, or beside other commands, is taken off the line
// without ending it; one inside `if` leaves the block a `:`.
TEST(ImageSteps, PullsBesideOtherCommandsLeaveValidShell) {
  const Translation t = run(
      "singularity pull -F docker://staphb/bcftools:1.16 &\n"
      "if [ ! -f pytorch_24.01.sif ]; then singularity pull docker://nvcr.io/nvidia/pytorch:24.01; "
      "fi\n"
      "wait\nsingularity exec pytorch_24.01.sif python t.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.docker_image, "nvcr.io/nvidia/pytorch:24.01");
  EXPECT_EQ(lines_of(t, Code::container_image_step), (std::vector<uint32_t>{3, 4}));
  EXPECT_EQ(t.workload->command.find("singularity pull -F docker://staphb/bcftools:1.16 &\n"),
            std::string::npos)
      << t.workload->command;
  EXPECT_EQ(testing::check_bash_syntax(t.workload->command).exit_code, 0) << t.workload->command;
}

// `instance start IMAGE NAME` then `exec instance://NAME CMD`: the command
// runs in the image the instance was started from, with its binds reported.
TEST(ImageSteps, AnInstanceIsTheImageItWasStartedFrom) {
  const Translation t =
      run("singularity instance start --nv -B /scratch/u:/scratch/u docker://rapidsai/base:24.02 "
          "rapids\n"
          "singularity exec instance://rapids python etl.py\n"
          "singularity instance stop rapids\n");
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.docker_image, "docker.io/rapidsai/base:24.02");
  EXPECT_EQ(lines_of(t, Code::container_image_step), (std::vector<uint32_t>{3, 5}));
  EXPECT_NE(messages_of(t, Code::container_mounts).find("/scratch/u"), std::string::npos);
  EXPECT_NE(hints_of(t, Code::container_image_step).find("startscript"), std::string::npos);
  EXPECT_TRUE(command_has(t, "\npython etl.py\n")) << t.workload->command;
}

// Other subcommands cannot run without singularity either: reported, kept.
TEST(ImageSteps, OtherSubcommandsAreReportedAsMissingEngines) {
  for (const char* line : {"singularity --version\n", "singularity shell --nv img.sif t.sh\n",
                           "apptainer cache clean -f\n", "singularity instance list\n"}) {
    const Translation t = run(std::string(line) + "python t.py\n");
    EXPECT_TRUE(has_code(t, Code::container_engine_unavailable)) << line;
    EXPECT_FALSE(has_code(t, Code::container_image_step)) << line;
  }
}

// Each container engine is known by name, whatever its length or first letter.
TEST(ImageSteps, EveryEngineIsReportedAsMissing) {
  for (const char* line :
       {"docker exec c true\n", "podman logs c\n", "enroot exec 42 true\n", "ch-run --version\n",
        "sarus images\n", "nerdctl wait c\n", "udocker inspect c\n", "charliecloud --version\n",
        "apptainer --version\n"}) {
    const Translation t = run(std::string(line) + "python t.py\n");
    EXPECT_TRUE(has_code(t, Code::container_engine_unavailable)) << line;
  }
  for (const char* line : {"dockers ps\n", "pytorch x\n", "export A=1\n", "mpirun t.py\n"}) {
    const Translation t = run(std::string(line) + "python t.py\n");
    EXPECT_FALSE(has_code(t, Code::container_engine_unavailable)) << line;
  }
}

// docker's image and container upkeep goes like singularity's pull: the
// nodes have no docker, and the workload names its image itself.
TEST(ImageSteps, DockerUpkeepLinesAreRemoved) {
  const Translation t =
      run("set -e\n"
          "docker pull nvcr.io/nvidia/pytorch:24.01-py3\n"
          "podman build -t segdet -f Dockerfile .\n"
          "docker rm -f cont_${SLURM_JOB_ID} || true\n"
          "docker login -u me -p hunter2 nvcr.io\n"
          "docker image prune -f\n"
          "srun -N1 nerdctl pull nvcr.io/nvidia/pytorch:24.01-py3\n"
          "docker rmi $(docker images -q)\n"
          "docker container stop tb\n"
          "docker run --rm nvcr.io/nvidia/pytorch:24.01-py3 python train.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(lines_of(t, Code::container_image_step),
            (std::vector<uint32_t>{4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_FALSE(has_code(t, Code::container_engine_unavailable));
  EXPECT_TRUE(command_has(t, "\n# [slurm2air] docker pull nvcr.io/nvidia/pytorch:24.01-py3\n"))
      << t.workload->command;
  EXPECT_TRUE(command_has(t, "\n: '[slurm2air] docker rm -f cont_${SLURM_JOB_ID}' || true\n"))
      << t.workload->command;
  // The password is neither in the comment nor in the report.
  EXPECT_TRUE(command_has(t, "\n# [slurm2air] docker login ...\n")) << t.workload->command;
  EXPECT_EQ(t.workload->command.find("hunter2"), std::string::npos);
  EXPECT_EQ(messages_of(t, Code::container_image_step).find("hunter2"), std::string::npos);
  EXPECT_NE(hints_of(t, Code::container_image_step).find("a later `podman run segdet`"),
            std::string::npos)
      << hints_of(t, Code::container_image_step);
  EXPECT_TRUE(command_has(t, "\npython train.py")) << t.workload->command;
  EXPECT_EQ(t.workload->environment.docker_image, "nvcr.io/nvidia/pytorch:24.01-py3");
  EXPECT_EQ(testing::check_bash_syntax(t.workload->command).exit_code, 0) << t.workload->command;
}

// `sudo` was there for docker: it goes with the call or the image step;
// sudo in front of another wrapper stays with it.
TEST(ImageSteps, SudoGoesWithTheDockerCall) {
  const Translation t =
      run("sudo docker pull brentp/smoove\n"
          "sudo -E --preserve-env=PATH -u root HOME=/root docker run --rm -v /data:/data "
          "nvcr.io/nvidia/pytorch:24.01-py3 python train.py\n"
          "sudo -u bob nice docker run --rm nvcr.io/nvidia/pytorch:24.01-py3 python eval.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "\n# [slurm2air] sudo docker pull brentp/smoove\npython train.py\n"))
      << t.workload->command;
  EXPECT_TRUE(command_has(t, "\nsudo -u bob nice python eval.py")) << t.workload->command;
  EXPECT_NE(messages_of(t, Code::container_wrapper_removed).find("`sudo -E --preserve-env=PATH"),
            std::string::npos)
      << messages_of(t, Code::container_wrapper_removed);
  EXPECT_EQ(lines_of(t, Code::container_image_step), std::vector<uint32_t>{3});
  EXPECT_EQ(t.workload->environment.docker_image, "nvcr.io/nvidia/pytorch:24.01-py3");
  EXPECT_FALSE(has_code(t, Code::container_engine_unavailable));
}

// A listing whose output something reads stays, reported: taken away, the
// reader would get nothing (`grep` failing ends a `set -e` script).
TEST(ImageSteps, ADockerListingThatIsReadStays) {
  const Translation t =
      run("set -e\n"
          "docker ps -a | grep segdet\n"
          "IDs=$(docker ps -aq)\n"
          "docker ps\n"
          "python train.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "\ndocker ps -a | grep segdet\n")) << t.workload->command;
  EXPECT_TRUE(command_has(t, "\nIDs=$(docker ps -aq)\n")) << t.workload->command;
  EXPECT_EQ(lines_of(t, Code::container_engine_unavailable), (std::vector<uint32_t>{4, 5}));
  EXPECT_EQ(lines_of(t, Code::container_image_step), std::vector<uint32_t>{6});
}

// enroot: `import [-o FILE] docker://[USER@][REGISTRY#]IMAGE[:TAG]` and
// `create [-n NAME] FILE` make what `start` runs, and go (S2A5027); `start`
// is unwrapped like `singularity exec`, its NAME followed back to the
// imported image; `remove` is upkeep.
TEST(Containers, EnrootStartRunsTheImageItsContainerWasImportedFrom) {
  const Translation t =
      run("enroot import -o $SCRATCH/pt.sqsh "
          "'docker://$oauthtoken@nvcr.io#nvidia/pytorch:23.10-py3'\n"
          "enroot create --force -n pt $SCRATCH/pt.sqsh\n"
          "enroot start --rw --root -m /scratch/u/data:/data -e WANDB_MODE=offline -e HOME pt "
          "python train.py --data /data\n"
          "enroot remove -f pt\n");
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.docker_image, "nvcr.io/nvidia/pytorch:23.10-py3");
  EXPECT_TRUE(command_has(t, "\nWANDB_MODE=offline python train.py --data /data\n"))
      << t.workload->command;
  EXPECT_EQ(lines_of(t, Code::container_image_step), (std::vector<uint32_t>{3, 4, 6}));
  EXPECT_FALSE(has_code(t, Code::container_engine_unavailable));
  EXPECT_FALSE(has_code(t, Code::container_image_unknown));
  EXPECT_NE(messages_of(t, Code::container_wrapper_removed).find("`enroot start` is removed"),
            std::string::npos);
  EXPECT_NE(messages_of(t, Code::container_mounts).find("/scratch/u/data"), std::string::npos)
      << messages_of(t, Code::container_mounts);
  EXPECT_NE(messages_of(t, Code::container_image_registration)
                .find("pt, created from docker://nvcr.io#nvidia/pytorch:23.10-py3"),
            std::string::npos)
      << messages_of(t, Code::container_image_registration);
  // -w is enroot's --rw, no working directory; -e HOME passed the script's own.
  EXPECT_FALSE(has_code(t, Code::container_option_dropped));
  EXPECT_NE(hints_of(t, Code::container_image_step).find("nvcr.io/nvidia/pytorch:23.10-py3"),
            std::string::npos)
      << hints_of(t, Code::container_image_step);
}

TEST(Containers, EnrootImportNamesItsFileInEveryForm) {
  struct Case {
    const char* import;
    const char* started;
    const char* image;
  };
  const Case cases[] = {
      // No -o: enroot saves IMAGE+TAG.sqsh, `/` as `+`, without the registry.
      {"enroot import docker://nvcr.io#nvidia/pytorch:23.10-py3", "nvidia+pytorch+23.10-py3.sqsh",
       "nvcr.io/nvidia/pytorch:23.10-py3"},
      {"srun -N1 enroot import --output=/scratch/u/ubuntu.sqsh docker://ubuntu:22.04",
       "/scratch/u/ubuntu.sqsh", "docker.io/ubuntu:22.04"},
      {"enroot import -o ./x.sqsh docker://ghcr.io#org/img\nenroot create x.sqsh", "x",
       "ghcr.io/org/img:latest"},
  };
  for (const Case& c : cases) {
    const Translation t =
        run(std::string(c.import) + "\nenroot start " + c.started + " python t.py\n");
    ASSERT_TRUE(t.workload) << c.import;
    EXPECT_EQ(t.workload->environment.docker_image, c.image) << c.import;
    EXPECT_TRUE(command_has(t, "\npython t.py\n")) << t.workload->command;
    EXPECT_FALSE(has_code(t, Code::container_engine_unavailable)) << c.import;
  }
}

// A container the script does not follow back to an image is a placeholder;
// what stops an unwrap keeps the line, saying which word.
TEST(Containers, EnrootStartOfAnUnknownContainerOrWithAnObstacle) {
  const Translation t =
      run("enroot start --rw -m /cgi/data:/develop/data rcdo python3 /develop/code/x.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.docker_image, "REGISTRY.EXAMPLE.COM/REPLACE-ME/rcdo:latest");
  EXPECT_NE(messages_of(t, Code::container_image_unknown)
                .find("is a container or image file enroot made on the cluster"),
            std::string::npos)
      << messages_of(t, Code::container_image_unknown);
  EXPECT_TRUE(command_has(t, "\npython3 /develop/code/x.py\n")) << t.workload->command;
  struct Case {
    const char* line;
    const char* why;
  };
  const Case cases[] = {
      {"enroot start --rc run.sh pt python t.py", "`--rc` replaces the container's command"},
      {"enroot start --frob pt python t.py", "`--frob` is an option not known"},
      {"udocker run --location=/scratch/root python t.py", "is an option not known"},
      {"udocker run --entrypoint=bash snk -c true", "`--entrypoint=bash` replaces the image's"},
  };
  for (const Case& c : cases) {
    const Translation kept = run(std::string(c.line) + "\n");
    ASSERT_TRUE(kept.workload) << c.line;
    EXPECT_NE(messages_of(kept, Code::container_engine_unavailable).find(c.why), std::string::npos)
        << messages_of(kept, Code::container_engine_unavailable);
    EXPECT_TRUE(command_has(kept, c.line)) << kept.workload->command;
  }
}

// Options gathered in a variable by appending to it (`X="${X} --env K=V"`,
// `X+=" -v a:b"`, then `X="${X:1}"`) are options, not the image: the call
// stays, saying so, instead of running `${MOUNTS} NAME cmd`.
TEST(Containers, EnrootAndUdockerOptionsBuiltInAVariableKeepTheLine) {
  const Translation t =
      run("ENV_KWARGS=\"\"\nfor v in A B; do ENV_KWARGS=\"${ENV_KWARGS} --env ${v}=1\"; done\n"
          "ENV_KWARGS=\"${ENV_KWARGS:1}\"\n"
          "MountOpts=\"\"\nMountOpts+=\" -v ${HostData}:/data\"\n"
          "enroot start --rw ${ENV_KWARGS} pt python t.py\n"
          "udocker run ${MountOpts} snk python t.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "enroot start --rw ${ENV_KWARGS} pt python t.py"))
      << t.workload->command;
  EXPECT_TRUE(command_has(t, "udocker run ${MountOpts} snk python t.py")) << t.workload->command;
  const std::string kept = messages_of(t, Code::container_engine_unavailable);
  EXPECT_NE(kept.find("`${ENV_KWARGS}` holds options of the call"), std::string::npos) << kept;
  EXPECT_NE(kept.find("`${MountOpts}` holds options of the call"), std::string::npos) << kept;
  EXPECT_FALSE(has_code(t, Code::container_image_unknown));
}

// udocker: `pull IMAGE` and `create --name=NAME IMAGE` go (NAME is IMAGE),
// `setup`/`rm` are upkeep, `run [OPTIONS] NAME|IMAGE CMD` is unwrapped like
// docker run, in udocker's spellings (`-v=a:b`, `--env=A=1`).
TEST(Containers, UdockerRunIsUnwrappedLikeDockerRun) {
  const Translation t =
      run("udocker pull hcibioinformatics/public:SnakeMakeBioApps_1\n"
          "udocker create --name=snk hcibioinformatics/public:SnakeMakeBioApps_1\n"
          "udocker setup --execmode=F3 snk\n"
          "udocker run --rm -v=/scratch/u/data:/data --env=ALPHA=1 --hostenv snk "
          "snakemake --cores 8\n"
          "udocker rm snk\n");
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(t.workload->environment.docker_image,
            "docker.io/hcibioinformatics/public:SnakeMakeBioApps_1");
  EXPECT_TRUE(command_has(t, "\nALPHA=1 snakemake --cores 8\n")) << t.workload->command;
  EXPECT_EQ(lines_of(t, Code::container_image_step), (std::vector<uint32_t>{3, 4, 5, 7}));
  EXPECT_FALSE(has_code(t, Code::container_engine_unavailable));
  EXPECT_NE(messages_of(t, Code::container_mounts).find("/scratch/u/data"), std::string::npos);
  EXPECT_NE(messages_of(t, Code::container_wrapper_removed).find("`udocker run` is removed"),
            std::string::npos);
  EXPECT_NE(hints_of(t, Code::container_wrapper_removed).find("(`udocker inspect IMAGE` shows it)"),
            std::string::npos)
      << hints_of(t, Code::container_wrapper_removed);

  // A container made elsewhere: the placeholder, saying so.
  const Translation unknown = run("udocker run -v /data/x:/res sgabox sga index -t 16 /res/a.fq\n");
  ASSERT_TRUE(unknown.workload);
  EXPECT_TRUE(command_has(unknown, "\nsga index -t 16 /res/a.fq\n")) << unknown.workload->command;
  EXPECT_NE(messages_of(unknown, Code::container_image_unknown)
                .find("the image sgabox is a container or image file udocker made on the cluster"),
            std::string::npos)
      << messages_of(unknown, Code::container_image_unknown);
}

// A listing whose output something reads stays, reported.
TEST(ImageSteps, EnrootAndUdockerListingsThatAreReadStay) {
  const Translation t =
      run("if [[ \"$(enroot list)\" ]]; then enroot remove -f $(enroot list); fi\n"
          "udocker ps | grep snk\n"
          "python t.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "\nudocker ps | grep snk\n")) << t.workload->command;
  EXPECT_EQ(lines_of(t, Code::container_image_step), std::vector<uint32_t>{3});
  EXPECT_TRUE(has_code(t, Code::container_engine_unavailable));
}

// A removed command that is one stage of a pipeline: `:` in its place
// would not read the pipe, so under `set -o pipefail` its writer could die
// of SIGPIPE and fail the line. A pipeline that only fed the stage goes
// whole, and the report says so (not "the line is removed").
TEST(PipelineRemovals, APipelineThatOnlyFedTheRemovedCommandGoesWhole) {
  const Translation t =
      run("set -eo pipefail\n"
          "echo $PAT | docker login -u me --password-stdin ghcr.io\n"
          "printf '%s' \"$PAT\" | podman login -u me --password-stdin quay.io && echo in\n"
          "cat <<< \"$PAT\" | docker login -u me --password-stdin nvcr.io; echo done\n"
          "python train.py\n");
  ASSERT_TRUE(t.workload);
  const std::string& command = t.workload->command;
  EXPECT_TRUE(command_has(t, "\n# [slurm2air] echo ... | docker login ...\n")) << command;
  EXPECT_TRUE(command_has(t, "\n: '[slurm2air] printf ... | podman login ...' && echo in\n"))
      << command;
  EXPECT_TRUE(command_has(t, "\n: '[slurm2air] cat ... | docker login ...'; echo done\n"))
      << command;
  EXPECT_EQ(command.find("| :"), std::string::npos) << command;
  EXPECT_EQ(lines_of(t, Code::container_image_step), (std::vector<uint32_t>{4, 5, 6}));
  const std::string messages = messages_of(t, Code::container_image_step);
  EXPECT_EQ(messages.find("the line is removed"), std::string::npos) << messages;
  EXPECT_NE(messages.find("so the whole pipeline is removed (`echo` only fed it)"),
            std::string::npos)
      << messages;
  EXPECT_NE(messages.find("so the whole pipeline is replaced by `:` (`printf` only fed it)"),
            std::string::npos)
      << messages;
  // The report covers the pipeline, from its first stage.
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::container_image_step) {
      EXPECT_EQ(t.file->line_col(d.span.begin).col, 1u);
    }
  }
  EXPECT_TRUE(t.workload->secrets.empty());
  EXPECT_EQ(testing::check_bash_syntax(command).exit_code, 0) << command;
}

// `echo KEY | docker login --password-stdin` goes whole: the key is needed
// nowhere, so no secret is made for it; it is masked and reported.
TEST(PipelineRemovals, AKeyFedToARemovedLoginIsMaskedWithNoSecret) {
  const Translation t =
      run("echo 'dckr_pat_abcdefghijklmnop' | docker login -u me --password-stdin\n"
          "python train.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(t.workload->secrets.empty());
  EXPECT_EQ(t.workload->command.find("dckr_pat"), std::string::npos) << t.workload->command;
  EXPECT_TRUE(command_has(t, "\n# [slurm2air] echo ... | docker login ...\n"))
      << t.workload->command;
  EXPECT_EQ(lines_of(t, Code::secret_in_script), std::vector<uint32_t>{3});
  EXPECT_NE(messages_of(t, Code::secret_in_script).find("no secret is made"), std::string::npos);
  ASSERT_EQ(t.redactions.size(), 1u);
  EXPECT_EQ(t.file->slice(t.redactions.front()), "'dckr_pat_abcdefghijklmnop'");
}

// A writer that does more than feed the stage keeps running: the stage
// becomes a `cat >/dev/null` that drains it, so it ends as under Slurm.
TEST(PipelineRemovals, AWriterThatDoesMoreIsDrained) {
  const Translation t =
      run("set -o pipefail\n"
          "./make_dockerfile.sh | docker build -t img -\n"
          "python train.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t,
                          "\n./make_dockerfile.sh | { : '[slurm2air] docker build -t img -'; cat "
                          ">/dev/null; }\n"))
      << t.workload->command;
  const std::string messages = messages_of(t, Code::container_image_step);
  EXPECT_NE(messages.find("so it is replaced in its pipeline by a `cat >/dev/null` that drains "
                          "what `make_dockerfile.sh` writes (so it does not die of SIGPIPE)"),
            std::string::npos)
      << messages;
  EXPECT_EQ(testing::check_bash_syntax(t.workload->command).exit_code, 0) << t.workload->command;
}

// A removed command read by the rest of its pipeline: a statement that
// only filters what it printed into the log goes whole; one that writes a
// file, or a test, keeps the stage as `:`, and the report says what reads
// nothing.
TEST(PipelineRemovals, ReadersOfTheRemovedCommand) {
  const Translation t =
      run("conda list | grep torch | sort -u\n"
          "module list 2>&1 | grep cuda >> versions.txt\n"
          "if conda env list | grep -q myenv; then echo have; fi\n"
          "seff $SLURM_JOB_ID | tee seff.txt\n"
          "if { conda env list | grep -q myenv; } >/dev/null; then echo braced; fi\n"
          "squeue -u me -h | grep \"$1\"\n"
          "[[ $? == 0 ]] && echo queued\n"
          "running() {\n  squeue -u me -h | grep -q \"$1\"\n  return\n}\n"
          "python train.py\n");
  ASSERT_TRUE(t.workload);
  const std::string& command = t.workload->command;
  // Still tests inside a brace group; still read by the `$?` after it.
  EXPECT_TRUE(command_has(t, "if { : '[slurm2air] conda env list' | grep -q myenv; }")) << command;
  EXPECT_TRUE(command_has(t, "\n: '[slurm2air] squeue -u me -h' | grep \"$1\"\n[[ $? == 0 ]]"))
      << command;
  EXPECT_TRUE(command_has(t, "\n  : '[slurm2air] squeue -u me -h' | grep -q \"$1\"\n  return\n"))
      << command;
  EXPECT_TRUE(command_has(t, "\n# [slurm2air] conda list | grep torch | sort -u\n")) << command;
  EXPECT_TRUE(
      command_has(t, "\n: '[slurm2air] module list 2>&1' | grep cuda >> versions.txt || :\n"))
      << command;
  EXPECT_TRUE(command_has(t, "\nif : '[slurm2air] conda env list' | grep -q myenv; then"))
      << command;
  EXPECT_TRUE(command_has(t, "\n: '[slurm2air] seff $SLURM_JOB_ID' | tee seff.txt\n")) << command;
  const std::string setup = messages_of(t, Code::setup_command_removed);
  EXPECT_NE(setup.find("; the whole pipeline is removed (`grep`, `sort` only filtered what it "
                       "printed)"),
            std::string::npos)
      << setup;
  EXPECT_NE(setup.find("`module list` does not exist on AI Runtime nodes; it is replaced in its "
                       "pipeline by `:`, which prints nothing, and `grep` reads no input; `|| :` "
                       "after the pipeline keeps `grep`, which then selects nothing, from failing "
                       "the line"),
            std::string::npos)
      << setup;
  // A test of the pipeline keeps its status: no env on AI Runtime.
  EXPECT_TRUE(command_has(t, "grep -q myenv; then")) << command;
  const std::string seff = messages_of(t, Code::slurm_command_in_body);
  EXPECT_NE(seff.find("as the last command; it is replaced in its pipeline by `:`, which prints "
                      "nothing, and `tee` reads no input"),
            std::string::npos)
      << seff;
  EXPECT_EQ(seff.find("the line is removed"), std::string::npos) << seff;
  EXPECT_EQ(testing::check_bash_syntax(command).exit_code, 0) << command;
}

// What the translation runs: under `set -eo pipefail` the lines after a
// removed pipeline stage still run (a writer is drained, a grep reading
// nothing is followed by `|| :`).
TEST(PipelineRemovals, NothingFailsUnderPipefail) {
  const Translation t =
      run("set -eo pipefail\n"
          "seq 1 200000 | docker login -u me --password-stdin ghcr.io\n"
          "echo \"$PAT\" | docker login -u me --password-stdin ghcr.io\n"
          "module list 2>&1 | grep cuda | tee /dev/null\n"
          "echo reached\n");
  ASSERT_TRUE(t.workload);
  const std::string path = ::testing::TempDir() + "pipeline_removal.sh";
  testing::write_file(path, t.workload->command);
  const testing::ProcessResult ran =
      testing::run_process("/usr/bin/env", {"CODE_SOURCE_PATH=/tmp", "bash", path});
  EXPECT_EQ(ran.exit_code, 0) << t.workload->command << ran.err;
  EXPECT_NE(ran.out.find("reached"), std::string::npos) << ran.out;
}

// `PY="singularity exec --nv $SIF python"` ... `$PY train.py`: the call
// leaves the value, so `$PY` runs python directly; the image and binds are
// the workload's, as for a call written out.
TEST(HeldContainerCalls, TheCallLeavesTheVariableAndItsImageIsTheWorkloads) {
  const Translation t =
      run("SIF=docker://nvcr.io/nvidia/pytorch:24.01-py3\n"
          "PY=\"singularity exec --nv -B /data:/data --pwd /app $SIF python\"\n"
          "export SING='apptainer exec $SIF'\n"
          "$PY train.py --epochs 3\n$SING python eval.py\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "\nPY=\"python\"\nexport SING=''\n$PY train.py --epochs 3\n"))
      << t.workload->command;
  EXPECT_EQ(t.workload->environment.docker_image, "nvcr.io/nvidia/pytorch:24.01-py3");
  EXPECT_EQ(lines_of(t, Code::container_wrapper_removed), (std::vector<uint32_t>{4, 5}));
  EXPECT_NE(messages_of(t, Code::container_wrapper_removed).find("from the value of PY"),
            std::string::npos);
  EXPECT_NE(messages_of(t, Code::container_mounts).find("/data"), std::string::npos);
  EXPECT_NE(messages_of(t, Code::container_option_dropped).find("--pwd /app"), std::string::npos);
  EXPECT_FALSE(has_code(t, Code::container_image_second));
  EXPECT_EQ(testing::check_bash_syntax(t.workload->command).exit_code, 0);
}

TEST(HeldContainerCalls, OtherValuesAndScriptsReadByBashCAreLeftToTheirRules) {
  // Not a container call at the start of the value.
  const Translation echo = run("MSG=\"using singularity exec here\"\npython t.py\n");
  EXPECT_FALSE(has_code(echo, Code::container_wrapper_removed));
  EXPECT_TRUE(command_has(echo, "MSG=\"using singularity exec here\"")) << echo.workload->command;
  // A script bash -c reads from the variable is mapped once, as a script.
  const Translation script =
      run("CMD=\"singularity exec --nv /apps/x.sif python t.py\"\nsrun bash -c \"$CMD\"\n");
  EXPECT_EQ(lines_of(script, Code::container_wrapper_removed), std::vector<uint32_t>{3});
  EXPECT_EQ(messages_of(script, Code::container_wrapper_removed).find("from the value"),
            std::string::npos);
}

// The workload has one image: calls of another are reported once per image.
TEST(Containers, ASecondImageIsReportedOncePerImage) {
  const Translation t =
      run("singularity exec /apps/align.sif bwa mem ref.fa r.fq > r.sam\n"
          "singularity exec /apps/train.sif python train.py\n"
          "singularity exec /apps/train.sif python eval.py\n"
          "singularity exec /apps/align.sif samtools sort r.sam\n");
  ASSERT_TRUE(t.workload);
  EXPECT_EQ(lines_of(t, Code::container_image_second), std::vector<uint32_t>{4});
  const std::string message = messages_of(t, Code::container_image_second);
  EXPECT_NE(message.find("/apps/train.sif"), std::string::npos) << message;
  EXPECT_NE(message.find("/apps/align.sif (the first"), std::string::npos) << message;
  // The same image under the #SBATCH option and a call: one image.
  const Translation same = translate(
      "job.sbatch",
      "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n#SBATCH --container-image=/apps/x.sif\n"
      "singularity exec /apps/x.sif python t.py\n");
  EXPECT_FALSE(has_code(same, Code::container_image_second));
}

// `singularity exec IMG /bin/bash -c "..."` (NYU's overlay pattern): the
// script inside is mapped like the batch script's own lines and written back
// into its quotes; the outer shell still fills in what it filled in before.
TEST(LineScripts, ADoubleQuotedScriptIsMappedAndKeepsTheOuterExpansions) {
  const Translation t = run(
      "singularity exec --nv --overlay /scratch/u/o.ext3:ro /scratch/u/cuda.sif /bin/bash -c \"\n"
      "source /ext3/env.sh\nconda activate dit\npython train.py --lr $1 --tag \\$HOST\n\"\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t,
                          "\n/bin/bash -c \"\nsource /ext3/env.sh\n"
                          "# [slurm2air] conda activate dit\n"
                          "python train.py --lr $1 --tag \\$HOST\n\""))
      << t.workload->command;
  EXPECT_TRUE(has_code(t, Code::setup_command_removed));
  EXPECT_NE(messages_of(t, Code::cluster_path).find("/ext3/env.sh"), std::string::npos);
  EXPECT_EQ(testing::check_bash_syntax(t.workload->command).exit_code, 0);
}

TEST(LineScripts, ASingleQuotedScriptKeepsItsShellAndArguments) {
  const Translation t = run("bash -c 'module load cuda/12; python t.py \"$0\"' job-name\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t,
                          "bash -c ': '\\''[slurm2air] module load cuda/12'\\''; python t.py "
                          "\"$0\"' job-name"))
      << t.workload->command;
  EXPECT_TRUE(has_code(t, Code::setup_command_removed));
}

TEST(LineScripts, AScriptWithNothingToChangeIsLeftAsWritten) {
  const Translation t = run("bash -c \"echo $HOSTNAME; python t.py\"\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "\nbash -c \"echo $HOSTNAME; python t.py\"")) << t.workload->command;
}

TEST(LineScripts, ALauncherInsideIsMappedForEveryNode) {
  const Translation t =
      translate("job.sbatch",
                "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=h100:8\n"
                "srun singularity exec --nv img.sif bash -c 'torchrun --nproc_per_node=8 t.py'\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t, "--nnodes=")) << t.workload->command;
  EXPECT_FALSE(command_has(t, "singularity")) << t.workload->command;
}

TEST(LineScripts, AScriptOfSeveralQuotedPartsIsMappedIntoDoubleQuotes) {
  const Translation t = run("bash -c \"module load cuda/12; \"'python t.py --tag $HOST'\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t,
                          "\nbash -c \": '[slurm2air] module load cuda/12'; python t.py --tag "
                          "\\$HOST\""))
      << t.workload->command;
  EXPECT_EQ(testing::check_bash_syntax(t.workload->command).exit_code, 0);
}

// `CMD="..."; bash -c "$CMD"`: the script is read from the one assignment
// and written, translated, where it is used; the assignment stays.
TEST(ScriptVariables, AScriptKeptInAVariableIsMappedWhereItIsUsed) {
  const Translation t =
      run("SETUP=\"module load x; python prep.py --out /scratch/u/data\"\n"
          "bash -c \"$SETUP\"\n");
  ASSERT_TRUE(t.workload);
  EXPECT_TRUE(command_has(t,
                          "\nbash -c \": '[slurm2air] module load x'; python prep.py --out "
                          "/scratch/u/data\""))
      << t.workload->command;
  EXPECT_TRUE(command_has(t, "\nSETUP=\"module load x;")) << t.workload->command;
  EXPECT_FALSE(has_code(t, Code::shell_script_unread));
  // Reports inside the script point into the assignment that holds it.
  const size_t path =
      kHead.size() + std::string("SETUP=\"module load x; python prep.py --out ").size();
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::cluster_path) {
      EXPECT_EQ(d.span.begin, path);
    }
  }
  EXPECT_NE(messages_of(t, Code::cluster_path).find("/scratch/u/data"), std::string::npos);
}

TEST(ScriptVariables, AScriptThatCannotBeKnownIsReported) {
  // Set twice: which value runs depends on the run.
  const Translation twice =
      run("CMD='python a.py'\n[ -f x ] && CMD='python b.py'\nbash -c \"$CMD\"\n");
  EXPECT_NE(messages_of(twice, Code::shell_script_unread).find("`\"$CMD\"`, whose value is set"),
            std::string::npos);
  EXPECT_TRUE(command_has(twice, "\nbash -c \"$CMD\"")) << twice.workload->command;
  // Never set in the script.
  EXPECT_TRUE(has_code(run("bash -c \"${TRAIN_CMD}\"\n"), Code::shell_script_unread));
  // Unquoted: bash takes only the first word as the script.
  const Translation unquoted = run("CMD='python t.py'\nbash -c $CMD\n");
  EXPECT_NE(messages_of(unquoted, Code::shell_script_unread).find("unquoted"), std::string::npos);
  // Set for one command only (`CMD=x prog`), it is not the shell's variable.
  EXPECT_TRUE(
      has_code(run("CMD='python t.py' env\nbash -c \"$CMD\"\n"), Code::shell_script_unread));
}

TEST(RemovedStatements, ThatShareTheirLineSayWhatWasThereWithoutRunningIt) {
  const Translation t = run("module purge; module load cuda/12 && python t.py\n");
  EXPECT_TRUE(command_has(
      t, "\n: '[slurm2air] module purge'; : '[slurm2air] module load cuda/12' && python t.py\n"))
      << t.workload->command;
  // Quotes and substitutions in the removed text stay inert.
  const std::string marker = ::testing::TempDir() + "removed-statement-ran";
  std::remove(marker.c_str());
  const Translation quoted =
      run("module load 'it'\\''s/1' \"$(touch " + marker + ")\"; echo done\n");
  EXPECT_EQ(run_command(quoted), "done\n") << quoted.workload->command;
  EXPECT_NE(access(marker.c_str(), F_OK), 0) << "the removed statement's substitution ran";
}

TEST(Setup, ABlockLeftWithOnlyRemovedLinesKeepsACommand) {
  // `then`, `else` and a function body need a command once `module` is gone.
  const Translation t =
      run("if [ -n \"$GPU\" ]; then\n  module load cuda\n  module load nccl\nelse\n  echo cpu\nfi\n"
          "setup() {\n  conda activate base\n}\npython train.py\n");
  ASSERT_TRUE(t.workload.has_value());
  EXPECT_EQ(t.workload->command,
            "cd \"$CODE_SOURCE_PATH\"\n"
            "if [ -n \"$GPU\" ]; then\n  : # [slurm2air] module load cuda\n"
            "  # [slurm2air] module load nccl\nelse\n  echo cpu\nfi\n"
            "setup() {\n  : # [slurm2air] conda activate base\n}\npython train.py\n");
}

}  // namespace
}  // namespace s2a
