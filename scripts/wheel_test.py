#!/usr/bin/env python3
"""The pip package, for real.

Builds the wheel with maturin (pinned, in a cached venv under ~/.cache/ranklift/wheel-venv),
installs it into a fresh venv with pip (no index: nothing but the wheel), and runs each command
from that install on an example:

- `ranklift --version` and `python -m ranklift --version` (the package finds its binary);
- `distribute --diff` on a PyTorch example: a DDP diff;
- `shapes` on the example notebook: its W504 at cell 5 (exit 1);
- `choreo check` and `choreo run` on two_phase_commit: the per-role lines of
  examples/choreo/expected.json;
- `choreo project --emit-erased`, then the projection run with the *installed* `pychoral_rt`
  (the copy written next to it is deleted first) and the role-erased program with the
  installed `pychoral`;
- a program with `ranklift.hints` annotations, run by the venv's Python;
- `server`: initialize and shutdown over stdio.

Negative control: a fresh venv without the wheel has none of these (no `ranklift` script, no
`pychoral`, `pychoral_rt` or `ranklift.hints` to import).

The wheel is a *manylinux* wheel (PEP 600), installed with `pip install --only-binary :all:
--no-index` — what pip does with a prebuilt wheel from PyPI, no compiler involved:

- default: Cargo's dev profile, which reuses the binary `cargo test` already compiled (seconds
  instead of a cold build of several minutes in CI), tagged `manylinux_2_34` after maturin's
  audit of the binary's glibc symbols (this machine's glibc is 2.36; the binary needs 2.34);
- `--zig`: the release recipe, `--zig --compatibility manylinux_2_28` (maturin links with
  `ziglang` from PyPI against glibc 2.28: RHEL 8, Ubuntu 20.04 and newer); with `--release`,
  the optimized wheel a user downloads. A separate target directory: a cold build of ~6 min
  (dev) on 2 cores, so CI runs the default and the closing notes record a `--zig --release` run.

What it checks — the package's layout, scripts and Python packages — is the same for all.
The wheel is left in `target/wheels/` (`--wheel-dir` to change it), where
scripts/precommit_test.py installs the hooks from.

Usage: wheel_test.py [--wheel-dir DIR] [--release] [--zig]   (exit 1 on the first failure)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pinned_venv  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MATURIN = "maturin==1.9.6"
ZIG = "ziglang==0.13.0.post1"


def run(cmd, want=0, cwd=None, env=None, stdin=None):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, input=stdin)
    if want is not None and p.returncode != want:
        sys.exit(f"FAILED: {' '.join(map(str, cmd))}: exit {p.returncode} (want {want})\n"
                 f"{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    return p


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        sys.exit(1)


def maturin():
    return pinned_venv.tool("wheel-venv", [MATURIN, ZIG], "maturin")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wheel-dir")
    ap.add_argument("--release", action="store_true")
    ap.add_argument("--zig", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        dist = Path(a.wheel_dir) if a.wheel_dir else ROOT / "target" / "wheels"
        for old in dist.glob("ranklift-*.whl"):
            old.unlink()
        profile = ["--release"] if a.release else ["--profile", "dev"]
        tag = "manylinux_2_28" if a.zig else "manylinux_2_34"
        compat = ["--zig", "--compatibility", tag] if a.zig else ["--compatibility", tag]
        exe = maturin()
        # maturin finds `python -m ziglang` through the venv's python on PATH.
        env = dict(os.environ, PATH=f"{exe.parent}{os.pathsep}{os.environ.get('PATH', '')}")
        t0 = time.monotonic()
        run([str(exe), "build", *profile, *compat, "--quiet", "-o", str(dist)], cwd=ROOT, env=env)
        built = time.monotonic() - t0
        wheels = sorted(dist.glob("ranklift-*.whl"))
        check(len(wheels) == 1, f"maturin built one wheel: {[w.name for w in wheels]}")
        check(wheels[0].name.endswith(f"-py3-none-{tag}_x86_64.whl"),
              f"a {tag} wheel ({wheels[0].stat().st_size / 1e6:.1f} MB, built in {built:.0f} s)")
        venv = tmp / "venv"
        run([sys.executable, "-m", "venv", str(venv)])
        py, rl = venv / "bin" / "python", venv / "bin" / "ranklift"
        # Negative control first: the same venv before the install has nothing of ranklift.
        check(not rl.exists(), "before the install: no ranklift script in the venv")
        for mod in ("pychoral", "pychoral_rt", "ranklift.hints"):
            p = run([str(py), "-c", f"import {mod}"], want=None, cwd=tmp)
            check(p.returncode != 0, f"before the install: `import {mod}` fails")
        # As pip installs a prebuilt wheel from an index: binaries only, nothing compiled.
        t0 = time.monotonic()
        run([str(py), "-m", "pip", "install", "--quiet", "--only-binary", ":all:", "--no-index",
             "--find-links", str(dist), "--disable-pip-version-check", "ranklift"])
        check(True, f"pip install --only-binary :all: --no-index: {time.monotonic() - t0:.1f} s")
        # ranklift_tf needs TensorFlow to import: that it is installed, and is the
        # module `distribute` writes next to its programs, is what is checked.
        spec = run([str(py), "-c", "import importlib.util as u; print(u.find_spec('ranklift_tf').origin)"],
                   cwd=tmp).stdout.strip()
        runtime = (ROOT / "python" / "ranklift_tf.py").read_text()
        check(Path(spec).read_text() == runtime, "ranklift_tf.py is installed (what distribute writes for TF >= 2.16)")
        version = run([str(rl), "--version"]).stdout.strip()
        check(version.startswith("ranklift "), f"ranklift --version: {version}")
        via_module = run([str(py), "-m", "ranklift", "--version"]).stdout.strip()
        check(via_module == version, f"python -m ranklift --version: {via_module}")

        # Copies of the examples, so that nothing is written into the repository.
        work = tmp / "work"
        work.mkdir()
        ex = ROOT / "examples"
        diff = run([str(rl), "distribute", str(ex / "distribute/torch/plain_loop.py"), "--diff"],
                   cwd=work).stdout
        check("DistributedDataParallel as DDP" in diff and "model = DDP(model" in diff,
              "distribute --diff on a PyTorch example: a DDP rewrite")
        nb = run([str(rl), "shapes", str(ex / "shapes/notebook/analysis.ipynb")], want=1).stdout
        check(":cell 5:3:5: W504" in nb, "shapes on a notebook: W504 at cell 5")
        chor = ex / "choreo/two_phase_commit.py"
        run([str(rl), "choreo", "check", str(chor)])
        expected = json.loads((ex / "choreo/expected.json").read_text())["two_phase_commit"]
        want_lines = sorted(f"[{r}] {ln}" for r, ls in expected["roles"].items() for ln in ls)
        out = run([str(rl), "choreo", "run", str(chor), "--python", str(py)]).stdout
        check(sorted(out.split("\n")[:-1]) == want_lines, "choreo run: the expected role lines")
        proj = work / "proj"
        run([str(rl), "choreo", "project", str(chor), "-o", str(proj), "--emit-erased"])
        (proj / "pychoral_rt.py").unlink()
        out = run([str(py), "-m", "pychoral_rt", "run", "two_phase_commit_chor",
                   expected["entry"]], cwd=proj).stdout
        check(sorted(out.split("\n")[:-1]) == want_lines,
              "the projection runs with the installed pychoral_rt")
        out = run([str(py), "two_phase_commit_erased.py"], cwd=proj).stdout
        erased = sorted(ln for ls in expected["roles"].values() for ln in ls)
        check(sorted(out.split("\n")[:-1]) == erased,
              "the role-erased program runs with the installed pychoral")
        hinted = work / "hinted.py"
        hinted.write_text("from ranklift.hints import NdArray\n\n\n"
                          "def scale(x: NdArray[2, 3]) -> NdArray[2, 3]:\n    return x\n\n\n"
                          "print(scale([[1, 2, 3], [4, 5, 6]]))\n")
        out = run([str(py), str(hinted)], cwd=work).stdout
        check(out.strip() == "[[1, 2, 3], [4, 5, 6]]", "a hinted program runs with ranklift.hints")
        run([str(rl), "shapes", str(hinted)])
        page = run([str(rl), "rule", "W504"]).stdout
        check(page.startswith("# W504"), "rule W504: the code's page")

        def frame(m):
            body = json.dumps(m)
            return f"Content-Length: {len(body)}\r\n\r\n{body}"

        session = "".join(frame(m) for m in [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"processId": None, "capabilities": {}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
            {"jsonrpc": "2.0", "method": "exit", "params": None},
        ])
        out = run([str(rl), "server"], stdin=session).stdout
        check('"serverInfo":{"name":"ranklift"' in out.replace(" ", ""),
              "server: initialize and shutdown over stdio")
    print("wheel test: passed")


if __name__ == "__main__":
    main()
