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
import runpy
import signal
import sys
import time
import traceback

import numpy as np

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")

def _child(path, args, w):
    """In a forked child: run `path` as __main__ and write what happened to the pipe `w`."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.chdir(os.path.dirname(path))
    sys.argv = [path, *args]
    sys.path.insert(0, os.path.dirname(path))
    np.random.seed(0)
    try:
        runpy.run_path(path, run_name="__main__")
        result = {"ok": True}
    except BaseException as e:  # noqa: BLE001 - SystemExit and all: what the program raised
        frames = [f for f in traceback.extract_tb(e.__traceback__)
                  if os.path.abspath(f.filename) == os.path.abspath(path)]
        f = frames[-1]
        msg = str(e).split("\n")[0]
        result = {"ok": False, "line": f.lineno, "col": f.colno, "message": f"{type(e).__name__}: {msg}"}
    with os.fdopen(w, "w") as out:
        json.dump(result, out)
    os._exit(0)


def run(path, args):
    """Run one program in a child forked from this process, which has NumPy imported already (a
    fresh interpreter per program spent most of the time importing NumPy): the child starts from
    the same state every time — nothing a program imports or sets reaches the next one."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            _child(path, args, w)
        finally:
            os._exit(1)
    os.close(w)
    deadline = time.monotonic() + 120
    with os.fdopen(r) as f:
        # A program that hangs is killed at the deadline; the empty read then fails below.
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                break
            time.sleep(0.005)
        text = f.read()
    if not text:
        raise SystemExit(f"{path}: the program's run reported nothing (killed, or hung past 120 s)")
    return json.loads(text)


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
