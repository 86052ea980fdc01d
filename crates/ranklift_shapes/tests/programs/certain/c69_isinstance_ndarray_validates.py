# `isinstance(X, np.ndarray)` is decided for an array: the validation below it passes, and the
# finite difference that follows mixes a row slice with a column slice (pydmd's
# `differentiate` with `X[2:]` for `X[:, 2:]`).
import numpy as np


def differentiate(X, dt):
    if not isinstance(X, np.ndarray) or X.ndim > 2:
        raise ValueError("Please ensure that input data is a 1D or 2D array.")
    if X.ndim == 1:
        X = X[None]
    X_prime = np.empty(X.shape)
    X_prime[:, 1:-1] = (X[2:] - X[:, :-2]) / (2 * dt)
    return X_prime


print(differentiate(np.random.default_rng(5).normal(size=(30, 12)), 0.1).shape)
