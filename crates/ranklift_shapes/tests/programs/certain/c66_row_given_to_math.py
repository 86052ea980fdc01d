# An index that lost an axis hands a `math` function a row: `math.atan2(M[k], M[k, k])` for
# `M[k, j]` (an Euler-angle decomposition, as in transforms3d). `math` converts each argument
# to one number, and a 3-element array cannot be: TypeError.
import math

import numpy as np


def euler_from_matrix(matrix):
    M = np.asarray(matrix, dtype=np.float64)[:3, :3]
    i, j, k = 0, 1, 2
    cy = math.sqrt(M[i, i] * M[i, i] + M[j, i] * M[j, i])
    ax = math.atan2(M[k], M[k, k])
    ay = math.atan2(-M[k, i], cy)
    az = math.atan2(M[j, i], M[i, i])
    return ax, ay, az


print(euler_from_matrix(np.eye(4)))
