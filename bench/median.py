#!/usr/bin/env python3
"""`median.py RUNS CMD...`: the median wall time (seconds) of RUNS runs of CMD, output discarded,
after one untimed run that warms the page cache. Fails if CMD fails. Shared by the benchmarks."""
import statistics
import subprocess
import sys
import time

runs = int(sys.argv[1])
cmd = sys.argv[2:]
subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
ts = []
for _ in range(runs):
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ts.append(time.perf_counter() - t)
    if r.returncode != 0:
        sys.exit(f"{cmd} exited {r.returncode}")
print(f"{statistics.median(ts):.4f}")
