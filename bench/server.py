#!/usr/bin/env python3
"""Latency of `ranklift server` on a 5,000-line file.

Generates bench/gen_shapes_programs.py's straight.py (5,000 lines of NumPy), starts
`ranklift server` over stdio, opens the file, then measures, as an editor sees it, the time from
sending `textDocument/didChange` to receiving its `publishDiagnostics`:

- code edits (the constant of the last line changed: the whole file is analysed again);
- comment edits (no code token changes: the last findings are moved, nothing is analysed);

against the baseline measured in the same run: one `ranklift shapes FILE` process (what an
editor integration that runs the CLI on each change pays). Medians of RUNS edits each.

Then a batch: one `didChange` carrying 20,000 range edits on a 315 kB document (an editor's
multi-cursor replace, or a hostile client), timed until the server answers the request sent
right behind it, against the same request after a one-edit change (target: under a second).

Usage: bench/server.py [--bin target/release/ranklift] [--runs 30]
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def send(p, msg):
    body = json.dumps(msg).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    p.stdin.flush()


def read(p):
    length = None
    while True:
        line = p.stdout.readline()
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(p.stdout.read(length))


def wait_diagnostics(p, uri):
    while True:
        m = read(p)
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
            return m["params"]["diagnostics"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(HERE.parent / "target/release/ranklift"))
    ap.add_argument("--runs", type=int, default=30)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([sys.executable, str(HERE / "gen_shapes_programs.py"), d], check=True)
        path = Path(d) / "straight.py"
        # A last line whose digit the code edits change (the shapes stay as they are).
        text = path.read_text() + "knob = 0\n"
        path.write_text(text)
        lines = text.count("\n")
        uri = f"file://{path}"
        # Baseline: the CLI on the same file, one process per change.
        cli = []
        for _ in range(a.runs):
            t = time.perf_counter()
            subprocess.run([a.bin, "shapes", "--isolated", str(path)], capture_output=True)
            cli.append(time.perf_counter() - t)
        p = subprocess.Popen([a.bin, "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        send(p, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"processId": None, "capabilities": {}}})
        read(p)
        send(p, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        t = time.perf_counter()
        send(p, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": text}}})
        first = wait_diagnostics(p, uri)
        open_ms = (time.perf_counter() - t) * 1000
        knob = lines - 1
        version = 1

        def change(rng, new):
            nonlocal version
            version += 1
            t = time.perf_counter()
            send(p, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": rng, "text": new}]}})
            ds = wait_diagnostics(p, uri)
            return (time.perf_counter() - t) * 1000, ds

        code, comment = [], []
        for i in range(a.runs):
            # `knob = 0` -> `knob = 1`... (below the i comment lines added so far).
            line = knob + i
            rng = {"start": {"line": line, "character": 7}, "end": {"line": line, "character": 8}}
            ms, ds = change(rng, str((i + 1) % 10))
            code.append(ms)
            assert len(ds) == len(first), (ds, first)
            at = {"line": 0, "character": 0}
            ms, ds = change({"start": at, "end": at}, f"# edit {i}\n")
            comment.append(ms)
            assert len(ds) == len(first)
        send(p, {"jsonrpc": "2.0", "id": 2, "method": "ranklift/stats", "params": None})
        stats = read(p)["result"]
        # The batch, on a document of comments (its analysis is trivial: the edits are timed).
        big_uri = f"file://{d}/big.py"
        big = ("# " + "x" * 60 + "\n") * 5000
        send(p, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": big_uri, "languageId": "python", "version": 1, "text": big}}})

        def batch(n, rid):
            edits = [{"range": {"start": {"line": i % 5000, "character": 3},
                                "end": {"line": i % 5000, "character": 4}}, "text": "y"} for i in range(n)]
            t = time.perf_counter()
            send(p, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": big_uri, "version": rid}, "contentChanges": edits}})
            send(p, {"jsonrpc": "2.0", "id": rid, "method": "ranklift/stats", "params": None})
            while read(p).get("id") != rid:
                pass
            return (time.perf_counter() - t) * 1000

        one_edit = batch(1, 100)
        many_edits = batch(20000, 101)
        send(p, {"jsonrpc": "2.0", "id": 3, "method": "shutdown", "params": None})
        read(p)
        send(p, {"jsonrpc": "2.0", "method": "exit", "params": None})
        p.wait(timeout=10)
    med = statistics.median
    print(f"file: {lines} lines; {a.runs} edits of each kind; analyses {stats['analyses']}, "
          f"reused {stats['reused']}")
    print(f"open (first analysis):           {open_ms:8.1f} ms")
    print(f"code edit -> diagnostics:        {med(code):8.1f} ms (median)")
    print(f"comment edit -> diagnostics:     {med(comment):8.1f} ms (median)")
    print(f"baseline, `ranklift shapes FILE`: {med([x * 1000 for x in cli]):8.1f} ms (median, one process)")
    print(f"code edit / CLI: {med(code) / (med(cli) * 1000):.2f}; "
          f"comment edit / CLI: {med(comment) / (med(cli) * 1000):.2f}")
    print(f"didChange of 20,000 edits on 315 kB -> answered: {many_edits:8.1f} ms "
          f"(one edit: {one_edit:.1f} ms; ratio {many_edits / one_edit:.1f})")


if __name__ == "__main__":
    main()
