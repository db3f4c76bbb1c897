#!/usr/bin/env python3
"""Writes a deterministic benchmark corpus of sbatch scripts.

Either generates N realistic scripts from a seeded RNG (varied launchers,
setups, loops, functions, heredocs, sizes), or, with --from DIR, copies a
deterministic sample of N files from an existing tree of real scripts
(cycling through them when N is larger than the tree). The same arguments
always produce the same bytes, so benchmark runs are comparable.

    bench/generate_corpus.py --count 25000 --out /tmp/s2a-corpus
    bench/generate_corpus.py --count 25000 --from /work/jobspec-scripts --out /tmp/real
    bench/generate_corpus.py --stress --out /tmp/s2a-stress   # superlinearity inputs
"""
import argparse
import os
import random
import shutil
import sys

GPU_TYPES = ["a100", "h100", "v100", "a10", "l40s"]
MODULES = ["cuda/12.1", "cuda/11.8", "nccl/2.18", "gcc/11.3.0", "openmpi/4.1.5", "anaconda3",
           "python/3.10", "cudnn/8.9"]
SCRIPTS = ["train.py", "finetune.py", "pretrain.py", "run_clm.py", "main.py", "scripts/sft.py"]


def directives(rng, name):
    nodes = rng.choice([1, 1, 1, 2, 4, 8])
    gpus = rng.choice([1, 2, 4, 8])
    lines = [rng.choice(["#!/bin/bash", "#!/bin/bash -l", "#!/usr/bin/env bash"]),
             f"#SBATCH --job-name={name}",
             f"#SBATCH --nodes={nodes}"]
    style = rng.randrange(4)
    if style == 0:
        lines.append(f"#SBATCH --gpus-per-node={gpus}")
    elif style == 1:
        lines.append(f"#SBATCH --gres=gpu:{rng.choice(GPU_TYPES)}:{gpus}")
    elif style == 2:
        lines.append(f"#SBATCH --gpus={gpus * nodes}")
    else:
        lines.append(f"#SBATCH -G {gpus}")
    lines.append(f"#SBATCH --ntasks-per-node={rng.choice([1, gpus])}")
    lines.append(f"#SBATCH --cpus-per-task={rng.choice([4, 8, 16, 32])}")
    lines.append(f"#SBATCH --mem={rng.choice(['32G', '64G', '128G', '0'])}")
    lines.append(f"#SBATCH --time={rng.randrange(1, 48):02d}:{rng.randrange(60):02d}:00")
    for extra in rng.sample(["#SBATCH --partition=gpu", "#SBATCH --account=proj123",
                             "#SBATCH --output=logs/%x-%j.out", "#SBATCH --error=logs/%x-%j.err",
                             "#SBATCH --exclusive", "#SBATCH --constraint=a100",
                             "#SBATCH --mail-type=END,FAIL", "#SBATCH --mail-user=me@example.org",
                             "#SBATCH --array=0-15%4", "#SBATCH --qos=normal",
                             "#SBATCH --signal=USR1@90", "#SBATCH --requeue"],
                            rng.randrange(0, 7)):
        lines.append(extra)
    return lines, nodes, gpus


def setup(rng):
    lines = ["", rng.choice(["set -euo pipefail", "set -e", "set -x", ""])]
    style = rng.randrange(4)
    if style == 0:
        lines += ["module purge"] + [f"module load {m}" for m in rng.sample(MODULES, 3)]
        lines += ["source ~/venvs/train/bin/activate"]
    elif style == 1:
        lines += ['eval "$(conda shell.bash hook)"', f"conda activate env{rng.randrange(9)}"]
    elif style == 2:
        lines += ["export CONTAINER=/containers/pytorch-24.01.sif",
                  'export APPTAINER_BIND="$SCRATCH:/scratch"']
    else:
        lines += ["pip install -q -r requirements.txt"]
    lines += ["export NCCL_DEBUG=INFO", "export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-8}",
              'export HF_HOME="$SCRATCH/hf"', 'mkdir -p "logs" "$SCRATCH/runs/$SLURM_JOB_ID"',
              'echo "job $SLURM_JOB_ID on $(hostname) at $(date)"']
    return lines


def rendezvous(rng):
    return ['export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)',
            f"export MASTER_PORT=$((10000 + SLURM_JOB_ID % {rng.choice([20000, 50000])}))",
            "export WORLD_SIZE=$((SLURM_NNODES * SLURM_GPUS_ON_NODE))"]


def launch(rng, nodes, gpus):
    script = rng.choice(SCRIPTS)
    args = f"--config configs/{rng.choice(['sft', 'dpo', 'pretrain'])}.yaml --seed {rng.randrange(100)}"
    style = rng.randrange(7)
    if style == 0:
        return ["srun torchrun --nnodes=$SLURM_NNODES --nproc_per_node=%d \\" % gpus,
                "  --rdzv_id=$SLURM_JOB_ID --rdzv_backend=c10d \\",
                "  --rdzv_endpoint=$MASTER_ADDR:$MASTER_PORT \\",
                f"  {script} {args}"]
    if style == 1:
        return ["srun bash -c 'accelerate launch --num_processes=$((SLURM_NNODES * %d)) \\" % gpus,
                "  --num_machines=$SLURM_NNODES --machine_rank=$SLURM_PROCID \\",
                f"  --main_process_ip=$MASTER_ADDR {script} {args}'"]
    if style == 2:
        return ["deepspeed --num_gpus %d --num_nodes %d --hostfile hostfile \\" % (gpus, nodes),
                f"  {script} --deepspeed ds_config.json {args}"]
    if style == 3:
        return [f"mpirun -np $SLURM_NTASKS python {script} {args}"]
    if style == 4:
        return [f"srun python {script} {args}"]
    if style == 5:
        return ["srun --ntasks-per-node=%d apptainer exec --nv $CONTAINER \\" % gpus,
                f"  python {script} {args}"]
    return [f"python -m torch.distributed.run --nproc_per_node={gpus} {script} {args}"]


def filler(rng):
    """A block of the control flow real scripts use around the launch."""
    kind = rng.randrange(5)
    if kind == 0:
        n = rng.randrange(2, 9)
        return [f"for i in $(seq 0 {n}); do",
                '  echo "shard ${i}" >> "$SCRATCH/runs/$SLURM_JOB_ID/shards.txt"', "done"]
    if kind == 1:
        return ['if [ "${SLURM_ARRAY_TASK_ID:-0}" -eq 0 ]; then',
                '  cp -r configs "$SCRATCH/runs/$SLURM_JOB_ID/"', "else",
                '  sleep $((SLURM_ARRAY_TASK_ID * 2))', "fi"]
    if kind == 2:
        return ['case "$MODE" in', "  train) STEPS=1000 ;;", "  eval) STEPS=10 ;;",
                '  *) echo "unknown mode $MODE" >&2; exit 1 ;;', "esac"]
    if kind == 3:
        return ["log() {", '  echo "[$(date +%H:%M:%S)] $*"', "}", 'log "starting"']
    return ["cat > hostfile <<EOF", "$(scontrol show hostnames)", "EOF",
            'nvidia-smi --query-gpu=name,memory.total --format=csv || true']


def generate_script(rng, index):
    name = f"job{index:05d}-{rng.choice(['llama', 'bert', 'vit', 'gpt', 'sd'])}"
    lines, nodes, gpus = directives(rng, name)
    lines += setup(rng)
    if nodes > 1 or rng.random() < 0.5:
        lines += rendezvous(rng)
    # Sizes: most scripts are short, a few are long (a long tail like real trees).
    blocks = rng.choice([0, 1, 1, 2, 3, 5, 8, 20, 60])
    for _ in range(blocks):
        lines += filler(rng)
    lines += launch(rng, nodes, gpus)
    lines += ['echo "done: $?"']
    return "\n".join(lines) + "\n"


def write_generated(count, seed, out):
    rng = random.Random(seed)
    for i in range(count):
        sub = os.path.join(out, f"{i // 1000:03d}")
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"job{i:05d}.sbatch"), "w") as f:
            f.write(generate_script(rng, i))


def copy_sample(count, seed, source, out):
    names = sorted(n for n in os.listdir(source) if os.path.isfile(os.path.join(source, n)))
    if not names:
        sys.exit(f"{source}: no files")
    rng = random.Random(seed)
    order = names[:]
    rng.shuffle(order)
    for i in range(count):
        sub = os.path.join(out, f"{i // 1000:03d}")
        os.makedirs(sub, exist_ok=True)
        shutil.copyfile(os.path.join(source, order[i % len(order)]),
                        os.path.join(sub, f"script{i:05d}.sh"))


def mixed_script(target):
    """About `target` bytes of distinct generated jobs after one multi-node
    header, each exporting its own token: a script that grows in everything
    a rule may count (functions, steps, variables, secrets), not in copies
    of one body. Seeded apart from the corpus, so it does not change it."""
    rng = random.Random(11)
    parts = ["#!/bin/bash\n#SBATCH --nodes=4\n#SBATCH --gpus-per-node=8\n"]
    size = len(parts[0])
    index = 0
    while size < target:
        token = "".join(rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
                        for _ in range(34))
        job = (f"export HF_TOKEN=hf_{token}\n" +
               "".join(generate_script(rng, index).splitlines(keepends=True)[1:]))
        parts.append(job)
        size += len(job)
        index += 1
    return "".join(parts)


def write_stress(out, big_sizes):
    """Inputs for the superlinearity check, each at three sizes."""
    os.makedirs(out, exist_ok=True)
    rng = random.Random(7)
    typical = generate_script(rng, 0)
    body = "".join(typical.splitlines(keepends=True)[12:])
    header = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=8\n"
    for mb in big_sizes:  # a huge script
        target = int(mb * (1 << 20))
        copies = target // len(body) + 1
        with open(os.path.join(out, f"big-{mb:g}mb.sh"), "w") as f:
            f.write(header + body * copies + "srun python train.py\n")
        with open(os.path.join(out, f"mixed-{mb:g}mb.sh"), "w") as f:
            f.write(mixed_script(target))
    for kb in (64, 256, 1024):  # one long line: a command with many arguments
        words = " ".join(f"--arg{i}=value{i}" for i in range(kb * 1024 // 16))
        with open(os.path.join(out, f"longline-{kb}kb.sh"), "w") as f:
            f.write(header + "python train.py " + words[: kb * 1024] + "\n")
    for kb in (64, 256, 1024):  # paths on the cluster's storage, each cd checked against all
        with open(os.path.join(out, f"paths-{kb}kb.sh"), "w") as f:
            f.write(header + "set -e\n")
            for i in range(kb * 1024 // 80):
                f.write(f"cd /scratch/u/run{i}\npython train.py --data /gpfs/data/set{i}\n")
    for n in (1000, 10000, 100000):  # one command continued over n lines
        with open(os.path.join(out, f"continuation-{n}.sh"), "w") as f:
            f.write(header + "srun python train.py \\\n" +
                    "".join(f"  --option{i}=value{i} \\\n" for i in range(n)) + "  --last\n")
    for depth in (50, 100, 190):  # nesting below the parser's depth limit (200)
        # Repeated so each file has enough bytes to time; depth is what varies.
        block = ("if true; then\n" * depth + "  echo deep\n" + "fi\n" * depth +
                 "echo $(echo " * depth + "x" + ")" * depth + "\n")
        with open(os.path.join(out, f"nesting-{depth}.sh"), "w") as f:
            f.write(header + block * (20000 // depth) + "srun python train.py\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="output directory (created)")
    parser.add_argument("--count", type=int, default=1000, help="number of scripts")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--from", dest="source", help="sample real scripts from this directory")
    parser.add_argument("--stress", action="store_true", help="write the superlinearity inputs")
    parser.add_argument("--big-mb", default="1,4,16",
                        help="sizes in MB of the huge-script inputs (e.g. 0.25,2,10,50)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.stress:
        write_stress(args.out, [float(x) for x in args.big_mb.split(",")])
    elif args.source:
        copy_sample(args.count, args.seed, args.source, args.out)
    else:
        write_generated(args.count, args.seed, args.out)


if __name__ == "__main__":
    main()
