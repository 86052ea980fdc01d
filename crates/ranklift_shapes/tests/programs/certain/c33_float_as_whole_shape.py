"""A float count as the whole shape: `L = nobs / ratio` is always a float in Python 3 (statsmodels'
diffusion simulation). NumPy rejects it with a message of its own when it is the whole shape."""
import numpy as np


def simulate(nobs=100, ratio=4, nrepl=2):
    steps = nobs / ratio
    first = np.zeros((nrepl, int(steps)))
    return np.zeros(steps) + first.sum()


simulate()
