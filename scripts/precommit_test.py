#!/usr/bin/env python3
"""The pre-commit hooks, run by real pre-commit (issue 16, part 2).

pre-commit (pinned, in a cached venv under ~/.cache/ranklift/precommit-venv) installs this
repository as the hooks' environment (`language: python`: pip builds the wheel with maturin;
CARGO_TARGET_DIR points at this checkout's target/ and MATURIN_PEP517_ARGS selects the dev profile,
so the binary `cargo test` built is reused, not compiled again) in a
fresh PRE_COMMIT_HOME, and runs the hooks on a sample repository made in a temporary directory:

- `pre-commit try-repo . ranklift-shapes`: a matmul of (4, 3) by (4, 2) fails the hook with
  W504 at its line; once fixed, the hook passes;
- `pre-commit try-repo . ranklift-choreo-check`: a choreography whose `if` leaves B uninformed
  fails with E-KOC; with the selections, it passes;
- `ranklift-distribute-check` with `args: [train.py, -o, train_ddp.py]` (through a
  .pre-commit-config.yaml pinned to this repository's HEAD): passes when train_ddp.py is what
  ranklift writes, fails after train.py changes.

Usage: precommit_test.py   (exit 1 on the first failure)
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("RANKLIFT_CACHE", Path.home() / ".cache" / "ranklift"))
PRECOMMIT = "pre-commit==4.0.1"

BAD_SHAPES = "import numpy as np\n\nx = np.zeros((4, 3)) @ np.ones((4, 2))\n"
GOOD_SHAPES = "import numpy as np\n\nx = np.zeros((4, 3)) @ np.ones((3, 2))\n"
CHOREO = '''from enum import Enum
from pychoral import Role, At, Channel, Ch2

A = Role("A")
B = Role("B")


class Answer(Enum):
    YES = "YES"
    NO = "NO"


class Ask(Ch2[A, B]):
    @staticmethod
    def run(ch: Channel[object, A, B], n: At[int, A]) -> None:
        if n > 0:
{yes}            print("positive" @ B)
        else:
{no}            print("not positive" @ B)
'''


def precommit():
    venv = CACHE / "precommit-venv"
    exe = venv / "bin" / "pre-commit"
    marker = venv / "pinned.txt"
    if not (exe.exists() and marker.exists() and marker.read_text() == PRECOMMIT):
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet",
                        "--disable-pip-version-check", PRECOMMIT], check=True)
        marker.write_text(PRECOMMIT)
    return exe


def git(repo, *args):
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
                   cwd=repo, check=True, capture_output=True)


def check(ok, what, out=""):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        sys.exit(out[-3000:])


def main():
    exe = precommit()
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        env = dict(os.environ, PRE_COMMIT_HOME=str(tmp / "pre-commit-home"),
                   CARGO_TARGET_DIR=str(ROOT / "target"), PRE_COMMIT_COLOR="never",
                   MATURIN_PEP517_ARGS="--profile dev")
        repo = tmp / "sample"
        repo.mkdir()
        git(repo, "init", "-q")
        (repo / "model.py").write_text(BAD_SHAPES)
        (repo / "protocol.py").write_text(CHOREO.format(yes="", no=""))
        shutil.copy(ROOT / "examples/distribute/torch/plain_loop.py", repo / "train.py")
        subprocess.run([str(ROOT / "target/debug/ranklift"), "distribute", "train.py", "-o",
                        "train_ddp.py"], cwd=repo, check=True, capture_output=True)
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "sample")

        def try_repo(hook):
            p = subprocess.run([str(exe), "try-repo", str(ROOT), hook, "--all-files"], cwd=repo,
                               env=env, capture_output=True, text=True)
            return p.returncode, p.stdout + p.stderr

        code, out = try_repo("ranklift-shapes")
        check(code == 1 and "model.py:3:4: W504" in out, "ranklift-shapes fails on a matmul mismatch", out)
        (repo / "model.py").write_text(GOOD_SHAPES)
        code, out = try_repo("ranklift-shapes")
        check(code == 0, "ranklift-shapes passes once it is fixed", out)

        code, out = try_repo("ranklift-choreo-check")
        check(code == 1 and "protocol.py:16:9: error[E-KOC]" in out,
              "ranklift-choreo-check fails on a knowledge-of-choice error", out)
        (repo / "protocol.py").write_text(CHOREO.format(
            yes="            ch.select(Answer.YES @ A)\n", no="            ch.select(Answer.NO @ A)\n"))
        code, out = try_repo("ranklift-choreo-check")
        check(code == 0, "ranklift-choreo-check passes with the selections", out)

        (repo / ".pre-commit-config.yaml").write_text(
            f"repos:\n  - repo: {ROOT}\n    rev: {head}\n    hooks:\n"
            f"      - id: ranklift-distribute-check\n        args: [train.py, -o, train_ddp.py]\n")

        def run_hook():
            p = subprocess.run([str(exe), "run", "ranklift-distribute-check", "--all-files"],
                               cwd=repo, env=env, capture_output=True, text=True)
            return p.returncode, p.stdout + p.stderr

        code, out = run_hook()
        check(code == 0, "ranklift-distribute-check passes when the copy is in sync", out)
        with open(repo / "train.py", "a") as f:
            f.write("print('one more line')\n")
        code, out = run_hook()
        check(code == 1 and "out of date: train_ddp.py" in out,
              "ranklift-distribute-check fails once train.py changed", out)
    print("pre-commit test: passed")


if __name__ == "__main__":
    main()
