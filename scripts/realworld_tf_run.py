#!/usr/bin/env python3
"""Real TensorFlow programs nobody here wrote, run through `ranklift distribute` on 2 real Horovod
ranks: the sweep that measures first contact.

For every program of the manifest (`scripts/realworld-tf-programs.json`: a public repository at
a pinned commit, a script or a notebook, its arguments), from a snapshot fetched locally (the
search tool's `fetch`, under /work/.mirror; never copied into this repository):

1. the program's directory is exported from the snapshot into a scratch directory, unmodified; a
   notebook becomes the script `jupyter nbconvert --to script` would write (magics and shell
   escapes commented out), which is what a user hands to ranklift; one of Horovod's own examples
   (`remove_horovod`) has Horovod taken out first (realworld_common.remove_horovod), which gives
   the single-process program its authors started from;
2. `ranklift distribute SCRIPT --format json` writes the rewrite next to it, or refuses, or says
   the program is already distributed (a program left alone or refused is not run);
3. the original runs on one process with the offline data layer
   (`python/ranklift/synthetic_data.py`: synthetic `tf.keras.datasets`, no downloads)
   and the probes (`scripts/e2e/tf_probe.py`), from a copy (what it writes stays there);
4. the rewrite runs on 2 ranks (`horovodrun -np 2 --gloo`, ranks seeded apart) with the same
   arguments, from the directory the printed launch command names;
5. the checks: the run succeeds; both ranks end with the same weights (every variable an
   optimizer stepped); rank 1 prints nothing and writes no file; the examples the ranks trained
   on are disjoint (hashes of every training row; see tf_probe.py); the ranks together take at
   least 0.6 of the original's optimizer steps (not divided twice); rank 0's loss falls where
   the original's did (GANs exempt).

Rows: PASS, FAIL (ranklift rewrote it and the rewrite is wrong), REFUSED (ranklift declined: its
code, to be justified), ALREADY, SKIP (the original does not run here: data the layer does not
provide, a missing package, a TF 1 API that TensorFlow 2.13 no longer has).

Usage: realworld_tf_run.py --bin target/debug/ranklift [--mirror /work/.mirror] [--only NAME...]
       [--json results.json] [--engine collectives --manifest scripts/realworld-keras3-programs.json]
       [--verify] [--held-back]
With --verify, every rewritten program is also run through the user's command, `ranklift
distribute SCRIPT --verify --synthetic-data` (8 steps), on a fresh copy, and each row says
whether the two verdicts agree (PASS and exit 0, or a failure and a failed check).
Run with the Horovod venv's python (scripts/horovod-env.sh). Prints a table and `N passed, M
failed` (failed = FAIL rows).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import e2e_distribute as e2e  # noqa: E402  (running, rank output, the split tolerance)
from realworld_common import export_program, loss_fall_error_by_model, loss_judged, notebook_to_script, ranklift_verdict, remove_horovod, summarize  # noqa: E402

SITE = HERE / "realworld_tf"
MANIFEST = HERE / "realworld-tf-programs.json"
# What tutorials import besides TensorFlow (plots, tables, GIFs, IPython.display), pinned to
# what TensorFlow 2.13's numpy 1.24 allows; installed into the venv on first use only.
EXTRAS = ["matplotlib==3.8.4", "contourpy==1.2.1", "pandas==2.0.3", "pillow==10.4.0",
          "imageio==2.34.2", "ipython==8.18.1", "tensorflow-probability==0.21.0", "numpy==1.24.3",
          "scikit-learn==1.3.2"]
# TensorFlow's tutorials embed their GIFs with tensorflow_docs (its own dependencies are for
# building the docs, not for `vis.embed`): installed without them, so they cannot move pins.
NO_DEPS = ["tensorflow-docs==2025.2.19.33219"]
AGREE_TOL = 1e-6


# The collectives engine's venv (TensorFlow 2.21, numpy 2): what the Keras 3 examples import.
EXTRAS_COLLECTIVES = ["matplotlib==3.10.7", "pandas==2.3.3", "ipython==9.7.0"]
ENGINE = {"name": "horovod"}


def ensure_extras():
    if ENGINE["name"] == "collectives":
        if subprocess.run([sys.executable, "-c", "import matplotlib, pandas, IPython"], capture_output=True).returncode != 0:
            subprocess.run([sys.executable, "-m", "pip", "install", "--quiet"] + EXTRAS_COLLECTIVES, check=True)
        return
    probe = "import matplotlib, pandas, PIL, imageio, IPython, tensorflow_probability, tensorflow_docs.vis.embed, sklearn"
    if subprocess.run([sys.executable, "-c", probe], capture_output=True).returncode != 0:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet"] + EXTRAS, check=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"] + NO_DEPS, check=True)


def first_error(text):
    """The error a rank died of: the last exception line of horovodrun's output that is not
    horovodrun's own summary."""
    lines = [ln.split(">:", 1)[-1].strip() for ln in text.splitlines()]
    errs = [ln for ln in lines if re.match(r"^[A-Za-z_.]*(Error|Exception)\b", ln)
            and "Horovod detected that one or more processes" not in ln]
    return errs[-1] if errs else (lines[-1] if lines else "?")


def env_for(rec, tmp, n, ranks=False, real_sizes=False):
    env = {"RANKLIFT_OFFLINE_REAL_SIZES": "1" if real_sizes else "0","RANKLIFT_E2E_PROBE": str(rec), "RANKLIFT_E2E_COUNT": str(rec), "PYTHONPATH": str(SITE),
           "PYTHONHASHSEED": "0", "RANKLIFT_OFFLINE_N": str(n), "MPLBACKEND": "Agg",
           "TMPDIR": str(tmp), "TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONUNBUFFERED": "1"}
    if ranks:
        env.update(RANKLIFT_E2E_TMP=str(tmp), RANKLIFT_E2E_DESYNC="1")
    return env


def load(rec, rank):
    j, z = rec / f"probe{rank}.json", rec / f"probe{rank}.npz"
    if not j.exists():
        return None
    out = json.loads(j.read_text())
    weights = np.load(z) if z.exists() else {}
    out["weights"] = [weights[k] for k in sorted(getattr(weights, "files", []))]
    count = rec / f"count{rank}.json"
    out["steps"] = json.loads(count.read_text())["steps"] if count.exists() else None
    return out


class Failure(Exception):
    pass


def check(orig, recs, stdout, orig_printed, adversarial):
    if None in recs:
        raise Failure("a rank wrote no probe record (it did not reach exit)")
    a, b = recs[0]["weights"], recs[1]["weights"]
    if not a:
        raise Failure("no variable was stepped by an optimizer on rank 0")
    d = e2e.max_diff(a, b)
    if d > AGREE_TOL:
        raise Failure(f"ranks end with different weights (max |diff| = {d:.3g})")
    r1 = e2e.rank_output(stdout, 1)
    if r1:
        raise Failure(f"rank 1 printed: {r1.splitlines()[0][:120]!r}")
    if orig_printed and not e2e.rank_output(stdout, 0):
        raise Failure("rank 0 printed nothing, the original did")
    if recs[1]["writes"]:
        raise Failure(f"rank 1 wrote {len(set(recs[1]['writes']))} file(s): "
                      f"{sorted({os.path.basename(w) for w in recs[1]['writes']})[:3]}")
    # Real programs may draw their data at random per process (`tf.random.normal` unseeded):
    # the ranks' examples need not be the original's, only split between them.
    why = e2e.samples_error(orig and orig["batches"], [recs[0]["batches"], recs[1]["batches"]],
                            coverage=False)
    if why:
        raise Failure(why)
    # Each rank takes about half the original's steps (a full-batch loop or a benchmark keeps
    # all of them on each rank); together much fewer than the original means the work was
    # divided twice — the epochs and the data both — and the run trains on a fraction of it.
    so, s0, s1 = (orig or {}).get("steps"), recs[0].get("steps"), recs[1].get("steps")
    if so and so >= 8 and s0 is not None and s1 is not None and s0 + s1 < 0.6 * so:
        raise Failure(f"the ranks together took {s0}+{s1} of the original's {so} optimizer steps: "
                      "the work is divided twice (the loop's count and the data)")
    if orig and not adversarial:
        why = loss_fall_error_by_model(orig, recs[0])
        if why:
            raise Failure(why)


def prepared(p, mirror, dest):
    """The program as ranklift gets it (exported; a notebook as its script; Horovod removed)."""
    subdir, script = os.path.split(p["path"])
    export_program(p, mirror, subdir, dest)
    if script.endswith(".ipynb"):
        script = notebook_to_script(dest / script).name
    if p.get("remove_horovod"):
        remove_horovod(dest / script)
    return script


def rewrite_ast(bin_path, p, mirror, work):
    """What a ranklift binary makes of the program, as syntax trees (`ast.dump` of every file it
    writes, no formatting), with its status and codes: two binaries whose trees are equal made
    the same program."""
    import ast

    d = work / f"ast-{abs(hash(str(bin_path))) % 10**8}"
    shutil.rmtree(d, ignore_errors=True)
    script = prepared(p, mirror, d)
    before = {f: f.read_bytes() for f in d.rglob("*") if f.is_file()}
    rc, so, se, _ = e2e.run([str(bin_path), "distribute", script, "--format", "json"], cwd=d)
    try:
        report = json.loads(so)
    except ValueError:
        return None
    trees = {}
    for f in sorted(d.rglob("*.py")):
        if before.get(f) != f.read_bytes():
            try:
                trees[str(f.relative_to(d))] = ast.dump(ast.parse(f.read_text()))
            except SyntaxError:
                return None
    codes = sorted({x["code"] for x in report.get("diagnostics", [])})
    shutil.rmtree(d, ignore_errors=True)
    return report.get("status"), codes, trees


def verify_row(row, bin_path, p, mirror, work, args, timeout):
    """The user's `ranklift distribute SCRIPT --verify --synthetic-data` (8 steps) on a fresh copy
    of the program (`--verify`): its verdict beside the sweep's. The learning-rate scaling the
    rewrite did is known to that command, as it is to the user."""
    vsrc = work / "vsrc"
    script = prepared(p, mirror, vsrc)
    cmd = [str(bin_path), "distribute", script, "--verify", "--python", sys.executable,
           "--synthetic-data", "--timeout", str(timeout), "--"] + args
    rc, so, se, t = e2e.run(cmd, cwd=vsrc, timeout=4 * timeout + 120)
    m = re.search(r"Verification failed: (.*?) \(\d+ of \d+ checks", so + se)
    failed = m.group(1).split(", ") if m else []
    row["verify_evidence"] = {ln.split(None, 2)[1]: ln[:4000] for ln in so.splitlines()
                              if ln.startswith("FAIL ") and len(ln.split(None, 2)) > 2}
    why = ""
    if rc == 2:
        lines = [ln for ln in se.strip().splitlines() if ln.strip()]
        cause = next((ln for ln in lines if "cannot verify" in ln), lines[-1] if lines else "?")
        why = cause[:160]
    row["verify"] = {"exit": rc, "failed": failed, "secs": round(t, 1), "why": why}
    row["agree"] = (row["result"] == "PASS") == (rc == 0)


def run_program(p, bin_path, mirror, work, verify=False):
    row = run_checks(p, bin_path, mirror, work)
    if verify and row["result"] in ("PASS", "FAIL") and "harness error" not in row["why"]:
        verify_row(row, bin_path, p, mirror, work, p.get("args", []), p.get("timeout", 600))
    return row


def run_checks(p, bin_path, mirror, work):
    row = {"name": p["name"], "repo": p["repo"], "result": "FAIL", "why": "", "codes": []}
    src = work / "src"
    script = prepared(p, mirror, src)
    args = p.get("args", [])
    n = p.get("n", 512)
    timeout = p.get("timeout", 600)
    rc, so, se, _ = e2e.run([str(bin_path), "distribute", script, "--format", "json"], cwd=src)
    report = ranklift_verdict(rc, so, se, row)
    if report is None:
        return row
    orig_dir = work / "orig"
    shutil.copytree(src, orig_dir)
    rec1, tmp1 = work / "rec1", work / "tmp1"
    for d in (rec1, tmp1):
        d.mkdir()
    rc, so, se, t1 = e2e.run([sys.executable, script] + args, env=env_for(rec1, tmp1, n, real_sizes=p.get("real_sizes", False)), cwd=orig_dir,
                             timeout=timeout)
    row["t1"] = round(t1, 1)
    if rc != 0:
        last = [ln for ln in se.strip().splitlines() if ln.strip()][-1:] or ["?"]
        why = f"too slow here (over {timeout}s)" if rc == -1 else f"the original does not run here: {last[0][:160]}"
        row.update(result="SKIP", why=why)
        return row
    orig = load(rec1, 0)
    launch = report.get("launch")
    if isinstance(launch, dict):
        cwd = src / launch["cwd"] if launch.get("cwd") else src
        prog = (cwd / launch["argv"][-1]).resolve()
    else:
        prog = (src / report.get("output", script)).resolve()
    if not prog.exists():
        row["why"] = f"ranklift reported a rewrite but {prog.name} was not written"
        return row
    rec2, tmp2 = work / "rec2", work / "tmp2"
    for d in (rec2, tmp2):
        d.mkdir()
    if ENGINE["name"] == "collectives":
        # The printed `ranklift launch -n 2 python PROG`, with the binary under test and this
        # venv's python.
        argv = list(launch["argv"]) if isinstance(launch, dict) else []
        if argv[:2] != ["ranklift", "launch"]:
            row["why"] = f"ranklift printed {argv[:2]}, not `ranklift launch`, for TensorFlow 2.21"
            return row
        cmd = [str(bin_path)] + argv[1:-1] + [str(prog)] + args
        cmd[cmd.index("python")] = sys.executable
    else:
        cmd = [str(Path(sys.executable).parent / "horovodrun"), "-np", "2", "--gloo", "-H", "localhost:2",
               sys.executable, str(prog)] + args
    rc, so2, se2, t2 = e2e.run(cmd, env=env_for(rec2, tmp2, n, ranks=True, real_sizes=p.get("real_sizes", False)), cwd=prog.parent, timeout=timeout)
    row["t2"] = round(t2, 1)
    try:
        if rc != 0:
            why = f"timeout after {timeout}s" if rc == -1 else first_error(so2 + "\n" + se2)
            raise Failure(f"the rewrite fails on 2 ranks: {why[:220]}")
        recs = [load(rec2, 0), load(rec2, 1)]
        check(orig, recs, so2, bool(so.strip()), p.get("adversarial"))
        rank1_files = e2e.written_files(tmp2 / "rank1")
        if rank1_files:
            raise Failure(f"rank 1 wrote files: {[os.path.basename(f) for f in rank1_files][:3]}")
        seen = [e2e.examples_seen(r["batches"]) for r in (orig or {"batches": []}, *recs)]
        split = f"{seen[0]}->{seen[1]}+{seen[2]} ex" if seen[0] else "examples not seen"
        flat = "" if orig and loss_judged(orig["losses"]) else ", loss flat (not judged)"
        row.update(result="PASS", why=f"steps {orig['steps'] if orig else '?'}->{recs[0]['steps']}+{recs[1]['steps']}, {split}{flat}")
    except Failure as e:
        row["why"] = str(e)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--manifest", default=str(MANIFEST))
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--ci", action="store_true",
                    help="only the fixed sample CI runs (the manifest's rows marked \"ci\": programs "
                         "from pinned PyPI source distributions, which a fresh machine can download)")
    ap.add_argument("--held-back", action="store_true",
                    help="only the rows marked held_back: a batch chosen before the fixes it "
                         "measures, run once after the last of them (left out otherwise)")
    ap.add_argument("--json")
    ap.add_argument("--reuse", nargs=2, metavar=("PRIOR_JSON", "PRIOR_BIN"), action="append",
                    help="a row of an earlier sweep is kept, not run again, when PRIOR_BIN's "
                         "rewrite of the program has the same syntax trees as --bin's (only "
                         "formatting differs: the same program runs)")
    ap.add_argument("--verify", action="store_true",
                    help="also run `ranklift distribute --verify` on a fresh copy of every program "
                         "ranklift rewrote and report whether its verdict agrees with the sweep's "
                         "(PASS <=> exit 0)")
    ap.add_argument("--engine", choices=["horovod", "collectives"], default="horovod",
                    help="collectives: TensorFlow >= 2.16 (run with scripts/tf-env.sh's python, "
                         "its bin first on PATH), the rewrite launched with `ranklift launch`")
    a = ap.parse_args()
    ENGINE["name"] = a.engine
    programs = json.loads(Path(a.manifest).read_text())["programs"]
    if not a.ci:  # the sample's programs import Keras alone
        ensure_extras()
    base = Path(tempfile.mkdtemp(prefix="rl-realworld-tf-"))
    rows = []
    for i, p in enumerate(programs):
        if (a.only and p["name"] not in a.only) or (a.ci and not p.get("ci")):
            continue
        if bool(p.get("held_back")) != a.held_back:
            continue
        t0 = time.monotonic()
        reused = None
        for prior_json, prior_bin in a.reuse or []:
            prior = {r["name"]: r for r in json.loads(Path(prior_json).read_text())}
            # A PASS stays one (the checks only grew weaker since: per-step instead of
            # whole-run disjointness), a refusal is the binary's alone; a FAIL or a SKIP (the data
            # layer and the extras grow) runs again.
            if p["name"] not in prior or prior[p["name"]]["result"] not in ("PASS", "REFUSED", "ALREADY"):
                continue
            mine = rewrite_ast(Path(a.bin).resolve(), p, a.mirror, base)
            theirs = rewrite_ast(Path(prior_bin).resolve(), p, a.mirror, base)
            if mine is not None and mine == theirs:
                reused = dict(prior[p["name"]], reused=True)
                reused["why"] = "(same program as an earlier sweep's) " + reused.get("why", "")
                break
        if reused:
            print(f"{reused['result']:8} {reused['name']:<52}   reused  {reused['why']}", flush=True)
            rows.append(reused)
            continue
        try:
            r = run_program(p, Path(a.bin).resolve(), a.mirror, base / f"{i:03}", a.verify)
        except FileNotFoundError as e:
            r = {"name": p["name"], "repo": p["repo"], "result": "SKIP", "why": str(e), "codes": []}
        except Exception as e:  # noqa: BLE001 - a harness fault is this row's, not the sweep's
            r = {"name": p["name"], "repo": p["repo"], "result": "FAIL", "codes": [],
                 "why": f"harness error: {type(e).__name__}: {e}"}
        r["secs"] = round(time.monotonic() - t0, 1)
        print(f"{r['result']:8} {r['name']:<52} {r['secs']:6.1f}s  {r['why']}", flush=True)
        if "verify" in r:
            v = r["verify"]
            print(f"  verify: exit {v['exit']} failed {v['failed']} {v['why']} -> "
                  f"{'agrees' if r['agree'] else 'DISAGREES'}", flush=True)
        rows.append(r)
        shutil.rmtree(base / f"{i:03}", ignore_errors=True)
    shutil.rmtree(base, ignore_errors=True)
    sys.exit(summarize(rows, a.json))


if __name__ == "__main__":
    main()
