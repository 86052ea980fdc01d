#!/usr/bin/env python3
"""Generate the three benchmark programs of bench/shapes.sh into DIR:

- straight.py: 5,000 lines of straight-line NumPy code (constructors, broadcasting, dot, @,
  reshape, transpose, reductions) over 20 live arrays;
- calls.py: 200 functions in a call chain of depth 200 (each calls the one before it and a shared
  helper), then a call of the last one, whose result is used wrongly (one W504 at the end:
  found only if the shapes survive all 200 calls);
- branches.py: 200 sequential `if`s on unknown conditions, each changing some of 20 arrays, so
  every `if` ends in a join of 20 live variables.

Every program is valid NumPy code (it runs without error when the conditions are booleans).
Usage: gen_shapes_programs.py DIR
"""
import os
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
N = 20

lines = ["import numpy as np"]
for i in range(N):
    lines.append(f"a{i} = np.ones(({i % 5 + 2}, {i % 3 + 3}))")
k = 0
while len(lines) < 5000:
    i, j = k % N, (k * 7 + 3) % N
    r, c = i % 5 + 2, i % 3 + 3
    form = k % 8
    if form == 0:
        lines.append(f"t{k} = a{i} + np.zeros(({c},))")
    elif form == 1:
        lines.append(f"t{k} = a{i}.dot(np.ones(({c}, 4)))")
    elif form == 2:
        lines.append(f"t{k} = a{i}.T @ a{i}")
    elif form == 3:
        lines.append(f"t{k} = a{i}.reshape(-1, {c}).sum(axis=0)")
    elif form == 4:
        lines.append(f"t{k} = np.concatenate([a{i}, a{i}], axis=0)")
    elif form == 5:
        lines.append(f"t{k} = (a{i} * 2.0 - 1.0).mean(axis=1, keepdims=True)")
    elif form == 6:
        lines.append(f"a{i} = np.tanh(a{i}) + a{i}[0]")
    else:
        lines.append(f"t{k} = np.transpose(a{i})[:, 1:]")
    k += 1
open(os.path.join(out, "straight.py"), "w").write("\n".join(lines) + "\n")

lines = ["import numpy as np", "", "", "def helper(x):", "    return x.sum(axis=0)", "", "",
         "def f0(x):", "    return x + 1.0", ""]
for i in range(1, 200):
    lines += ["", f"def f{i}(x):", f"    y = f{i - 1}(x) @ np.eye(4)",
              "    return y + helper(y)", ""]
lines += ["", "out = f199(np.ones((3, 4)))", "bad = out @ np.ones((3, 3))"]
open(os.path.join(out, "calls.py"), "w").write("\n".join(lines) + "\n")

lines = ["import numpy as np", "from conditions import cond"]
for i in range(N):
    lines.append(f"a{i} = np.ones(({i % 4 + 2}, 3))")
for k in range(200):
    i, j = k % N, (k * 3 + 1) % N
    lines += [f"if cond({k}):", f"    a{i} = a{i} + 1.0", f"    a{j} = a{j} * a{j}",
              "else:", f"    a{i} = a{i} - np.zeros((3,))"]
lines.append("total = a0 @ np.ones((3, 2))")
open(os.path.join(out, "branches.py"), "w").write("\n".join(lines) + "\n")
