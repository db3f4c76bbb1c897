// Loads the benchmark inputs once; see bench_inputs.hpp.
#include "bench_inputs.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace s2a::bench {
namespace {

size_t count_lines(const std::string& text) {
  size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  return (!text.empty() && text.back() != '\n') ? lines + 1 : lines;
}

std::vector<Input> load_directory(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> paths;
  std::error_code error;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root, error)) {
    if (entry.is_regular_file(error) && entry.path().extension() != ".md" &&
        entry.path().extension() != ".tsv") {
      paths.push_back(entry.path());
    }
  }
  std::sort(paths.begin(), paths.end());
  std::vector<Input> inputs;
  for (const auto& path : paths) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    Input input{path.filename().string(), text.str(), 0};
    input.lines = count_lines(input.text);
    inputs.push_back(std::move(input));
  }
  return inputs;
}

// Lines as they appear in real training scripts; the body block repeats.
constexpr const char* kHeader =
    "#!/bin/bash\n"
    "#SBATCH --job-name=llama-sft\n"
    "#SBATCH --nodes=2\n"
    "#SBATCH --ntasks-per-node=1\n"
    "#SBATCH --gpus-per-node=8\n"
    "#SBATCH --cpus-per-task=96\n"
    "#SBATCH --time=2-00:00:00\n"
    "#SBATCH --output=logs/%x-%j.out\n"
    "set -euo pipefail\n"
    "module load cuda/12.1 nccl\n"
    "source ~/venvs/train/bin/activate\n";

constexpr const char* kBody =
    "export MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n"
    "export MASTER_PORT=$((10000 + SLURM_JOB_ID % 50000))\n"
    "if [ \"$SLURM_PROCID\" -eq 0 ]; then\n  echo \"head on $(hostname)\"\nfi\n"
    "for i in $(seq 1 4); do\n  echo \"shard ${i} of ${#shards[@]}\" >> \"$LOG_DIR/shards.txt\"\n"
    "done\n"
    "case \"$MODE\" in\n  train) STEPS=1000 ;;\n  *) STEPS=10 ;;\nesac\n";

constexpr const char* kLaunch =
    "srun torchrun --nnodes=$SLURM_NNODES --nproc_per_node=8 --rdzv_backend=c10d \\\n"
    "  --rdzv_endpoint=$MASTER_ADDR:$MASTER_PORT train.py --config configs/sft.yaml \\\n"
    "  --output_dir \"$SCRATCH/runs/$SLURM_JOB_ID\"\n";

}  // namespace

const std::vector<Input>& corpus_inputs() {
  static const std::vector<Input> inputs = [] {
    const char* override_dir = std::getenv("SLURM2AIR_BENCH_CORPUS");
    return load_directory(override_dir != nullptr
                              ? std::filesystem::path(override_dir)
                              : std::filesystem::path(SLURM2AIR_SOURCE_DIR) / "corpus");
  }();
  return inputs;
}

Input synthetic_script(size_t lines) {
  Input input{"synthetic-" + std::to_string(lines) + ".sbatch", kHeader, 0};
  const size_t body_lines = count_lines(kBody);
  for (size_t have = count_lines(input.text); have + 3 < lines; have += body_lines) {
    input.text += kBody;
  }
  input.text += kLaunch;
  input.lines = count_lines(input.text);
  return input;
}

size_t total_lines(const std::vector<Input>& inputs) {
  size_t lines = 0;
  for (const Input& input : inputs) lines += input.lines;
  return lines;
}

}  // namespace s2a::bench
