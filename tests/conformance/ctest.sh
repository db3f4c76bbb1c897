#!/usr/bin/env bash
# The conformance ctest entry. With SLURM2AIR_LIVE_SLURM=1 (set by .ci/run)
# it starts a private Slurm 22.05 controller and compares live: the 588
# directive variants, then corpus/ and the golden scripts. Otherwise it
# compares the variants against the committed oracle (no Slurm needed).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export SLURM2AIR="${SLURM2AIR:-${1:-$root/build/slurm2air}}"
if [ "${SLURM2AIR_LIVE_SLURM:-0}" = 1 ]; then
  bash "$here/run.sh"
  bash "$here/run_scripts.sh" "$root/corpus" "$root/tests/golden"
else
  bash "$here/run.sh" --offline
fi
