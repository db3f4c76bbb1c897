#!/bin/bash
cd "$CODE_SOURCE_PATH"
# Slurm array element: the for_each_task names this MLflow run <job run id>_<index>
run_name=$(python -c 'import os, mlflow; print(mlflow.get_run(os.environ["MLFLOW_RUN_ID"]).info.run_name)')
export SLURM_ARRAY_JOB_ID="${run_name%_*}" SLURM_ARRAY_TASK_ID="${run_name##*_}"
case "$SLURM_ARRAY_TASK_ID" in ''|*[!0-9]*) echo "no array index for this run" >&2; exit 2;; esac
export SLURM_ARRAY_TASK_COUNT=5 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=8 SLURM_ARRAY_TASK_STEP=2
echo "task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT ($SLURM_ARRAY_TASK_MIN-$SLURM_ARRAY_TASK_MAX)"
python train.py --seed "$SLURM_ARRAY_TASK_ID" --out "runs/$SLURM_ARRAY_JOB_ID/$SLURM_ARRAY_TASK_ID"
