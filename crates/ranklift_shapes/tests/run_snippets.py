#!/usr/bin/env python3
"""Run Python programs given as text, each as `__main__` in a child forked from this process,
and say how each ended.

Usage: run_snippets.py [DIR_ON_SYS_PATH...] < programs.json   (a JSON list of program texts)
Prints a JSON list, one entry per program: {"ok": true} or {"ok": false, "error": the traceback
as Python prints it}.

NumPy (and torch, when a program imports it) is imported once here, before the forks: a fresh
interpreter per program spent most of its time importing them. Each child starts from this
process's state, so nothing one program imports or sets reaches the next.
"""
import json
import os
import sys
import traceback


def _child(text, w):
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    try:
        exec(compile(text, "<string>", "exec"), {"__name__": "__main__"})
        result = {"ok": True}
    except SystemExit as e:
        result = {"ok": e.code in (None, 0)}
    except BaseException as e:  # noqa: BLE001 - any exception is the program's outcome
        result = {"ok": False, "error": "".join(traceback.format_exception(e))}
    with os.fdopen(w, "w") as out:
        json.dump(result, out)


def run(text):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            _child(text, w)
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        out = f.read()
    os.waitpid(pid, 0)
    return json.loads(out) if out else {"ok": False, "error": "the program's process died"}


def main():
    sys.path[:0] = sys.argv[1:]
    programs = json.load(sys.stdin)
    # Imported once, before the forks, when a program needs them.
    if any("numpy" in p for p in programs):
        import numpy  # noqa: F401
    if any("import torch" in p for p in programs):
        import torch  # noqa: F401
    print(json.dumps([run(p) for p in programs]))


if __name__ == "__main__":
    main()
