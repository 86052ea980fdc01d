# Advanced indices broadcast into one dimension: in place when adjacent, first when a slice
# separates them (NumPy's rule), with integers as 0-d indices.
import numpy as np

P = np.random.default_rng(1).random((5, 3))
y = np.array([0, 2, 1, 1, 0])
picked = P[range(5), y] + np.ones(5)
a = np.zeros((2, 3, 4))
front = a[0, :, [1, 2]] + np.ones((2, 3))
inplace = a[:, 0, [1, 2]] + np.ones((2, 2))
pairs = a[[0, 1], [2, 0]] + np.ones((2, 4))
cols = a[:, range(3), range(3)] + np.ones((2, 3))
print(picked.shape, front.shape, inplace.shape, pairs.shape, cols.shape)
