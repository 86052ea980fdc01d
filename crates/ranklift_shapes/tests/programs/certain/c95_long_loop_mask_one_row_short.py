# Range counting over 199 templates: each later row is kept when its spread is small, but the
# mask (built from the rows after k) indexes all the rows; fails at k = 0 of a long loop.
import numpy as np


def range_matches(signal, m, r):
    n = signal.shape[0] - m
    emb = np.zeros((n, m + 1))
    for k in range(m + 1):
        emb[:, k] = signal[k:n + k]
    counts = np.zeros(n, dtype=int)
    for k in range(n - 1):
        diff = np.abs(np.tile(emb[k, :-1], (n - (k + 1), 1)) - emb[k + 1:, :-1])
        keep = (diff.max(axis=1) - diff.min(axis=1)) <= r
        counts[k] = emb[:, :][keep, :].shape[0]
    return counts


print(range_matches(np.cos(np.linspace(0.0, 20.0, 201)), 2, 0.3))
