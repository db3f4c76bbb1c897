#!/usr/bin/env bash
# Conformance check: slurm2air's reading of a few hundred sbatch variants vs
# a real Slurm 22.05 controller on loopback (.ci/slurm/start). Modes:
#   run.sh                 live: start controller, generate, read, compare, stop
#   run.sh --offline       no controller: compare against the committed oracle
#   run.sh --update-oracle live, and rewrite tests/conformance/slurm-oracle.json
# Binary: $SLURM2AIR, else build/slurm2air. Without a binary (or with
# --slurm-only) only the Slurm side runs and is checked against the oracle.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mode=live slurm_only=0
for arg in "$@"; do
  case "$arg" in
    --offline) mode=offline ;;
    --update-oracle) mode=update ;;
    --slurm-only) slurm_only=1 ;;
    *) echo "usage: run.sh [--offline|--update-oracle] [--slurm-only]" >&2; exit 2 ;;
  esac
done
bin="${SLURM2AIR:-$root/build/slurm2air}"
oracle="$here/slurm-oracle.json"
work="$(mktemp -d /tmp/s2a-conformance.XXXXXX)"
state="$work/slurm"
cleanup() {
  [ "$mode" = offline ] || "$root/.ci/slurm/stop" "$state" || true
  rm -rf "$work"
}
trap cleanup EXIT

if [ "$mode" = offline ]; then
  dep="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["dep_job"])' "$oracle")"
  python3 "$here/generate_variants.py" "$work/variants" --dep-job "$dep"
  reading="$oracle"
else
  # Our own controller on a port of its own, so runs in parallel do not clash.
  export SLURM2AIR_SLURMCTLD_PORT="${SLURM2AIR_SLURMCTLD_PORT:-$((20000 + RANDOM % 20000))}"
  eval "$("$root/.ci/slurm/start" "$state")"
  # The held job every afterok:/afterany: variant depends on (unknown ids
  # would test the controller's bookkeeping, not the directive reading).
  dep="$(cd "$work" && sbatch --hold --parsable -J s2a-dep-target --output=/dev/null --wrap=true)"
  dep="${dep%%;*}"
  python3 "$here/generate_variants.py" "$work/variants" --dep-job "$dep"
  reading="$work/slurm-live.json"
  python3 "$here/slurm_reading.py" "$work/variants" -o "$reading" --meta "dep_job=$dep"
  if [ "$mode" = update ]; then
    cp "$reading" "$oracle"
    echo "run.sh: wrote $oracle"
  else
    # Drift between the committed oracle and today's controller is worth
    # knowing (a Debian update of slurm) but does not fail the run.
    python3 - "$oracle" "$reading" <<'PY'
import json, sys
old = json.load(open(sys.argv[1]))
new = json.load(open(sys.argv[2]))
def strip(doc):
    dep = doc.get("dep_job")
    out = {}
    for name, r in doc["scripts"].items():
        text = json.dumps({k: v for k, v in r.items() if k != "sbatch_stderr"}, sort_keys=True)
        out[name] = text.replace(":%s(" % dep, ":DEP(").replace(":%s," % dep, ":DEP,")
    return out
a, b = strip(old), strip(new)
drift = sorted(n for n in set(a) | set(b) if a.get(n) != b.get(n))
print("run.sh: live Slurm reading vs committed oracle: %d of %d scripts differ%s"
      % (len(drift), len(b), (": " + ", ".join(drift[:10])) if drift else ""))
PY
  fi
fi

if [ "$slurm_only" = 1 ] || [ ! -x "$bin" ]; then
  [ -x "$bin" ] || echo "run.sh: no slurm2air binary at $bin; Slurm side only" >&2
  python3 "$here/compare.py" --self-test --oracle "$reading" --variants "$work/variants"
  exit 0
fi
python3 "$here/compare.py" --oracle "$reading" --variants "$work/variants" --slurm2air "$bin"
