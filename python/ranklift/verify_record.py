"""What every recorder of `ranklift distribute --verify` shares, whatever the framework: which
process records, the record itself, and the hooks on the standard library.

`ranklift` writes this file as `ranklift_verify_record.py` beside the framework's recorder
(`verify_probe.py` for PyTorch, `verify_probe_tf.py` for TensorFlow), which imports it. Nothing
happens unless RANKLIFT_VERIFY_OUT is set; then `active` says whether this process records: the
original (RANKLIFT_VERIFY_ROLE=original), or a worker that its launcher numbered (torchrun's RANK,
`ranklift launch`'s RANKLIFT_RANK, Horovod's HOROVOD_RANK or MPI's OMPI_COMM_WORLD_RANK) — not
the launcher itself, not a process a recording process started (a DataLoader worker, a
subprocess: they inherit RANKLIFT_VERIFY_RECORDER).

Recorded here, in `rec` (dumped at exit as `$RANKLIFT_VERIFY_OUT/rank<R>.json`, read by
`ranklift_distribute::verify`): `writes` (every file opened for writing, with the program's line
that opened it), `redirected` (a write outside the run's copy of the project goes below
`$RANKLIFT_VERIFY_REDIRECT`, and later reads of that path, by any process of the run, read the
redirected file, so the user's files are never touched), `prints` (where the first `print` calls
came from), `stopped` (why the recorder ended the process early), `drained` (why passes over
the training data ran empty from some point on, the process going on to its end), `synthetic` (with RANKLIFT_VERIFY_SYNTHETIC=1, the seeded
stand-ins for downloaded datasets the process loaded). The framework's recorder adds `steps`,
`losses`, `passes`, `saves`, `schedules`, `names` and `examples`.

Example: rank 1 of a rewrite that still calls `open("log.txt", "w")` records
`{"path": "log.txt", "at": "train.py:40"}` in `writes`; the check `rank 0 only` names that line.
"""

import atexit
import builtins
import json
import os
import sys
import time

# `--synthetic-data`: the seeded stand-ins for downloaded datasets (written beside this file), in
# every process the runs start — a DataLoader worker that unpickles a dataset needs them too.
synthetic = None
if os.environ.get("RANKLIFT_VERIFY_SYNTHETIC") == "1":
    import ranklift_synthetic_data as synthetic

    synthetic.install()

_RANK_VARS = ("RANK", "RANKLIFT_RANK", "HOROVOD_RANK", "OMPI_COMM_WORLD_RANK")
_out = os.environ.get("RANKLIFT_VERIFY_OUT")
_role = os.environ.get("RANKLIFT_VERIFY_ROLE", "")
_worker_rank = next((os.environ[v] for v in _RANK_VARS if v in os.environ), None)
active = bool(_out) and not os.environ.get("RANKLIFT_VERIFY_RECORDER") and (
    _role == "original" or (_role == "worker" and _worker_rank is not None)
)
rank = "0" if _role == "original" or _worker_rank is None else _worker_rank
root = os.path.realpath(os.environ.get("RANKLIFT_VERIFY_ROOT", os.getcwd()))
budget = int(os.environ.get("RANKLIFT_VERIFY_STEPS", "0") or 0)
cut = int(os.environ.get("RANKLIFT_VERIFY_PASS", "0") or 0)
# Past the budget, a new pass over the training data runs empty (where a `for` loop draws it) and
# the program goes on to its end, instead of ending at that pass (RANKLIFT_VERIFY_DRAIN=1).
drain = os.environ.get("RANKLIFT_VERIFY_DRAIN") == "1"
# Emptied passes a program may start before the process ends anyway: the end of a program with
# a few dozen epochs is reached, where the code of each epoch (an evaluation, a checkpoint) has
# run in the budget's passes already; a longer one, or a `while` loop that waits for a step count
# the empty passes never raise, ends as it would without draining.
DRAIN_PASSES = 32
rec = {
    "rank": int(rank) if rank.isdigit() else 0,
    "steps": [],
    "losses": [],
    "passes": [],
    "saves": [],
    "writes": [],
    "redirected": [],
    "prints": [],
    "schedules": [],
    "stopped": None,
    "drained": None,
    "names": {},
    "examples": [],
    "example_passes": [],
    "pass_batches": {},
}
orig_open = builtins.open
_redirect = os.environ.get("RANKLIFT_VERIFY_REDIRECT", "")
_redirects = {}  # real path outside the copy -> redirected path
_pid = os.getpid()


def user_line():
    """The innermost frame of the program itself (a file inside its copy of the project)."""
    f = sys._getframe(2)
    while f is not None:
        path = os.path.realpath(f.f_code.co_filename)
        if path.startswith(root + os.sep) and "site-packages" not in path:
            return f"{os.path.relpath(path, root)}:{f.f_lineno}"
        f = f.f_back
    return None


def inside(path):
    return path == root or path.startswith(root + os.sep)


def show(path):
    """A written path as the runs can compare it: relative to the project copy, `<tmp>/...` in
    this rank's temporary directory (every run has its own; a `mkdtemp` name, random in each
    run, shown as `tmp*`), else as it is."""
    import re
    import tempfile

    tmp = os.path.realpath(tempfile.gettempdir())
    if inside(path):
        return os.path.relpath(path, root)
    if path.startswith(tmp + os.sep):
        rel = os.path.relpath(path, tmp).split(os.sep)
        return "<tmp>/" + "/".join(re.sub(r"^tmp[a-z0-9_]{8}$", "tmp*", c) for c in rel)
    return path


def shown(file):
    """[`show`] of a path as the program named it: a path through a directory the project links
    to (a checkpoint directory linked into the run's copy) stays the project's relative path, so
    that every run names the same file alike."""
    path = os.path.abspath(os.fsdecode(file))
    return show(path if inside(path) else os.path.realpath(path))


# Not the program's writes: devices, the records, the stand-ins' own files.
_system = tuple(
    os.path.realpath(p) + os.sep
    for p in ("/dev", "/proc", "/sys", _out or "/proc", synthetic.CACHE if synthetic else "/proc")
)
# Not redirected: the run's temporary files and the redirected files themselves.
_exempt = _system + tuple(
    os.path.realpath(p) + os.sep for p in (os.environ.get("TMPDIR", root), _redirect or root)
)


def place(file, writing):
    """Where a path is really opened: a write outside the run's copy goes below the redirect
    directory, and so does every later read of that path — by any process of the run (they
    share the directory: rank 0 saves a checkpoint to /tmp, every rank loads it)."""
    if not isinstance(file, (str, bytes, os.PathLike)):
        return file
    path = os.path.realpath(os.fsdecode(file))
    if path in _redirects:
        return _redirects[path]
    if not _redirect or inside(path) or (path + os.sep).startswith(_exempt):
        return file
    target = os.path.join(_redirect, path.lstrip(os.sep))
    if not writing:
        return target if os.path.lexists(target) else file
    os.makedirs(os.path.dirname(target), exist_ok=True)
    _redirects[path] = target
    rec["redirected"].append(path)
    return target


def note_write(file):
    """Record a write of `file` (a path) by the program, with the line that made it."""
    if not isinstance(file, (str, bytes, os.PathLike)):
        return
    path = os.path.realpath(os.fsdecode(file))
    if "__pycache__" in path or "__autograph_generated" in path or (path + os.sep).startswith(_system):
        return
    if len(rec["writes"]) < 200:
        rec["writes"].append({"path": shown(file), "at": user_line()})


def stop(why):
    """End the process now (exit status 0), saying why."""
    rec["stopped"] = why
    raise SystemExit(0)


_emptied = [0]


def drain_pass(why):
    """Whether the pass over the training data starting now, past the step budget (`why`), runs
    empty instead of ending the process: with RANKLIFT_VERIFY_DRAIN=1, for the first
    DRAIN_PASSES such passes. The code after the training loop — evaluation, saving, reading
    back what rank 0 wrote, the process group's teardown — then runs and is judged."""
    if not drain:
        return False
    _emptied[0] += 1
    if _emptied[0] > DRAIN_PASSES:
        stop(f"{why}, after {DRAIN_PASSES} passes that ran empty")
    if rec["drained"] is None:
        rec["drained"] = f"the step budget ({budget} steps)"
    return True


def in_for_loop(frame):
    """Whether `frame` is at the step of a `for` loop (or a comprehension's, or a generator's
    such as tqdm's), where StopIteration ends the loop — not at a call of `next()`, where it
    would escape into the program."""
    try:
        import dis

        at = frame.f_lasti
        return at >= 0 and dis.opname[frame.f_code.co_code[at]] in ("FOR_ITER", "INSTRUMENTED_FOR_ITER")
    except Exception:  # an interpreter without these: not known to be a loop
        return False


def end_empty_pass(why, frame):
    """The first draw from a pass `drain_pass` emptied, by `frame`: no batch for a `for` loop;
    for a `next()` (which would raise StopIteration into the program) the process ends as it
    would without draining."""
    if in_for_loop(frame):
        raise StopIteration
    stop(why)


class EmptyPass:
    """The iterator of a pass `drain_pass` emptied (where none of the framework's own is
    needed: no DataLoader workers start for it)."""

    def __init__(self, why):
        self.why = why

    def __iter__(self):
        return self

    def __next__(self):
        end_empty_pass(self.why, sys._getframe(1))


def heartbeat(steps):
    """How far this process got, for a run stopped at the deadline."""
    with orig_open(os.path.join(_out, f"rank{rank}.step"), "w") as f:
        f.write(str(steps))


def finite(x):
    """The record as strict JSON: a non-finite float (a diverged loss, a plateau scheduler's
    initial `best`) is written as its text, "nan", "inf" or "-inf"."""
    if isinstance(x, float) and x != x or x in (float("inf"), float("-inf")):
        return str(x)
    if isinstance(x, dict):
        return {k: finite(v) for k, v in x.items()}
    if isinstance(x, list):
        return [finite(v) for v in x]
    return x


def _dump():
    if os.getpid() != _pid:
        return
    if synthetic is not None:
        rec["synthetic"] = list(synthetic.used)
    with orig_open(os.path.join(_out, f"rank{rank}.json"), "w") as f:
        json.dump(finite(rec), f, allow_nan=False)


def now():
    return time.monotonic()


def row_hashes(arrays):
    """One 63-bit hash per example over every array whose first dimension is the batch's (the
    first array's): what `examples` records for each step."""
    import hashlib

    import numpy as np

    arrays = [np.asarray(a) for a in arrays]
    arrays = [a for a in arrays if a.ndim >= 1 and a.dtype != object]
    if not arrays:
        return []
    n = arrays[0].shape[0]
    arrays = [a for a in arrays if a.shape[0] == n]
    out = []
    for i in range(min(n, 4096)):
        h = hashlib.blake2b(digest_size=8)
        for a in arrays:
            h.update(np.ascontiguousarray(a[i]).tobytes())
        out.append(int.from_bytes(h.digest(), "little") >> 1)
    return out


if active:
    os.environ["RANKLIFT_VERIFY_RECORDER"] = str(os.getpid())

    def _open(file, mode="r", *a, **k):
        writing = isinstance(mode, str) and any(c in mode for c in "wax+")
        placed = place(file, writing)
        if writing:
            note_write(file)
        return orig_open(placed, mode, *a, **k)

    builtins.open = _open

    _orig_makedirs = os.makedirs

    def _makedirs(name, mode=0o777, exist_ok=False):
        path = os.path.realpath(os.fsdecode(name))
        # The redirect directory's own ancestors are made as they are (redirecting them would
        # redirect the redirect, without end).
        if _redirect and not inside(path) and not (path + os.sep).startswith(_exempt) and not (
            os.path.realpath(_redirect) + os.sep
        ).startswith(path + os.sep):
            name = os.path.join(_redirect, path.lstrip(os.sep))
            exist_ok = exist_ok or os.path.isdir(name)
        return _orig_makedirs(name, mode, exist_ok)

    os.makedirs = _makedirs

    _orig_print = builtins.print

    def _print(*a, **k):
        if len(rec["prints"]) < 5 and k.get("file") in (None, sys.stdout):
            rec["prints"].append(user_line())
        return _orig_print(*a, **k)

    builtins.print = _print
    atexit.register(_dump)
