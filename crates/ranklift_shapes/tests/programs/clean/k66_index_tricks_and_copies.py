# `np.r_` / `np.c_` built right, copies that keep their shapes (numpy-ml's factorisation keeps
# `deepcopy(new_W)` of its best run), a method that may be missing handled by `except
# AttributeError` (stumpy's Polars fallback), a test on the type's name, and an attribute of one
# element of an object array (dynesty's `axes[0, 0].plot`).
import copy
from copy import deepcopy

import numpy as np


def rp_to_trans(R, p):
    return np.r_[np.c_[R, p], [[0, 0, 0, 1]]]


T = rp_to_trans(np.eye(3), np.array([1.0, 2.0, 5.0]))
print(T @ np.r_[np.ones(3), 1.0], np.r_[0:4, 9].shape, np.c_[np.ones(2), np.zeros(2)].shape)

best_W = deepcopy(np.ones((8, 3)))
best_H = copy.copy(np.ones((3, 6)))
print((best_W @ best_H).shape)


def preprocess(T, copy=True):
    if copy:
        try:
            T = T.copy()
        except AttributeError:
            T = T.clone()
    if "pandas" in str(type(T)):
        T = T.to_numpy(copy=True)
    return T


print(preprocess(np.arange(5.0)).shape)


class Axes:
    def plot(self, x):
        return len(x)


axes = np.empty((1, 1), dtype=object)
axes[0, 0] = Axes()
ax = np.asarray(axes).reshape(1, 1)[0, 0]
print(ax.plot([1, 2, 3]))
