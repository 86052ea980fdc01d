#!/usr/bin/env python3
"""Real PyTorch programs nobody here wrote, run through `ranklift distribute` on real ranks:
the sweep that measures first contact.

For every program of the manifest (`scripts/realworld-torch-programs.json`: a public repository
at a pinned commit, a script, its arguments), from a snapshot fetched locally (the search tool's
`fetch`, under /work/.mirror; never copied into this repository):

1. the script's directory is exported from the snapshot into a scratch directory, unmodified;
2. the original runs on one process (`python SCRIPT ARGS`) with the offline data layer
   (`python/ranklift/synthetic_data.py`: synthetic MNIST/CIFAR/..., no downloads) and
   the e2e probes (`scripts/e2e_torch/sitecustomize.py`);
3. `ranklift distribute SCRIPT --format json` writes the rewrite next to it (its default
   output), or refuses, or says the program is already distributed;
4. the rewrite runs on 2 ranks (`torchrun --standalone --nproc-per-node 2`, gloo on CPU, ranks
   seeded apart) with the same arguments, from the directory the printed launch command names;
5. the checks of scripts/e2e_torch.py: the run succeeds, both ranks end with bit-identical
   parameters, rank 1 prints nothing and writes no file, the ranks read disjoint samples in every
   pass, and rank 0's loss falls where the original's did.

Each row: PASS (correct on 2 ranks), FAIL (ranklift rewrote it and the rewrite is wrong: the
class of failure), REFUSED (ranklift declined: its code, to be justified), ALREADY (left alone as
already distributed), SKIP (the original itself does not run here: a dataset or weights the data
layer does not provide, a missing package).

Usage: realworld_torch_run.py --bin target/debug/ranklift [--mirror /work/.mirror] [--only NAME...]
       [--json results.json] [--verify]
With --verify, every rewrite is also judged by `ranklift verify --synthetic-data` (8 steps) and
each row says whether the two verdicts agree (PASS and exit 0, or a failure and a failed check).
Run with the torch venv's python (scripts/torch-env.sh). Prints a table and `N passed, M failed`
(failed = FAIL rows; REFUSED/ALREADY/SKIP are reported, not counted).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import e2e_torch as e2e  # noqa: E402  (the checks, shared with the examples' e2e run)
from realworld_common import export_program, loss_fall_error, loss_judged, ranklift_verdict, summarize  # noqa: E402

SITE = HERE / "realworld_torch"
MANIFEST = HERE / "realworld-torch-programs.json"


# What real programs import besides torch (plots, TensorBoard logs; Opacus for the programs of
# its source distribution): installed into the torch venv on first use, pinned (the e2e examples
# do not need them). CI's sample needs only Opacus.
EXTRAS = {"opacus": ["opacus==1.6.0", "opt-einsum==3.4.0", "scipy==1.17.1"],
          "matplotlib, tensorboard": ["matplotlib==3.11.2", "tensorboard==2.21.0"]}


def ensure_extras(ci=False):
    for probe, pins in EXTRAS.items():
        if ci and probe != "opacus":
            continue
        if subprocess.run([sys.executable, "-c", f"import {probe}"], capture_output=True).returncode != 0:
            subprocess.run([sys.executable, "-m", "pip", "install", "--quiet"] + pins, check=True)


def probe_env(rec, tmp, shared, n, root=None, extra=None):
    path = f"{SITE}{os.pathsep}{root}" if root else str(SITE)
    env = dict(extra or {})
    env |= {"RANKLIFT_E2E_OUT": str(rec), "CHECKPOINT_DIR": str(shared), "PYTHONPATH": path,
           "PYTHONHASHSEED": "0", "RANKLIFT_OFFLINE_N": str(n), "MPLBACKEND": "Agg",
           "TMPDIR": str(tmp)}
    if tmp.name.startswith("tmp2"):
        env["RANKLIFT_E2E_TMP"] = str(tmp)  # under torchrun: the probe records per rank
    return env


def verify_row(row, bin_path, prog, original, args, timeout, env=None):
    """`ranklift verify` on the same rewrite (`--verify`): its verdict beside the sweep's."""
    cmd = [str(bin_path), "verify", str(prog), "--original", str(original), "--format", "json",
           "--python", sys.executable, "--synthetic-data", "--timeout", str(timeout), "--"] + args
    rc, so, se, t = e2e.run(cmd, env=env, timeout=4 * timeout + 120)
    try:
        checks = json.loads(so).get("checks", [])
    except json.JSONDecodeError:
        checks = []
    failed = [c["name"] for c in checks if c["status"] == "fail"]
    # What verify said of each failed check (its evidence), for the table's reader.
    row["verify_evidence"] = {c["name"]: str(c.get("evidence") or c.get("detail") or c)[:4000]
                              for c in checks if c["status"] == "fail"}
    row["verify"] = {"exit": rc, "failed": failed, "secs": round(t, 1),
                     "why": "" if rc != 2 else (se.strip().splitlines() or ["?"])[-1][:160]}
    row["agree"] = (row["result"] == "PASS") == (rc == 0)


def run_program(p, bin_path, mirror, work, verify=False):
    row = {"name": p["name"], "repo": p["repo"], "result": "FAIL", "why": "", "codes": []}
    subdir, script = os.path.split(p["path"])
    src = work / "src"
    root = None
    if p.get("root"):  # a project installed with `pip install -e .`: the whole repository,
        # importable, and the script run from its own directory
        export_program(p, mirror, "", work / "root")
        root = work / "root"
        src = root / subdir
    else:
        export_program(p, mirror, subdir, src)
    for setup in p.get("setup", []):  # e.g. a data generator the README runs first
        # `@name.py`: a stand-in of the sweep's own (its offline data layer, realworld_torch/).
        if setup and setup[0].startswith("@"):
            setup = [str(SITE / setup[0][1:])] + setup[1:]
        rc, so, se, _ = e2e.run([sys.executable] + setup, cwd=src)
        if rc != 0:
            row.update(result="SKIP", why=f"setup {setup} failed: {se[-300:]}")
            return row
    args = p.get("args", [])
    n = p.get("n", 512)
    timeout = p.get("timeout", 600)
    # 1. ranklift, on the pristine copy (a program it leaves alone or refuses is not run).
    rc, so, se, _ = e2e.run([str(bin_path), "distribute", script, "--format", "json"], cwd=src)
    report = ranklift_verdict(rc, so, se, row)
    if report is None:
        return row
    # 2. The original, one process, from a copy (what it writes stays there).
    orig = work / "orig"
    shutil.copytree(src, orig)
    rec1, tmp1, shared1 = work / "rec1", work / "tmp1", work / "shared1"
    for d in (rec1, tmp1, shared1):
        d.mkdir()
    rc, so, se, t1 = e2e.run([sys.executable, script] + args, env=probe_env(rec1, tmp1, shared1, n, root, p.get("env")),
                             cwd=orig, timeout=timeout)
    row["t1"] = round(t1, 1)
    if rc != 0:
        last = (se.strip().splitlines() or ["?"])[-1]
        row.update(result="SKIP", why=f"the original does not run here: {last[:160]}")
        return row
    orig_rec = e2e.load(rec1, 0)
    orig_printed = bool(so.strip())
    launch = report.get("launch")
    if isinstance(launch, dict):
        target = Path(launch["argv"][-1])
        cwd = src / launch["cwd"] if launch.get("cwd") else src
        prog = (cwd / target).resolve()
    else:  # a ranklift from before the structured launch: the default output next to the script
        prog = (src / (Path(script).stem + "_ddp.py")).resolve()
    if not prog.exists():
        row["why"] = f"ranklift reported a rewrite but {prog.name} was not written"
        return row
    # 3. Two ranks, with the same arguments.
    rec2, tmp2, logs, shared2 = work / "rec2", work / "tmp2", work / "logs2", work / "shared2"
    for d in (rec2, tmp2, logs, shared2):
        d.mkdir()
    env = probe_env(rec2, tmp2, shared2, n, root, p.get("env"))
    # Variables the printed command sets (`env PYTHONPATH=../.. torchrun ...`: the rewritten
    # project's packages first, relative to the script's directory).
    words = launch.get("argv", []) if isinstance(launch, dict) else []
    if words[:1] == ["env"]:
        for w in words[1:]:
            if "=" not in w:
                break
            k, v = w.split("=", 1)
            if k == "PYTHONPATH":
                v = f"{(prog.parent / v).resolve()}{os.pathsep}{env['PYTHONPATH']}"
            env[k] = v
    env["RANKLIFT_E2E_DESYNC"] = "1"
    cmd = [str(Path(sys.executable).parent / "torchrun"), "--standalone", "--nproc-per-node=2",
           "--log-dir", str(logs), "--redirects", "3", str(prog)] + args
    rc, so2, se2, t2 = e2e.run(cmd, env=env, cwd=prog.parent, timeout=timeout)
    row["t2"] = round(t2, 1)
    try:
        if rc != 0:
            err = (e2e.rank_log(logs, 0, "stderr") or "") + (e2e.rank_log(logs, 1, "stderr") or "")
            last = [ln for ln in err.strip().splitlines() if ln.strip()][-1:] or [se2[-200:]]
            raise e2e.Failure(f"the rewrite fails on 2 ranks: {last[0][:200]}")
        recs = [e2e.load(rec2, 0), e2e.load(rec2, 1)]
        if None in recs:
            raise e2e.Failure("a rank wrote no record")
        e2e.check_agree(recs)
        stdouts = [e2e.rank_log(logs, 0) or "", e2e.rank_log(logs, 1) or ""]
        e2e.check_output(stdouts, e2e.files_under(tmp2 / "rank1"), orig_printed, recs[1]["saves"],
                         recs[1].get("writes", ()))
        e2e.check_shuffle(recs, False)
        if orig_rec and not p.get("adversarial"):
            why = loss_fall_error(orig_rec["losses"], recs[0]["losses"])
            if why:
                raise e2e.Failure(why)
        steps = f"{orig_rec['steps'] if orig_rec else '?'}->{recs[0]['steps']}+{recs[1]['steps']}"
        if orig_rec and orig_rec.get("rows"):
            # Rows drawn from DataLoaders (training and evaluation): a library's own sampler may
            # keep the steps and split each batch (Opacus).
            steps += f" steps, rows {orig_rec['rows']}->{recs[0].get('rows')}+{recs[1].get('rows')}"
        if not (orig_rec and loss_judged(orig_rec["losses"])):
            steps += ", loss flat (not judged)"
        row.update(result="PASS", why=steps)
    except e2e.Failure as e:
        row["why"] = str(e)
    if verify:
        verify_row(row, bin_path, prog, src / script, args, timeout, p.get("env"))
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
    ap.add_argument("--json")
    ap.add_argument("--batch", help="only the manifest's rows of this batch (a first-contact batch "
                                    "is measured before any fix for it; a held-back one after the last)")
    ap.add_argument("--verify", action="store_true",
                    help="also run `ranklift verify` on every rewrite and report whether its verdict "
                         "agrees with the sweep's (PASS <=> exit 0)")
    a = ap.parse_args()
    programs = json.loads(Path(a.manifest).read_text())["programs"]
    ensure_extras(a.ci)
    base = Path(tempfile.mkdtemp(prefix="rl-realworld-torch-"))
    rows = []
    for i, p in enumerate(programs):
        if (a.only and p["name"] not in a.only) or (a.ci and not p.get("ci")) or \
                (a.batch and p.get("batch") != a.batch):
            continue
        t0 = time.monotonic()
        try:
            r = run_program(p, Path(a.bin).resolve(), a.mirror, base / f"{i:03}", a.verify)
        except FileNotFoundError as e:
            r = {"name": p["name"], "repo": p["repo"], "result": "SKIP", "why": str(e), "codes": []}
        except Exception as e:  # noqa: BLE001 - a harness fault is this row's, not the sweep's
            r = {"name": p["name"], "repo": p["repo"], "result": "FAIL", "codes": [],
                 "why": f"harness error: {type(e).__name__}: {e}"}
        r["secs"] = round(time.monotonic() - t0, 1)
        print(f"{r['result']:8} {r['name']:<46} {r['secs']:6.1f}s  {r['why']}", flush=True)
        if "verify" in r:
            v = r["verify"]
            print(f"  verify: exit {v['exit']} failed {v['failed']} {v['why']} -> "
                  f"{'agrees' if r['agree'] else 'DISAGREES'}", flush=True)
        rows.append(r)
    shutil.rmtree(base, ignore_errors=True)
    sys.exit(summarize(rows, a.json))


if __name__ == "__main__":
    main()
