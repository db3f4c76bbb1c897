#!/bin/bash
cd "$CODE_SOURCE_PATH"
# [slurm2air] export WANDB_PROJECT=dit-pretrain
# [slurm2air] export WANDB_API_KEY=<secrets.WANDB_API_KEY>
# [slurm2air] export NCCL_IB_TIMEOUT=22

torchrun --nnodes="$NUM_NODES" --node_rank="$NODE_RANK" --nproc_per_node="$LOCAL_WORLD_SIZE" --master_addr="$MASTER_ADDR" --master_port="$MASTER_PORT" --no_python bash -c 'export SLURM_PROCID="$RANK" SLURM_LOCALID="$LOCAL_RANK" SLURM_NTASKS="$WORLD_SIZE" SLURM_NPROCS="$WORLD_SIZE" SLURM_NTASKS_PER_NODE="$LOCAL_WORLD_SIZE" SLURM_NODEID="$GROUP_RANK" SLURM_NNODES="$NUM_NODES" SLURM_JOB_NUM_NODES="$NUM_NODES" SLURM_GPUS_ON_NODE=8; exec "$@"' slurm-task python examples/dit/pretrain.py \
    trainer.num_nodes=$NUM_NODES trainer.devices=8 \
    model.data.path=/data/dit
