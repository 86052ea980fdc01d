# The same finite difference, right; and `isinstance` on what is not an array.
import numpy as np


def differentiate(X, dt):
    if not isinstance(X, np.ndarray) or X.ndim > 2:
        raise ValueError("Please ensure that input data is a 1D or 2D array.")
    if X.ndim == 1:
        X = X[None]
    X_prime = np.empty(X.shape)
    X_prime[:, 1:-1] = (X[:, 2:] - X[:, :-2]) / (2 * dt)
    return X_prime


print(differentiate(np.random.default_rng(5).normal(size=(30, 12)), 0.1).shape)
print(differentiate(np.linspace(0, 1, 9), 0.1).shape)
print(isinstance([1.0], np.ndarray), isinstance(3.0, (np.ndarray, list)), isinstance(None, np.ndarray))
