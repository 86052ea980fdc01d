"""Comprehension variables inside functions (list, generator, dict, set): bound while the
comprehension runs, not names of the function (real-code false alarm: W201 on `y`)."""
import numpy as np


def layers(sizes):
    return [np.random.randn(y, 1) for y in sizes]


def total(xs):
    return sum(v * v for v in xs)


def index(names):
    return {n: i for i, n in enumerate(names)}, {len(m) for m in names}


weights = layers([3, 4, 5])
print(len(weights), weights[1].shape, total([1, 2, 3]), index(["a", "bb"]))
