import numpy as np


def make_weights(n_in, n_out):
    return np.random.randn(n_in, n_out) * 0.01
