#!/usr/bin/env python3
"""`ranklift distribute` over real TensorFlow training code this project does not contain.

Point it at a checkout of public training code (a tutorial or model repository, fetched by hand:
CI has no access to GitHub, so this sweep is run locally and its numbers go into the closing
note). Each top-level directory is one program; a directory with several training scripts gets
one run per script (`--main`). Every run is static (`--diff`): it reports whether the program was
rewritten, refused (with which code), or crashed (a panic or an internal error is always a bug).

Usage: realworld_distribute.py --bin target/release/ranklift DIR [DIR ...]
"""
import argparse
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

CODE = re.compile(r"^\S+?(?::\d+:\d+)?: (DST\d+|RL\d+) ")


def run(binary, target, main=None):
    cmd = [binary, "distribute", "--diff", str(target)]
    if main:
        cmd += ["--main", main]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    out = p.stdout + p.stderr
    codes = [m.group(1) for line in out.splitlines() if (m := CODE.match(line))]
    if p.returncode not in (0, 1, 2) or "panicked" in out or "DST900" in codes:
        return "crash", codes, out
    if p.returncode == 0:
        return "rewritten", codes, out
    return "refused", codes, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("dirs", nargs="+", type=Path)
    args = ap.parse_args()
    rows = []
    for root in args.dirs:
        for program in sorted(p for p in root.iterdir() if p.is_dir() or p.suffix == ".py"):
            verdict, codes, out = run(args.bin, program)
            if "DST101" in codes:
                # Several training scripts: one run each, as a user would with --main.
                for script in sorted(program.glob("*.py")):
                    v, c, o = run(args.bin, program, script.name)
                    if "DST201" not in c:
                        rows.append((f"{program.name}/{script.name}", v, c, o))
                continue
            rows.append((program.name, verdict, codes, out))
    width = max(len(r[0]) for r in rows)
    for name, verdict, codes, out in rows:
        print(f"{name:{width}}  {verdict:9}  {' '.join(sorted(set(codes)))}")
        if verdict == "crash":
            print("    " + "\n    ".join(out.splitlines()[-8:]))
    tally = Counter(r[1] for r in rows)
    refusals = Counter(c for r in rows if r[1] == "refused" for c in set(r[2]))
    print(f"{len(rows)} programs: {tally['rewritten']} rewritten, {tally['refused']} refused "
          f"({', '.join(f'{c} x{n}' for c, n in sorted(refusals.items()))}), {tally['crash']} crashed")
    return 1 if tally["crash"] else 0


if __name__ == "__main__":
    sys.exit(main())
