"""Shapes real packages rely on (each was a false alarm on scikit-learn or statsmodels)."""
import numpy as np

# A distribution with array parameters draws one value per element (statsmodels tests).
mu = np.exp(np.linspace(0.0, 1.0, 20))
y = np.random.poisson(mu)
nobs = len(y)
counts = np.random.binomial(np.full(5, 10), 0.5)
assert counts.shape == (5,)

# np.array of a range has one element per integer.
x = np.array(range(1, 101)).reshape((20, 5))
assert x.shape == (20, 5)


# A reshape whose dims come from a starred tuple (scikit-learn's GaussianProcessRegressor).
def undo_normalisation(y_cov, std):
    y_cov = np.outer(y_cov, std ** 2).reshape(*y_cov.shape, -1)
    if y_cov.shape[2] == 1:
        y_cov = np.squeeze(y_cov, axis=2)
    return y_cov


assert undo_normalisation(np.ones((3, 3)), np.ones(1)).shape == (3, 3)

# An object array holds one tuple per element.
expected = np.empty(3, dtype=object)
expected[:] = [(1, 2), (1, 2), (1, 1)]

# Elements of an object array, selected by an index from elsewhere, are whatever was stored.
buckets = np.empty(3, dtype=object)
for i in range(3):
    buckets[i] = []
for col, d in [(0, 1.0), (2, 3.0)]:
    buckets[col].append(d)
