# `assert isinstance(m, int) and m > 0` validates a size: a Python int is an `int`, so the
# assertion passes and the embedding's sizes stay known — stacking rows of 297 and 2 values
# (EntropyHub's `SampEn` with `vstack` for `hstack`) fails.
import numpy as np


def embed(sig, m=2, tau=1):
    assert isinstance(m, int) and m > 0, "m: must be an integer > 0"
    n = sig.shape[0]
    return np.vstack((m * np.ones(n - m * tau), np.repeat(np.arange(m - 1, 0, -1), tau)))


print(embed(np.sin(np.linspace(0, 20, 300)), m=3).shape)
