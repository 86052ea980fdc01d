#!/usr/bin/env python3
"""The imports a rewrite adds are where isort puts them: for every PyTorch example whose files
pass real Ruff's import-order check (`ruff check --select I`, its default settings), the files
`ranklift distribute` writes pass it too.

Negative controls: the same check flags an example with one import appended out of order (so a
silent Ruff cannot pass the test), and the test fails if fewer than half of the examples are
clean inputs (so it cannot pass by judging nothing).

Usage: imports_order_test.py --bin target/debug/ranklift
"""
import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import pinned_venv  # noqa: E402

RUFF = "ruff==0.14.7"
EXAMPLES = HERE.parent / "examples" / "distribute" / "torch"


def ruff_clean(ruff, path):
    got = subprocess.run([str(ruff), "check", "--isolated", "--select", "I", "--quiet", str(path)],
                         capture_output=True, text=True, cwd=path if path.is_dir() else path.parent)
    return got.returncode == 0, got.stdout.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    a = ap.parse_args()
    ruff = pinned_venv.tool("ruff-venv", [RUFF], "ruff")
    inputs = sorted(p for p in EXAMPLES.iterdir()
                    if not p.name.startswith(("_", ".")) and p.name not in ("refusals", "already_ddp")
                    and (p.is_dir() or p.suffix == ".py"))
    tmp = Path(tempfile.mkdtemp(prefix="rl-imports-"))
    clean, failures = 0, []
    try:
        # Control: an import appended after the block's last one, out of order, is flagged.
        probe = tmp / "control.py"
        probe.write_text("import os\n\nimport torch\nimport abc\n\nprint(os, torch, abc)\n")
        ok, _ = ruff_clean(ruff, probe)
        if ok:
            sys.exit("control: ruff passed an unsorted import block; the check is not running")
        for p in inputs:
            ok, _ = ruff_clean(ruff, p)
            if not ok:
                continue
            clean += 1
            out = tmp / p.name
            got = subprocess.run([a.bin, "distribute", str(p), "-o", str(out)], capture_output=True,
                                 text=True)
            if got.returncode != 0:
                failures.append(f"{p.name}: ranklift exited {got.returncode}: {got.stderr.strip()[-200:]}")
                continue
            ok, report = ruff_clean(ruff, out)
            print(f"{'ok  ' if ok else 'FAIL'} {p.name}", flush=True)
            if not ok:
                failures.append(f"{p.name}: the rewrite's imports are out of order:\n{report}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{clean} of {len(inputs)} examples have sorted imports; "
          f"{clean - len(failures)} of their rewrites do too")
    if clean * 2 < len(inputs):
        sys.exit("fewer than half of the examples are clean inputs: the check judges too little")
    if failures:
        sys.exit("\n".join(failures))


if __name__ == "__main__":
    main()
