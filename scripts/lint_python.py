#!/usr/bin/env python3
"""Ruff over the project's own Python: the test and sweep scripts, the benchmarks, the modules
generated programs import (`python/`) and the test helpers next to the crates.

The programs under `examples/` and `crates/*/tests/programs/` are left out: they are inputs of
the analyses (some wrong on purpose). Ruff's default rules (pyflakes, and pycodestyle's errors);
the pin is the one the import-order test uses.

Usage: scripts/lint_python.py [--fix]
"""
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pinned_venv  # noqa: E402
from imports_order_test import RUFF  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def main():
    ruff = pinned_venv.tool("ruff-venv", [RUFF], "ruff")
    paths = ["scripts", "bench", "python", *sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("crates/*/tests/*.py"))]
    cmd = [ruff, "check", "--no-cache", *sys.argv[1:], *paths]
    sys.exit(subprocess.run(cmd, cwd=ROOT).returncode)


if __name__ == "__main__":
    main()
