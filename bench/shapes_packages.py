#!/usr/bin/env python3
"""Benchmark of `ranklift shapes` on whole real packages.

Runs the release binary over pinned PyPI packages of the shapes sweep (downloaded and checked
by SHA-256 through scripts/realworld_shapes.py, cached under ~/.cache/ranklift) and reports, per
package: files, lines, the wall time of `ranklift shapes DIR` (all cores), lines/s, the same
run's `ranklift parse-only DIR` as the baseline (ratio = analysis cost over parsing), the
slowest files (in-process analysis time from `--stats`) and how many files take over 200 ms.

Targets: at least 50,000 lines/s on 2 cores; no file over 200 ms. The table goes in
the closing note; nothing here fails on a time (timings are not tests).

Usage: bench/shapes_packages.py [--bin target/release/ranklift] [--runs 3] [PACKAGE ...]
"""
import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import realworld_shapes  # noqa: E402  (the pinned package list and its cached download)

DEFAULT = ["scikit-learn", "astropy", "statsmodels", "scikit-image", "dipy"]


def best(cmd, runs):
    t, out = 1e9, None
    for _ in range(runs):
        s = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True)
        t = min(t, time.perf_counter() - s)
    return t, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "ranklift"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("packages", nargs="*", default=DEFAULT)
    a = ap.parse_args()
    pinned = {p[0]: p for p in realworld_shapes.PACKAGES}
    print(f"cores: {os.cpu_count()}  binary: {a.bin}")
    print(f"{'package':24} {'files':>6} {'lines':>8} {'wall s':>7} {'lines/s':>9} "
          f"{'parse s':>8} {'x parse':>8} {'>200ms':>7}  slowest files (analysis ms)")
    tot_lines = tot_wall = 0.0
    over = []
    for name in a.packages:
        src = realworld_shapes.fetch(*pinned[name])
        files, lines = realworld_shapes.py_stats(src)
        wall, r = best([a.bin, "shapes", "--stats", str(src)], a.runs)
        if r.returncode not in (0, 1, 2):
            raise SystemExit(f"{name}: exit {r.returncode}\n{r.stderr[-2000:]}")
        parse, _ = best([a.bin, "parse-only", str(src)], a.runs)
        per_file = []
        for m in re.finditer(r"^stats (.+) parse_us=(\d+) analysis_us=(\d+)$", r.stderr, re.M):
            per_file.append((int(m[3]) / 1e3, os.path.relpath(m[1], src)))
        per_file.sort(reverse=True)
        slow = [f for f in per_file if f[0] > 200]
        over += [(ms, f"{name}/{f}") for ms, f in slow]
        top = ", ".join(f"{f} {ms:.0f}" for ms, f in per_file[:2])
        print(f"{name:24} {files:6} {lines:8} {wall:7.2f} {lines / wall:9,.0f} {parse:8.2f} "
              f"{wall / parse:8.1f} {len(slow):7}  {top}")
        tot_lines += lines
        tot_wall += wall
    print(f"{'total':24} {'':6} {int(tot_lines):8} {tot_wall:7.2f} {tot_lines / tot_wall:9,.0f}")
    if over:
        print(f"files over 200 ms: {len(over)}; slowest: " +
              ", ".join(f"{f} {ms:.0f} ms" for ms, f in sorted(over, reverse=True)[:8]))


if __name__ == "__main__":
    main()
