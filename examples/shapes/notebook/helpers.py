import numpy as np


def make_batch(n):
    """n samples of 3 features."""
    return np.zeros((n, 3))
