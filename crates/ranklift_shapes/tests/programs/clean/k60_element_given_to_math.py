# `math` functions on single elements of an array, and on a one-element array (which converts):
# no error. The sizes they compute (`math.ceil`) are folded into array shapes.
import math

import numpy as np


def euler_from_matrix(matrix):
    M = np.asarray(matrix, dtype=np.float64)[:3, :3]
    i, j, k = 0, 1, 2
    cy = math.sqrt(M[i, i] * M[i, i] + M[j, i] * M[j, i])
    ax = math.atan2(M[k, j], M[k, k])
    ay = math.atan2(-M[k, i], cy)
    az = math.atan2(M[j, i], M[i, i])
    return ax, ay, az


print(euler_from_matrix(np.eye(4)))
print(math.sqrt(np.ones(1)[0]), float(np.ones((1, 1))[0, 0]), int(np.arange(3)[1]))
n_windows = math.ceil(10 / 4)
frames = np.zeros((n_windows, 4))
print((frames @ np.ones(4)).shape, np.ones(3) + np.zeros(n_windows))
