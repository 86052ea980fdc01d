#!/usr/bin/env python3
"""Coverage of `ranklift shapes` on large corpora of real code it was never tuned on.

What the analysis understood of real models and packages, measured with its own instrument
(`ranklift shapes --statistics --format json`): per corpus the share of expressions whose value
it knew, of array/tensor values whose rank and whose every size it knew, the findings, the
speed; and, over all corpora, the causes that left values unknown, ranked by how many
expressions each darkened. This ranking is what orders the work on the analysis: a cause met
in one corpus only is a poor guide.

The corpora are public repositories fetched onto this machine (the `fetch` tool puts their git
directories under `--mirror`), read at the pinned commit below from a temporary directory and
never copied into this repository; and a package of the torch virtualenv (`--python`,
scripts/torch-env.sh), pinned by its version. `HELD_OUT` corpora are measured only once the
work they would guide is done (`--held-out`).

Usage: coverage_shapes.py --bin target/debug/ranklift [--python TORCH_PYTHON] [--mirror DIR]
       [--only name,...] [--held-out] [--json OUT] [--top N]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# name -> (repository, commit, the paths analysed inside it).
CORPORA = {
    "timm-models": ("huggingface/pytorch-image-models", "aa4b5850c1543fa488abf260f18390eda46cf85d",
                    ["timm/models", "timm/layers"]),
    "clip": ("openai/CLIP", "d05afc436d78f1c48dc0dbf8e5980a9d471f35f6", ["clip"]),
    "ddpm-lucidrains": ("lucidrains/denoising-diffusion-pytorch",
                        "faed4db28e724735323fa91c70aa9b28a6e1cbac", ["denoising_diffusion_pytorch"]),
    "pyg-nn": ("pyg-team/pytorch_geometric", "5c6461b2305ad068a6d61165b3c55852a11aaa41",
               ["torch_geometric/nn/conv", "torch_geometric/nn/models"]),
    "pytorch-examples": ("pytorch/examples", "77f55b912142e11fcfdf5b530231fb9c52f181e8",
                         ["mnist", "dcgan", "vae", "gcn", "gat", "imagenet", "siamese_network",
                          "super_resolution", "time_sequence_prediction", "mnist_rnn",
                          "word_language_model", "regression", "reinforcement_learning"]),
    "pytorch-gan": ("eriklindernoren/PyTorch-GAN", "36d3c77e5ff20ebe0aeefd322326a134a279b93e",
                    ["implementations"]),
}
# Measured after the last change the tuning corpora guided (first contact is then also the
# result): other people's code the work never looked at.
HELD_OUT = {
    "x-transformers": ("lucidrains/x-transformers", "9252ed7838021ee61e6c5be0930b3a9a88efdf06",
                       ["x_transformers"]),
}
# A package of the torch virtualenv: name -> (import name, version, sub-directory).
VENV = {"torchvision-models": ("torchvision", "0.29.2", "models")}


def extract(mirror, repo, commit, paths, dest):
    """The Python files and notebooks under `paths` at `commit` (blob by blob: a snapshot may
    lack a large data file, which `git archive` would stop at)."""
    git_dir = Path(mirror) / repo.replace("/", "+") / "repo"
    if not git_dir.is_dir():
        return f"not fetched ({git_dir})"
    listed = subprocess.run(["git", "--git-dir", str(git_dir), "ls-tree", "-r", "--name-only",
                             commit, "--", *paths], capture_output=True, text=True)
    if listed.returncode != 0:
        return listed.stderr.strip()
    names = [n for n in listed.stdout.splitlines() if n.endswith((".py", ".ipynb"))]
    batch = subprocess.run(["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
                           input="".join(f"{commit}:{n}\n" for n in names).encode(),
                           capture_output=True)
    out, at = batch.stdout, 0
    for n in names:
        header_end = out.index(b"\n", at)
        header = out[at:header_end].split()
        if len(header) < 3 or header[1] != b"blob":
            at = header_end + 1
            continue
        size = int(header[2])
        body = out[header_end + 1:header_end + 1 + size]
        at = header_end + 1 + size + 1
        target = Path(dest) / n
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
    return None


def venv_package(python, name, version, sub, dest):
    out = subprocess.run([python, "-c", f"import {name}, os; print({name}.__version__.split('+')[0]);"
                          f" print(os.path.dirname({name}.__file__))"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return out.stderr.strip()
    got, where = out.stdout.split()
    if got != version:
        return f"{name} {got} installed, {version} pinned"
    subprocess.run(["cp", "-r", os.path.join(where, sub), str(dest)], check=True)
    return None


def lines_of(root):
    n = 0
    for p in Path(root).rglob("*.py"):
        try:
            n += p.read_bytes().count(b"\n")
        except OSError:
            pass
    return n


def measure(bin_path, root):
    t0 = time.monotonic()
    out = subprocess.run([bin_path, "shapes", "--statistics", "--format", "json", "."],
                         cwd=root, capture_output=True, text=True, timeout=3600)
    secs = time.monotonic() - t0
    try:
        doc = json.loads(out.stdout)
    except json.JSONDecodeError:
        return {"error": (out.stderr or out.stdout)[-400:], "seconds": secs}
    stats = doc.get("statistics", {})
    diags = doc.get("diagnostics", [])
    return {
        "seconds": secs,
        "total": stats.get("total", {}),
        "files": len(stats.get("files", [])),
        "causes": stats.get("not_modelled", []),
        "findings": sum(1 for d in diags if not str(d.get("code", "")).startswith("RL")),
        "fatal": [f'{d.get("path")}: {d.get("code")} {d.get("message")}' for d in diags
                  if str(d.get("code", "")).startswith("RL")],
        "exit": out.returncode,
    }


def pct(a, b):
    return f"{100 * a / b:.0f}%" if b else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--python", default=os.environ.get("RANKLIFT_TORCH_PYTHON"))
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--only")
    ap.add_argument("--held-out", action="store_true", help="measure the held-out corpora only")
    ap.add_argument("--json", help="write the measures here")
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()
    bin_path = str(Path(args.bin).resolve())
    corpora = dict(HELD_OUT if args.held_out else CORPORA)
    venv = {} if args.held_out else dict(VENV)
    if args.only:
        keep = set(args.only.split(","))
        corpora = {k: v for k, v in corpora.items() if k in keep}
        venv = {k: v for k, v in venv.items() if k in keep}
    results = {}
    causes = {}
    print("| corpus | files | lines | expressions understood | arrays/tensors: rank known | all sizes known | findings | lines/s |")
    print("|---|---|---|---|---|---|---|---|")
    for name in list(corpora) + list(venv):
        with tempfile.TemporaryDirectory(prefix="ranklift-coverage-") as tmp:
            if name in corpora:
                err = extract(args.mirror, *corpora[name], Path(tmp))
            elif args.python:
                err = venv_package(args.python, *venv[name], Path(tmp))
            else:
                err = "no --python for a virtualenv package"
            if err:
                print(f"| {name} | skipped: {err} |")
                continue
            lines = lines_of(tmp)
            r = measure(bin_path, tmp)
        r["lines"] = lines
        results[name] = r
        if "error" in r:
            print(f"| {name} | error: {r['error']!r} |")
            continue
        t = r["total"]
        print(f"| {name} | {r['files']} | {lines} | {pct(t.get('understood', 0), t.get('expressions', 0))}"
              f" of {t.get('expressions', 0)} | {pct(t.get('arrays_rank_known', 0), t.get('arrays', 0))}"
              f" of {t.get('arrays', 0)} | {pct(t.get('arrays_fully_known', 0), t.get('arrays', 0))}"
              f" | {r['findings']} | {lines / max(r['seconds'], 1e-3):,.0f} |", flush=True)
        for f in r["fatal"]:
            print(f"|   | fatal: {f} |")
        for c in r["causes"]:
            weight = c.get("darkened", c.get("uses", 0))
            slot = causes.setdefault(c["name"], {"weight": 0, "corpora": set(), "first": None})
            slot["weight"] += weight
            slot["corpora"].add(name)
            slot["first"] = slot["first"] or f'{name}:{c["path"]}:{c["line"]}'
    ranked = sorted(causes.items(), key=lambda kv: (-len(kv[1]["corpora"]) * 0 - kv[1]["weight"], kv[0]))
    print(f"\nCauses, by expressions darkened (or uses, for a binary that does not count them), top {args.top}:")
    for cause, c in ranked[:args.top]:
        print(f"  {c['weight']:6}  {cause}  ({len(c['corpora'])} corpora; first {c['first']})")
    if args.json:
        for c in causes.values():
            c["corpora"] = sorted(c["corpora"])
        Path(args.json).write_text(json.dumps({"results": results, "causes": causes}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
