#!/usr/bin/env bash
# Compares slurm2air with `bash -n` and `shfmt` on the same scripts, then
# checks batch scaling and that time per byte stays flat on huge inputs.
#
#   bench/compare.sh BUILD_DIR SCRIPT_DIR [THREADS]
#
# BUILD_DIR must be configured with -DSLURM2AIR_BENCH=ON (for
# slurm2air_bench_driver). SCRIPT_DIR is a tree of scripts, e.g. one written by
# bench/generate_corpus.py. Prints lines/ms, ratios and peak memory; see
# docs/performance.md for how to read them. Wall-clock numbers: run on an
# idle machine, or repeat and take medians (this script reports medians).
set -euo pipefail

build=${1:?usage: compare.sh BUILD_DIR SCRIPT_DIR [THREADS]}
scripts=${2:?usage: compare.sh BUILD_DIR SCRIPT_DIR [THREADS]}
threads=${3:-2}
driver="$build/bench/slurm2air_bench_driver"
cli="$build/slurm2air"
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for tool in bash shfmt hyperfine /usr/bin/time "$driver" "$cli"; do
  command -v "$tool" > /dev/null || { echo "missing: $tool" >&2; exit 1; }
done

# Only scripts bash and shfmt both accept without a word on stderr, so every
# tool parses the same valid text. A warning matters: a here-document that
# ends at the end of its file would swallow the scripts after it in the
# concatenation below, and a tool that stops at an error would time nothing.
find "$scripts" -type f | sort > "$work/all.list"
while IFS= read -r f; do
  bash -n "$f" > /dev/null 2> "$work/err" && [[ ! -s $work/err ]] &&
    shfmt "$f" > /dev/null 2>&1 && printf '%s\n' "$f"
done < "$work/all.list" > "$work/files.list"
# One big file for the parse-throughput comparison: bash -n takes one file per
# process, so per-file runs would measure process start-up, not parsing.
while IFS= read -r f; do cat "$f"; echo; done < "$work/files.list" > "$work/all.sh"
bash -n "$work/all.sh" > /dev/null 2> "$work/bash.err" || true
shfmt "$work/all.sh" > /dev/null 2> "$work/shfmt.err" || true
if [[ -s $work/bash.err || -s $work/shfmt.err ]]; then
  echo "warning: the concatenation does not parse cleanly as a whole, so bash -n or shfmt may" \
    "stop early and their lines/ms below are not comparable:" \
    "$(head -n 1 "$work/bash.err" "$work/shfmt.err" | tr '\n' ' ')" >&2
fi
files=$(wc -l < "$work/files.list")
lines=$(wc -l < "$work/all.sh")
echo "== inputs: $files scripts that bash -n accepts, $lines lines (load: $(cut -d' ' -f1-3 /proc/loadavg))"

median_ms() {  # hyperfine's median of a command, in ms
  hyperfine -N -i --style none --warmup 2 --runs "$runs" --export-json "$work/h.json" "$1" \
    > /dev/null 2>&1
  python3 -c "import json;print('%.1f' % (json.load(open('$work/h.json'))['results'][0]['median']*1e3))"
}

echo "== single thread, parse throughput on the concatenation (lines/ms, median of $runs)"
bash_ms=$(median_ms "bash -n $work/all.sh")
shfmt_ms=$(median_ms "shfmt -l $work/all.sh")  # parse + format in memory, prints nothing
s2a_ms=$(median_ms "$driver --preload --list $work/files.list")
s2a_parse=$("$driver" --preload --repeat "$runs" --stage parse --list "$work/files.list" |
  sed -n 's/.*lines_per_ms \([0-9.]*\).*/\1/p')
s2a_pipeline=$("$driver" --preload --repeat "$runs" --list "$work/files.list" |
  sed -n 's/.*lines_per_ms \([0-9.]*\).*/\1/p')
python3 - "$lines" "$bash_ms" "$shfmt_ms" "$s2a_pipeline" "$s2a_parse" "$s2a_ms" <<'EOF'
import sys
lines, bash_ms, shfmt_ms, pipe, parse, s2a_ms = map(float, sys.argv[1:])
bash, shfmt = lines / bash_ms, lines / shfmt_ms
print(f"bash -n            {bash:8.0f} lines/ms")
print(f"shfmt -l           {shfmt:8.0f} lines/ms")
print(f"slurm2air parse    {parse:8.0f} lines/ms  ({parse / bash:.2f}x bash -n)")
print(f"slurm2air pipeline {pipe:8.0f} lines/ms  ({pipe / bash:.2f}x bash -n, {pipe / shfmt:.2f}x shfmt)"
      "  [scan+parse+map+emit+validate, files in memory]")
print(f"  (driver process incl. start-up and reading: {lines / s2a_ms:.0f} lines/ms)")
EOF

echo "== batch over the tree, $threads threads (wall ms, peak RSS)"
# OUT on the disk under test (BATCH_OUT=DIR to choose): writing tens of
# thousands of files costs the kernel as much as translating them.
out=${BATCH_OUT:-$work/out}
rm -rf "$out"
write_cmd="$cli batch --jobs $threads --no-progress --force --out-dir $out $scripts"
check_cmd="$cli batch --jobs $threads --no-progress --check --out-dir $out $scripts"
/usr/bin/time -v $write_cmd > /dev/null 2> "$work/time.txt" || true
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
# Into an empty OUT every output is created; a --force re-run over its own
# output leaves identical files alone (hyperfine repeats the same command).
s2a_fresh=$(for ((i = 0; i < runs; i++)); do
  rm -rf "$out" && sync
  /usr/bin/time -f %e -o "$work/fresh.txt" $write_cmd > /dev/null 2>&1 || true
  tail -n 1 "$work/fresh.txt"  # after "Command exited with non-zero status N"
done | sort -n | awk '{t[NR] = $1} END {printf "%.1f", t[int((NR + 1) / 2)] * 1000}')
s2a_write=$(median_ms "$write_cmd")
s2a_check=$(median_ms "$check_cmd")
# shfmt skips files whose extension it does not know (.sbatch) when given a
# directory, so hand it the same file list.
shfmt_batch=$(median_ms "xargs -a $work/all.list shfmt -l")
all_files=$(wc -l < "$work/all.list")
ratio() { python3 -c "print('%.2f' % ($1/$2))"; }
echo "slurm2air batch          ${s2a_fresh} ms for $all_files files into an empty OUT (creates YAML + report per script), peak RSS ${rss} KB"
echo "slurm2air batch --force  ${s2a_write} ms re-running over its own output (identical files left alone)"
echo "slurm2air batch --check  ${s2a_check} ms (the same translations, compared instead of written)"
echo "shfmt -l                 ${shfmt_batch} ms (reads and formats in memory, writes nothing)"
echo "ratio shfmt/slurm2air: batch $(ratio "$shfmt_batch" "$s2a_fresh"), re-run $(ratio "$shfmt_batch" "$s2a_write"), --check $(ratio "$shfmt_batch" "$s2a_check")"
[[ -n ${BATCH_OUT:-} ]] || rm -rf "$out"

echo "== scaling: the first 1/4, 1/2 and all of the tree"
for frac in 4 2 1; do
  n=$((all_files / frac))
  head -n "$n" "$work/all.list" > "$work/part.list"
  "$driver" --threads "$threads" --repeat 3 --list "$work/part.list" |
    awk -v n="$n" '/median_ms/ {print "files " n ": " $2 " ms, " $10 " ns/byte, max RSS " $12 " KB"}'
done

echo "== superlinearity: time per byte at three sizes of each shape"
bench_dir=$(cd "$(dirname "$0")" && pwd)
"$bench_dir/generate_corpus.py" --stress --big-mb "${BIG_MB:-1,4,16}" --out "$work/stress"
for f in "$work"/stress/*; do
  # --no-size-limit: the engine itself, past the CLI's 4 MiB input limit.
  "$driver" --no-size-limit --preload --repeat 3 "$f" |
    awk -v f="$(basename "$f")" '/median_ms/ {printf "%-24s %10.1f ms %8.1f ns/byte\n", f, $2, $10}'
done
