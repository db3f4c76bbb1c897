#!/bin/bash
cd "$CODE_SOURCE_PATH"
STEP=$(cat /Volumes/main/ml/ckpt/latest 2>/dev/null || echo 0)
if (( STEP >= 150000 )); then
    exit 0
fi
next=$(sbatch --parsable --dependency=afterany:$SLURM_JOB_ID "$0")
echo "queued continuation $next"
python train.py --resume latest
