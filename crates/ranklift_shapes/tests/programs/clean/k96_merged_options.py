"""A solver merges its defaults with the caller's options (`{**DEFAULTS, **options}`), checks
the basis it is given only when it declares an order (`hasattr`), and stacks the levels of a
grid coarsest first (`levels.insert(0, ...)`); the finest level's weights are built for its size."""

import numpy as np

DEFAULTS = {"size": 64, "levels": 3}


class Basis:
    def __init__(self, order):
        self.order = order


def solve(basis, **options):
    options = {**DEFAULTS, **options}
    if not hasattr(basis, "order"):
        raise TypeError("the basis must declare its order")
    size = options["size"]
    levels = [np.zeros((size, basis.order))]
    for _ in range(options["levels"] - 1):
        size //= 2
        levels.insert(0, np.zeros((size, basis.order)))
    weights = np.ones(levels[-1].shape[0])
    return weights @ levels[-1]


print(solve(Basis(4), size=32).shape)
