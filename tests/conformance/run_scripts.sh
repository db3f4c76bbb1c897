#!/usr/bin/env bash
# Conformance over real scripts: every file given (or found under a directory
# given) is submitted held to a private Slurm 22.05 controller and read back,
# then compared field by field with `slurm2air inspect --json` (compare.py).
# Usage: run_scripts.sh [--known FILE] [--sample N] [--json OUT] PATH...
# Binary: $SLURM2AIR, else build/slurm2air. Exits 1 on a difference that is
# not in the known file (default: known-differences-scripts.txt).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
known="$here/known-differences-scripts.txt" sample=0 json="" paths=()
while (($#)); do
  case "$1" in
    --known) known="$2"; shift 2 ;;
    --sample) sample="$2"; shift 2 ;;
    --json) json="$2"; shift 2 ;;
    *) paths+=("$1"); shift ;;
  esac
done
((${#paths[@]})) || { echo "usage: run_scripts.sh [--known F] [--sample N] [--json OUT] PATH..." >&2; exit 2; }
bin="${SLURM2AIR:-$root/build/slurm2air}"
work="$(mktemp -d /tmp/s2a-conformance-scripts.XXXXXX)"
state="$work/slurm"
cleanup() {
  "$root/.ci/slurm/stop" "$state" || true
  rm -rf "$work"
}
trap cleanup EXIT

# Flat copies with stable, unique names: <parent>_<file>.sh (relative to the
# path given), so known-differences entries survive reordering.
mkdir -p "$work/scripts"
python3 - "$work/scripts" "$sample" "${paths[@]}" <<'PY'
import os, random, re, shutil, sys
out, sample, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
files = []
for p in paths:
    if os.path.isdir(p):
        for d, _, names in os.walk(p):
            for n in names:
                files.append((os.path.join(d, n), os.path.relpath(os.path.join(d, n), p)))
    else:
        files.append((p, os.path.basename(p)))
files = [f for f in sorted(files) if os.path.isfile(f[0]) and os.path.getsize(f[0]) < (1 << 20)]
# Only scripts sbatch would take: a #! line (sbatch refuses the rest outright).
files = [f for f in files if open(f[0], "rb").read(2) == b"#!"]
if sample and len(files) > sample:
    files = random.Random(7).sample(files, sample)
for src, rel in files:
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", rel)
    if not name.endswith(".sh"):
        name += ".sh"
    shutil.copyfile(src, os.path.join(out, name))
print("run_scripts.sh: %d scripts" % len(files), file=sys.stderr)
PY

export SLURM2AIR_SLURMCTLD_PORT="${SLURM2AIR_SLURMCTLD_PORT:-$((20000 + RANDOM % 20000))}"
eval "$("$root/.ci/slurm/start" "$state")"
python3 "$here/slurm_reading.py" "$work/scripts" -o "$work/slurm.json"
[ -f "$known" ] || : >"$work/none.txt"
[ -f "$known" ] || known="$work/none.txt"
status=0
python3 "$here/compare.py" --oracle "$work/slurm.json" --variants "$work/scripts" \
  --slurm2air "$bin" --known "$known" --json "$work/compare.json" || status=$?
python3 - "$work/compare.json" "$work/slurm.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
n = len(json.load(open(sys.argv[2]))["scripts"])
bad = {row[0] for row in c["unexpected"] + c["known"]}
print("run_scripts.sh: %d of %d scripts agree on every field (%.1f%%)"
      % (n - len(bad), n, 100.0 * (n - len(bad)) / max(n, 1)))
PY
[ -z "$json" ] || cp "$work/compare.json" "$json"
exit "$status"
