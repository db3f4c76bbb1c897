#!/bin/bash
cd "$CODE_SOURCE_PATH"
torchrun --nnodes="$NUM_NODES" --nproc_per_node="${LOCAL_WORLD_SIZE:-8}" \
    --rdzv_backend=c10d --rdzv_endpoint="$MASTER_ADDR:$MASTER_PORT" train.py
