#!/usr/bin/env bash
# Speed of `ranklift distribute --diff` on a generated PyTorch project (>= 50,000 lines, 261
# modules), against CPython merely parsing the same files (`ast.parse` of every file, one
# process) and against ranklift's own parse-only, all measured in one run (medians).
# Target: distribute --diff at least 5x faster than the CPython parse.
#   BENCH_MODULES=N   modules to generate (default 260)
#   BENCH_RUNS=N      timed runs per command; the median is reported (default 7)
#   BENCH_PYTHON=py   the CPython to parse with (default python3)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin ranklift
BIN="$PWD/target/release/ranklift"
PY="${BENCH_PYTHON:-python3}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 bench/gen_torch_project.py "$WORK/proj" "${BENCH_MODULES:-260}"
RUNS="${BENCH_RUNS:-7}"
LINES="$(find "$WORK/proj" -name '*.py' -exec cat {} + | wc -l)"
FILES="$(find "$WORK/proj" -name '*.py' | wc -l)"
cat > "$WORK/parse.py" <<'PY'
import ast, pathlib, sys
for p in sorted(pathlib.Path(sys.argv[1]).rglob("*.py")):
    ast.parse(p.read_bytes(), filename=str(p))
PY
"$BIN" distribute "$WORK/proj" --diff >/dev/null || { echo "distribute failed on the generated project" >&2; exit 1; }

median() { python3 bench/median.py "$RUNS" "$@"; }

cp=$(median "$PY" "$WORK/parse.py" "$WORK/proj")
rp=$(median "$BIN" parse-only "$WORK/proj")
rd=$(median "$BIN" distribute "$WORK/proj" --diff)
python3 - "$FILES" "$LINES" "$cp" "$rp" "$rd" "$("$PY" --version 2>&1)" <<'PY'
import sys
files, lines = int(sys.argv[1]), int(sys.argv[2])
cp, rp, rd = map(float, sys.argv[3:6])
print(f"project: {files} modules, {lines} lines (PyTorch)")
for name, t in [(f"CPython ast.parse ({sys.argv[6]})", cp), ("ranklift parse-only", rp), ("ranklift distribute --diff", rd)]:
    print(f"{name:40} {t*1000:8.1f} ms  {lines/t/1000:7.0f}k lines/s")
ok = cp / rd >= 5
print(f"distribute --diff vs CPython parse: {cp/rd:.1f}x faster (target >= 5x): {'met' if ok else 'NOT met'}")
PY
