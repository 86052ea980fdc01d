# A helper taking `*xs` called with three values, then with four: each call has its own result
# (the analysis once remembered the first call's array for both and reported a (3,) into (4,)
# broadcast that never happens).
import numpy as np


def vec(*xs):
    return np.array(xs, dtype=np.float64)


def compose(scale=None, perspective=None):
    M = np.identity(4)
    if perspective is not None:
        P = np.identity(4)
        P[3, :] = perspective[:4]
        M = M @ P
    if scale is not None:
        M = M @ np.diag(np.append(scale, 1.0))
    return M


print(compose(scale=vec(1.1, 0.9, 1.2), perspective=vec(0.0, 0.0, 0.0, 1.0)))
