"""Python stops at the first error: the two names statsmodels marks `noqa: F821` on consecutive
lines raise only once — the second line is never reached."""
import numpy as np


def pairs(n_means, triu=True):
    idx1, idx2 = np.triu_indices(n_means, 1)
    if triu:
        meandiffs = meandiffs_[idx1, idx2]  # noqa: F821
        std_pairs = std_pairs_[idx1, idx2]  # noqa: F821
        return meandiffs / std_pairs
    return None


pairs(3)
