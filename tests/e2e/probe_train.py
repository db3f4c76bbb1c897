"""A tiny distributed training program for slurm2air's end-to-end tests.

It joins a gloo process group the way the launch style under test expects,
trains a 4-parameter linear model for a few steps with DistributedDataParallel,
checks that every rank ends with the same weights, and writes what it saw
(rank, local rank, world size, all_reduce result) to $S2A_PROBE_DIR/rank-N.json.

--rank-from env   : RANK/LOCAL_RANK/WORLD_SIZE from the launcher (torchrun,
                    torch.distributed.launch, accelerate); init_method env://
--rank-from slurm : SLURM_PROCID/SLURM_LOCALID/SLURM_NTASKS, as a program
                    written for `srun python train.py` reads them; init_method
                    tcp://$MASTER_ADDR:$MASTER_PORT
"""
import argparse
import json
import os
import socket
import sys

import torch
import torch.distributed as dist


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rank-from", choices=["env", "slurm"], default="env")
    parser.add_argument("--steps", type=int, default=3)
    # torch.distributed.launch passes --local_rank (1.13) or --local-rank (2.x).
    parser.add_argument("--local_rank", "--local-rank", dest="local_rank_arg", type=int)
    return parser.parse_args()


def identity(args):
    env = os.environ
    if args.rank_from == "slurm":
        return int(env["SLURM_PROCID"]), int(env["SLURM_LOCALID"]), int(env["SLURM_NTASKS"])
    local_rank = env.get("LOCAL_RANK")
    if local_rank is None and args.local_rank_arg is not None:
        local_rank = args.local_rank_arg
    return int(env["RANK"]), int(local_rank), int(env["WORLD_SIZE"])


def join_group(args, rank, world_size):
    if args.rank_from == "slurm":
        address = "tcp://{}:{}".format(os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"])
        dist.init_process_group("gloo", init_method=address, rank=rank, world_size=world_size)
    else:
        dist.init_process_group("gloo", init_method="env://")


def train(steps, rank):
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(3, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    generator = torch.Generator().manual_seed(1000 + rank)  # each rank its own data
    for _ in range(steps):
        inputs = torch.randn(8, 3, generator=generator)
        loss = (model(inputs) - inputs.sum(dim=1, keepdim=True)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()  # DDP averages the gradients over all ranks
        optimizer.step()
    return torch.cat([p.detach().flatten() for p in model.parameters()])


def main():
    args = parse_args()
    rank, local_rank, world_size = identity(args)
    join_group(args, rank, world_size)
    total = torch.tensor([float(rank + 1)])
    dist.all_reduce(total)
    weights = train(args.steps, rank)
    gathered = [torch.zeros_like(weights) for _ in range(world_size)]
    dist.all_gather(gathered, weights)
    in_sync = all(torch.equal(weights, other) for other in gathered)
    report = {
        "rank": rank,
        "local_rank": local_rank,
        "world_size": world_size,
        "group_rank": dist.get_rank(),
        "group_size": dist.get_world_size(),
        "node_rank": int(os.environ.get("NODE_RANK", "-1")),
        "all_reduce_sum": total.item(),
        "weights_in_sync": in_sync,
        "host": socket.gethostname(),
    }
    out_dir = os.environ.get("S2A_PROBE_DIR", ".")
    with open(os.path.join(out_dir, "rank-{}.json".format(rank)), "w") as out:
        json.dump(report, out, sort_keys=True)
    print("probe rank {}/{} local {}: all_reduce={} in_sync={}".format(
        rank, world_size, local_rank, total.item(), in_sync), flush=True)
    dist.barrier()
    dist.destroy_process_group()
    return 0 if in_sync else 1


if __name__ == "__main__":
    sys.exit(main())
