#!/usr/bin/env bash
# Throughput of `ranklift distribute --diff` against parse-only, on one thread and on all cores,
# measured in one run on a generated TensorFlow project (>= 200 modules, >= 50,000 lines).
# Target (issue 2): end-to-end >= 40% of parse-only throughput on one thread; near-linear scaling.
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
median() {
  python3 - "$RUNS" "$@" <<'PY'
import subprocess, sys, time, statistics
runs = int(sys.argv[1]); cmd = sys.argv[2:]
subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # warm the page cache
ts = []
for _ in range(runs):
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ts.append(time.perf_counter() - t)
    if r.returncode != 0:
        sys.exit(f"{cmd} exited {r.returncode}")
print(f"{statistics.median(ts):.4f}")
PY
}

p1=$(RAYON_NUM_THREADS=1 median "$BIN" parse-only "$WORK/proj")
pn=$(RAYON_NUM_THREADS=$CORES median "$BIN" parse-only "$WORK/proj")
d1=$(RAYON_NUM_THREADS=1 median "$BIN" distribute "$WORK/proj" --diff)
dn=$(RAYON_NUM_THREADS=$CORES median "$BIN" distribute "$WORK/proj" --diff)

python3 - "$BYTES" "$LINES" "$FILES" "$CORES" "$p1" "$pn" "$d1" "$dn" <<'PY'
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
PY
