"""Run many Python programs fast: one interpreter imports the heavy modules once (NumPy, torch),
then runs each program in a child forked from it.

A fresh interpreter per program spends most of its time importing NumPy (or torch); a fork starts
from the imported state instead, and since every child starts from the same state, nothing one
program imports or sets reaches the next — the isolation of separate processes, without their
start-up. Used by the recall sweeps (a program per injected bug) and by the shapes tests.

    fork_call(fn, *args, timeout=120)        # fn(*args) in a fork: its JSON result, or None
    with ForkRunner(python, preload=["numpy"]) as runner:
        result = runner.run(path, where=None)   # run_program's report, from another Python
"""
import json
import os
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path


def fork_call(fn, *args, timeout=120):
    """`fn(*args)` in a child forked from this process, its stdout and stderr discarded: what it
    returned (JSON), or None when the child died or ran past `timeout` seconds (it is killed)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            result = fn(*args)
            with os.fdopen(w, "w") as f:
                json.dump(result, f)
        finally:
            os._exit(0)
    os.close(w)
    deadline = time.monotonic() + timeout
    while True:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(r)
            return None
        time.sleep(0.002)
    with os.fdopen(r) as f:
        text = f.read()
    return json.loads(text) if text else None


def run_program(path, args=(), where=None):
    """Run `path` as __main__ from its own directory (on sys.path, `sys.argv` = [path, *args]):
    {"ok": True}, or {"ok": False, "line", "col", "type", "message"} of what it raised, the line
    being the last frame in `where` (default: `path` itself). Call it in a fork."""
    import runpy

    where = os.path.abspath(where or path)
    os.chdir(os.path.dirname(os.path.abspath(path)))
    sys.argv = [str(path), *args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        runpy.run_path(str(path), run_name="__main__")
        return {"ok": True}
    except BaseException as e:  # noqa: BLE001 - SystemExit and all: what the program raised
        frames = [f for f in traceback.extract_tb(e.__traceback__) if os.path.abspath(f.filename) == where]
        last = frames[-1] if frames else None
        msg = str(e).splitlines()[0] if str(e) else ""
        return {"ok": False, "line": last.lineno if last else None, "col": last.colno if last else None,
                "type": type(e).__name__, "message": f"{type(e).__name__}: {msg}"}


# The server, run by another Python: imports the preloads, then answers one JSON request per
# line ({"path", "where", "timeout"}) with run_program's report, in order.
SERVER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import fork_runner
for name in sys.argv[2:]:
    __import__(name)
for line in sys.stdin:
    req = json.loads(line)
    out = fork_runner.fork_call(fork_runner.run_program, req["path"], (), req.get("where"),
                                timeout=req.get("timeout", 120))
    if out is None:
        out = {"ok": False, "line": None, "type": "timeout",
               "message": f"timed out after {req.get('timeout', 120)} s (or the process died)"}
    print(json.dumps(out), flush=True)
"""


class ForkRunner:
    def __init__(self, python, preload=("numpy",)):
        here = str(Path(__file__).resolve().parent)
        self.proc = subprocess.Popen([python, "-c", SERVER, here, *preload], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def run(self, path, where=None, timeout=120):
        """run_program's report on `path`, run by the server's Python."""
        req = {"path": str(path), "where": str(where) if where else None, "timeout": timeout}
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the program runner ({self.proc.args[0]}) died")
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
