#!/usr/bin/env python3
"""The pre-commit hooks, run by real pre-commit (from the wheel).

pre-commit (pinned, in a cached venv under ~/.cache/ranklift/precommit-venv) runs the hooks on a
sample repository made in a temporary directory, in a fresh PRE_COMMIT_HOME, from the
*mirror* (pre-commit-mirror/, made a git repository here as it is published): a package whose
one dependency is the ranklift wheel, as Ruff's pre-commit mirror. pip finds the wheel that
scripts/wheel_test.py left in target/wheels/ (PIP_FIND_LINKS) and may not build ranklift from
source (PIP_ONLY_BINARY=ranklift): no compiler is involved.

- `ranklift-shapes`: a matmul of (4, 3) by (4, 2) fails the hook with W504 at its line; once
  fixed, the hook passes;
- `ranklift-choreo-check`: a choreography whose `if` leaves B uninformed fails with E-KOC; with
  the selections, it passes;
- `ranklift-distribute-check` with `args: [train.py, -o, train_ddp.py]`: passes when
  train_ddp.py is what ranklift writes, fails after train.py changes;
- negative control: without the wheel to find, the hooks' environment cannot be made (ranklift
  is not on the index), so the hooks above ran the wheel;
- the source route (this repository's own .pre-commit-hooks.yaml, `pre-commit try-repo .`)
  still works: pip builds the wheel with maturin (CARGO_TARGET_DIR at this checkout's target/
  and MATURIN_PEP517_ARGS selecting the dev profile, so `cargo test`'s build is reused).

Usage: precommit_test.py   (after scripts/wheel_test.py; exit 1 on the first failure)
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pinned_venv  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
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
    return pinned_venv.tool("precommit-venv", [PRECOMMIT], "pre-commit")


def git(repo, *args):
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
                   cwd=repo, check=True, capture_output=True)


def check(ok, what, out=""):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        sys.exit(out[-3000:])


def main():
    exe = precommit()
    wheels = sorted((ROOT / "target" / "wheels").glob("ranklift-*.whl"))
    check(len(wheels) == 1, f"a wheel to install: {[w.name for w in wheels]} "
          "(scripts/wheel_test.py builds it)")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        base = dict(os.environ, PRE_COMMIT_COLOR="never", PIP_ONLY_BINARY="ranklift",
                    PIP_DISABLE_PIP_VERSION_CHECK="1")
        env = dict(base, PRE_COMMIT_HOME=str(tmp / "pre-commit-home"),
                   PIP_FIND_LINKS=str(wheels[0].parent))
        mirror = tmp / "mirror"
        shutil.copytree(ROOT / "pre-commit-mirror", mirror)
        git(mirror, "init", "-q")
        git(mirror, "add", "-A")
        git(mirror, "commit", "-qm", "mirror")
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=mirror, capture_output=True,
                             text=True, check=True).stdout.strip()
        repo = tmp / "sample"
        repo.mkdir()
        git(repo, "init", "-q")
        (repo / "model.py").write_text(BAD_SHAPES)
        (repo / "protocol.py").write_text(CHOREO.format(yes="", no=""))
        shutil.copy(ROOT / "examples/distribute/torch/plain_loop.py", repo / "train.py")
        subprocess.run([str(ROOT / "target/debug/ranklift"), "distribute", "train.py", "-o",
                        "train_ddp.py"], cwd=repo, check=True, capture_output=True)
        (repo / ".pre-commit-config.yaml").write_text(
            f"repos:\n  - repo: {mirror}\n    rev: {rev}\n    hooks:\n"
            "      - id: ranklift-shapes\n      - id: ranklift-choreo-check\n"
            "      - id: ranklift-distribute-check\n        args: [train.py, -o, train_ddp.py]\n")
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "sample")

        def hook(name, env=env):
            p = subprocess.run([str(exe), "run", name, "--all-files"], cwd=repo, env=env,
                               capture_output=True, text=True)
            return p.returncode, p.stdout + p.stderr

        # Negative control first: no wheel to find, no environment (and no compiling instead).
        code, out = hook("ranklift-shapes", dict(base, PRE_COMMIT_HOME=str(tmp / "no-wheel")))
        check(code != 0 and "ranklift" in out and "W504" not in out,
              "without the wheel, the mirror's hooks cannot be installed", out)

        code, out = hook("ranklift-shapes")
        check(code == 1 and "model.py:3:5: W504" in out,
              "ranklift-shapes (installed from the wheel) fails on a matmul mismatch", out)
        (repo / "model.py").write_text(GOOD_SHAPES)
        code, out = hook("ranklift-shapes")
        check(code == 0, "ranklift-shapes passes once it is fixed", out)

        code, out = hook("ranklift-choreo-check")
        check(code == 1 and "protocol.py:16:9: error[E-KOC]" in out,
              "ranklift-choreo-check fails on a knowledge-of-choice error", out)
        (repo / "protocol.py").write_text(CHOREO.format(
            yes="            ch.select(Answer.YES @ A)\n", no="            ch.select(Answer.NO @ A)\n"))
        code, out = hook("ranklift-choreo-check")
        check(code == 0, "ranklift-choreo-check passes with the selections", out)

        code, out = hook("ranklift-distribute-check")
        check(code == 0, "ranklift-distribute-check passes when the copy is in sync", out)
        with open(repo / "train.py", "a") as f:
            f.write("print('one more line')\n")
        code, out = hook("ranklift-distribute-check")
        check(code == 1 and "out of date: train_ddp.py" in out,
              "ranklift-distribute-check fails once train.py changed", out)

        # The source route: this repository's own hooks, built by pip with maturin.
        (repo / "model.py").write_text(BAD_SHAPES)
        src_env = dict(os.environ, PRE_COMMIT_HOME=str(tmp / "from-source"),
                       CARGO_TARGET_DIR=str(ROOT / "target"), PRE_COMMIT_COLOR="never",
                       MATURIN_PEP517_ARGS="--profile dev")
        p = subprocess.run([str(exe), "try-repo", str(ROOT), "ranklift-shapes", "--all-files"],
                           cwd=repo, env=src_env, capture_output=True, text=True)
        check(p.returncode == 1 and "model.py:3:5: W504" in p.stdout + p.stderr,
              "from source (try-repo of this repository): the same W504", p.stdout + p.stderr)
    print("pre-commit test: passed")


if __name__ == "__main__":
    main()
