#!/bin/bash
cd "$CODE_SOURCE_PATH"
requeue_handler() {
    touch "$CKPT_DIR/SAVE_NOW"
    sleep 120
    scontrol requeue "$SLURM_JOB_ID"
}
trap requeue_handler USR1

CKPT_DIR=/Volumes/main/ml/ckpt/pt-1b
torchrun --nnodes="$NUM_NODES" --nproc_per_node="${LOCAL_WORLD_SIZE:-8}" \
    --rdzv_backend=c10d --rdzv_endpoint="$MASTER_ADDR:$MASTER_PORT" \
    pretrain.py --ckpt-dir "$CKPT_DIR" --resume latest &
wait
