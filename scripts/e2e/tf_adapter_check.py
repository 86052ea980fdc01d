#!/usr/bin/env python3
"""Two properties of python/ranklift_tf.py on 2 real TensorFlow workers (`ranklift launch`):

1. `broadcast_object` of a 16 MiB object arrives whole on every worker (its SHA-256 compared);
   it travels as a tensor of 32-bit words, not a Python list of ints (which took 20-34 s and
   ~490 MiB per worker for this size).
2. A worker that is alive but never reaches a collective does not block the others forever:
   with RANKLIFT_COLLECTIVE_TIMEOUT=5 the waiting worker fails with ranklift_tf's message well
   before 60 s. Negative control: a worker that arrives after 2 s (within the timeout) lets the
   collective complete.

3. Threads stay bounded over many steps: after 3,000 all-reduces in a compiled step the
   worker holds a few hundred threads at most (TensorFlow keeps one per collective for its
   timeout). Negative control: with RANKLIFT_COLLECTIVE_TIMEOUT=600 the same run holds
   thousands.

Usage: tf_adapter_check.py --bin target/debug/ranklift (run with the TF venv's python).
Prints one line per check and `N passed, M failed`.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BROADCAST = """
import hashlib, os, sys
sys.path.insert(0, os.environ["RANKLIFT_TF_DIR"])
import ranklift_tf as hvd
hvd.init()
blob = hashlib.sha256(b"seed").digest() * (1 << 19)  # 16 MiB, the same on every worker
obj = {"blob": blob, "n": 3} if hvd.rank() == 0 else None
got = hvd.broadcast_object(obj, root_rank=0)
print(hashlib.sha256(got["blob"]).hexdigest(), got["n"], hashlib.sha256(blob).hexdigest())
"""

LATE = """
import os, sys, time
sys.path.insert(0, os.environ["RANKLIFT_TF_DIR"])
import ranklift_tf as hvd
hvd.init()
if hvd.rank() == 1:
    time.sleep(float(sys.argv[1]))
try:
    print("got", hvd.broadcast_object("x", root_rank=0), flush=True)
except RuntimeError as e:
    print("error", e, flush=True)
    sys.exit(7)
"""

STEPS = """
import os, sys
sys.path.insert(0, os.environ["RANKLIFT_TF_DIR"])
import tensorflow as tf
import ranklift_tf as hvd
hvd.init()
w = tf.Variable(tf.ones([8]))


@tf.function
def step():
    w.assign_add(hvd.allreduce(tf.ones([8]) * 1e-6))


for _ in range(int(sys.argv[1])):
    step()
with open(f"/proc/{os.getpid()}/status") as f:
    threads = next(l.split()[1] for l in f if l.startswith("Threads:"))
print("threads", threads, flush=True)
"""


def launch(bin_path, script, *args, env=None):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(script)
    full = dict(os.environ, RANKLIFT_TF_DIR=str(ROOT / "python"), **(env or {}))
    t = time.monotonic()
    p = subprocess.run([bin_path, "launch", "-n", "2", sys.executable, f.name, *args],
                       capture_output=True, text=True, env=full, timeout=300)
    os.unlink(f.name)
    return p.returncode, p.stdout, time.monotonic() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    a = ap.parse_args()
    results = []

    rc, out, _ = launch(a.bin, BROADCAST)
    lines = [ln.split(":", 1)[1].split() for ln in out.splitlines() if "<stdout>:" in ln]
    ok = rc == 0 and len(lines) == 2 and all(got == want and n == "3" for got, n, want in lines)
    results.append((ok, f"broadcast_object of 16 MiB arrives whole on both workers (exit {rc})"))

    rc, out, secs = launch(a.bin, LATE, "40", env={"RANKLIFT_COLLECTIVE_TIMEOUT": "5"})
    ok = rc == 7 and "did not complete within 5 s: worker 1 never reached it" in out and secs < 60
    results.append((ok, f"a worker that never arrives: the other fails with the timeout's message in {secs:.0f} s (exit {rc})"))

    rc, out, _ = launch(a.bin, LATE, "2", env={"RANKLIFT_COLLECTIVE_TIMEOUT": "5"})
    ok = rc == 0 and out.count("got x") == 2
    results.append((ok, f"control: a worker 2 s late is waited for (exit {rc})"))

    def threads(env=None):
        rc, out, _ = launch(a.bin, STEPS, "3000", env=env)
        counts = [int(ln.split()[-1]) for ln in out.splitlines() if "<stdout>:threads" in ln]
        return rc, max(counts) if len(counts) == 2 else None

    rc, n = threads()
    results.append((rc == 0 and n is not None and n < 500,
                    f"3,000 compiled all-reduces: at most {n} threads per worker (exit {rc})"))
    rc, n = threads({"RANKLIFT_COLLECTIVE_TIMEOUT": "600"})
    results.append((rc == 0 and n is not None and n > 2000,
                    f"control: with a 600 s collective timeout the same run holds {n} threads (exit {rc})"))

    for ok, what in results:
        print(f"{'PASS' if ok else 'FAIL'} {what}")
    passed = sum(ok for ok, _ in results)
    print(f"{passed} passed, {len(results) - passed} failed")
    sys.exit(0 if passed == len(results) else 1)


if __name__ == "__main__":
    main()
