#!/usr/bin/env bash
# Throughput of `ranklift distribute --diff` against parse-only, on one thread and on all cores,
# measured in one run on a generated TensorFlow project (>= 200 modules, >= 50,000 lines).
# Target: end-to-end >= 40% of parse-only throughput on one thread; near-linear scaling.
# Wall time on a shared VM varies by +-20% between runs; when valgrind is installed the script also
# reports the single-thread ratio in instructions (callgrind), which is reproducible.
#   BENCH_MODULES=N   modules to generate (default 230)
#   BENCH_RUNS=N      timed runs per configuration; the median is reported (default 7)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin ranklift
BIN="$PWD/target/release/ranklift"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 bench/gen_tf_project.py "$WORK/proj" "${BENCH_MODULES:-230}" >&2
RUNS="${BENCH_RUNS:-7}"
CORES="$(nproc)"
BYTES="$(find "$WORK/proj" -name '*.py' -printf '%s\n' | awk '{s+=$1} END {print s}')"
LINES="$(find "$WORK/proj" -name '*.py' -exec cat {} + | wc -l)"
FILES="$(find "$WORK/proj" -name '*.py' | wc -l)"

# median wall time (seconds) of RUNS runs of "$@" (output discarded)
median() { python3 bench/median.py "$RUNS" "$@"; }

p1=$(RAYON_NUM_THREADS=1 median "$BIN" parse-only "$WORK/proj")
pn=$(RAYON_NUM_THREADS=$CORES median "$BIN" parse-only "$WORK/proj")
d1=$(RAYON_NUM_THREADS=1 median "$BIN" distribute "$WORK/proj" --diff)
dn=$(RAYON_NUM_THREADS=$CORES median "$BIN" distribute "$WORK/proj" --diff)

instructions() {
  local out; out="$(mktemp)"
  RAYON_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1
  callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
  rm -f "$out"
}
ip=""; id=""
if command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1; then
  ip=$(instructions "$BIN" parse-only "$WORK/proj")
  id=$(instructions "$BIN" distribute "$WORK/proj" --diff)
fi

python3 - "$BYTES" "$LINES" "$FILES" "$CORES" "$p1" "$pn" "$d1" "$dn" "$ip" "$id" <<'PY'
import sys
b, lines, files, cores = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
p1, pn, d1, dn = map(float, sys.argv[5:9])
mb = b / 1e6
print(f"project: {files} modules, {lines} lines, {mb:.2f} MB")
print(f"{'':22} {'1 thread':>26} {f'{cores} threads':>26}")
def row(name, t1, tn):
    f = lambda t: f"{t*1000:7.1f} ms {mb/t:6.1f} MB/s {lines/t/1000:6.0f}k l/s"
    print(f"{name:22} {f(t1):>26} {f(tn):>26}")
row("parse-only", p1, pn)
row("distribute --diff", d1, dn)
print(f"end-to-end / parse-only throughput, 1 thread: {p1/d1:.0%} (target >= 40%)")
print(f"end-to-end / parse-only throughput, {cores} threads: {pn/dn:.0%}")
print(f"scaling 1 -> {cores} threads: parse-only {p1/pn:.2f}x, distribute {d1/dn:.2f}x")
if sys.argv[9] and sys.argv[10]:
    ip, id_ = int(sys.argv[9]), int(sys.argv[10])
    print(f"instructions, 1 thread: parse-only {ip/1e6:.0f}M, distribute {id_/1e6:.0f}M: ratio {ip/id_:.0%} (target >= 40%)")
PY
