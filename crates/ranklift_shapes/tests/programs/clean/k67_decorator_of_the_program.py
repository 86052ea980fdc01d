# The same decorator with the product the right way round, and validations that test a size's
# type (`isinstance(m, int)`, `type(idx) == int`): a Python int is an `int`, so the checks pass
# and the sizes stay known; a string index takes the other branch.
from functools import wraps

import numpy as np


def autoshape(func):
    def to_3d(v):
        if v.ndim == 1:
            return v[np.newaxis, :, np.newaxis]
        if v.ndim == 2:
            return v[np.newaxis, ...]
        return v

    @wraps(func)
    def wrapper(*args):
        return func(*[to_3d(a) for a in args])

    return wrapper


@autoshape
def predict(mean, covariance, transition):
    return np.matmul(transition, mean), covariance


def embed(sig, m=2, tau=1):
    assert isinstance(m, int) and m > 0, "m: must be an integer > 0"
    n = sig.shape[0]
    return np.hstack((m * np.ones(n - m * tau), np.repeat(np.arange(m - 1, 0, -1), tau)))


def color(idx):
    colors = {"red": "#f00", "blue": "#00f"}
    if type(idx) == int:
        return list(colors.values())[idx]
    return colors[idx]


print(predict(np.ones((4, 3, 1)), np.ones((4, 3, 3)), np.eye(3))[0].shape)
print(embed(np.ones(30), m=3).shape, color(1), color("red"))
