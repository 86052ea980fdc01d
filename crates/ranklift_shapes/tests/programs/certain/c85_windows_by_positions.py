# Embedding windows gathered with integer positions (`starts[:, None] + np.arange(m)`) have
# one row per start and one column per lag; the template they are compared with is one lag
# too long.
import numpy as np


def match_counts(signal, m, r):
    n = signal.shape[0]
    starts = np.arange(n - m)
    windows = signal[starts[:, None] + np.arange(m)]
    template = signal[: m + 1]
    distance = np.abs(windows - template).max(axis=1)
    return int((distance <= r).sum())


rng = np.random.default_rng(0)
match_counts(rng.standard_normal(300), 2, 0.2)
