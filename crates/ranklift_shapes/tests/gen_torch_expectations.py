#!/usr/bin/env python3
"""Run every program under tests/torch_programs/ with CPython and real PyTorch and record what
happened (the PyTorch counterpart of gen_program_expectations.py).

Usage: gen_torch_expectations.py OUT.json   (run with scripts/torch-env.sh's Python; the recorded
file names the Python and torch versions it was made with).

- certain/*.py: must raise; records the line and column of the failing operation in the
  program's own file and `ExceptionType: message` (first line).
- annotated/*.py: jaxtyping-annotated code run under jaxtyping's runtime checker (beartype),
  which must raise: an argument or a result that contradicts its annotation.
- clean/*.py: must finish without an exception.
"""
import json
import os
import subprocess
import sys

import torch

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_programs")

HARNESS = r"""
import os, runpy, sys, traceback, json, warnings
warnings.filterwarnings("ignore")
path = sys.argv[1]
sys.argv = [path]
import torch
torch.manual_seed(0)
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


def run(path):
    out = subprocess.run([sys.executable, "-c", HARNESS, path], capture_output=True, text=True,
                         timeout=300, cwd=os.path.dirname(path))
    if out.returncode != 0:
        raise SystemExit(f"{path}: harness failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    result = {"python_version": sys.version.split()[0], "torch_version": torch.__version__,
              "programs": {}}
    for group in ["certain", "annotated", "clean"]:
        for name in sorted(os.listdir(os.path.join(HERE, group))):
            if not name.endswith(".py"):
                continue
            key = f"{group}/{name}"
            r = run(os.path.join(HERE, group, name))
            if group in ("certain", "annotated"):
                assert not r["ok"], f"{key} did not fail"
            else:
                assert r["ok"], f"{key} failed: {r}"
            result["programs"][key] = r
    with open(sys.argv[1], "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
