#!/bin/bash
# Submit one 2-node fine-tune per model size from a login node. Each job
# script is generated inline and fed to sbatch on stdin.

set -euo pipefail

declare -A NODES=( [1b]=1 [7b]=2 [13b]=4 )

for size in 1b 7b 13b; do
    n=${NODES[$size]}
    sbatch <<EOF
#!/bin/bash
#SBATCH --job-name=ft-${size}
#SBATCH --nodes=${n}
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=8
#SBATCH --time=4:00:00
#SBATCH --output=logs/ft-${size}-%j.out

source ~/venvs/ft/bin/activate
export MASTER_ADDR=\$(scontrol show hostnames "\$SLURM_JOB_NODELIST" | head -n 1)
srun torchrun --nnodes=\$SLURM_NNODES --nproc_per_node=8 \\
    --rdzv_backend=c10d --rdzv_endpoint=\$MASTER_ADDR:29500 \\
    finetune.py --model-size ${size}
EOF
done
