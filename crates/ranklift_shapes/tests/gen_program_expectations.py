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
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
from fork_runner import fork_call, run_program  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")

def run(path, args):
    """Run one program in a child forked from this process, which has NumPy imported already
    (scripts/fork_runner.py: a fresh interpreter per program spent most of the time importing
    NumPy); every child starts from the same state."""
    r = fork_call(run_program, path, args)
    if r is None:
        raise SystemExit(f"{path}: the program's run reported nothing (killed, or hung past 120 s)")
    if r["ok"]:
        return {"ok": True}
    return {"ok": False, "line": r["line"], "col": r["col"], "message": r["message"]}


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
