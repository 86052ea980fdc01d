"""What the real-program sweeps (`realworld_torch_run.py`, `realworld_tf_run.py`) share: taking a
program out of a fetched snapshot unmodified, and turning a notebook into the script a user would
get from `jupyter nbconvert --to script`."""
import json
import subprocess
from pathlib import Path


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
