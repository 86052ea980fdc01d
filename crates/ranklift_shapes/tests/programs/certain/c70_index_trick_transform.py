# A homogeneous transform assembled with `np.r_` / `np.c_` (Modern Robotics' `RpToTrans`) with
# the bottom row one entry short: `np.r_` concatenates a (3, 4) block and a (1, 3) row.
import numpy as np


def rp_to_trans(R, p):
    return np.r_[np.c_[R, p], [[0, 0, 1]]]


R = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
print(rp_to_trans(R, np.array([1.0, 2.0, 5.0])))
