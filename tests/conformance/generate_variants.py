#!/usr/bin/env python3
"""Generates the conformance corpus: a few hundred small sbatch scripts.

Each variant is a complete script (#!/bin/bash, directive lines, `srun
hostname`) probing one reading rule of spec/slurm-sbatch.md §1, §2, §7:
spellings, quoting, comments, last-one-wins, the scan stop, time, GPU and
memory grammars, arrays, dependencies, exclusive pairs, unknown options.
Output is deterministic; file names are stable (category + slug + content
hash), so the committed oracle stays keyed across runs.
"""

import argparse
import hashlib
import json
import os
import re
import shutil

DEP = "@DEPJOB@"  # replaced by the id of a held job the harness creates first


class Corpus:
    def __init__(self):
        self.variants = []  # (name, category, text-with-placeholder)
        self.names = set()

    def add(self, category, directives, body=None, raw=None, note=None):
        """directives: lines after the shebang; body: lines after them."""
        if raw is None:
            lines = ["#!/bin/bash"] + list(directives) + list(body or ["srun hostname"])
            raw = "\n".join(lines) + "\n"
        digest = hashlib.sha1(raw.encode()).hexdigest()[:6]
        slug_src = " ".join(directives) if directives else "raw"
        slug = re.sub(r"[^A-Za-z0-9]+", "_", slug_src.replace("#SBATCH", "")).strip("_")[:40]
        name = "%s-%s-%s.sh" % (category, slug or "empty", digest)
        if name in self.names:
            return
        self.names.add(name)
        self.variants.append({"name": name, "category": category, "text": raw, "note": note})


def sb(*words):
    return "#SBATCH " + " ".join(words)


def spellings(short, long_name, value, prefix=None):
    """The equivalent ways to write one required-argument option."""
    forms = ["--%s=%s" % (long_name, value), "--%s %s" % (long_name, value)]
    if short:
        forms += ["-%s %s" % (short, value), "-%s%s" % (short, value)]
    if prefix:
        forms.append("--%s=%s" % (prefix, value))
    return forms


def add_spellings(c):
    c.add("baseline", [])
    table = [
        ("N", "nodes", "2", "nod"), ("N", "nodes", "3", "node"), (None, "nodes", "4", "nodes"),
        ("n", "ntasks", "16", "ntask"), ("c", "cpus-per-task", "12", "cpus-per-t"),
        ("p", "partition", "gpu-h100", "part"), ("p", "partition", "cpu", "parti"),
        ("J", "job-name", "llama-sft", "job"), ("t", "time", "2:00:00", "tim"),
        (None, "ntasks-per-node", "8", "ntasks-per-n"), (None, "tasks-per-node", "4", None),
        ("C", "constraint", "h100", "constr"), ("A", "account", "ml-team", "acc"),
        ("G", "gpus", "4", None), (None, "gpus-per-node", "h100:8", "gpus-per-n"),
        (None, "gres", "gpu:4", "gre"), (None, "mem", "64G", None),
        (None, "mem-per-cpu", "4G", "mem-per-c"), ("a", "array", "0-7", "arr"),
        ("d", "dependency", "singleton", "depend"), (None, "mail-type", "END", "mail-t"),
        (None, "mail-user", "ml@example.com", "mail-u"), (None, "comment", "hello", "comm"),
        (None, "gpus-per-task", "1", None),
    ]
    for short, long_name, value, prefix in table:
        for form in spellings(short, long_name, value, prefix):
            extra = ["-n 8"] if long_name == "gpus-per-task" else []
            c.add("spelling", [sb(form, *extra)])
    odd = ["-N=2", "-N2n16", "--nodes", "-N", "--nodes=", "--ntasks-per=4", "--mem-per=4G",
           "--gpu=1", "--cpus=4", "--no-requeue=1", "--hold", "-H", "--ntasks=-1",
           "--ntasks=0", "--ntasks=4k", "--cpus-per-task=0", "--ntasks-per-node=0",
           "-N 2 -n 8 --ntasks-per-node=4", "-N2 -n16 -c12 -t60"]
    for form in odd:
        c.add("spelling", [sb(form)])


def add_quoting(c):
    cases = [
        '--job-name="a b"', "--job-name='x'", '--job-name=foo"bar baz"qux',
        "--job-name=a\\ b", '--job-name="echo \\"hi\\""', "--job-name='it\"s'",
        '--job-name="it\'s"', "--job-name=\"abc", "--job-name='abc", "--job-name=a\\#b",
        '--job-name="a#b"', "--job-name=a#b", "--job-name=$USER", "--job-name=${SLURM_JOB_ID}",
        "--job-name=~", "--job-name=$(date)", "-J :x", "-J x:y", "--comment=foo#bar",
        '--comment="foo#bar"', "--comment='a b c'", "--comment=a\\ b\\ c",
        "--time=10 # ten minutes", "--time=10# ten", "# -N 4", "-N 2 # -N 4",
        "--job-name=\\\"q\\\"", "--job-name=\"\"", "-J ''",
    ]
    for case in cases:
        c.add("quoting", [sb(case)])
    raw_lines = ["#SBATCH--time=5", "#SBATCH\t-N 2", "#SBATCH  -N 2  ", "#SBATCH -N 2\t-n 4",
                 "#SBATCH", "#SBATCH ", "#SBATCHX -N 2", "#SBATCH_FOO=1", "#SBATCH -N 2 extra",
                 "#SBATCH -- -N 2", "#SBATCH -N 2 -- foo"]
    for line in raw_lines:
        c.add("quoting", [line])


def add_scan(c):
    c.add("scan", [sb("-N 2"), sb("-N 4")], note="last wins across lines")
    c.add("scan", [sb("-N 2 -N 4")], note="last wins on one line")
    c.add("scan", [sb("--time=10"), sb("--time=20")])
    c.add("scan", [sb("--gres=gpu:2"), sb("--gres=gpu:4")])
    c.add("scan", [sb("-J a -J b")])
    c.add("scan", [sb("--mail-type=END"), sb("--mail-type=FAIL")])
    c.add("scan", [sb("--requeue"), sb("--no-requeue")])
    c.add("scan", [sb("--no-requeue"), sb("--requeue")])
    c.add("scan", [sb("--constraint=a100"), sb("--constraint=h100")])
    c.add("scan", [sb("-p cpu"), sb("--partition=gpu-a100")])
    c.add("scan", [sb("--gpus-per-node=4"), sb("--gpus-per-node=h100:8")])
    c.add("scan", [sb("--ntasks=4"), sb("--ntasks=8"), sb("--ntasks=2")])
    c.add("scan", [sb("-N 2"), "echo hi", sb("-N 4")], body=["srun hostname"],
          note="directive after a command is ignored")
    for command in ["set -e", "export X=1", "module load cuda", "source env.sh", "X=1",
                    "f() { :; }", "cd /tmp", ":"]:
        c.add("scan", [sb("-N 2"), command, sb("-N 4"), sb("--time=30")])
    c.add("scan", [sb("-N 2"), "", sb("-t 30")])
    c.add("scan", [sb("-N 2"), "# a comment", "", "   ", sb("-t 30")])
    c.add("scan", [sb("-N 2"), "\t", sb("-t 30")])
    c.add("scan", ["  " + sb("-N 4"), sb("-t 30")])
    c.add("scan", ["\t" + sb("-N 4")])
    c.add("scan", ["# SBATCH -N 4", sb("-t 30")])
    c.add("scan", ["##SBATCH -N 4", sb("-t 30")])
    c.add("scan", ["#sbatch -N 4", sb("-t 30")])
    c.add("scan", ["#Sbatch -N 4"])
    c.add("scan", ["#SLURM -N 3"])
    c.add("scan", ["#SLURM -N 3", sb("-t 30")])
    c.add("scan", ["#SLURM_JOB_ID is set by slurm"])
    c.add("scan", ["#SLURMX -N 3"])
    c.add("scan", [sb("-N 2"), "if true; then", sb("-N 4"), "fi"])
    c.add("scan", [sb("-N 2"), "cat <<EOF", sb("-N 4"), "EOF"])
    c.add("scan", [sb("-J first"), sb("hetjob"), sb("-J second")],
          note="heterogeneous job: first component read")
    c.add("scan", [sb("-J first"), sb("hetjob -N 2")])
    c.add("scan", [sb("-J first"), sb("hetjobx")])
    c.add("scan", [sb("--wrap=hostname -N 2")], note="--wrap ignored in a script")
    c.add("scan", [sb("-v -N 2")])
    c.add("scan", [sb("--quiet -N 2")])
    c.add("scan", [sb("--version")])
    c.add("scan", [sb("--help")])
    c.add("scan", [sb("--usage")])
    c.add("scan", ["#PBS -N pbsname", sb("-J sbatchname")])
    c.add("scan", ["#PBS -l walltime=01:00:00", sb("-t 30")])
    c.add("scan", [sb("--ignore-pbs"), "#PBS -N pbsname", sb("-J sbatchname")])
    # #PBS translation (spec 1.6): what slurm2air maps must match sbatch's reading.
    for pbs in ("-l nodes=2:ppn=4", "-l nodes=2:ppn=4:gpus=2", "-l nodes=3",
                "-l walltime=2:30:00,mem=4gb", "-l select=2:ncpus=8:mpiprocs=4",
                "-l naccelerators=2", "-l ncpus=4", "-l pmem=2gb", "-q cpu", "-A acct1",
                "-m abe", "-m n", "-M someone@example.com", "-J 0-3", "-t 1-5%2",
                "-o pbs.out -e pbs.err", "-N pbs -j oe", "-V", "-W depend=afterany:" + DEP):
        c.add("pbs", ["#PBS " + pbs, sb("-N 1 -t 10")])
    c.add("pbs", ["#PBS -l nodes=2", "#BSUB -J bsubname", sb("-t 10")])
    for bsub in ("-J bsubname", "-W 30", "-W 1:30", "-n 4", "-n 2,6", "-q cpu", "-x",
                 "-M 2000000", "-o bsub.out"):
        c.add("bsub", ["#BSUB " + bsub, sb("-t 10")])
    # Whole-file rules (§1.1).
    c.add("scan", [], raw=" #!/bin/bash\n#SBATCH -N 2\nsrun hostname\n")
    c.add("scan", [], raw="\n#!/bin/bash\n#SBATCH -N 2\nsrun hostname\n")
    c.add("scan", [], raw="#!/bin/bash\r\n#SBATCH -N 2\r\nsrun hostname\r\n")
    c.add("scan", [], raw="\ufeff#!/bin/bash\n#SBATCH -N 2\nsrun hostname\n")
    c.add("scan", [], raw="#!/bin/sh\n#SBATCH -N 2\nsrun hostname\n")
    c.add("scan", [], raw="#!/bin/bash\n#SBATCH -N 2")
    c.add("scan", [], raw="#!/bin/bash\n#SBATCH -N 2\n#SBATCH -t 5")


def add_time(c):
    good = ["30", "90", "0", "1", "59", "61", "90:30", "0:30", "0:59", "1:00", "1:30:00",
            "1:00:01", "0:90:00", "24:00:00", "100:00:00", "2-12", "2-0", "3-", "2-12:30",
            "1-00:00:00", "0-0:0:1", "7-00:00:00", "1-2:3:4", "UNLIMITED", "unlimited",
            "INFINITE", "Infinite", "-1", "100000", "0:0:0", "00:00:30"]
    bad = ["2h", "1:2:3:4", "1-2-3", "1:-2", "abc", "1.5", "1-2:3:4:5", "-2", "1 h",
           "1-:30", ":30", "1:", "1::2", "-", "2d", "1-2:3:4:", "none"]
    for value in good + bad:
        c.add("time", [sb("--time=" + value)])
    c.add("time", [sb('--time=""')])
    c.add("time", [sb("-t 1:00:00"), sb("--time-min=30")])
    c.add("time", [sb("-t 1:00:00"), sb("--time-min=2h")])
    c.add("time", [sb("--time=30 --time-min=10")])


def add_gpus(c):
    cases = [
        ["--gpus-per-node=8"], ["--gpus-per-node=h100:8"], ["--gpus-per-node=a100:4", "-p gpu-a100"],
        ["--gpus-per-node=8", "-N 2"], ["--gpus-per-node=h100:8", "-N 2", "--ntasks-per-node=8"],
        ["--gpus-per-node=h100:8,a100:2"], ["--gpus-per-node=0"], ["--gpus-per-node=-1"],
        ["--gpus-per-node=x"], ["--gpus-per-node=h100:"], ["--gpus-per-node="],
        ["--gres=gpu:8"], ["--gres=gpu:h100:8"], ["--gres=gpu"], ["--gres=gpu:h100"],
        ["--gres=gres/gpu:4"], ["--gres=gpu:0"], ["--gres=gpu:"], ["--gres=gpu:2k"],
        ["--gres=gpu:h100:8,gpu:a100:1"], ["--gres=nvme:1"], ["--gres=gpu:4,nvme:1"],
        ["--gres=none"], ["--gres=gpu:4", "-N 2"], ["--gres=gpu=4"],
        ["--gpus=16"], ["--gpus=h100:16"], ["-G 2"], ["-G2"], ["-G h100:2"], ["--gpus=0"],
        ["--gpus=16", "-N 2"], ["--gpus-per-task=1", "-n 8"], ["--gpus-per-task=1"],
        ["--gpus-per-task=h100:1", "-n 4"], ["--gpus-per-task=2", "-N 2", "--ntasks-per-node=4"],
        ["--gpus-per-task=1", "--gpus=8"], ["--gpus-per-socket=2", "--sockets-per-node=2"],
        ["--gpus-per-socket=2"], ["--ntasks-per-gpu=2", "--gpus=4"],
        ["--cpus-per-gpu=12", "--gpus=8"], ["--mem-per-gpu=80G", "--gpus-per-node=8"],
        ["--gpu-bind=closest", "--gpus-per-node=8"], ["--gres-flags=enforce-binding", "--gres=gpu:8"],
        ["--tres-per-task=gres/gpu:2", "-n 2"], ["--tres-per-task=cpu=4"],
        ["--gres=gpu:8", "--exclusive"],
    ]
    for words in cases:
        c.add("gpu", [sb(*words)])


def add_exclusive_pairs(c):
    pairs = [
        ("--mem=16G", "--mem-per-cpu=2G"), ("--mem=16G", "--mem-per-gpu=8G"),
        ("--mem-per-cpu=2G", "--mem-per-gpu=8G"), ("--gpus-per-node=2", "--gres=gpu:2"),
        ("--gpus-per-node=2", "--gres=nvme:1"), ("--exclusive", "--oversubscribe"),
        ("--exclusive", "-s"), ("--cpus-per-task=4", "--cpus-per-gpu=4"),
        ("--ntasks-per-gpu=2", "--ntasks-per-node=4"), ("--ntasks-per-gpu=2", "--gpus-per-task=1"),
        ("--ntasks-per-gpu=2", "--gpus-per-socket=1"), ("--core-spec=2", "--thread-spec=2"),
        ("--hint=nomultithread", "--ntasks-per-core=1"), ("--hint=nomultithread", "--threads-per-core=1"),
    ]
    for a, b in pairs:
        c.add("exclusive-pair", [sb(a), sb(b)])
        c.add("exclusive-pair", [sb(b, a)])


def add_memory(c):
    for value in ["4000", "16G", "16GB", "16g", "16Gb", "512m", "512M", "100k", "1024K", "1T",
                  "0", "1.5G", "-1", "16P", "abc", "16 G", "16GiB", "1M", "1", "2097152"]:
        c.add("memory", [sb("--mem=" + value)])
    for option in ["mem-per-cpu", "mem-per-gpu"]:
        for value in ["4G", "4096", "1.5G", "0"]:
            extra = ["--gpus-per-node=8"] if option == "mem-per-gpu" else []
            c.add("memory", [sb("--%s=%s" % (option, value), *extra)])
    c.add("memory", [sb("--mem 64G")])
    c.add("memory", [sb("--mem=64G"), sb("--mem=128G")])
    c.add("memory", [sb("--tmp=100G")])


def add_arrays(c):
    for value in ["0-9", "0-9%2", "1,3,5-9%2", "0-15:4", "[1-5]", "1-1000%10", "7", "0",
                  "0-100000", "0-100001", "-1", "5-1", "0-9:0", "a-b", "1-5%0", "0-9%2%3",
                  "1,,2", "[0-3]%1", "0-3,", "1-5:2%2", "4294967294", "1-3 "]:
        c.add("array", [sb("--array=" + value)])
    c.add("array", [sb("-a 0-3")])
    c.add("array", [sb("-a0-3")])
    c.add("array", [sb("--array=0-3"), sb("--array=5-6")])


def add_dependencies(c):
    for value in ["singleton", "afterok:" + DEP, "afterany:" + DEP, "after:" + DEP,
                  "after:%s+5" % DEP, "afternotok:" + DEP, "aftercorr:" + DEP,
                  "afterok:%s:%s" % (DEP, DEP), "afterok:%s,afterany:%s" % (DEP, DEP),
                  "afterok:%s?afterany:%s" % (DEP, DEP), DEP, "afterok:%s,singleton" % DEP,
                  "AFTEROK:" + DEP, "afterok:999999", "afterok:0", "afterok", "afterok:",
                  "foo:1", "afterok:abc", "afterok:%s,afterany:%s?singleton" % (DEP, DEP), "0",
                  "afterok:%s_1" % DEP, "afterok:%s_*" % DEP, "expand:" + DEP]:
        c.add("dependency", [sb("--dependency=" + value)])
    c.add("dependency", [sb("-d singleton"), sb("-J fixed-name")])
    c.add("dependency", [sb("--dependency=afterok:" + DEP), sb("--dependency=singleton")])
    c.add("dependency", [sb("--dependency=singleton", "--kill-on-invalid-dep=yes")])
    c.add("dependency", [sb("--dependency=singleton", "--kill-on-invalid-dep=maybe")])


def add_exclusive(c):
    for words in [["--exclusive"], ["--exclusive=user"], ["--exclusive", "user"],
                  ["--exclusive=mcs"], ["--exclusive=topo"], ["--exclusive=bogus"],
                  ["--exclusive=exclusive"], ["--oversubscribe"], ["-s"],
                  ["--exclusive", "-N 2"], ["--exclusive=USER"]]:
        c.add("exclusive", [sb(*words)])


def add_unknown(c):
    for words in [["--workdir=/tmp"], ["--container-image=nvcr.io\\#nvidia/pytorch:24.01-py3"],
                  ["--container-image", "nvcr.io\\#nvidia/pytorch:24.01-py3"],
                  ["--container-mounts=/data:/data"], ["--container-name=x"], ["--foo"],
                  ["-Z"], ["--segment=2"], ["--resources=x"], ["--stepmgr"],
                  ["--oom-kill-step"], ["--consolidate-segments"], ["--spread-segments"],
                  ["--mem-update=10@5"], ["--external"], ["--prefer=h100"], ["--gpu-freq=high"],
                  ["--tres-bind=gres/gpu:closest"], ["--exclusive=topo"], ["--extra=foo"],
                  ["--container=/bundle"], ["--container-id=abc"], ["--export-file=/dev/null"]]:
        c.add("unknown", [sb(*words)])


def add_misc(c):
    for words in [["-A", "acct"], ["-q", "high"], ["--qos=low"], ["--reservation=r1"],
                  ["--mail-type=END,FAIL"], ["--mail-type=ALL"], ["--mail-type=NONE"],
                  ["--mail-type=END,NONE"], ["--mail-type=bogus"], ["--mail-type=END,bogus"],
                  ["--mail-type=end,fail"], ["--mail-type=TIME_LIMIT_80,ARRAY_TASKS"],
                  ["--mail-type=BEGIN", "--mail-user=ml@example.com"],
                  ["--mail-user=ml@example.com"], ["-C", "h100"], ['--constraint="h100|a100"'],
                  ["--constraint=[a100|h100]"], ["--constraint=h100&gpu"],
                  ["--constraint=h100*2"], ["--requeue"], ["--no-requeue"],
                  ["--requeue=expedite"], ["--requeue=bogus"], ["--nice=10"], ["--nice"],
                  ["--nice=-5"], ["--output=logs/%x-%j.out"], ["-o", "$HOME/x.out"],
                  ["-o", "out.txt", "-e", "err.txt"], ["-e", "err.txt"], ["--output=none"],
                  ["--chdir=/tmp"], ["-D", "/var/tmp"], ["--open-mode=append"],
                  ["--signal=B:USR1@300"], ["--signal=USR1"], ["--signal=BUS"],
                  ["--export=NONE"], ["--export=ALL,A=1"], ["--begin=now+1hour"],
                  ["--begin=now+1h"], ["--contiguous"], ["--reboot"], ["--licenses=foo"],
                  ["-w", "h100-001"], ["-w", "h100-[001-002]"], ["-x", "h100-001"],
                  ["-w", "nosuch"], ["--hint=nomultithread"], ["--hint=bogus"],
                  ["--distribution=block"], ["--distribution=bogus"], ["--mincpus=8"],
                  ["--priority=10"], ["--wckey=w"], ["--switches=1@5"],
                  ["--cpu-freq=high"], ["--network=foo"], ["--profile=none"],
                  ["--deadline=now+1day"], ["--delay-boot=5"], ["--threads-per-core=1"],
                  ["-B", "2:4:1"], ["--sockets-per-node=2"], ["--cores-per-socket=8"],
                  ["--ntasks-per-core=1"], ["--ntasks-per-socket=2"], ["-O"], ["--overcommit", "-n", "200"],
                  ["--uid=0"], ["--gid=0"], ["-k"], ["--no-kill=off"], ["--propagate=NONE"],
                  ["--get-user-env"], ["--get-user-env=L"], ["--wait-all-nodes=1"], ["--use-min-nodes", "-N", "2-4"],
                  ["--spread-job"], ["--acctg-freq=30"], ["--bb=foo"], ["--batch=h100"],
                  ["--cluster-constraint=x"], ["-M", "s2a"], ["-M", "other"],
                  ["--mcs-label=x"], ["--gres-flags=bogus"], ["--partition=gpu,cpu"],
                  ["-p", "nosuch"], ["-N", "1-15:4"], ["-N", "2,4,8"], ["-N", "2-4"], ["-N", "-4"],
                  ["-N", "2-"], ["-N", "4-2"], ["-N", "0"], ["-N", "1k"], ["-N", "abc"],
                  ["-N", "200"], ["-n", "8", "-N", "16"]]:
        c.add("misc", [sb(*words)])


def add_realistic(c):
    c.add("realistic", [
        sb("--job-name=llama-sft"), sb("--partition=gpu-h100"), sb("--nodes=2"),
        sb("--ntasks-per-node=8"), sb("--gpus-per-node=h100:8"), sb("--cpus-per-task=12"),
        sb("--mem=256G"), sb("--time=2:00:00"), sb("--output=logs/%x-%j.out"),
        sb("--requeue"), sb("--signal=B:USR1@300"), sb("--mail-type=END,FAIL")],
        body=["set -euo pipefail", "srun torchrun --nproc_per_node=8 train.py"])
    c.add("realistic", [
        sb("-J", "bert"), sb("-N", "4"), sb("--gres=gpu:a100:4"), sb("-p", "gpu-a100"),
        sb("-t", "1-00:00:00"), sb("--exclusive"), sb("--mem=0")],
        body=["module load cuda", "srun python train.py"])
    c.add("realistic", [
        "#SBATCH --job-name=sweep   # the sweep", "#SBATCH --array=0-31%4",
        "#SBATCH --gpus=1", "#SBATCH --cpus-per-task=8", "#SBATCH --mem-per-cpu=8G",
        "#SBATCH --time=04:00:00", "#SBATCH -o sweep-%A_%a.out"],
        body=["python sweep.py --idx $SLURM_ARRAY_TASK_ID"])
    c.add("realistic", [
        "#!/bin/bash", "#SBATCH --nodes=8 --ntasks-per-node=8 --gpus-per-task=1",
        "#SBATCH --cpus-per-task=10 -t 72:00:00 --partition=gpu-h100",
        "#SBATCH --dependency=afterok:" + DEP, "#SBATCH --no-requeue"],
        note="repeated shebang is just a comment")
    c.add("realistic", [
        sb("-N 2"), sb("--gpus-per-node=8"), sb("--time=30"),
        "", "# Disabled: ##SBATCH --exclusive", "##SBATCH --exclusive",
        sb("--constraint=h100"), sb("--account=research")],
        body=["export NCCL_DEBUG=INFO", "#SBATCH -N 16", "srun python train.py"])
    c.add("realistic", [
        sb("--partition=cpu"), sb("--ntasks=64"), sb("--cpus-per-task=2"), sb("--mem-per-cpu=2000"),
        sb("--time=0-06:00"), sb("--job-name=\"pre process\"")],
        body=["srun python preprocess.py"])
    c.add("realistic", [
        sb("--partition=debug"), sb("--time=10:00"), sb("--nodes=1"), sb("--gres=gpu:1"),
        sb("--qos=debug"), sb("--comment=\"quick test # not a comment\"")])


def build():
    c = Corpus()
    for adder in (add_spellings, add_quoting, add_scan, add_time, add_gpus,
                  add_exclusive_pairs, add_memory, add_arrays, add_dependencies,
                  add_exclusive, add_unknown, add_misc, add_realistic):
        adder(c)
    return c.variants


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir")
    parser.add_argument("--dep-job", default="1",
                        help="job id used in afterok:/afterany: variants (a held job the "
                             "harness creates first)")
    args = parser.parse_args()
    if not args.dep_job.isdigit():
        parser.error("--dep-job must be a job id")
    if os.path.isdir(args.outdir):
        shutil.rmtree(args.outdir)
    os.makedirs(args.outdir)
    manifest = []
    for v in build():
        text = v["text"].replace(DEP, args.dep_job)
        with open(os.path.join(args.outdir, v["name"]), "w", newline="") as out:
            out.write(text)
        manifest.append({"name": v["name"], "category": v["category"], "note": v["note"]})
    with open(os.path.join(args.outdir, "manifest.json"), "w") as out:
        json.dump({"dep_job": args.dep_job, "variants": manifest}, out, indent=1)
        out.write("\n")
    print("%d variants in %s" % (len(manifest), args.outdir))


if __name__ == "__main__":
    main()
