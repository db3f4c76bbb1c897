// No secret value may appear in any output: the YAML, the text and JSON
// reports, inspect JSON and the CLI's stderr (with -v). Every input of the
// repository (corpus, goldens) goes through every path, plus scripts that
// carry credentials in each supported spelling.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "emit/inspect.hpp"
#include "emit/report.hpp"
#include "support/run_process.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

namespace fs = std::filesystem;

struct SecretScript {
  std::string name;
  std::string text;
  std::vector<std::string> secrets;  // values that must never be printed
};

std::vector<SecretScript> secret_scripts() {
  const std::string head = "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n";
  return {
      {"export-token",
       head + "export HF_TOKEN=hf_LEAKleakLEAKleakLEAKleak01\npython t.py\n",
       {"hf_LEAKleakLEAKleakLEAKleak01"}},
      {"export-default",
       head + "export WANDB_API_KEY=${WANDB_API_KEY:-LEAK0000leak0000LEAK}\npython t.py\n",
       {"LEAK0000leak0000LEAK"}},
      {"export-directive",
       head + "#SBATCH --export=ALL,HF_TOKEN=hf_DirectiveLEAK0123456789,NCCL_DEBUG=INFO\npython "
              "t.py\n",
       {"hf_DirectiveLEAK0123456789"}},
      {"aws",
       head + "export AWS_ACCESS_KEY_ID=AKIALEAKLEAKLEAK0001\nexport "
              "AWS_SECRET_ACCESS_KEY=LeakLeakLeakLeak/Secret+Key\nsrun python t.py\n",
       {"AKIALEAKLEAKLEAK0001", "LeakLeakLeakLeak/Secret+Key"}},
      {"password", head + "export DB_PASSWORD='p@ss LEAK word'\npython t.py\n", {"p@ss LEAK word"}},
      // Not UTF-8 (Latin-1 "ä"): masked before the invalid byte becomes U+FFFD.
      {"password-latin1",
       head + "export DB_PASSWORD='p\xe4ss LEAK wort'\npython t.py\n",
       {"ss LEAK wort"}},
      {"inline-prefix",
       head + "GITHUB_TOKEN=ghp_LEAKLEAKLEAKLEAKLEAK0000 python t.py\n",
       {"ghp_LEAKLEAKLEAKLEAKLEAK0000"}},
      {"hf-login",
       head + "huggingface-cli login --token hf_LoginLEAK000000000000000\npython t.py\n",
       {"hf_LoginLEAK000000000000000"}},
      {"wandb-login",
       head + "wandb login LEAKwandbLEAKwandbLEAKwandb00\npython t.py\n",
       {"LEAKwandbLEAKwandbLEAKwandb00"}},
      {"flag",
       head + "srun python t.py --hf_token=hf_FlagLEAK0000000000000000 --lr 1e-4\n",
       {"hf_FlagLEAK0000000000000000"}},
      // Comments the command keeps: masked, not turned into secrets.
      {"comment",
       head + "module load cuda\n# export HF_TOKEN=hf_CommentLEAK0000000000000\n"
              "# export WANDB_API_KEY=5c0mment1eak0f4key00000000000000000000ab\n"
              "python t.py  # my key: sk-CommentLEAKsk00000000000\n",
       {"hf_CommentLEAK0000000000000", "5c0mment1eak0f4key00000000000000000000ab",
        "sk-CommentLEAKsk00000000000"}},
      // NAME=VALUE handed to another program: mpirun -x, env, docker -e.
      {"exported-by-a-program",
       head + "mpirun -np 8 -x WANDB_API_KEY=LeakMpiLeakMpiLeak0001 -x NCCL_DEBUG=INFO python "
              "t.py\nenv HF_TOKEN=EnvLeakEnvLeak0002 python t.py\n"
              "docker run -e DB_PASSWORD=DockerLeak0003 img\n",
       {"LeakMpiLeakMpiLeak0001", "EnvLeakEnvLeak0002", "DockerLeak0003"}},
      {"url-password",
       head + "pip install git+https://me:LEAKurlPASS0000@git.example.com/x.git\npython t.py\n",
       {"LEAKurlPASS0000"}},
      {"url-query",
       head + "wget \"https://data.example.com/a.tgz?token=LEAKquery0000&x=1\"\npython t.py\n",
       {"LEAKquery0000"}},
      {"docker-login",
       head + "echo LEAKdockerPAT0000 | docker login -u me --password-stdin nvcr.io\npython t.py\n",
       {"LEAKdockerPAT0000"}},
      {"nested",
       head +
           "#SBATCH -N2\nsrun bash -c 'export HF_TOKEN=hf_NestedLEAK00000000000000; python t.py'\n",
       {"hf_NestedLEAK00000000000000"}},
      {"in-function",
       head +
           "setup() {\n  export OPENAI_API_KEY=sk-FunctionLEAK0000000000\n}\nsetup\npython t.py\n",
       {"sk-FunctionLEAK0000000000"}},
  };
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<SecretScript> repository_inputs() {
  std::vector<SecretScript> out;
  const fs::path root(SLURM2AIR_SOURCE_DIR);
  for (const char* dir : {"corpus", "tests/golden"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
      const fs::path& p = entry.path();
      if (p.extension() == ".sbatch") out.push_back({p.string(), read(p), {}});
    }
  }
  return out;
}

/// Every output of one translation, as the CLI would print it.
std::vector<std::pair<std::string, std::string>> outputs(const Translation& t) {
  const emit::ReportInput input{*t.file, t.diagnostics, t.redactions};
  return {{"yaml", t.yaml},
          {"text report", emit::render_text(input)},
          {"json report", emit::render_json(input, 1)},
          {"inspect", emit::render_inspect_json(t)}};
}

void expect_no_leak(const std::string& name, const Translation& t,
                    std::vector<std::string> secrets) {
  for (Span span : t.redactions) {
    if (span.size() >= 4) secrets.emplace_back(t.file->slice(span));
  }
  for (const auto& [what, text] : outputs(t)) {
    for (const std::string& secret : secrets) {
      EXPECT_EQ(text.find(secret), std::string::npos)
          << name << ": the " << what << " shows a secret value";
    }
  }
}

TEST(NoSecretLeak, SecretBearingScriptsThroughEveryOutput) {
  for (const SecretScript& s : secret_scripts()) {
    for (const char* target : {"cli-1.19", "cli-1.20"}) {
      TranslateOptions options;
      options.target_schema = target;
      const Translation t = translate(s.name + ".sbatch", s.text, options);
      EXPECT_TRUE(t.workload) << s.name;
      EXPECT_FALSE(t.redactions.empty()) << s.name << ": no secret found";
      expect_no_leak(s.name, t, s.secrets);
      const bool reported =
          std::any_of(t.diagnostics.begin(), t.diagnostics.end(), [](const Diagnostic& d) {
            return (d.code == Code::secret_in_script || d.code == Code::secret_in_comment) &&
                   d.severity() == Severity::error;
          });
      EXPECT_TRUE(reported) << s.name;
    }
  }
}

TEST(NoSecretLeak, EveryRepositoryInputThroughEveryOutput) {
  const auto inputs = repository_inputs();
  EXPECT_GT(inputs.size(), 60u);
  for (const SecretScript& s : inputs) {
    const Translation t = translate(s.name, s.text);
    expect_no_leak(s.name, t, {});
  }
}

TEST(NoSecretLeak, TheCommandLineNeverPrintsThem) {
  const fs::path dir = fs::temp_directory_path() / "slurm2air-no-leak";
  fs::create_directories(dir);
  for (const SecretScript& s : secret_scripts()) {
    std::ofstream(dir / "job.sbatch", std::ios::binary) << s.text;
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"job.sbatch", "-v"},
          std::vector<std::string>{"job.sbatch", "--report-format", "json"},
          std::vector<std::string>{"inspect", "job.sbatch"}}) {
      const auto result = testing::run_process(SLURM2AIR_BINARY, args, dir.string());
      for (const std::string& secret : s.secrets) {
        EXPECT_EQ(result.out.find(secret), std::string::npos) << s.name << " stdout";
        EXPECT_EQ(result.err.find(secret), std::string::npos) << s.name << " stderr";
      }
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace s2a
