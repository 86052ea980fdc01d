#!/usr/bin/env python3
"""Run every program under tests/programs/ with CPython and NumPy and record what happened.

Usage: gen_program_expectations.py OUT.json   (needs NumPy; the recorded file names the Python
and NumPy versions it was made with).

- certain/*.py: must raise; records the line (and column) of the failing operation in the
  program's own file and `ExceptionType: message` (first line). `helpers_*.py` are imported
  modules, not programs.
- clean/*.py: must finish without an exception.
- versioned/*.py: fail with one NumPy major version and not the other (removed names, NumPy 2's
  own messages); recorded as they ran, failing or not.
- runtime/*.py: the first line lists inputs (`# inputs: 3 | 4`); the program is run once per
  input (as sys.argv[1:]); at least one input must succeed and one must fail, and the failure
  is recorded as for certain/.
"""
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")

HARNESS = r"""
import os, runpy, sys, traceback, json
path = sys.argv[1]
sys.argv = [path] + sys.argv[2:]
sys.path.insert(0, os.path.dirname(path))
import numpy
numpy.random.seed(0)
try:
    runpy.run_path(path, run_name="__main__")
    print(json.dumps({"ok": True}))
except BaseException as e:
    frames = [f for f in traceback.extract_tb(e.__traceback__) if os.path.abspath(f.filename) == os.path.abspath(path)]
    f = frames[-1]
    msg = str(e).split("\n")[0]
    print(json.dumps({"ok": False, "line": f.lineno, "col": f.colno,
                      "message": f"{type(e).__name__}: {msg}"}))
"""


def run(path, args):
    out = subprocess.run([sys.executable, "-c", HARNESS, path, *args], capture_output=True,
                         text=True, timeout=120, cwd=os.path.dirname(path))
    if out.returncode != 0:
        raise SystemExit(f"{path}: harness failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    result = {"python_version": sys.version.split()[0], "numpy_version": np.__version__,
              "programs": {}}
    for group in ["certain", "clean", "runtime", "versioned"]:
        for name in sorted(os.listdir(os.path.join(HERE, group))):
            if not name.endswith(".py") or name.startswith("helpers_"):
                continue
            path = os.path.join(HERE, group, name)
            key = f"{group}/{name}"
            if group == "runtime":
                first = open(path).readline()
                assert first.startswith("# inputs:"), key
                runs = []
                for inp in first.split(":", 1)[1].split("|"):
                    args = inp.split()
                    r = run(path, args)
                    r["args"] = args
                    runs.append(r)
                assert any(r["ok"] for r in runs) and not all(r["ok"] for r in runs), (key, runs)
                result["programs"][key] = {"runs": runs}
            else:
                r = run(path, [])
                if group == "certain":
                    assert not r["ok"], f"{key} did not fail"
                elif group == "clean":
                    assert r["ok"], f"{key} failed: {r}"
                result["programs"][key] = r
    with open(sys.argv[1], "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
