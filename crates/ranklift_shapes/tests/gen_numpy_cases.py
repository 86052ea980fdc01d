#!/usr/bin/env python3
"""Record NumPy's own answer for every shape case the Rust tests check.

Usage: gen_numpy_cases.py OUT.json   (needs NumPy; the repository's copy was made with the NumPy
version recorded in the file). Each case names an operation and concrete shapes; the result is
NumPy's result shape, or the exception type and message it raises.
"""
import json
import sys

import numpy as np

Z = np.zeros


def cases():
    for a, b in [((2, 3), (3,)), ((2, 3), (3, 2)), ((4, 1), (1, 5)), ((2, 1, 3), (4, 1)), ((), (2, 2)),
                 ((3,), (4,)), ((1,), (7,)), ((2, 2, 4), (3, 1)), ((5, 1, 1), (1, 6, 1)), ((0, 3), (1, 3))]:
        yield {"op": "broadcast", "a": list(a), "b": list(b)}
    for a, b in [((3,), (3,)), ((3,), (4,)), ((2, 3), (3, 4)), ((2, 3), (4,)), ((2, 3), (3,)), ((3,), (3, 5)),
                 ((2, 3, 4), (5, 4, 6)), ((2, 3, 4), (5, 3, 6)), ((), (2, 3)), ((2, 3), ()), ((2, 3), (1, 2))]:
        yield {"op": "dot", "a": list(a), "b": list(b)}
    for a, b in [((2, 3), (3, 4)), ((2, 3), (4, 5)), ((3,), (3,)), ((5, 2, 3), (3,)), ((3,), (3, 4)),
                 ((7, 2, 3), (7, 3, 4)), ((1, 2, 3), (6, 3, 4)), ((), (3,)), ((3,), ()), ((4, 3), (3,))]:
        yield {"op": "matmul", "a": list(a), "b": list(b)}
    for a, new in [((2, 3), [6]), ((2, 3), [-1]), ((2, 3), [3, 2]), ((2, 3), [-1, 2]), ((2, 3), [4]),
                   ((2, 3), [-1, 4]), ((2, 3, 4), [4, -1]), ((2, 3), [-1, -1]), ((6,), [2, 3, 1]), ((), [1, 1]),
                   ((2, 3), [6, 1]), ((2, 3), [4, -1]), ((2, 3), [5, -1, 2]), ((2, 3), [2, 2, 2]),
                   ((2, 3), [-1, 4, 1]), ((784,), [27, -1])]:
        yield {"op": "reshape", "a": list(a), "newshape": new}
    for a, axes in [((2, 3), None), ((2, 3, 4), [2, 0, 1]), ((2, 3), [1, 1]), ((2, 3), [0]), ((2, 3), [0, 2]),
                    ((2, 3, 4), [-1, 0, 1])]:
        yield {"op": "transpose", "a": list(a), "axes": axes}
    for shapes, axis in [([(2, 3), (4, 3)], 0), ([(2, 3), (2, 4)], 1), ([(2, 3), (2, 4)], 0), ([(2, 3), (3,)], 0),
                         ([(2, 3), (2, 3)], 2), ([(2, 3), (2, 3), (2, 3)], -1)]:
        yield {"op": "concatenate", "shapes": [list(s) for s in shapes], "axis": axis}
    for shapes, axis in [([(2, 3), (2, 3)], 0), ([(2, 3), (2, 3)], 2), ([(2, 3), (2, 4)], 0), ([(2, 3), (2, 3)], 3),
                         ([(2, 3), (2, 3)], -1)]:
        yield {"op": "stack", "shapes": [list(s) for s in shapes], "axis": axis}
    for a, axis, keep in [((2, 3), None, False), ((2, 3), [1], False), ((2, 3), [0], True), ((2, 3), [2], False),
                          ((2, 3, 4), [0, 2], False), ((2, 3), [-1], True), ((2, 3), [0, 0], False)]:
        yield {"op": "sum", "a": list(a), "axis": axis, "keepdims": keep}
    for a, axis in [((2, 3), 0), ((2, 3), 2), ((2, 3), -1), ((2, 3), 3), ((2, 3), -4)]:
        yield {"op": "expand_dims", "a": list(a), "axis": axis}
    for a, axis in [((1, 2, 1), None), ((2, 3), 0), ((1, 3), 0), ((2, 1), -1), ((2, 3), 2)]:
        yield {"op": "squeeze", "a": list(a), "axis": axis}


def run(case):
    op = case["op"]
    if op == "broadcast":
        return Z(case["a"]) + Z(case["b"])
    if op == "dot":
        return np.dot(Z(case["a"]), Z(case["b"]))
    if op == "matmul":
        return np.matmul(Z(case["a"]), Z(case["b"]))
    if op == "reshape":
        return Z(case["a"]).reshape(case["newshape"])
    if op == "transpose":
        return np.transpose(Z(case["a"]), case["axes"])
    if op == "concatenate":
        return np.concatenate([Z(s) for s in case["shapes"]], axis=case["axis"])
    if op == "stack":
        return np.stack([Z(s) for s in case["shapes"]], axis=case["axis"])
    if op == "sum":
        axis = None if case["axis"] is None else tuple(case["axis"])
        return Z(case["a"]).sum(axis=axis, keepdims=case["keepdims"])
    if op == "expand_dims":
        return np.expand_dims(Z(case["a"]), case["axis"])
    if op == "squeeze":
        return np.squeeze(Z(case["a"]), axis=case["axis"])
    raise ValueError(op)


def main():
    out = []
    for case in cases():
        try:
            r = run(case)
            case["result"] = {"shape": list(np.shape(r))}
        except Exception as e:  # NumPy's exception is the expected result
            case["result"] = {"error": type(e).__name__, "message": str(e)}
        out.append(case)
    doc = {"numpy_version": np.__version__, "cases": out}
    with open(sys.argv[1], "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
