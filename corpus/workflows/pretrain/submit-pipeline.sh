#!/bin/bash
# Driver: run on the LOGIN node, not with sbatch.
#   ./submit-pipeline.sh [n_train_segments]
# preprocess -> N chained training segments -> eval

set -euo pipefail
cd "$(dirname "$0")"
mkdir -p logs

N_SEGMENTS=${1:-3}

jid=$(sbatch --parsable 01-preprocess.sbatch)
echo "preprocess: $jid"

# each training segment continues from the previous one's checkpoint
for ((i = 1; i <= N_SEGMENTS; i++)); do
    jid=$(sbatch --parsable --dependency=afterok:$jid 02-pretrain.sbatch)
    echo "train segment $i: $jid"
done

eval_jid=$(sbatch --parsable --dependency=afterok:${jid%%;*} 03-eval.sbatch)
echo "eval: $eval_jid"

squeue -u "$USER" -o "%.10i %.20j %.8T %.20E"
