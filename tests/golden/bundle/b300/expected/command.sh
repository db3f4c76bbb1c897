#!/bin/bash
cd "$CODE_SOURCE_PATH"
torchrun --node_rank="$NODE_RANK" --master_addr="$MASTER_ADDR" --master_port="$MASTER_PORT" --nnodes="$NUM_NODES" --nproc_per_node="${LOCAL_WORLD_SIZE:-8}" train.py
