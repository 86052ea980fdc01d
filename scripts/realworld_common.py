"""What the real-program sweeps (`realworld_torch_run.py`, `realworld_tf_run.py`) share: taking a
program out of a fetched snapshot (or a pinned PyPI source distribution) unmodified, and turning a
notebook into the script a user would get from `jupyter nbconvert --to script`."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

# Source distributions downloaded from PyPI (pinned by SHA-256) stay here between runs.
SDISTS = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ranklift" / "realworld" / "sdists"


def sdist(spec):
    """The cached source distribution a manifest's `pypi` entry pins ({name, version, file,
    sha256}), downloaded from PyPI on first use (no build step: the archive itself)."""
    SDISTS.mkdir(parents=True, exist_ok=True)
    path = SDISTS / spec["file"]
    if not path.exists():
        partial = SDISTS / (spec["file"] + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
               "--no-build-isolation", "--quiet", "-d", str(partial), f"{spec['name']}=={spec['version']}"]
        if subprocess.run(cmd, timeout=900).returncode != 0 or not (partial / spec["file"]).exists():
            raise FileNotFoundError(f"{spec['name']}=={spec['version']} could not be downloaded from PyPI")
        (partial / spec["file"]).replace(path)
        shutil.rmtree(partial, ignore_errors=True)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != spec["sha256"]:
        raise SystemExit(f"{path}: SHA-256 {digest} differs from the pinned one; delete it to download again")
    return path


def export_sdist(spec, subdir, dest, files=None):
    """The files of `subdir` of a pinned source distribution (or only `files` of it), unmodified,
    under `dest`. Members are matched by name below the archive's top directory; links and
    anything outside `subdir` are left out."""
    dest.mkdir(parents=True, exist_ok=True)
    wanted = set(files or [])
    found = set()
    with tarfile.open(sdist(spec)) as tar:
        for m in tar.getmembers():
            parts = m.name.split("/", 1)
            if len(parts) < 2 or not m.isfile():
                continue
            rel = parts[1]
            if subdir:
                if not rel.startswith(subdir.rstrip("/") + "/"):
                    continue
                rel = rel[len(subdir.rstrip("/")) + 1:]
            if ".." in rel.split("/") or (wanted and rel not in wanted):
                continue
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            (dest / rel).write_bytes(tar.extractfile(m).read())
            found.add(rel)
    if wanted - found:
        raise FileNotFoundError(f"{spec['file']}: {sorted(wanted - found)} not in the archive")


def export_program(p, mirror, subdir, dest):
    """A manifest entry's files under `dest`: from its PyPI source distribution (`pypi`) or from
    the fetched snapshot of its repository at its commit."""
    if "pypi" in p:
        export_sdist(p["pypi"], subdir, dest, p.get("files"))
    else:
        export(mirror, p["repo"], p["commit"], subdir, dest, p.get("files"))


def export(mirror, repo, commit, subdir, dest, files=None):
    """The files of `subdir` of `repo` at `commit` (or only `files` of it), unmodified, under
    `dest`."""
    git_dir = Path(mirror) / repo.replace("/", "+") / "repo"
    if (git_dir / ".git").is_dir():
        git_dir = git_dir / ".git"
    if not git_dir.exists():
        raise FileNotFoundError(f"{repo} is not fetched under {mirror}")
    dest.mkdir(parents=True, exist_ok=True)
    if files:
        for f in files:
            spec = f"{commit}:{subdir}/{f}" if subdir else f"{commit}:{f}"
            got = subprocess.run(["git", "--git-dir", str(git_dir), "show", spec], capture_output=True)
            if got.returncode != 0:
                raise FileNotFoundError(f"{repo}:{spec} is not in the snapshot")
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            (dest / f).write_bytes(got.stdout)
        return
    tree = f"{commit}:{subdir}" if subdir else commit
    got = subprocess.run(["git", "--git-dir", str(git_dir), "archive", "--format=tar", tree],
                         capture_output=True)
    if got.returncode != 0:
        # Snapshots leave out files of 4 MiB and more (a corpus): the program cannot run here.
        raise FileNotFoundError(f"{repo}:{subdir} cannot be exported from the snapshot "
                                f"({got.stderr.decode(errors='replace').strip()[:120]})")
    subprocess.run(["tar", "-x", "-C", str(dest)], input=got.stdout, check=True)


def summarize(rows, json_path=None):
    """The sweep's totals (printed), its rows as JSON, and its exit status: 1 if a rewrite failed."""
    counts = {k: sum(r["result"] == k for r in rows) for k in ("PASS", "FAIL", "REFUSED", "ALREADY", "SKIP")}
    print("  ".join(f"{k}: {v}" for k, v in counts.items()))
    rewritten = counts["PASS"] + counts["FAIL"]
    if rewritten:
        print(f"correct on 2 ranks: {counts['PASS']}/{rewritten} of the programs ranklift rewrote")
    if json_path:
        Path(json_path).write_text(json.dumps(rows, indent=1))
    print(f"{counts['PASS']} passed, {counts['FAIL']} failed")
    return 1 if counts["FAIL"] else 0


def ranklift_verdict(rc, stdout, stderr, row):
    """`ranklift distribute --format json`'s answer for one program of a sweep: its report when it
    rewrote the program; otherwise None, with the row marked ALREADY, REFUSED (its first error),
    SKIP (RL001: Python cannot parse the program either) or FAIL (no JSON report)."""
    try:
        report = json.loads(stdout)
    except ValueError:
        row["why"] = f"ranklift exited {rc} without a JSON report: {stderr[-300:]}"
        return None
    row["codes"] = sorted({d["code"] for d in report.get("diagnostics", [])})
    status = report.get("status")
    if status == "already-distributed":
        row.update(result="ALREADY", why="; ".join(d["message"][:120] for d in report["diagnostics"][:1]))
        return None
    if status != "rewritten" or rc != 0:
        errs = [d for d in report.get("diagnostics", []) if d.get("severity") == "error"]
        fallback = {"code": "?", "message": f"exit {rc}: {stderr[-200:]}"}
        first = errs[0] if errs else (report.get("diagnostics") or [fallback])[0]
        # A program Python cannot parse either (a notebook cell left half-typed) does not run
        # at all: no conversion is owed, as when the original fails here.
        result = "SKIP" if first["code"] == "RL001" else "REFUSED"
        row.update(result=result, why=f"{first['code']} {first['message'][:150]}")
        return None
    return report


def notebook_to_script(path):
    """The code cells of a notebook, in order, as `jupyter nbconvert --to script` writes them:
    IPython's shell escapes (`!pip ...`) and magics (`%matplotlib`) become comments, the rest is
    the notebook's code unchanged. Returns the script's path (next to the notebook, `.py`)."""
    nb = json.loads(Path(path).read_text())
    out = ["#!/usr/bin/env python", "# coding: utf-8", ""]
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        src = "".join(src) if isinstance(src, list) else src
        lines = []
        for line in src.splitlines():
            stripped = line.lstrip()
            lines.append(f"# {line}" if stripped.startswith(("!", "%")) else line)
        out.extend(["", ""] + lines + [""])
    script = Path(path).with_suffix(".py")
    script.write_text("\n".join(out) + "\n")
    return script


def remove_horovod(path):
    """Horovod's own examples, made single-process as their authors would have written them
    before Horovod (Horovod's examples with Horovod removed by the harness), by a
    transform of the syntax tree (the output is `ast.unparse`d: comments are gone, which only
    the harness's copy sees): imports of horovod and `hvd.init()` go; `hvd.size()` is 1 and
    `hvd.rank()`/`hvd.local_rank()` 0, then folded (`x * 1`, `n // 1`, `.shard(1, 0)`,
    `a if 0 == 0 else b`, `if 0 == 0:`); wrappers are unwrapped (`hvd.DistributedOptimizer(o)`
    → `o`, `hvd.DistributedGradientTape(t)` → `t`); broadcasts, Horovod callbacks and hooks
    are dropped. Writes the result over `path`."""
    import ast

    src = Path(path).read_text()
    tree = ast.parse(src)
    names = {"hvd"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("horovod"):
                    names.add(a.asname or a.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("horovod"):
            for a in node.names:
                names.add(a.asname or a.name)

    def is_hvd(e):
        while isinstance(e, ast.Attribute):
            e = e.value
        return isinstance(e, ast.Name) and e.id in names

    def hvd_call(e, *attrs):
        return (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and is_hvd(e.func)
                and (not attrs or e.func.attr in attrs))

    class Strip(ast.NodeTransformer):
        def visit_Import(self, node):
            node.names = [a for a in node.names if not a.name.startswith("horovod")]
            return node if node.names else None

        def visit_ImportFrom(self, node):
            return None if (node.module or "").startswith("horovod") else node

        def visit_Expr(self, node):
            self.generic_visit(node)
            if hvd_call(node.value) or (isinstance(node.value, ast.Constant) and node.value.value is None):
                return None
            return node

        def visit_Call(self, node):
            self.generic_visit(node)
            if hvd_call(node, "size", "local_size", "cross_size"):
                return ast.Constant(1)
            if hvd_call(node, "nccl_built", "mpi_built", "ddl_built", "ccl_built", "gloo_built"):
                return ast.Constant(False)
            if hvd_call(node, "rank", "local_rank", "cross_rank"):
                return ast.Constant(0)
            if hvd_call(node, "DistributedOptimizer", "DistributedGradientTape", "allreduce",
                        "broadcast", "broadcast_object") and node.args:
                return node.args[0]
            if (isinstance(node.func, ast.Attribute) and node.func.attr == "shard"
                    and [getattr(a, "value", None) for a in node.args] == [1, 0]):
                return node.func.value
            return node

        def visit_Attribute(self, node):
            self.generic_visit(node)
            if (is_hvd(node) and isinstance(node.value, ast.Attribute)
                    and node.value.attr == "Compression"):  # hvd.Compression.fp16
                return ast.Constant(None)
            return node

        def visit_List(self, node):
            node.elts = [e for e in node.elts if not hvd_call(e)]  # Horovod's callbacks, hooks
            self.generic_visit(node)
            return node

        def visit_BinOp(self, node):
            self.generic_visit(node)
            one = isinstance(node.right, ast.Constant) and node.right.value == 1
            if one and isinstance(node.op, (ast.Mult, ast.Div, ast.FloorDiv)):
                return node.left
            if isinstance(node.left, ast.Constant) and node.left.value == 1 and isinstance(node.op, ast.Mult):
                return node.right
            return node

        def _truth(self, test):
            if not all(isinstance(n, (ast.Constant, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.cmpop,
                                      ast.boolop, ast.unaryop)) for n in ast.walk(test)):
                return None
            try:
                expr = ast.fix_missing_locations(ast.Expression(body=test))
                return bool(eval(compile(expr, "<test>", "eval"), {"__builtins__": {}}))
            except Exception:  # noqa: BLE001 - not a constant test
                return None

        def visit_BoolOp(self, node):
            self.generic_visit(node)
            keep = [v for v in node.values if self._truth(v) is not (isinstance(node.op, ast.And))]
            if len(keep) == len(node.values):
                return node
            if not keep:
                return ast.Constant(isinstance(node.op, ast.And))
            return keep[0] if len(keep) == 1 else ast.BoolOp(op=node.op, values=keep)

        def visit_Assign(self, node):
            self.generic_visit(node)
            if (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                    and isinstance(node.value, ast.Name) and node.value.id == node.targets[0].id):
                return None  # `tape = hvd.DistributedGradientTape(tape)` unwrapped
            return node

        def visit_IfExp(self, node):
            self.generic_visit(node)
            t = self._truth(node.test)
            return node if t is None else (node.body if t else node.orelse)

        def visit_If(self, node):
            self.generic_visit(node)
            t = self._truth(node.test)
            if t is None:
                if all(isinstance(b, ast.Pass) for b in node.body) and not node.orelse:
                    return None  # `if first_batch: hvd.broadcast_variables(...)` emptied
                return node
            return (node.body if t else node.orelse) or None

        def generic_visit(self, node):
            super().generic_visit(node)
            for field in ("body", "orelse", "finalbody"):
                block = getattr(node, field, None)
                if isinstance(block, list) and field == "body" and not block and not isinstance(node, ast.Module):
                    block.append(ast.Pass())
            return node

    tree = ast.fix_missing_locations(Strip().visit(tree))
    Path(path).write_text(ast.unparse(tree) + "\n")


def loss_fall_error(orig, rank0):
    """Why rank 0's losses contradict the original's, or None. Each run's fall is the mean of its
    first tenth of losses minus that of its last, with the standard error of that difference
    (minibatch noise). It is a contradiction when rank 0's loss did not fall at all although the
    original's fall exceeds rank 0's change by more than twice their combined noise: a model still
    at chance in a short run (2.301 -> 2.297 beside 2.325 -> 2.330) says nothing either way, a
    rewrite whose rank 0 stops learning (0.693 -> 0.647 beside 0.693 -> 0.695) does. Both runs
    need ten losses."""
    if len(orig) < 10 or len(rank0) < 10:
        return None
    a, b, se = _tenths(orig)
    c, d, se0 = _tenths(rank0)
    if d < c or not (a - b) - (c - d) > 2 * (se * se + se0 * se0) ** 0.5:
        return None
    return (f"the loss fell in the original ({a:.3f} -> {b:.3f}) but not on rank 0 ({c:.3f} -> {d:.3f}); "
            f"noise {se:.3f} and {se0:.3f}")


def loss_fall_error_by_model(orig, rank0):
    """`loss_fall_error` per model trained: the losses of each run grouped by what they
    differentiate (`loss_keys`, the probe's tag: the shapes of the variables), the first group
    whose rank 0 contradicts the original's. A guide trains several models one after another, and
    the first tenth of one run's losses and the last tenth of another's are different models'.
    Runs without tags are one group."""
    def groups(rec):
        keys = rec.get("loss_keys") or [""] * len(rec["losses"])
        out = {}
        for k, v in zip(keys, rec["losses"]):
            out.setdefault(k, []).append(v)
        return out

    mine = groups(rank0)
    for k, losses in groups(orig).items():
        why = loss_fall_error(losses, mine.get(k, []))
        if why:
            return why if len(mine) == 1 else f"{why} (model with variables {k[:60]})"
    return None


def loss_judged(orig):
    """Whether `loss_fall_error` can fail for this original at all: its negative control, a rank 0
    whose losses are the original's reversed (it learned nothing, it unlearned), is rejected. A
    row says so when it is not (the original's loss was flat: not judged)."""
    return loss_fall_error(orig, orig[::-1]) is not None


def _tenths(xs):
    """The means of the first and the last tenth of `xs`, and the standard error of their
    difference."""
    import statistics

    k = max(len(xs) // 10, 2)
    first, last = [float(x) for x in xs[:k]], [float(x) for x in xs[-k:]]
    se = (statistics.variance(first) / k + statistics.variance(last) / k) ** 0.5
    return statistics.fmean(first), statistics.fmean(last), se
