# A call with a keyword the function does not take (or too many positional arguments) raises
# TypeError before the function's body runs: the mismatch inside the body is never reached
# (statsmodels' `approx_hess_cs(x, f, eps, h=1e-20)` in a `__main__` block). Each call is in a
# `try` so that the program runs to its end.
import numpy as np


def step(x, epsilon=None):
    return np.asarray(x) + np.zeros((2, 3)) * np.asarray(epsilon)


try:
    step(np.ones(5), epsilon=1e-3, h=1e-20)
except TypeError:
    pass
try:
    step(np.ones(5), 1e-3, 2)
except TypeError:
    pass
print(step(np.ones(3), 1e-3).shape)
