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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
from fork_runner import fork_call  # noqa: E402


def run_text(text):
    """Run `text` as __main__ (call it in a fork): how it ended."""
    try:
        exec(compile(text, "<string>", "exec"), {"__name__": "__main__"})
        return {"ok": True}
    except SystemExit as e:
        return {"ok": e.code in (None, 0)}
    except BaseException as e:  # noqa: BLE001 - any exception is the program's outcome
        return {"ok": False, "error": "".join(traceback.format_exception(e))}


def run(text):
    return fork_call(run_text, text) or {"ok": False, "error": "the program's process died"}


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
