#!/usr/bin/env python3
"""Slurm's own reading of batch scripts, for the conformance tests.

Each script is submitted to a real (test) slurmctld with `sbatch --hold
--parsable` from a private temp cwd; `scontrol show job -o` is read back and
the job cancelled. The result is one JSON object per script:
{accepted, sbatch_exit, sbatch_error, sbatch_stderr, fields{...}}.
Needs SLURM_CONF pointing at the controller started by .ci/slurm/start.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Every key `scontrol show job -o` prints in 22.05 (and a few from later
# releases). A token `Key=...` starts a new field only if Key is known, or
# if the current field is not free text; that keeps `Comment=a b=c` whole.
KNOWN_KEYS = frozenset(
    """JobId ArrayJobId ArrayTaskId ArrayTaskThrottle HetJobId HetJobOffset
    HetJobIdSet JobName UserId GroupId MCS_label Priority Nice Account QOS
    JobState Reason Dependency Requeue Restarts BatchFlag Reboot ExitCode
    DerivedExitCode RunTime TimeLimit TimeMin SubmitTime EligibleTime
    AccrueTime StartTime EndTime Deadline SuspendTime SecsPreSuspend
    LastSchedEval Scheduler Partition AllocNode:Sid ReqNodeList ExcNodeList
    NodeList BatchHost NumNodes NumCPUs NumTasks CPUs/Task ReqB:S:C:T TRES
    AllocTRES Socks/Node NtasksPerN:B:S:C CoreSpec ThreadSpec MinCPUsNode
    MinMemoryNode MinMemoryCPU MinTmpDiskNode Features Prefer ClusterFeatures
    BatchFeatures DelayBoot OverSubscribe Contiguous Licenses Network Command
    WorkDir AdminComment SystemComment Comment StdErr StdIn StdOut Power
    TresPerNode TresPerJob TresPerTask TresPerSocket MemPerTres CpusPerTres
    TresBind TresFreq NtasksPerTRES MailUser MailType Reservation
    BurstBuffer BurstBufferState CpusPerTres Switches Wait-for-Switch
    Wckey KillOInInvalidDependent Container ContainerID ResizeTime
    PreemptEligibleTime PreemptTime SiblingsActive SiblingsViable
    FedOrigin FedViableSiblings FedActiveSiblings Profile CpuFrequency
    GresEnforceBind SpreadJob OOMKillStep Extra Segment""".split()
)
FREE_TEXT_KEYS = frozenset(
    "JobName Command WorkDir Comment AdminComment SystemComment StdErr StdIn StdOut "
    "Reason Extra".split()
)
KEY_LIKE = re.compile(r"^([A-Za-z][A-Za-z0-9_:/-]*)=")

# The fields kept in the oracle: what a translator reads from directives.
# Volatile ones (times, ids, host names) are left out so the file is stable.
KEPT_FIELDS = (
    "JobName Partition Account QOS Reservation NumNodes NumTasks NumCPUs CPUs/Task "
    "NtasksPerN:B:S:C MinCPUsNode TimeLimit TimeMin TresPerNode TresPerJob TresPerTask "
    "TresPerSocket MemPerTres CpusPerTres TresBind NtasksPerTRES MinMemoryNode MinMemoryCPU "
    "MinTmpDiskNode Features Prefer ArrayTaskId Dependency Requeue OverSubscribe Contiguous "
    "Nice MailType MailUser Comment ReqNodeList ExcNodeList Licenses Network Reboot "
    "StdOut StdErr StdIn WorkDir Wckey CoreSpec ReqB:S:C:T"
).split()

# Values that mean "not requested" for fields a translator rarely sets; they
# are left out of the oracle to keep it small (a missing key = this value).
UNSET_VALUES = {
    "Account": "(null)", "QOS": "(null)", "Reservation": "(null)", "Dependency": "(null)",
    "Features": "(null)", "Prefer": "(null)", "Licenses": "(null)", "Network": "(null)",
    "ReqNodeList": "(null)", "ExcNodeList": "(null)", "Comment": "(null)", "TimeMin": "N/A",
    "MinMemoryCPU": "0", "MinMemoryNode": "0", "MinTmpDiskNode": "0", "Contiguous": "0",
    "Reboot": "0", "Nice": "0", "CoreSpec": "*", "ReqB:S:C:T": "0:0:*:*",
    "NtasksPerN:B:S:C": "0:0:*:*", "MinCPUsNode": "1", "StdIn": "/dev/null",
    "StdOut": "$CWD/slurm-$JOBID.out", "StdErr": "$CWD/slurm-$JOBID.out", "WorkDir": "$CWD",
}


def parse_show_job_line(line):
    """Splits one `scontrol show job -o` line into an ordered dict of fields."""
    fields = {}
    current = None
    for token in line.strip().split(" "):
        match = KEY_LIKE.match(token)
        starts_field = match is not None and (
            match.group(1) in KNOWN_KEYS or current not in FREE_TEXT_KEYS
        )
        if starts_field:
            current = match.group(1)
            fields[current] = token[match.end():]
        elif current is not None:
            fields[current] += " " + token
    # scontrol pads some free-text fields with an extra blank before the next key.
    return {key: value.rstrip(" ") for key, value in fields.items()}


def clean_env():
    """The submit environment without SBATCH_*/SLURM_* overrides (spec §1.7)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not (k.startswith("SBATCH_") or k.startswith("SLURM_")) or k == "SLURM_CONF"
    }
    env["LC_ALL"] = "C"
    return env


def run(argv, cwd=None, timeout=60):
    return subprocess.run(
        argv, cwd=cwd, env=clean_env(), capture_output=True, text=True, timeout=timeout,
        errors="replace",
    )


def first_error_line(stderr):
    """The message that explains a refusal (sbatch prints warnings too)."""
    lines = [l for l in stderr.splitlines() if l.strip()]
    for line in lines:
        if "error" in line or "fatal" in line or "unrecognized" in line or "ambiguous" in line \
                or "invalid" in line.lower() or "requires an argument" in line:
            if "Change from #SLURM" in line:
                continue
            return line
    return lines[0] if lines else None


def normalise(fields, workdir, job_id):
    """Keeps the interesting fields; makes paths and ids run-independent."""
    kept = {}
    for key in KEPT_FIELDS:
        if key not in fields:
            continue
        value = fields[key]
        if key in ("StdOut", "StdErr", "StdIn", "WorkDir"):
            value = re.sub(r"(?<!\d)%s(?!\d)" % job_id, "$JOBID", value.replace(workdir, "$CWD"))
        if UNSET_VALUES.get(key) == value:
            continue
        kept[key] = value
    return kept


def read_script(path, tmp_root):
    """Submits one script held, reads it back, cancels it."""
    name = os.path.basename(path)
    workdir = tempfile.mkdtemp(prefix="s2a-conf-", dir=tmp_root)
    shutil.copyfile(path, os.path.join(workdir, name))
    result = {"accepted": False, "sbatch_exit": None, "sbatch_error": None,
              "sbatch_stderr": "", "fields": {}}
    try:
        sub = run(["sbatch", "--hold", "--parsable", name], cwd=workdir)
    except subprocess.TimeoutExpired:
        result["sbatch_error"] = "sbatch timed out"
        return result
    result["sbatch_exit"] = sub.returncode
    result["sbatch_stderr"] = sub.stderr.strip()
    job_id = sub.stdout.strip().split(";")[0]
    if sub.returncode != 0 or not job_id.isdigit():
        result["sbatch_error"] = first_error_line(sub.stderr) or "sbatch exited %d" % sub.returncode
        return result
    result["accepted"] = True
    show = run(["scontrol", "show", "job", "-o", job_id])
    lines = [l for l in show.stdout.splitlines() if l.strip()]
    # A pending array is one record (ArrayTaskId=0-9%2); if split, take the first element.
    if lines:
        result["fields"] = normalise(parse_show_job_line(lines[0]), workdir, job_id)
    run(["scancel", job_id])
    shutil.rmtree(workdir, ignore_errors=True)
    return result


def controller_version():
    out = run(["scontrol", "--version"]).stdout.strip()
    return out or None


def collect_scripts(paths):
    scripts = []
    for path in paths:
        if os.path.isdir(path):
            scripts += sorted(os.path.join(path, f) for f in os.listdir(path)
                              if f.endswith(".sh"))
        else:
            scripts.append(path)
    return scripts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scripts", nargs="+", help="script files or directories of *.sh")
    parser.add_argument("-o", "--output", help="write JSON here (default: stdout)")
    parser.add_argument("--meta", action="append", default=[], metavar="KEY=VALUE",
                        help="extra top-level metadata (e.g. dep_job=1)")
    args = parser.parse_args()
    if "SLURM_CONF" not in os.environ:
        sys.exit("slurm_reading.py: SLURM_CONF is not set (run .ci/slurm/start first)")
    tmp_root = tempfile.mkdtemp(prefix="s2a-slurm-reading-")
    readings = {}
    try:
        for path in collect_scripts(args.scripts):
            readings[os.path.basename(path)] = read_script(path, tmp_root)
    finally:
        shutil.rmtree(tmp_root, ignore_errors=True)
    doc = {"schema": "slurm2air.slurm-oracle/1", "slurm_version": controller_version()}
    for item in args.meta:
        key, _, value = item.partition("=")
        doc[key] = value
    doc["scripts"] = readings
    # One script per line: small, and diffs of the committed oracle stay readable.
    scripts = doc.pop("scripts")
    lines = ['  "%s": %s' % (name, json.dumps(scripts[name], sort_keys=True))
             for name in sorted(scripts)]
    head = json.dumps(doc, sort_keys=True)[:-1]
    text = head + ', "scripts": {\n' + ",\n".join(lines) + "\n}}\n"
    if args.output:
        with open(args.output, "w") as out:
            out.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
