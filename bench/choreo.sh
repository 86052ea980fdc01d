#!/usr/bin/env bash
# Benchmark of `ranklift choreo`.
#   1. Check and project a generated 2,000-line choreography (bench/gen_choreo.py): best of N
#      wall times of the whole process, against `ranklift parse-only` on the same file measured in
#      this run (the parser's wall time, the floor). Target: under 50 ms.
#      Sanity (not timed): the projection runs with threads and prints the same lines as the
#      role-erased reference run.
#   2. Round-trip latency of `com` over the thread and the TCP loopback transports
#      (bench/choreo_rtt.py), reported as microseconds per round trip and messages per second.
# Usage: bench/choreo.sh [RUNS] [ROUNDS]   (defaults 15 and 5000)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-15}"
ROUNDS="${2:-5000}"
cargo build --release -q -p ranklift
BIN="$PWD/target/release/ranklift"
DIR="$(mktemp -d)"
trap 'rm -rf "$DIR"' EXIT
python3 bench/gen_choreo.py "$DIR/big.py" 2000
python3 - "$BIN" "$DIR" "$RUNS" <<'PY'
import collections, subprocess, sys, time
bin_, d, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
path = f"{d}/big.py"
lines = sum(1 for _ in open(path))

def best(args):
    t = 1e9
    for _ in range(runs):
        s = time.perf_counter()
        r = subprocess.run(args, capture_output=True, text=True)
        t = min(t, time.perf_counter() - s)
        assert r.returncode == 0, r.stderr
    return t

check = best([bin_, "choreo", "check", path])
project = best([bin_, "choreo", "project", path, "-o", f"{d}/out"])
base = best([bin_, "parse-only", path])
print(f"{'step':10} {'lines':>6} {'wall ms':>8} {'lines/s':>10} {'parse-only ms':>14} {'x parse-only':>13}  target")
for name, t in [("check", check), ("project", project)]:
    ok = "met (< 50 ms)" if t < 0.050 else "MISSED (>= 50 ms)"
    print(f"{name:10} {lines:6} {t * 1e3:8.1f} {lines / t:10,.0f} {base * 1e3:14.1f} {t / base:13.1f}  {ok}")

# Sanity: the projection runs, and prints what the role-erased program prints.
subprocess.run([bin_, "choreo", "project", path, "-o", f"{d}/ref", "--emit-erased"], check=True, capture_output=True)
ref = subprocess.run([sys.executable, "big_erased.py"], cwd=f"{d}/ref", check=True, capture_output=True, text=True)
run = subprocess.run([bin_, "choreo", "run", path], check=True, capture_output=True, text=True)
got = [l.split("] ", 1)[1] for l in run.stdout.splitlines()]
assert collections.Counter(got) == collections.Counter(ref.stdout.splitlines()), "projection and reference differ"
print(f"sanity: the projected run and the reference run print the same {len(got)} lines")
PY
echo
echo "com round trip (best of 3 runs of $ROUNDS round trips):"
python3 bench/choreo_rtt.py "$ROUNDS" | while read -r t us mps; do
  printf '  %-8s %8s us/round trip %10s messages/s\n' "$t" "$us" "$mps"
done
