#!/usr/bin/env python3
"""`ranklift shapes` on PyTea's own unit tests (PyTea reports 12 of its 18).

PyTea (ropas/pytea, SNU) keeps small PyTorch programs under `packages/pytea/pytest/unit_tests/`:
`fails/` must raise a shape error, `passes/` must not. They are read from the fetched repository
(`fetch` puts it under `--mirror`) at a pinned commit, written to a temporary directory, run with
real torch to confirm each verdict, then given to `ranklift shapes` (default mode):

- a `fails/` program counts when ranklift reports a finding at the line torch raised on;
- a `passes/` program counts when ranklift reports nothing.

Usage: pytea_unit_tests.py --bin target/debug/ranklift --python TORCH_PYTHON [--mirror DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = "ropas/pytea"
COMMIT = "1a38a1f304e135df3acdd28a536d5ffcba297bf6"  # branch develop
DIR = "packages/pytea/pytest/unit_tests"

RUNNER = r"""
import json, os, runpy, sys, traceback, warnings
warnings.filterwarnings("ignore")
path = sys.argv[1]
try:
    runpy.run_path(path, run_name="__main__")
    print(json.dumps({"ok": True}))
except BaseException as e:
    frames = [f for f in traceback.extract_tb(e.__traceback__) if os.path.abspath(f.filename) == os.path.abspath(path)]
    print(json.dumps({"ok": False, "line": frames[-1].lineno if frames else None,
                      "message": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--mirror", default="/work/.mirror")
    args = ap.parse_args()
    args.bin = os.path.abspath(args.bin)
    git = Path(args.mirror) / REPO.replace("/", "+") / "repo"
    if not git.exists():
        print(f"skipped: {REPO} is not fetched under {args.mirror}")
        return 0
    names = subprocess.run(["git", "-C", str(git), "ls-tree", "-r", "--name-only", COMMIT, DIR],
                           capture_output=True, text=True, check=True).stdout.split()
    rows = []
    with tempfile.TemporaryDirectory(prefix="ranklift-pytea-") as tmp:
        for name in sorted(n for n in names if n.endswith(".py")):
            group = Path(name).parent.name
            path = Path(tmp) / group / Path(name).name
            path.parent.mkdir(exist_ok=True)
            path.write_text(subprocess.run(["git", "-C", str(git), "show", f"{COMMIT}:{name}"],
                                           capture_output=True, text=True, check=True).stdout)
            p = subprocess.run([args.python, "-c", RUNNER, str(path)], capture_output=True,
                               text=True, timeout=300, cwd=path.parent)
            truth = json.loads(p.stdout.strip().splitlines()[-1])
            expect_fail = group == "fails"
            if truth["ok"] == expect_fail:
                rows.append((group, path.name, "torch disagrees with the test's name", None))
                continue
            r = subprocess.run([args.bin, "shapes", "--format", "json", path.name], cwd=path.parent,
                               capture_output=True, text=True, timeout=120)
            if r.returncode not in (0, 1) or "panicked" in r.stderr:
                raise SystemExit(f"ranklift failed on {name}: {r.stderr[-1000:]}")
            diags = [d for d in json.loads(r.stdout)["diagnostics"] if not d["code"].startswith("RL")]
            if expect_fail:
                at = [d for d in diags if d["line"] == truth["line"]]
                ok = bool(at)
                said = at[0]["message"] if at else (diags[0]["message"] if diags else "nothing")
                rows.append((group, path.name, "found" if ok else "missed",
                             f"torch {truth['line']}: {truth['message'][:80]} | ranklift: {said[:80]}"))
            else:
                rows.append((group, path.name, "clean" if not diags else "false alarm",
                             "; ".join(f"{d['line']}: {d['message'][:80]}" for d in diags)))
    for g, n, v, why in rows:
        print(f"{g:6} {n:36} {v:12} {why or ''}")
    fails = [r for r in rows if r[0] == "fails"]
    passes = [r for r in rows if r[0] == "passes"]
    found = sum(r[2] == "found" for r in fails)
    clean = sum(r[2] == "clean" for r in passes)
    print(f"PyTea unit tests: fails found {found}/{len(fails)}, passes clean {clean}/{len(passes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
