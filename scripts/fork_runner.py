"""Run many Python programs fast: one interpreter imports the heavy modules once (NumPy, torch),
then runs each program in a child forked from it.

A fresh interpreter per program spends most of its time importing NumPy (or torch); a fork starts
from the imported state instead, and since every child starts from the same state, nothing one
program imports or sets reaches the next — the isolation of separate processes, without their
start-up. Used by the recall sweeps, which run a program per injected bug.

    with ForkRunner(python, preload=["numpy"]) as runner:
        result = runner.run(path, where=None)   # what RUNNER below reports, as a dict
"""
import json
import subprocess

# The server, run by the given Python: reads one JSON request per line ({"path", "where",
# "timeout"}), answers one JSON line per request, in order.
SERVER = r"""
import json, os, runpy, signal, sys, time, traceback
for name in sys.argv[1:]:
    __import__(name)

def child(path, where, w):
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.chdir(os.path.dirname(os.path.abspath(path)))
    sys.argv = [path]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        runpy.run_path(path, run_name="__main__")
        result = {"ok": True}
    except BaseException as e:
        frames = [f for f in traceback.extract_tb(e.__traceback__)
                  if os.path.abspath(f.filename) == os.path.abspath(where)]
        line = frames[-1].lineno if frames else None
        result = {"ok": False, "line": line, "type": type(e).__name__,
                  "message": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}
    with os.fdopen(w, "w") as f:
        json.dump(result, f)

def serve(req):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            child(req["path"], req.get("where") or req["path"], w)
        finally:
            os._exit(0)
    os.close(w)
    deadline = time.monotonic() + req.get("timeout", 120)
    while True:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(r)
            return {"ok": False, "line": None, "type": "timeout",
                    "message": f"timed out after {req.get('timeout', 120)} s"}
        time.sleep(0.002)
    with os.fdopen(r) as f:
        text = f.read()
    if not text:
        return {"ok": False, "line": None, "type": "harness", "message": "the program's process died"}
    return json.loads(text)

for line in sys.stdin:
    print(json.dumps(serve(json.loads(line))), flush=True)
"""


class ForkRunner:
    def __init__(self, python, preload=("numpy",)):
        self.proc = subprocess.Popen([python, "-c", SERVER, *preload], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def run(self, path, where=None, timeout=120):
        """Run `path` as __main__ (working directory: its own); the failing line is the last
        frame in `where` (default: `path` itself)."""
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
