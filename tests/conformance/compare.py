#!/usr/bin/env python3
"""Compares slurm2air's reading of sbatch scripts with Slurm's own.

For every script in the Slurm oracle (slurm_reading.py output) this runs
`slurm2air inspect --json FILE` and checks field by field, using the mapping
defined in docs/conformance.md. Prints the disagreements and an agreement
rate; exits 1 if a disagreement is not listed in known-differences.txt.
"""

import argparse
import fnmatch
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PARTITION = "gpu"  # Default=YES in .ci/slurm/slurm.conf.in
SENTINEL_TIME = "00:42:00"  # DefaultTime of every test partition: "not set"
MAIL_ALL = {"BEGIN", "END", "FAIL", "REQUEUE", "INVALID_DEPEND", "STAGE_OUT"}
MEM_UNITS = {"K": 1.0 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024, "P": 1024 ** 3}
COUNT_SUFFIX = {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3, "t": 1024 ** 4, "p": 1024 ** 5}

SKIP = object()  # "this field is not compared for this script"


# ---- Slurm value parsers --------------------------------------------------

def null(value):
    return value in (None, "", "(null)", "N/A")


def time_minutes(value):
    """[d-]hh:mm:ss as printed by scontrol -> minutes; UNLIMITED -> 'unlimited'."""
    if value == "UNLIMITED":
        return "unlimited"
    days = 0
    if "-" in value:
        d, value = value.split("-", 1)
        days = int(d)
    h, m, s = (int(x) for x in value.split(":"))
    return days * 1440 + h * 60 + m + (1 if s else 0)


def mem_mib(value):
    """'256G', '4000M', '1T' -> MiB (scontrol prints K/M/G/T, default M)."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGTP]?)", value or "")
    if not match:
        return None
    return int(round(float(match.group(1)) * MEM_UNITS.get(match.group(2) or "M")))


def count_value(text):
    match = re.fullmatch(r"(\d+)([kKmMgGtTpP]?)", text)
    if not match:
        return None
    return int(match.group(1)) * COUNT_SUFFIX[match.group(2).lower()]


def gpu_entries(tres):
    """'gres:gpu:h100:8,gres:gpu:a100:2' (22.05) or 'gres/gpu:h100=8' (newer) ->
    [(type or None, count)]; non-GPU entries are ignored."""
    if null(tres):
        return []
    entries = []
    for item in tres.split(","):
        item = re.sub(r"^gres[:/]", "", item).replace("=", ":")
        parts = item.split(":")
        if parts[0] != "gpu":
            continue
        rest = parts[1:]
        count = count_value(rest[-1]) if rest else 1
        if rest and count is not None:
            rest = rest[:-1]
        elif count is None:
            count = 1  # last part is a type name: count defaults to 1 (spec §2.5)
        entries.append((":".join(rest) or None, count))
    return entries


def array_indexes(spec):
    """'0-15:4%2' / '[1-5]' / '1,3,5-9%2' -> (frozenset of indexes, throttle)."""
    if spec is None:
        return None
    text, _, throttle = spec.partition("%")
    throttle = throttle.split("%")[0]
    indexes = set()
    for token in text.strip("[]").split(","):
        if not token:
            continue
        match = re.fullmatch(r"(\d+)(?:-(\d+)(?::(\d+))?)?", token)
        if not match:
            return ("unparsable", spec)
        lo = int(match.group(1))
        hi = int(match.group(2) or lo)
        step = int(match.group(3) or 1)
        if hi - lo > 10_000_000 or step <= 0:
            return ("unparsable", spec)
        indexes.update(range(lo, hi + 1, step))
    limit = int(throttle) if throttle.isdigit() else 0
    return (frozenset(indexes), limit)


def dependency_canon(text):
    """Canonical dependency string: Slurm's display form without states."""
    if text is None:
        return None
    text = re.sub(r"\((?:unfulfilled|fulfilled|failed)\)", "", text).strip()
    if text in ("", "0", "(null)"):
        return None
    sep = "?" if "?" in text else ","
    items = []
    for item in text.split(sep):
        if item.isdigit():
            item = "afterany:" + item
        if ":" in item:
            kind, *ids = item.split(":")
            for job in ids:
                canon = "%s:%s" % (kind.lower(), job)
                if canon not in items:
                    items.append(canon)
        else:
            items.append(item.lower())
    return sep.join(items)


def mail_set(words):
    result = set()
    for word in words or []:
        word = word.upper()
        result |= MAIL_ALL if word == "ALL" else {word}
    return set() if "NONE" in result else result


# ---- Expectations: what inspect must say, given Slurm's fields -------------

def compare_job(name, slurm, job):
    """Yields (field, slurm_value, slurm2air_value, agrees) for one script."""
    f = slurm["fields"]

    def check(field, slurm_value, ours, agrees):
        return (field, slurm_value, ours, bool(agrees))

    # Name: null means "Slurm uses the script basename".
    ours = job.get("name")
    yield check("name", f.get("JobName"), ours, (ours if ours is not None else name) == f.get("JobName"))

    ours = job.get("partition")
    yield check("partition", f.get("Partition"), ours,
                (ours or DEFAULT_PARTITION) == f.get("Partition"))

    nodes = f.get("NumNodes", "")
    lo, _, hi = nodes.partition("-")
    if job.get("nodes_min") is None:
        # Unset: Slurm shows a single controller-derived number, never min-max.
        yield check("nodes", nodes, None, "-" not in nodes)
    elif hi:
        ours = "%s-%s" % (job.get("nodes_min"), job.get("nodes_max"))
        yield check("nodes", nodes, ours, (int(lo), int(hi)) == (job.get("nodes_min"), job.get("nodes_max")))
    else:
        yield check("nodes", nodes, job.get("nodes_min"), int(lo) == job.get("nodes_min"))

    tasks = job.get("tasks")
    if tasks is None and job.get("tasks_per_node") and job.get("nodes_min") \
            and job.get("nodes_min") == job.get("nodes_max"):
        tasks = job["nodes_min"] * job["tasks_per_node"]
    if tasks is not None:
        yield check("tasks", f.get("NumTasks"), tasks, str(tasks) == f.get("NumTasks"))

    per_node = f.get("NtasksPerN:B:S:C", "0").split(":")[0]
    ours = job.get("tasks_per_node")
    yield check("tasks_per_node", per_node, ours, (ours or 0) == int(per_node or 0))

    ours = job.get("cpus_per_task")
    yield check("cpus_per_task", f.get("CPUs/Task"), ours, str(ours or 1) == f.get("CPUs/Task"))

    limit = f.get("TimeLimit")
    if job.get("time_unlimited"):
        ours = "UNLIMITED"
        agrees = limit == "UNLIMITED"
    elif job.get("time_limit_minutes") is not None:
        ours = job["time_limit_minutes"]
        agrees = time_minutes(limit) == ours
    else:
        ours = None
        agrees = limit == SENTINEL_TIME
    yield check("time", limit, ours, agrees)

    yield from compare_gpus(f, job)

    for field, key, ours in (("mem_per_node_mib", "MinMemoryNode", job.get("mem_per_node_mib")),
                             ("mem_per_cpu_mib", "MinMemoryCPU", job.get("mem_per_cpu_mib"))):
        theirs = mem_mib(f.get(key)) or 0
        yield check(field, f.get(key), ours, (ours or 0) == theirs)
    per_gpu = None
    if f.get("MemPerTres", "").startswith("gres:gpu:"):
        per_gpu = count_value(f["MemPerTres"].split(":")[-1])
    ours = job.get("mem_per_gpu_mib")
    yield check("mem_per_gpu_mib", f.get("MemPerTres"), ours, (ours or 0) == (per_gpu or 0))

    ours = job.get("constraint")
    theirs = None if null(f.get("Features")) else f.get("Features")
    yield check("constraint", f.get("Features"), ours, ours == theirs)

    ours = job.get("requeue")
    yield check("requeue", f.get("Requeue"), ours,
                f.get("Requeue") == ("0" if ours is False else "1"))

    over = f.get("OverSubscribe")
    if over in ("NO", "OK", "YES"):
        yield check("exclusive", over, job.get("exclusive"), bool(job.get("exclusive")) == (over == "NO"))

    ours = job.get("array")
    yield check("array", f.get("ArrayTaskId"), ours,
                array_indexes(ours) == array_indexes(f.get("ArrayTaskId")))

    ours = job.get("dependency")
    yield check("dependency", f.get("Dependency"), ours,
                dependency_canon(ours) == dependency_canon(f.get("Dependency")))

    ours = job.get("mail_type")
    theirs = f.get("MailType")
    yield check("mail_type", theirs, ours,
                mail_set(ours) == mail_set(None if null(theirs) else theirs.split(",")))
    if "MailUser" in f and job.get("mail_user") is not None:
        yield check("mail_user", f["MailUser"], job["mail_user"], job["mail_user"] == f["MailUser"])

    ours = job.get("account")
    theirs = None if null(f.get("Account")) else f.get("Account")
    yield check("account", f.get("Account"), ours, ours == theirs)


def compare_gpus(f, job):
    """GPU counts. Slurm keeps per-node, per-job and per-task requests apart;
    a count slurm2air derived (e.g. per-node from per-task) is only compared
    when Slurm has the same kind of request."""
    per_node = gpu_entries(f.get("TresPerNode"))
    per_job = gpu_entries(f.get("TresPerJob"))
    per_task = gpu_entries(f.get("TresPerTask"))
    any_gpu = per_node or per_job or per_task
    types = {t for t, _ in per_node + per_job + per_task}
    for field, entries, key in (("gpus_per_node", per_node, "TresPerNode"),
                                ("gpus_total", per_job, "TresPerJob"),
                                ("gpus_per_task", per_task, "TresPerTask")):
        ours = job.get(field)
        if len(entries) > 1:
            continue  # several GPU types at once: inspect has one slot; not compared
        if entries:
            theirs = entries[0][1]
        elif any_gpu:
            continue  # derived values are allowed when Slurm has another GPU kind
        else:
            theirs = 0
        yield (field, f.get(key), ours, (ours or 0) == theirs)
    if len(types) == 1 and sum(map(len, (per_node, per_job, per_task))) == 1:
        theirs = types.pop()
        yield ("gpu_type", theirs, job.get("gpu_type"), job.get("gpu_type") == theirs)
    elif not any_gpu:
        yield ("gpu_type", None, job.get("gpu_type"), job.get("gpu_type") is None)


# ---- Self test: inspect JSON rebuilt from Slurm's reading ------------------

def inspect_from_slurm(name, slurm):
    """What a perfect slurm2air would print, rebuilt from Slurm's fields.
    Comparing it with the oracle must agree 100%: this tests the parsers."""
    if not slurm["accepted"]:
        return {"accepted_by_sbatch": False,
                "diagnostics": [{"severity": "error", "message": slurm["sbatch_error"]}]}
    f = slurm["fields"]
    job = {"name": None if f["JobName"] == name else f["JobName"],
           "partition": f["Partition"], "account": None if null(f.get("Account")) else f["Account"]}
    lo, _, hi = f["NumNodes"].partition("-")
    if hi:
        job["nodes_min"], job["nodes_max"] = int(lo), int(hi)
    per_node = int(f.get("NtasksPerN:B:S:C", "0").split(":")[0])
    job["tasks_per_node"] = per_node or None
    job["tasks"] = int(f["NumTasks"])
    job["cpus_per_task"] = int(f["CPUs/Task"])
    limit = f["TimeLimit"]
    if limit == "UNLIMITED":
        job["time_unlimited"] = True
    elif limit != SENTINEL_TIME:
        job["time_limit_minutes"] = time_minutes(limit)
    for field, key in (("gpus_per_node", "TresPerNode"), ("gpus_total", "TresPerJob"),
                       ("gpus_per_task", "TresPerTask")):
        entries = gpu_entries(f.get(key))
        if entries:
            job[field] = entries[0][1]
            job["gpu_type"] = entries[0][0]
    job["mem_per_node_mib"] = mem_mib(f.get("MinMemoryNode", "0")) or None
    job["mem_per_cpu_mib"] = mem_mib(f.get("MinMemoryCPU", "0")) or None
    if f.get("MemPerTres", "").startswith("gres:gpu:"):
        job["mem_per_gpu_mib"] = count_value(f["MemPerTres"].split(":")[-1])
    job["constraint"] = None if null(f.get("Features")) else f["Features"]
    job["requeue"] = f["Requeue"] == "1"
    job["exclusive"] = f["OverSubscribe"] == "NO"
    job["array"] = f.get("ArrayTaskId")
    job["dependency"] = None if null(f.get("Dependency")) else f["Dependency"]
    job["mail_type"] = f["MailType"].split(",") if "MailType" in f else None
    job["mail_user"] = f.get("MailUser")
    return {"accepted_by_sbatch": True, "job": job, "diagnostics": []}


# ---- Running inspect, known differences, report --------------------------

def run_inspect(binary, script):
    try:
        proc = subprocess.run([binary, "inspect", "--json", os.path.basename(script)],
                              cwd=os.path.dirname(script), capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, "inspect failed: %s" % error
    try:
        return json.loads(proc.stdout.decode("utf-8", "replace")), None
    except ValueError:
        return None, "inspect exit %d, no JSON: %s" % (
            proc.returncode, proc.stderr.decode("utf-8", "replace").strip()[:200])


def load_known(path):
    """Lines: `<variant glob> <field or *> <reason>`; '#' starts a comment."""
    known = []
    if not os.path.exists(path):
        return known
    with open(path) as handle:
        for number, line in enumerate(handle, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                sys.exit("%s:%d: want `<variant glob> <field> <reason>`" % (path, number))
            known.append(tuple(parts))
    return known


def is_known(known, name, field):
    return any(fnmatch.fnmatchcase(name, glob) and (kf == "*" or kf == field)
               for glob, kf, _ in known)


def compare_script(name, slurm, inspect):
    """All checks for one script as (field, slurm, ours, agrees) tuples."""
    ours_accepted = inspect.get("accepted_by_sbatch")
    if not slurm["accepted"]:
        errors = [d for d in inspect.get("diagnostics", []) if d.get("severity") == "error"]
        return [("accepted", "rejected: %s" % slurm["sbatch_error"],
                 "accepted_by_sbatch=%s, %d error(s)" % (ours_accepted, len(errors)),
                 ours_accepted is False and bool(errors))]
    checks = [("accepted", "accepted", ours_accepted, ours_accepted is True)]
    if ours_accepted is True:
        checks += list(compare_job(name, slurm, inspect.get("job") or {}))
    return checks


def short(value, width=38):
    text = json.dumps(value) if not isinstance(value, str) else value
    return text if len(text) <= width else text[: width - 1] + "…"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oracle", default=os.path.join(HERE, "slurm-oracle.json"))
    parser.add_argument("--variants", required=True, help="directory of generated scripts")
    parser.add_argument("--slurm2air", default=os.environ.get("SLURM2AIR"),
                        help="slurm2air binary (default: $SLURM2AIR)")
    parser.add_argument("--known", default=os.path.join(HERE, "known-differences.txt"))
    parser.add_argument("--json", help="also write all comparisons here")
    parser.add_argument("--self-test", action="store_true",
                        help="compare the oracle with itself (tests this script, no binary)")
    args = parser.parse_args()
    if not args.slurm2air and not args.self_test:
        sys.exit("compare.py: give --slurm2air or set SLURM2AIR")
    with open(args.oracle) as handle:
        oracle = json.load(handle)["scripts"]
    known = load_known(args.known)

    total = agreed = 0
    unexpected, expected = [], []
    for name in sorted(oracle):
        path = os.path.join(args.variants, name)
        if not os.path.exists(path):
            unexpected.append((name, "file", "variant not generated", "-"))
            continue
        if args.self_test:
            inspect, error = inspect_from_slurm(name, oracle[name]), None
        else:
            inspect, error = run_inspect(os.path.abspath(args.slurm2air), os.path.abspath(path))
        checks = [("inspect", "-", error, False)] if error else compare_script(name, oracle[name], inspect)
        for field, theirs, ours, agrees in checks:
            total += 1
            if agrees:
                agreed += 1
                continue
            row = (name, field, short(theirs), short(ours))
            (expected if is_known(known, name, field) else unexpected).append(row)

    if unexpected or expected:
        print("%-52s %-16s %-38s %s" % ("variant", "field", "slurm 22.05", "slurm2air"))
        for rows, tag in ((unexpected, ""), (expected, " (known)")):
            for name, field, theirs, ours in rows:
                print("%-52s %-16s %-38s %s%s" % (name[:52], field, theirs, ours, tag))
    rate = 100.0 * agreed / total if total else 0.0
    print("\n%d scripts, %d field checks, %d agree (%.2f%%), %d known differences, "
          "%d unexpected" % (len(oracle), total, agreed, rate, len(expected), len(unexpected)))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"total": total, "agreed": agreed, "unexpected": unexpected,
                       "known": expected}, handle, indent=1)
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
