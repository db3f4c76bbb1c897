#!/usr/bin/env bash
# The instruction budget of translate(): a guard against slow drift.
#
#   bench/instruction_budget.sh SLURM2AIR_BINARY [--update]
#
# Counts, with callgrind, the instructions `translate()` executes on a fixed
# input (the scripts of corpus/ and 300 scripts bench/generate_corpus.py
# writes from its default seed) and compares them with the number recorded in
# bench/instruction-budget.txt. More than 5% above it fails (glibc picks its string
# functions by CPU, so another machine may differ by a little); --update records
# the new count instead. Instruction counts, unlike times, do not depend on
# what else the machine runs, so this can run in CI.
#
# Why: each rule added costs one to three percent, which no timing notices;
# twenty sessions of them took the single-thread ratio from 0.5x to 0.36x
# `bash -n` before anyone measured (docs/performance.md, twentieth look). A
# change that needs more now says so in its diff, with the budget file.
#
# The count depends on the compiler and flags: the budget is that of CI's
# build (.ci/test: g++ 12, RelWithDebInfo), which is the only build CMake
# registers this test for. Exit 77 (skipped) when valgrind is missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
binary="${1:?usage: instruction_budget.sh SLURM2AIR_BINARY [--update]}"
update="${2:-}"
budget_file="$root/bench/instruction-budget.txt"
tolerance_percent=5

if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
  echo "valgrind is not installed: instruction budget skipped" >&2
  exit 77
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in"
cp -r "$root/corpus" "$work/in/corpus"
python3 "$root/bench/generate_corpus.py" --count 300 --out "$work/in/generated" >/dev/null
lines=$(find "$work/in" -type f -exec cat {} + | wc -l)

# Only translate() is counted: reading files, writing outputs and the batch
# report are the file system's cost, not the engine's.
# batch exits 1 or 2 when scripts have findings or do not convert, as some
# of corpus/ are meant to; anything above is a failure of the run.
status=0
valgrind --tool=callgrind --callgrind-out-file="$work/cg" --toggle-collect='s2a::translate(*' \
  "$binary" batch "$work/in" --out-dir "$work/out" --no-progress -j1 >/dev/null 2>"$work/valgrind.log" ||
  status=$?
if ((status > 2)); then
  cat "$work/valgrind.log" >&2
  echo "slurm2air batch exited $status" >&2
  exit 1
fi
measured=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$work/cg")
[ -n "$measured" ] || { echo "no instruction count in callgrind's output" >&2; exit 1; }
per_line=$((measured / lines))

if [ "$update" = "--update" ]; then
  {
    echo "# Instructions translate() may execute on bench/instruction_budget.sh's input"
    echo "# (CI's build: g++ 12, RelWithDebInfo). Raise it only with a reason in the commit."
    echo "$measured"
  } >"$budget_file"
  echo "recorded: $measured instructions ($per_line per line, $lines lines)"
  exit 0
fi

budget=$(grep -v '^#' "$budget_file" | head -n 1)
limit=$((budget + budget * tolerance_percent / 100))
change=$(awk -v m="$measured" -v b="$budget" 'BEGIN { printf "%+.1f", (m - b) * 100 / b }')
echo "translate(): $measured instructions ($per_line per line over $lines lines);" \
  "budget $budget, $change%"
if ((measured > limit)); then
  echo "over budget by more than $tolerance_percent%: find the cost with callgrind" \
    "(docs/performance.md), or raise the budget with --update and say why" >&2
  exit 1
fi
if ((measured < budget - budget * 10 / 100)); then
  echo "more than 10% under budget: record the new count with --update" >&2
fi
