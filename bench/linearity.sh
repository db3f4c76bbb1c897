#!/usr/bin/env bash
# The superlinearity guard: translate() must cost the same per byte on a
# large script as on a small one of the same kind.
#
#   bench/linearity.sh SLURM2AIR_BINARY
#
# Writes the stress inputs (bench/generate_corpus.py --stress) at a small and
# a large size of each shape — one body repeated, distinct jobs concatenated
# (functions, steps, variables and a token each), a cd and a data path on the
# cluster's storage on every other line, one long line, one command
# continued over many lines, deep nesting — and counts with callgrind the
# instructions translate() executes on each. A shape whose large input costs
# more than 1.25x per byte what its small one costs fails: a rule that scans
# the whole script for each command shows up here as a ratio of 5 to 15, long
# before anyone times a big file (docs/performance.md, twenty-fourth look).
# Instruction counts do not depend on what else the machine runs, and a
# ratio hardly depends on the compiler, so any build without sanitizers can
# run this. Exit 77 (skipped) when valgrind is missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
binary="${1:?usage: linearity.sh SLURM2AIR_BINARY}"
max_ratio=1.25

if ! command -v valgrind >/dev/null; then
  echo "valgrind is not installed: linearity check skipped" >&2
  exit 77
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# 3.5 MB stays under the CLI's 4 MiB input limit.
python3 "$root/bench/generate_corpus.py" --stress --big-mb 0.25,3.5 --out "$work/in" >/dev/null

# Instructions translate() executes on one file, divided by its size.
per_byte() {
  local file="$1" status=0
  valgrind --tool=callgrind --callgrind-out-file="$work/cg" --toggle-collect='s2a::translate(*' \
    "$binary" "$file" >/dev/null 2>"$work/log" || status=$?
  # 1 and 2 are findings and refusals; anything above is a failure of the run.
  if ((status > 2)); then
    cat "$work/log" >&2
    echo "slurm2air exited $status on $file" >&2
    return 1
  fi
  local count
  count=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$work/cg")
  [ -n "$count" ] || { echo "no instruction count for $file" >&2; return 1; }
  awk -v c="$count" -v b="$(stat -c %s "$file")" 'BEGIN { printf "%.1f", c / b }'
}

failed=0
check() {
  local shape="$1" small="$work/in/$2" large="$work/in/$3" a b ratio
  a=$(per_byte "$small")
  b=$(per_byte "$large")
  ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }')
  printf '%-13s %8s -> %8s instructions/byte  (%s, %s): %sx\n' "$shape" "$a" "$b" "$2" "$3" "$ratio"
  if awk -v r="$ratio" -v m="$max_ratio" 'BEGIN { exit !(r > m) }'; then
    echo "  superlinear: more than ${max_ratio}x per byte; profile the large input" \
      "with callgrind (docs/performance.md)" >&2
    failed=1
  fi
}

check "repeated" big-0.25mb.sh big-3.5mb.sh
check "mixed jobs" mixed-0.25mb.sh mixed-3.5mb.sh
check "cluster paths" paths-64kb.sh paths-1024kb.sh
check "long line" longline-64kb.sh longline-1024kb.sh
check "continuation" continuation-1000.sh continuation-100000.sh
check "nesting" nesting-50.sh nesting-190.sh
exit "$failed"
